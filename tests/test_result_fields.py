"""Results cross to Python through the C++ structs' field tables
(core/fields.hpp): ``_core.fields(name)`` names the keys of each result
dict, and the Python key lists are built from it, not typed again."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.datasets import make_classification

from budgetsvm import _core, _data
from budgetsvm.budgeted import TOTAL_KEYS, BudgetedSVC
from budgetsvm.estimators import _budget_model, _ovo

X, Y = make_classification(n_samples=120, n_features=5, n_informative=3, n_classes=3, random_state=0)
PARAMS = {"budget": 15, "epochs": 2, "gamma": 0.3, "seed": 1}


def _budgeted(callback=None):
    return _core.fit_budgeted(_data.core_view(X), Y.astype(np.int32), 3, dict(PARAMS), callback)


def test_budget_results_have_the_keys_of_their_field_tables():
    epochs = []
    result = _budgeted(lambda stats: epochs.append(stats))
    assert tuple(result) == _core.fields("budget.Result")
    assert [tuple(s) for s in epochs] == [_core.fields("budget.EpochStats")] * 2
    assert [tuple(s) for s in result["history"]] == [_core.fields("budget.EpochStats")] * 2
    counters = _core.fields("budget.Counters")
    # the counters stand in the epoch and run results in place of their totals
    for keys in (_core.fields("budget.Result"), _core.fields("budget.EpochStats")):
        assert "totals" not in keys
        start = keys.index(counters[0])
        assert keys[start : start + len(counters)] == counters

    binary = np.where(Y == 0, 0, 1).astype(np.int32)
    shard = _core.bsca_shard_round(
        _data.core_view(X), binary, dict(PARAMS, solver="bsca"), None, np.zeros(len(Y)), float(len(Y)), 1, 2
    )
    assert tuple(shard) == _core.fields("budget.Result") + ("alpha",)
    part = {key: result[key] for key in ("support_vectors", "dual_coef", "intercept")}
    mixed = _core.mix_budgeted([dict(part, weight=1.0, steps=1), dict(part, weight=1.0, steps=1)], dict(PARAMS))
    assert tuple(mixed) == _core.fields("budget.Result")


def test_exact_results_have_the_keys_of_their_field_tables():
    y = np.where(Y == 0, 1.0, -1.0)
    binary = _core.fit_exact(_data.core_view(X), y, {"kernel": "rbf", "gamma": 0.3})
    assert tuple(binary) == _core.fields("exact.ExactResult")
    rows = np.argsort(Y, kind="stable").astype(np.int64)
    start = np.concatenate([[0], np.cumsum(np.bincount(Y))]).astype(np.int64)
    ovo = _core.fit_exact_ovo(_data.core_view(X), rows, start, {"kernel": "rbf", "gamma": 0.3}, np.ones(3))
    assert tuple(ovo) == _core.fields("exact.OvoResult")
    pairs = _core.fields("exact.PairReports")
    assert _core.fields("exact.OvoResult")[-len(pairs) :] == pairs
    assert all(len(ovo[key]) == 3 for key in pairs)  # one entry per pair of the three classes
    # a pair reports what a binary fit does, but alpha, and converged for status
    assert pairs == tuple(
        "converged" if key == "status" else key for key in _core.fields("exact.ExactResult") if key != "alpha"
    )


def test_linear_statistics_have_the_keys_of_their_field_table():
    _, _, stats = _core.fit_linear(
        _data.core_view(X), Y.astype(np.int32), 3, np.ones(3), np.ones(len(Y)), {}
    )
    assert [tuple(s) for s in stats] == [_core.fields("linear.Stats")] * 3


def test_unknown_result_is_a_value_error_that_lists_the_results():
    with pytest.raises(ValueError, match=r"no result called 'budget\.Countrs'.*'budget\.Counters'"):
        _core.fields("budget.Countrs")


def test_python_key_lists_are_built_from_the_field_tables():
    # the public value is what it always was ...
    assert TOTAL_KEYS == (
        "steps", "sv_added", "merges", "removals", "projections", "maintenance_seconds",
        "merge_degradation", "merge_partner_weight", "seconds",
    )
    # ... and comes from the core's counters, as do the SVC's report keys
    assert TOTAL_KEYS == _core.fields("budget.Counters") + ("seconds",)
    assert _budget_model.TOTAL_KEYS is TOTAL_KEYS
    assert _ovo.REPORT_KEYS == tuple(key for key in _core.fields("exact.ExactResult") if key != "alpha")
    model = BudgetedSVC(budget=15, epochs=1, random_state=0).fit(X, Y)
    assert tuple(model.fit_stats_)[: len(TOTAL_KEYS)] == TOTAL_KEYS


def test_dask_counter_keys_are_the_core_counters():
    pytest.importorskip("dask")
    from budgetsvm.estimators import _dask_tasks

    assert _dask_tasks.COUNTER_KEYS == _core.fields("budget.Counters")
