"""Generated classification problems for the scale and noise benchmarks.

Every family but ``overlap18`` is a non-linear rule on a few of the features
of a standard normal (or uniform) design, with optional label noise (a
fraction of the labels flipped at random) and class imbalance (the rule's
threshold moved so that the positive class is a given fraction).
``overlap18`` draws the label first and the features from class-dependent
laws, so its classes overlap and its Bayes rule is the sign of the exact
log-likelihood ratio. Rows are generated in blocks
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
``overlap18`` SUSY-like class overlap with a known Bayes rule, no label
             flipping (default noise 0). Equal priors (``positive_fraction``
             sets the prior). 8 "low-level" features with class-dependent
             laws: x0, x1, x2 gamma with a larger scale (x2 also a larger
             shape) for the positive class, x3, x4 N(0, s) with a smaller s
             for it, x5 gamma and x6, x7 ~ U(-pi, pi) (angles) the same for
             both classes; 10 "high-level" features, non-linear functions of
             the low-level ones (sums, products, ratios, logs, a cosine of the
             angle difference) plus N(0, 0.1^2) noise independent of the
             class, so they add no information. The Bayes rule, sign of the
             log-likelihood ratio of x0..x4 (+ the log prior ratio), is right
             on ~79.8% of the rows (``bayes_accuracy``). gamma = 2^-3.
``shells12`` 12 features ~ U(-1, 1); label +1 where floor(||x[:3]|| / 0.5) is
             even: nested shells in three of the twelve dimensions (53% of
             the rows positive), no noise. gamma = 0.2.

The Bayes rule of every family is known: ``bayes_accuracy(family, n, ...)``
is its accuracy on the rows ``make`` returns with the same arguments (for the
rule families, the fraction of labels not flipped).

Used as::

    from datagen import make
    X, y = make("xor20", 1_000_000, noise=0.10, seed=0)          # float32, y in {-1, +1}
    Xt, yt = make("xor20", 100_000, noise=0.10, seed=0, test=True)  # independent test rows
    bayes_accuracy("overlap18", 100_000, seed=0, test=True)          # ~0.798 on those rows

``python bench/datagen.py`` prints each family with its default gamma, noise
and Bayes accuracy on 200,000 test rows.
"""

from __future__ import annotations

import math
from typing import Tuple

import numpy as np

FAMILIES = {
    "xor20": dict(d=20, gamma=0.05, noise=0.10),
    "xor120": dict(d=120, gamma=0.05 / 6.0, noise=0.10),
    "radial12": dict(d=12, gamma=0.2, noise=0.0),
    "susy18": dict(d=18, gamma=2.0**-5, noise=0.20),
    "overlap18": dict(d=18, gamma=2.0**-3, noise=0.0),
    "shells12": dict(d=12, gamma=0.2, noise=0.0),
}

_BLOCK = 100_000
_SHELL_WIDTH = 0.5  # shells12: the width of each shell

# overlap18: the laws of its low-level features x0..x5 as (negative class, positive class), each
# ("gamma", shape, scale) or ("normal", mean, sd); x6, x7 are angles ~ U(-pi, pi) for both classes.
# _OVERLAP_SEP sets how far the classes' laws are apart: 1.5 puts the Bayes accuracy at ~79.8%.
_OVERLAP_SEP = 1.5
_OVERLAP_LAWS = (
    (("gamma", 2.0, 1.0), ("gamma", 2.0, 1.0 + 0.45 * _OVERLAP_SEP)),
    (("gamma", 2.0, 0.8), ("gamma", 2.0, 0.8 + 0.30 * _OVERLAP_SEP)),
    (("gamma", 1.0, 0.7), ("gamma", 2.0, 0.5 + 0.20 * _OVERLAP_SEP)),
    (("normal", 0.0, 1.3), ("normal", 0.0, 1.3 - 0.35 * _OVERLAP_SEP)),
    (("normal", 0.0, 1.3), ("normal", 0.0, 1.3 - 0.25 * _OVERLAP_SEP)),
    (("gamma", 1.5, 1.0), ("gamma", 1.5, 1.0)),
)
_TEST_STREAM = 7919  # test rows come from an independent stream of the same seed


def _score(family: str, X: np.ndarray) -> np.ndarray:
    if family in ("xor20", "xor120"):
        return X[:, 0] * X[:, 1] + np.sin(2.0 * X[:, 2]) + 0.5 * (X[:, 3] ** 2 - 1.0) + 0.3 * X[:, 4] * X[:, 5] * X[:, 6]
    if family == "radial12":
        return 0.75 - np.sqrt(np.sum(X[:, :3] ** 2, axis=1))
    if family == "shells12":
        # > 0 exactly where floor(r / 0.5) is even (0 on the outer edge of each positive shell)
        return 0.5 - np.mod(np.sqrt(np.sum(X[:, :3] ** 2, axis=1)) / (2 * _SHELL_WIDTH), 1.0)
    if family == "susy18":
        R = np.linalg.qr(np.random.default_rng(12345).standard_normal((18, 18)))[0]
        P = X @ R[:, :4]
        return np.tanh(P[:, 0]) * P[:, 1] + 0.5 * np.cos(P[:, 2]) - 0.25 * P[:, 3] ** 2
    raise ValueError(f"unknown family {family!r}; expected one of {sorted(FAMILIES)}")


def _design(family: str, rng: np.random.Generator, n: int) -> np.ndarray:
    d = FAMILIES[family]["d"]
    if family in ("radial12", "shells12"):
        return rng.uniform(-1.0, 1.0, size=(n, d))
    return rng.standard_normal((n, d))


def _draw(rng: np.random.Generator, law: tuple, m: int) -> np.ndarray:
    kind, a, b = law
    return rng.gamma(a, b, m) if kind == "gamma" else rng.normal(a, b, m)


def _log_density(law: tuple, x: np.ndarray) -> np.ndarray:
    kind, a, b = law
    if kind == "gamma":  # shape a, scale b
        return (a - 1.0) * np.log(x) - x / b - math.lgamma(a) - a * math.log(b)
    return -0.5 * ((x - a) / b) ** 2 - math.log(b) - 0.5 * math.log(2.0 * math.pi)


def _overlap18(rng: np.random.Generator, m: int, positive_fraction: float) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """m rows of overlap18: (X, y, the Bayes rule's label). The label is drawn
    first, then each low-level feature from its class's law; the Bayes rule is
    the sign of the log posterior ratio (log-likelihood ratio + log prior ratio)."""
    y = np.where(rng.random(m) < positive_fraction, 1, -1).astype(np.int8)
    positive = y > 0
    L = np.empty((m, 8))
    log_ratio = np.full(m, math.log(positive_fraction / (1.0 - positive_fraction)))
    for j, (law_neg, law_pos) in enumerate(_OVERLAP_LAWS):
        L[:, j] = np.where(positive, _draw(rng, law_pos, m), _draw(rng, law_neg, m))
        if law_pos != law_neg:
            log_ratio += _log_density(law_pos, L[:, j]) - _log_density(law_neg, L[:, j])
    L[:, 6:] = rng.uniform(-np.pi, np.pi, (m, 2))
    H = np.column_stack([
        L[:, 0] + L[:, 1], L[:, 0] * np.cos(L[:, 6] - L[:, 7]), np.sqrt(L[:, 0] * L[:, 1]),
        L[:, 2] / (1.0 + L[:, 0]), np.abs(L[:, 3] - L[:, 4]), L[:, 0] * L[:, 2],
        np.log1p(L[:, 1] + L[:, 2]), L[:, 3] * L[:, 4], L[:, 5] + L[:, 2], np.hypot(L[:, 0], L[:, 2]),
    ])
    H += 0.1 * rng.standard_normal(H.shape)  # class-independent: the high-level features add no information
    return np.column_stack([L, H]), y, np.where(log_ratio > 0, 1, -1).astype(np.int8)


def _threshold(family: str, positive_fraction: float) -> float:
    """The score quantile that leaves `positive_fraction` of rows positive
    (estimated once on 200k rows of a fixed stream; 0.5 keeps the rule's 0)."""
    if positive_fraction == 0.5:
        return 0.0
    rng = np.random.default_rng(2024)
    s = _score(family, _design(family, rng, 200_000))
    return float(np.quantile(s, 1.0 - positive_fraction))


def _check(family: str, positive_fraction: float) -> None:
    if family not in FAMILIES:
        raise ValueError(f"unknown family {family!r}; expected one of {sorted(FAMILIES)}")
    if not 0.0 < positive_fraction < 1.0:
        raise ValueError(f"positive_fraction must be in (0, 1), got {positive_fraction!r}")


def _blocks(family, n, noise, seed, positive_fraction, test):
    """(start, X, y, Bayes rule's labels) of each block of ``make``."""
    _check(family, positive_fraction)
    noise = FAMILIES[family]["noise"] if noise is None else float(noise)
    for b, start in enumerate(range(0, n, _BLOCK)):
        yield (start, *_block(family, b, min(_BLOCK, n - start), noise, seed, positive_fraction, test))


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

    ``positive_fraction`` (0.1 for 1:9 imbalance) moves the rule's threshold
    (``overlap18``: the prior of the positive class); ``noise=None`` takes the
    family's default; ``test=True`` draws from an independent stream (a test
    set for the same problem).
    """
    _check(family, positive_fraction)
    d = FAMILIES[family]["d"]
    X = np.empty((n, d), dtype=dtype)
    y = np.empty(n, dtype=np.int8)
    for start, Xb, yb, _ in _blocks(family, n, noise, seed, positive_fraction, test):
        X[start : start + len(yb)], y[start : start + len(yb)] = Xb, yb
    return X, y


def bayes_accuracy(
    family: str,
    n: int,
    noise: float | None = None,
    seed: int = 0,
    positive_fraction: float = 0.5,
    test: bool = False,
) -> float:
    """Accuracy of the family's Bayes rule on the rows ``make`` returns with
    the same arguments (for ``noise`` < 0.5, flipping keeps the rule).

    For the rule families it is the fraction of labels not flipped; for
    ``overlap18`` the fraction of rows where the sign of the exact log
    posterior ratio is the label (~0.798 at equal priors):

    >>> round(bayes_accuracy("radial12", 1000, noise=0.0), 3)
    1.0
    >>> 0.79 < bayes_accuracy("overlap18", 200_000, test=True) < 0.81
    True
    """
    right = sum(int(np.sum(rule == yb)) for _, _, yb, rule in _blocks(family, n, noise, seed, positive_fraction, test))
    return right / n if n else float("nan")


def make_block(
    family: str, b: int, m: int, noise: float, seed: int = 0, positive_fraction: float = 0.5, test: bool = False
) -> Tuple[np.ndarray, np.ndarray]:
    """Block ``b`` of ``make`` (its rows ``b * _BLOCK`` on, ``m`` of them, float64
    X): each block has a random stream of its own, so a worker can generate its
    rows of a large set alone (bench/dask_scale.py)."""
    _check(family, positive_fraction)
    X, y, _ = _block(family, b, m, noise, seed, positive_fraction, test)
    return X, y


def _block(family, b, m, noise, seed, positive_fraction, test):
    """(X, y, the Bayes rule's labels) of block ``b``."""
    rng = np.random.default_rng(([seed, _TEST_STREAM] if test else [seed]) + [b])
    if family == "overlap18":
        X, y, rule = _overlap18(rng, m, positive_fraction)
    else:
        X = _design(family, rng, m)
        rule = np.where(_score(family, X) > _threshold(family, positive_fraction), 1, -1).astype(np.int8)
        y = rule.copy()
    flip = rng.random(m) < noise
    y[flip] = -y[flip]
    return X, y, rule


def default_gamma(family: str) -> float:
    return float(FAMILIES[family]["gamma"])


def main() -> None:
    import argparse

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=200_000, help="test rows for the Bayes accuracy (default 200,000)")
    args = ap.parse_args()
    print(f"{'family':10s} {'d':>4s} {'gamma':>9s} {'noise':>6s} {'positive':>8s} {'Bayes accuracy':>14s}")
    for family, spec in FAMILIES.items():
        y = make(family, args.n, test=True)[1]
        print(f"{family:10s} {spec['d']:4d} {spec['gamma']:9.4g} {spec['noise']:6.2f} {np.mean(y > 0):8.3f} "
              f"{bayes_accuracy(family, args.n, test=True):14.4f}")


if __name__ == "__main__":
    main()
