"""Fuzzing ``merge_solution``: in-range arguments give h in [0, 1] and a
weight degradation that matches g(h) evaluated in numpy (and is no worse
than the endpoints up to the method's precision); anything else is a
ValueError / TypeError."""

from __future__ import annotations

import numpy as np
import pytest
from .fuzzing import call, examples
from hypothesis import given
from hypothesis import strategies as st

from budgetsvm import merge_solution

ODD = [np.nan, np.inf, -np.inf, -0.5, 1.5, 0.0, 1e-320, "0.5", None, True, 2**64, 10**400]


def wd_of(m, kappa, h):
    g = m * kappa ** ((1 - h) ** 2) + (1 - m) * kappa ** (h**2)
    return m**2 + (1 - m) ** 2 + 2 * m * (1 - m) * kappa - g**2


@examples(400)
@given(
    st.one_of(st.floats(0.0, 1.0), st.sampled_from(ODD)),
    st.one_of(st.floats(1e-300, 1.0), st.sampled_from(ODD)),
    st.sampled_from(["gss", "lookup-h", "lookup-wd", "x", None]),
    st.one_of(st.sampled_from([1e-12, 1e-6, 0.01, 0.5]), st.sampled_from(ODD + [1.0, 1e-13])),
    st.one_of(st.sampled_from([2, 10, 400]), st.sampled_from([0, 1, 3, -2, 100_002, 2**31, 2.0, None])),
)
def test_merge_solution(m, kappa, method, eps, grid):
    result, error = call(merge_solution, m, kappa, method=method, eps=eps, grid=grid)
    if error is not None:
        return
    h, wd = result
    assert isinstance(h, float) and isinstance(wd, float)
    assert 0.0 <= h <= 1.0 and np.isfinite(wd) and wd >= -1e-12
    m, kappa = float(m), float(kappa)
    best_endpoint = min(wd_of(m, kappa, 0.0), wd_of(m, kappa, 1.0))
    if method == "gss":
        # the degradation of the returned h, and never worse than an endpoint
        assert abs(wd - max(wd_of(m, kappa, h), 0.0)) <= 1e-9
        assert wd <= best_endpoint + 1e-9
    else:  # interpolated tables: a coarse grid is coarse, but WD is bounded by 1
        assert wd <= 1.0 + 1e-9


@pytest.mark.parametrize("name", ["m", "kappa", "eps"])
def test_huge_int_is_a_value_error(name):
    args = dict(m=0.5, kappa=0.5, eps=0.01)
    args[name] = 10**400
    with pytest.raises(ValueError, match=name):
        merge_solution(args["m"], args["kappa"], eps=args["eps"])


def test_grid_beyond_int32_is_a_value_error():
    with pytest.raises(ValueError, match="grid"):
        merge_solution(0.5, 0.5, grid=2**31)
