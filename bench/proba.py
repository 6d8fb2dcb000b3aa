"""Probability estimates of ``BudgetedSVC(probability=True)`` against
scikit-learn's ``CalibratedClassifierCV(method="sigmoid")`` around the same
``BudgetedSVC`` settings.

Per data set (real LIBSVM sets, read from ``$BUDGETSVM_DATA`` or
``../shared/datasets``; ``bench/auto.py``'s ``load``) and solver: the share
of test rows where the most probable class is the predicted one
(``predict``; for CalibratedClassifierCV, its own ``predict``, the argmax of
its probabilities, against the plain model's), the test log-loss and Brier
score, the accuracy, and the fit time as a multiple of one plain fit.
CalibratedClassifierCV runs twice: ``ensemble=True`` (its default: the mean
of 5 calibrated fold models) and ``ensemble=False`` (one model on all rows
and a sigmoid on cross-validated decision values, the procedure
``probability=True`` follows, with scikit-learn's one-vs-rest coupling).

    python bench/proba.py [--sets ijcnn1,a9a,w8a,cod-rna,covtype] [--solvers bsca,bsgd]
                          [--rows N] [--test-rows N] [--budget 500] [--out bench/results/proba.md]
    python bench/proba.py --quick   # 2,000 training and test rows per set, budget 50: a smoke run
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import machine_line, report  # noqa: E402
from auto import load  # noqa: E402

from sklearn.calibration import CalibratedClassifierCV  # noqa: E402
from sklearn.metrics import log_loss  # noqa: E402

from budgetsvm import BudgetedSVC  # noqa: E402

SETS = ("ijcnn1", "a9a", "w8a", "cod-rna", "covtype")
# C and gamma of bench/budgeted.py (the papers' settings); cod-rna and covtype: gamma="scale"
SETTINGS = {
    "ijcnn1": dict(C=2.0**5, gamma=2.0**1),
    "a9a": dict(C=2.0**5, gamma=2.0**-7),
    "w8a": dict(C=2.0**3, gamma=2.0**-5),
    "cod-rna": dict(C=2.0**5, gamma="scale"),
    "covtype": dict(C=2.0**5, gamma="scale"),
}


def subsample(X, y, rows, seed):
    """At most ``rows`` rows, stratified (all of them when ``rows`` is None)."""
    if rows is None or rows >= X.shape[0]:
        return X, y
    from sklearn.model_selection import train_test_split

    X, _, y, _ = train_test_split(X, y, train_size=rows, random_state=seed, stratify=y)
    return X, y


def brier(y, P, classes):
    """The multi-class Brier score: mean over rows of sum_k (P_k - [y = k])^2."""
    onehot = (np.asarray(y)[:, None] == np.asarray(classes)[None, :]).astype(float)
    return float(np.mean(np.sum((P - onehot) ** 2, axis=1)))


def timed(fit):
    start = time.perf_counter()
    model = fit()
    return model, time.perf_counter() - start


def run_cell(name, solver, args):
    X, y, Xt, yt, note = load(name, None, None)
    X, y = subsample(X, y, args.rows, args.seed)
    Xt, yt = subsample(Xt, yt, args.test_rows, args.seed)
    settings = dict(SETTINGS[name], solver=solver, budget=args.budget, epochs=args.epochs,
                    random_state=args.seed, n_jobs=args.n_jobs)
    BudgetedSVC(**settings).fit(*subsample(X, y, 200, args.seed))  # warm-up: one-off costs out of the timing
    plain, t_plain = timed(lambda: BudgetedSVC(**settings).fit(X, y))
    ours, t_ours = timed(lambda: BudgetedSVC(probability=True, **settings).fit(X, y))
    pred = ours.predict(Xt)  # the same model as plain's: the fit does not depend on probability
    assert np.array_equal(pred, plain.predict(Xt))
    rows = []
    P = ours.predict_proba(Xt)
    rows.append(("probability=True", P, ours.classes_, t_ours))
    for ensemble in (True, False):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # fold models of few epochs: nothing to report here
            ccv, t_ccv = timed(lambda: CalibratedClassifierCV(BudgetedSVC(**settings), method="sigmoid", cv=5,
                                                              ensemble=ensemble).fit(X, y))
        rows.append((f"CalibratedClassifierCV(ensemble={ensemble})", ccv.predict_proba(Xt), ccv.classes_, t_ccv))
    out = []
    for label, P, classes, seconds in rows:
        top = classes[np.argmax(P, axis=1)]
        out.append(dict(set=name, solver=solver, method=label, n=X.shape[0], n_test=Xt.shape[0],
                        agreement=float(np.mean(top == pred)), log_loss=float(log_loss(yt, P, labels=classes)),
                        brier=brier(yt, P, classes), accuracy=float(np.mean(top == yt)),
                        accuracy_predict=float(np.mean(pred == yt)), time_ratio=seconds / t_plain,
                        seconds=seconds, note=note))
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sets", default=",".join(SETS))
    parser.add_argument("--solvers", default="bsca,bsgd")
    parser.add_argument("--rows", type=int, default=None, help="training rows per set at most (default: all)")
    parser.add_argument("--test-rows", type=int, default=None, help="test rows per set at most (default: all)")
    parser.add_argument("--budget", type=int, default=500)
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--n-jobs", type=int, default=None)
    parser.add_argument("--quick", action="store_true", help="2,000 training and test rows, budget 50")
    parser.add_argument("--out", default=None, help="the results file (default: bench/results/proba.md; "
                                                    "--quick writes none unless given)")
    args = parser.parse_args(argv)
    if args.quick:
        args.rows, args.test_rows, args.budget = args.rows or 2000, args.test_rows or 2000, 50
    out = args.out if args.out or args.quick else str(Path(__file__).resolve().parent / "results" / "proba.md")
    cells = []
    for name in args.sets.split(","):
        for solver in args.solvers.split(","):
            print(f"{name} {solver} ...", file=sys.stderr, flush=True)
            cells += run_cell(name, solver, args)
    lines = [
        "# Probability estimates: BudgetedSVC(probability=True) against CalibratedClassifierCV",
        "",
        f"Machine: {machine_line()}.",
        f"Command: `python bench/proba.py {' '.join(sys.argv[1:] if argv is None else argv)}`",
        f"Settings: budget {args.budget}, {args.epochs} epochs, random_state {args.seed}; C and gamma per set "
        "as in bench/budgeted.py (cod-rna, covtype: gamma=\"scale\").",
        "",
        "agreement: share of test rows whose most probable class is the class `predict` of the same "
        "BudgetedSVC settings gives; accuracy: of the most probable class; time: fit seconds as a multiple "
        "of one plain fit.",
        "",
        "| set | solver | rows | method | agreement | log-loss | Brier | accuracy | time |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for c in cells:
        lines.append(f"| {c['set']} | {c['solver']} | {c['n']} / {c['n_test']} | {c['method']} | "
                     f"{100 * c['agreement']:.2f}% | {c['log_loss']:.4f} | {c['brier']:.4f} | "
                     f"{100 * c['accuracy']:.2f}% | {c['time_ratio']:.1f}x |")
    lines += ["", "Data: " + "; ".join(sorted({f"{c['set']}: {c['note']}" for c in cells})) + "."]
    report(lines, out)


if __name__ == "__main__":
    main()
