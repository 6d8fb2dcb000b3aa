"""scikit-learn's estimator checks for budgetsvm.SVC."""

import pytest
from sklearn.utils.estimator_checks import parametrize_with_checks

from budgetsvm import SVC

# Integer sample weights are exactly equivalent to repeated samples in the
# C-SVM dual (cpp/tests/test_exact.cpp checks it at a tight tol); the check
# compares decision values at rtol 1e-7 while the solvers stop at tol=1e-3
# (and Platt's cross-validation folds differ with repeated rows).
# scikit-learn lists the same two checks as expected failures of its SVC.
_WEIGHT_EQUIVALENCE = "equal only to the solver tolerance (tol=1e-3), not to the check's rtol 1e-7"
EXPECTED_FAILURES = {
    "check_sample_weight_equivalence_on_dense_data": _WEIGHT_EQUIVALENCE,
    "check_sample_weight_equivalence_on_sparse_data": _WEIGHT_EQUIVALENCE,
}


def _expected_failures(estimator):
    return EXPECTED_FAILURES


# SVC(probability=True) warns FutureWarning in fit (the parameter is deprecated as in scikit-learn 1.9)
@pytest.mark.filterwarnings("ignore:The `probability` parameter:FutureWarning")
@parametrize_with_checks(
    [
        SVC(random_state=0),
        SVC(kernel="precomputed", random_state=0),
        SVC(solver="smo", random_state=0),
        SVC(solver="alfpgm", random_state=0),  # the default (auto) runs SMO on the checks' small data
        SVC(probability=True, random_state=0),
    ],
    expected_failed_checks=_expected_failures,
)
def test_sklearn_compatible(estimator, check):
    check(estimator)
