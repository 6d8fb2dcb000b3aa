"""Generated classification problems for the scale and noise benchmarks.

Every family is a non-linear rule on a few of the features of a standard
normal (or uniform) design, with optional label noise (a fraction of the
labels flipped at random) and class imbalance (the rule's threshold moved so
that the positive class is a given fraction). Rows are generated in blocks
from one seed, so a 3M-row problem costs its own memory only (float32 by
default: 3M x 20 x 4 bytes = 240 MB) and the first n rows of a larger
problem are the smaller problem: ``make(family, 2_000_000)[:1_000_000]``
equals ``make(family, 1_000_000)``.

Families
--------
``xor20``    20 features ~ N(0, 1); score x0 x1 + sin(2 x2) + 0.5 (x3^2 - 1)
             + 0.3 x4 x5 x6 (every other feature is noise). gamma = 0.05.
``radial12`` 12 features ~ U(-1, 1); score 0.75 - ||x[:3]|| (a ball in three
             of the twelve dimensions). gamma = 0.2.
``xor120``   xor20's rule with 100 more noise features (120 ~ N(0, 1)):
             wide enough for the mix's dot products (>= 96 features).
             gamma = 0.05 / 6 (xor20's, for six times the squared distances).
``susy18``   18 features ~ N(0, 1) mixed by a fixed random rotation; score
             a smooth function of four projections. gamma = 2^-5. Its default
             noise (20%) mimics SUSY's Bayes error.

Used as::

    from datagen import make
    X, y = make("xor20", 1_000_000, noise=0.10, seed=0)          # float32, y in {-1, +1}
    Xt, yt = make("xor20", 100_000, noise=0.10, seed=0, test=True)  # independent test rows
"""

from __future__ import annotations

from typing import Tuple

import numpy as np

FAMILIES = {
    "xor20": dict(d=20, gamma=0.05, noise=0.10),
    "xor120": dict(d=120, gamma=0.05 / 6.0, noise=0.10),
    "radial12": dict(d=12, gamma=0.2, noise=0.0),
    "susy18": dict(d=18, gamma=2.0**-5, noise=0.20),
}

_BLOCK = 100_000
_TEST_STREAM = 7919  # test rows come from an independent stream of the same seed


def _score(family: str, X: np.ndarray) -> np.ndarray:
    if family in ("xor20", "xor120"):
        return X[:, 0] * X[:, 1] + np.sin(2.0 * X[:, 2]) + 0.5 * (X[:, 3] ** 2 - 1.0) + 0.3 * X[:, 4] * X[:, 5] * X[:, 6]
    if family == "radial12":
        return 0.75 - np.sqrt(np.sum(X[:, :3] ** 2, axis=1))
    if family == "susy18":
        R = np.linalg.qr(np.random.default_rng(12345).standard_normal((18, 18)))[0]
        P = X @ R[:, :4]
        return np.tanh(P[:, 0]) * P[:, 1] + 0.5 * np.cos(P[:, 2]) - 0.25 * P[:, 3] ** 2
    raise ValueError(f"unknown family {family!r}; expected one of {sorted(FAMILIES)}")


def _design(family: str, rng: np.random.Generator, n: int) -> np.ndarray:
    d = FAMILIES[family]["d"]
    if family == "radial12":
        return rng.uniform(-1.0, 1.0, size=(n, d))
    return rng.standard_normal((n, d))


def _threshold(family: str, positive_fraction: float) -> float:
    """The score quantile that leaves `positive_fraction` of rows positive
    (estimated once on 200k rows of a fixed stream; 0.5 keeps the rule's 0)."""
    if positive_fraction == 0.5:
        return 0.0
    rng = np.random.default_rng(2024)
    s = _score(family, _design(family, rng, 200_000))
    return float(np.quantile(s, 1.0 - positive_fraction))


def make(
    family: str,
    n: int,
    noise: float | None = None,
    seed: int = 0,
    positive_fraction: float = 0.5,
    test: bool = False,
    dtype=np.float32,
) -> Tuple[np.ndarray, np.ndarray]:
    """n rows of a family; labels in {-1, +1}, a `noise` fraction flipped.

    ``positive_fraction`` (0.1 for 1:9 imbalance) moves the rule's threshold;
    ``noise=None`` takes the family's default; ``test=True`` draws from an
    independent stream (a test set for the same problem).
    """
    if family not in FAMILIES:
        raise ValueError(f"unknown family {family!r}; expected one of {sorted(FAMILIES)}")
    noise = FAMILIES[family]["noise"] if noise is None else float(noise)
    d = FAMILIES[family]["d"]
    X = np.empty((n, d), dtype=dtype)
    y = np.empty(n, dtype=np.int8)
    for b, start in enumerate(range(0, n, _BLOCK)):
        m = min(_BLOCK, n - start)
        X[start : start + m], y[start : start + m] = make_block(family, b, m, noise, seed, positive_fraction, test)
    return X, y


def make_block(
    family: str, b: int, m: int, noise: float, seed: int = 0, positive_fraction: float = 0.5, test: bool = False
) -> Tuple[np.ndarray, np.ndarray]:
    """Block ``b`` of ``make`` (its rows ``b * _BLOCK`` on, ``m`` of them, float64
    X): each block has a random stream of its own, so a worker can generate its
    rows of a large set alone (bench/dask_scale.py)."""
    rng = np.random.default_rng(([seed, _TEST_STREAM] if test else [seed]) + [b])
    X = _design(family, rng, m)
    y = np.where(_score(family, X) > _threshold(family, positive_fraction), 1, -1).astype(np.int8)
    flip = rng.random(m) < noise
    y[flip] = -y[flip]
    return X, y


def default_gamma(family: str) -> float:
    return float(FAMILIES[family]["gamma"])
