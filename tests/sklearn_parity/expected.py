"""Expected differences between budgetsvm and scikit-learn's own SVM tests.

Each entry is a test function of ``sklearn/svm/tests/test_svm.py`` that is
expected to fail against our ``SVC`` / ``LinearSVC``, with the reason; they
run as strict xfails, so a test that starts to pass fails the run until its
entry is removed. A value may also be a dict from a substring of the
parametrised test id to the reason, for differences in some parameter sets
only. Written for scikit-learn >= 1.9, < 1.10 (run.py refuses others).
"""

EXPECTED_DIFFERENCES: dict = {}
