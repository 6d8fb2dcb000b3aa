"""The merge sub-problem through ``_core.merge_solution`` against brute force
and the golden values of ``tests/fixtures/merge_golden.csv`` (written by
the brute-force script beside it)."""

from __future__ import annotations

import functools
import math

import numpy as np
import pytest

from budgetsvm import _core

from conftest import fixture_path

TOLERANCE = {"gss": 5e-4, "lookup-h": 5e-4, "lookup-wd": 5e-5}


@functools.lru_cache(maxsize=None)
def brute_force_wd(m: float, kappa: float) -> float:
    """min over h of WD(m, kappa), by evaluating g on a fine grid of h."""
    h = np.linspace(0.0, 1.0, 200001)
    with np.errstate(divide="ignore"):
        g = m * np.power(kappa, (1 - h) ** 2) + (1 - m) * np.power(kappa, h**2)
    best = g.max()
    return m * m + (1 - m) ** 2 + 2 * m * (1 - m) * kappa - best * best


def wd_at(m: float, kappa: float, h: float) -> float:
    g = m * kappa ** ((1 - h) ** 2) + (1 - m) * kappa ** (h * h)
    return m * m + (1 - m) ** 2 + 2 * m * (1 - m) * kappa - g * g


POINTS = [
    (m, kappa)
    for m in (0.0, 0.02, 0.1, 0.3, 0.45, 0.499, 0.5, 0.501, 0.7, 0.93, 1.0)
    # includes the bimodal corner kappa < e^-2 and kappa = e^-2 itself
    for kappa in (0.0, 1e-5, 0.004, 0.03, 0.09, math.exp(-2), 0.2, 0.5, 0.8, 0.97, 1.0)
]


@pytest.mark.parametrize("method", ["gss", "lookup-h", "lookup-wd"])
def test_every_method_is_close_to_brute_force(method):
    worst = 0.0
    for m, kappa in POINTS:
        h, wd = _core.merge_solution(m, kappa, method)
        assert 0.0 <= h <= 1.0
        ref = brute_force_wd(m, kappa)
        worst = max(worst, abs(wd - ref))
        if method != "lookup-wd":
            # wd is the weight degradation of the merge at the returned h
            assert wd == pytest.approx(wd_at(m, kappa, h), abs=1e-12)
            assert wd >= ref - 1e-9
        else:
            # the merge lookup-wd applies (at its h) is as good as lookup-h's
            assert abs(wd_at(m, kappa, h) - ref) <= TOLERANCE["lookup-h"]
    assert worst <= TOLERANCE[method]


def test_golden_values():
    path = fixture_path("merge_golden.csv")
    rows = np.loadtxt(path, delimiter=",", comments="#", skiprows=6)
    assert rows.shape[1] == 5 and len(rows) > 300
    for method, tol in TOLERANCE.items():
        errors = [abs(_core.merge_solution(m, k, method)[1] - wd) for m, k, _, _, wd in rows]
        assert max(errors) <= tol, method


def test_golden_values_are_reproducible():
    # the fixture is what its script computes, not a stale dump
    import importlib.util

    spec = importlib.util.spec_from_file_location("make_merge_golden", fixture_path("make_merge_golden.py"))
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    rows = np.loadtxt(fixture_path("merge_golden.csv"), delimiter=",", comments="#", skiprows=6)
    assert len(rows) == len(script.M_VALUES) * len(script.KAPPA_VALUES)
    for m, kappa, _, _, wd in rows[::37]:
        assert script.solve(m, kappa)[2] == pytest.approx(wd, abs=1e-14)


def test_symmetry_and_the_jump_at_one_half():
    for m, kappa in POINTS:
        if m == 0.5:
            continue  # both h* and 1 - h* are optimal there in the bimodal corner
        h1, wd1 = _core.merge_solution(m, kappa, "lookup-h")
        h2, wd2 = _core.merge_solution(1 - m, kappa, "lookup-h")
        assert h2 == pytest.approx(1 - h1, abs=1e-12)
        assert wd2 == pytest.approx(wd1, abs=1e-12)
    # h* jumps across m = 1/2 when kappa < e^-2; WD does not
    assert _core.merge_solution(0.49, 0.05, "lookup-h")[0] < 0.3
    assert _core.merge_solution(0.51, 0.05, "lookup-h")[0] > 0.7
    wd_left = _core.merge_solution(0.4999, 0.05, "lookup-wd")[1]
    wd_right = _core.merge_solution(0.5001, 0.05, "lookup-wd")[1]
    assert wd_left == pytest.approx(wd_right, abs=1e-9)


def test_grid_and_eps_options():
    ref = brute_force_wd(0.3, 0.6)
    assert abs(_core.merge_solution(0.3, 0.6, "gss", eps=1e-6)[1] - ref) < 1e-9
    coarse = _core.merge_solution(0.3, 0.6, "lookup-wd", grid=40)[1]
    assert abs(coarse - ref) < 1e-3


@pytest.mark.parametrize(
    "kwargs",
    [
        {"m": -0.1, "kappa": 0.5},
        {"m": 1.2, "kappa": 0.5},
        {"m": 0.5, "kappa": -0.01},
        {"m": 0.5, "kappa": 1.5},
        {"m": float("nan"), "kappa": 0.5},
        {"m": 0.5, "kappa": 0.5, "method": "golden"},
        {"m": 0.5, "kappa": 0.5, "method": "gss", "eps": 0.0},
        {"m": 0.5, "kappa": 0.5, "grid": 401},
    ],
)
def test_bad_input(kwargs):
    with pytest.raises(ValueError):
        _core.merge_solution(**kwargs)
