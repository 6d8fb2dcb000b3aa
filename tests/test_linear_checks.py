"""scikit-learn's estimator checks for budgetsvm.LinearSVC."""

from __future__ import annotations

from sklearn.utils.estimator_checks import parametrize_with_checks

from budgetsvm import LinearSVC

# Checks expected to fail, with the reason (the dict is handed to
# parametrize_with_checks; xfail_strict makes an unexpected pass an error).
_TOLERANCE = (
    "repeating a sample and doubling its weight give the same optimum, but the dual "
    "iterates differ; the solutions agree to the stopping tolerance (tol=1e-3), not to "
    "the check's rtol=1e-7 (scikit-learn's LinearSVC lists the same failure)"
)
EXPECTED_FAILURES: dict = {
    "check_sample_weight_equivalence_on_dense_data": _TOLERANCE,
    "check_sample_weight_equivalence_on_sparse_data": _TOLERANCE,
}
_CLASS_WEIGHT = (
    "the check sets max_iter=1000 on a 3-class problem with C_i = 1000 on unscaled data "
    "(std 20): we honour the limit and warn (ConvergenceWarning, an error under this "
    "suite's warning filter); the predictions themselves pass the check"
)


def _expected_failed_checks(estimator):
    failures = dict(EXPECTED_FAILURES)
    if estimator.loss == "squared_hinge":
        failures["check_class_weight_classifiers"] = _CLASS_WEIGHT
    return failures


@parametrize_with_checks(
    [LinearSVC(random_state=0), LinearSVC(loss="hinge", selection="avsf", random_state=0)],
    expected_failed_checks=_expected_failed_checks,
)
def test_sklearn_compatible(estimator, check):
    check(estimator)
