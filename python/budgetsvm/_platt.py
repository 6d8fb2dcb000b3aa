"""Probability estimates for SVC: Platt scaling and pairwise coupling.

Two published algorithms, implemented from their papers:

* ``sigmoid_fit``: Platt's sigmoid ``P(y=+1 | f) = 1 / (1 + exp(A f + B))``
  fitted to decision values by the improved algorithm of H.-T. Lin, C.-J. Lin
  and R. C. Weng, "A note on Platt's probabilistic outputs for support vector
  machines", Machine Learning 68 (2007): Newton's method with a backtracking
  line search on the regularised targets ``(N+ + 1) / (N+ + 2)`` and
  ``1 / (N- + 2)``, written so that no ``exp`` overflows.
* ``pairwise_coupling``: multi-class probabilities from the pairwise estimates
  ``r_ij ~ P(i | i or j, x)`` by the second method of T.-F. Wu, C.-J. Lin and
  R. C. Weng, "Probability estimates for multi-class classification by
  pairwise coupling", JMLR 5 (2004): ``min_p 1/2 p^T Q p`` subject to
  ``sum p = 1`` with ``Q_tt = sum_{j != t} r_jt^2`` and
  ``Q_tj = -r_jt r_tj``. LIBSVM approximates the minimiser by a fixed-point
  iteration; here the (k+1) x (k+1) optimality system is solved exactly for
  all samples at once (``Q`` is positive definite for ``r`` in ``(0, 1)``,
  and the minimiser is then non-negative, as the paper proves).
* ``temperature_fit``: one slope ``a >= 0`` for ``P(k | x) = exp(a f_k) /
  sum_j exp(a f_j)`` (temperature scaling, C. Guo, G. Pleiss, Y. Sun and
  K. Q. Weinberger, "On calibration of modern neural networks", ICML 2017),
  fitted on the regularised targets of Lin, Lin and Weng generalised to
  ``k`` classes; for two classes it is Platt's sigmoid with ``B = 0``.
"""

from __future__ import annotations

from typing import Tuple

import numpy as np

#: Pairwise probabilities are kept in [MIN_PROBABILITY, 1 - MIN_PROBABILITY]
#: before coupling (as LIBSVM does), so that Q stays positive definite.
MIN_PROBABILITY = 1e-7


def _negative_log_likelihood(f: np.ndarray, t: np.ndarray, A: float, B: float) -> float:
    z = A * f + B
    # t * z + log(1 + exp(-z)) for z >= 0 and (t - 1) * z + log(1 + exp(z))
    # otherwise: the same value, each branch free of overflow.
    return float(np.sum(np.where(z >= 0, t * z, (t - 1.0) * z) + np.log1p(np.exp(-np.abs(z)))))


def sigmoid_fit(decision: np.ndarray, positive: np.ndarray, max_iter: int = 100) -> Tuple[float, float]:
    """Fit Platt's sigmoid to decision values.

    Parameters
    ----------
    decision : ndarray of shape (n,)
        Decision values ``f`` (positive means the positive class).
    positive : ndarray of bool, shape (n,)
        True for samples of the positive class.
    max_iter : int, default=100
        Newton iterations at most.

    Returns
    -------
    A, B : float
        ``P(positive | f) = 1 / (1 + exp(A f + B))``.

    Examples
    --------
    >>> import numpy as np
    >>> f = np.array([-2.0, -1.0, -0.5, 0.5, 1.0, 2.0])
    >>> A, B = sigmoid_fit(f, f > 0)
    >>> A < 0
    True
    """
    f = np.asarray(decision, dtype=np.float64)
    positive = np.asarray(positive, dtype=bool)
    n_pos = float(np.count_nonzero(positive))
    n_neg = float(positive.size - n_pos)
    hi = (n_pos + 1.0) / (n_pos + 2.0)
    lo = 1.0 / (n_neg + 2.0)
    t = np.where(positive, hi, lo)

    min_step, sigma, eps = 1e-10, 1e-12, 1e-5
    A, B = 0.0, float(np.log((n_neg + 1.0) / (n_pos + 1.0)))
    fval = _negative_log_likelihood(f, t, A, B)
    for _ in range(max_iter):
        z = A * f + B
        e = np.exp(-np.abs(z))
        # p = 1 / (1 + exp(z)) = P(positive), q = 1 - p, both without overflow
        p = np.where(z >= 0, e / (1.0 + e), 1.0 / (1.0 + e))
        q = 1.0 - p
        d2 = p * q
        h11 = sigma + float(np.dot(f * f, d2))
        h22 = sigma + float(np.sum(d2))
        h21 = float(np.dot(f, d2))
        d1 = t - p
        g1 = float(np.dot(f, d1))
        g2 = float(np.sum(d1))
        if abs(g1) < eps and abs(g2) < eps:
            break
        det = h11 * h22 - h21 * h21
        dA = -(h22 * g1 - h21 * g2) / det
        dB = -(-h21 * g1 + h11 * g2) / det
        gd = g1 * dA + g2 * dB
        step = 1.0
        while step >= min_step:
            newA, newB = A + step * dA, B + step * dB
            newf = _negative_log_likelihood(f, t, newA, newB)
            if newf < fval + 1e-4 * step * gd:
                A, B, fval = newA, newB, newf
                break
            step *= 0.5
        if step < min_step:
            break  # no further decrease is possible in floating point
    return A, B


def sigmoid_predict(decision: np.ndarray, A: np.ndarray, B: np.ndarray) -> np.ndarray:
    """``1 / (1 + exp(A f + B))`` element-wise, without overflow.

    Examples
    --------
    >>> float(sigmoid_predict(np.array(0.0), np.array(-1.0), np.array(0.0)))
    0.5
    """
    z = A * decision + B
    e = np.exp(-np.abs(z))
    return np.where(z >= 0, e / (1.0 + e), 1.0 / (1.0 + e))


def pairwise_coupling(r: np.ndarray, n_classes: int) -> np.ndarray:
    """Class probabilities from pairwise probabilities (Wu, Lin, Weng 2004, method 2).

    Parameters
    ----------
    r : ndarray of shape (n_samples, n_classes * (n_classes - 1) / 2)
        ``r[:, p] = P(i | i or j)`` for the pairs ``p = (i, j)``, ``i < j``,
        in the order (0,1), (0,2), ..., (1,2), ...
    n_classes : int

    Returns
    -------
    P : ndarray of shape (n_samples, n_classes), rows sum to 1.

    Examples
    --------
    >>> pairwise_coupling(np.array([[0.8]]), 2).round(3)
    array([[0.8, 0.2]])
    """
    r = np.clip(np.asarray(r, dtype=np.float64), MIN_PROBABILITY, 1.0 - MIN_PROBABILITY)
    n = r.shape[0]
    k = n_classes
    # R[s, i, j] = P(i | i or j) for i != j (triu_indices lists the pairs in r's order)
    R = np.zeros((n, k, k))
    first, second = np.triu_indices(k, 1)
    R[:, first, second] = r
    R[:, second, first] = 1.0 - r
    # Q[t, t] = sum_{j != t} r_jt^2 ; Q[t, j] = -r_jt r_tj
    Rt = np.transpose(R, (0, 2, 1))  # Rt[s, t, j] = R[s, j, t] = r_jt
    Q = -Rt * R
    diag = np.sum(Rt * Rt, axis=2)
    idx = np.arange(k)
    Q[:, idx, idx] = diag
    # KKT system [[Q, 1], [1^T, 0]] [p; b] = [0; 1]
    M = np.zeros((n, k + 1, k + 1))
    M[:, :k, :k] = Q
    M[:, :k, k] = 1.0
    M[:, k, :k] = 1.0
    rhs = np.zeros((n, k + 1, 1))
    rhs[:, k, 0] = 1.0
    sol = np.linalg.solve(M, rhs)[:, :k, 0]
    # The exact minimiser is non-negative; clip rounding noise and renormalise.
    sol = np.clip(sol, 0.0, None)
    return sol / sol.sum(axis=1, keepdims=True)


def temperature_fit(scores: np.ndarray, y_index: np.ndarray, max_iter: int = 100) -> float:
    """Fit the slope ``a`` of ``P(k | x) = exp(a f_k(x)) / sum_j exp(a f_j(x))``.

    Minimises the cross-entropy against regularised targets: a row of class
    ``c`` (``N_c`` rows) has the target ``(N_c + 1) / (N_c + 2)`` for ``c``
    and ``1 / (N_c + 2)`` shared equally by the other classes. With two
    classes and ``f = (0, f_1)`` this is the objective of :func:`sigmoid_fit`
    with ``B = 0`` and ``A = -a`` (Platt's targets as Lin, Lin and Weng
    write them). The objective is convex in ``a``; Newton's method with a
    backtracking line search, kept to ``a >= 0`` (outputs no better than
    chance give ``a = 0``: equal probabilities).

    Parameters
    ----------
    scores : ndarray of shape (n, k)
        The outputs ``f_k`` of each row (the largest wins).
    y_index : ndarray of int, shape (n,)
        Each row's class, in ``0 .. k-1``.
    max_iter : int, default=100
        Newton iterations at most.

    Returns
    -------
    a : float, >= 0

    Examples
    --------
    >>> import numpy as np
    >>> f = np.array([[1.0, -1.0], [0.5, -0.5], [-0.2, 0.2], [-1.0, 1.0]])
    >>> temperature_fit(f, np.array([0, 0, 1, 1])) > 0
    True
    """
    S = np.asarray(scores, dtype=np.float64)
    y = np.asarray(y_index, dtype=np.intp)
    n, k = S.shape
    counts = np.bincount(y, minlength=k).astype(np.float64)
    own = (counts[y] + 1.0) / (counts[y] + 2.0)
    T = np.repeat(((1.0 - own) / (k - 1))[:, None], k, axis=1)
    T[np.arange(n), y] = own
    target = np.sum(T * S, axis=1)  # sum_k t_ik f_ik

    def objective(a: float) -> float:
        z = a * S
        top = z.max(axis=1)
        lse = top + np.log(np.sum(np.exp(z - top[:, None]), axis=1))
        return float(np.sum(lse) - a * np.sum(target))  # sum_i (logsumexp - sum_k t_ik a f_ik); sum_k t_ik = 1

    def moments(a: float) -> Tuple[float, float]:
        z = a * S
        P = np.exp(z - z.max(axis=1, keepdims=True))
        P /= P.sum(axis=1, keepdims=True)
        mean = np.sum(P * S, axis=1)
        return float(np.sum(mean - target)), float(np.sum(np.sum(P * S * S, axis=1) - mean * mean))

    min_step, eps = 1e-10, 1e-5
    a = 0.0
    fval = objective(a)
    for _ in range(max_iter):
        g, h = moments(a)
        if abs(g) < eps or (a == 0.0 and g >= 0.0) or h <= 0.0:
            break
        d = -g / h
        step = 1.0
        while step >= min_step:
            new_a = max(a + step * d, 0.0)
            new_f = objective(new_a)
            if new_f < fval + 1e-4 * g * (new_a - a):
                a, fval = new_a, new_f
                break
            step *= 0.5
        if step < min_step:
            break  # no further decrease is possible in floating point
    return a
