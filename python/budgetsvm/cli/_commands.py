"""``budgetsvm train``, ``predict``, ``info`` and ``convert``: LIBSVM-style
commands over svmlight data files and model files (``docs/cli.md``)."""

from __future__ import annotations

import argparse
import contextlib
import inspect
import math
import sys
import time
import warnings
from typing import Any, Dict, Iterator, List, Optional, Tuple

import numpy as np

from .._atomic import refuse_same_files, replacing
from ..io import SvmlightChunks, load_svmlight
from ..model_files import FORMATS, load_model, save_model
from ._fit import check_folds, cross_validate, epochs_of, fit
from ._flags import LIBSVM_SHORT, SOLVERS, SVM_TYPES, TYPE_DEFAULT_SOLVER, add_flags, chosen
from ._numbers import parse_duration, parse_float, parse_int
from ._progress import Progress, choose_mode
from ._weights import class_weight, extract

CHUNK_ROWS = 10_000


def _progress(total: Optional[int], unit: str, quiet: bool):
    """A tqdm bar on a terminal; nothing when piped or quiet."""
    if quiet or not sys.stderr.isatty():
        return contextlib.nullcontext(None)
    try:
        from tqdm import tqdm
    except ImportError:  # a dependency; an environment without it just shows no bar
        return contextlib.nullcontext(None)

    return tqdm(total=total, unit=unit, file=sys.stderr, leave=False)


def _label_text(value: Any) -> str:
    if isinstance(value, (float, np.floating)) and math.isfinite(value) and float(value).is_integer():
        return str(int(value))
    return str(value)


def _file_chunks(args: argparse.Namespace) -> Any:
    if args.n_features is None:
        raise ValueError("--stream needs --n-features (the file is not scanned ahead)")
    return SvmlightChunks(args.data, args.chunk_rows, args.n_features, args.zero_based)


def _stream_setup(args: argparse.Namespace, est: type, kwargs: Dict[str, Any], mode: str) -> Tuple[Any, Any, int]:
    """The file's passes, its classes (one label-only pass unless --classes) and the epochs."""
    from ._stream import find_labels

    data = _file_chunks(args)
    epochs = epochs_of(est, kwargs)
    if epochs is None:
        raise ValueError(f"--epochs must be a positive integer; got {kwargs.get('epochs')!r}")
    kwargs.pop("epochs", None)  # partial_fit is one pass: the passes are ours
    classes = args.classes if args.classes is not None else find_labels(data, mode)
    _weigh(args, kwargs, classes)
    return data, classes, epochs


def _weigh(args: argparse.Namespace, kwargs: Dict[str, Any], classes: Any) -> None:
    """-wLABEL WEIGHT as class_weight, once the labels are known."""
    if args.label_weights:
        kwargs["class_weight"] = class_weight(args.label_weights, list(classes), args.data)


def _svm_type(text: str) -> int:
    """svm-train's ``-s``: 0 C-SVC, 1 nu-SVC, 2 one-class SVM, 3 epsilon-SVR,
    4 nu-SVR (``_flags.TYPE_SOLVERS``: the estimator of each --solver)."""
    try:
        value = parse_int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be an integer; got {text}") from None
    if value not in SVM_TYPES:
        raise argparse.ArgumentTypeError(
            f"svm_type {value} is not an svm_type of svm-train (0 C-SVC, 1 nu-SVC, 2 one-class SVM, "
            "3 epsilon-SVR, 4 nu-SVR)")
    return value


def _is_regressor(model: Any) -> bool:
    from sklearn.base import is_regressor

    return bool(is_regressor(model))


def _is_detector(model: Any) -> bool:
    from sklearn.base import is_outlier_detector

    return bool(is_outlier_detector(model))


def _trained(clf: Any) -> str:
    """What a model was trained on, for the summary line."""
    if _is_regressor(clf):
        return "regression"
    if _is_detector(clf):
        return "one class"
    return f"{len(clf.classes_)} classes"


def _run_train(args: argparse.Namespace) -> int:
    with warnings.catch_warnings():
        # -b is svm-train's option; the deprecation of SVC's probability
        # parameter (scikit-learn 1.9) concerns Python code, not this flag
        warnings.filterwarnings("ignore", message="The `probability` parameter was deprecated", category=FutureWarning)
        return _train(args)


def _duration(text: str) -> float:
    try:
        return parse_duration(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


#: what --auto leaves to the user: the seed and the threads
AUTO_KEEPS = ("random_state", "n_jobs")


def _train_auto(args: argparse.Namespace) -> int:
    """--auto: AutoSVC within --time; the report to stderr, the model to MODEL."""
    from ..estimators.auto import AutoSVC

    start = time.perf_counter()
    given = [LIBSVM_SHORT.get(name, f"--{name.replace('_', '-')}") for name in args.flags
             if getattr(args, f"hp_{name}") is not None and name not in AUTO_KEEPS]
    if given:
        raise ValueError(f"--auto chooses the settings itself: drop {', '.join(given)} (or drop --auto)")
    if args.cross_validation is not None:
        raise ValueError("--auto scores its settings on held-out rows of its own: not with -v")
    if args.label_weights:
        raise ValueError("--auto does not take class weights (-wLABEL)")
    solvers = {None: ("bsca", "bsgd", "exact"), "bsca": ("bsca",), "bsgd": ("bsgd",)}.get(
        args.solver, ("exact",) if args.solver in ("exact", "smo", "alfpgm") else None)
    if solvers is None:
        raise ValueError(f"--auto searches the kernel SVMs (--solver bsca, bsgd or exact); not --solver {args.solver}")
    auto = AutoSVC(time=120.0 if args.time is None else args.time, solvers=solvers,
                   random_state=args.hp_random_state, n_jobs=args.hp_n_jobs, verbose=0 if args.quiet else 1)
    if args.stream:
        import os

        if not os.path.isfile(args.data):
            raise ValueError(f"--auto --stream reads {args.data} twice (a sample, then the training pass): "
                             "it must be a file, not a pipe")
        data = _file_chunks(args)
        auto.fit_stream(data, args.n_features, started=start, shuffle_buffer=args.shuffle_buffer)
    else:
        X, y = load_svmlight(args.data, n_features=args.n_features, zero_based=args.zero_based)
        auto.fit(X, y)
    clf = auto.best_estimator_
    save_model(clf, args.model, format=args.format)
    if not args.quiet:
        print(auto.report_, file=sys.stderr)
        print(f"trained {auto.best_params_['solver']} (--auto) on {len(clf.classes_)} classes, "
              f"{time.perf_counter() - start:.2f} s; model written to {args.model}", file=sys.stderr)
    return 0


def _train(args: argparse.Namespace) -> int:
    if args.auto:
        if args.svm_type != 0:
            raise ValueError(f"--auto trains C-SVC classifiers (-s 0); not -s {args.svm_type}")
        return _train_auto(args)
    if args.time is not None:
        raise ValueError("--time is the time budget of --auto: give --auto too")
    args.solver = args.solver or TYPE_DEFAULT_SOLVER[args.svm_type]
    est, kwargs = chosen(args, args.flags, args.solver, args.svm_type)
    if args.label_weights and "class_weight" in kwargs:
        raise ValueError("-wLABEL and --class-weight both set the class weights: give one or the other")
    if args.label_weights and args.svm_type > 1:
        raise ValueError(f"-wLABEL weighs the classes of a classifier (-s 0, 1); not -s {args.svm_type}")
    if args.stream and (args.svm_type != 0 or SOLVERS[args.solver][0] != "BudgetedSVC"):
        raise ValueError(f"--stream trains the budgeted classifiers (-s 0, --solver bsca or bsgd); not -s "
                         f"{args.svm_type} --solver {args.solver}")
    if args.stream and kwargs.get("probability"):
        raise ValueError("-b 1 calibrates on 5 folds of the rows in memory: not with --stream (drop one of them)")
    mode = choose_mode(args.progress, args.quiet)
    start = time.perf_counter()
    if args.cross_validation is not None:
        return _cross_validate(args, est, kwargs, mode)
    if args.stream:
        from ._stream import train as train_stream

        data, classes, epochs = _stream_setup(args, est, kwargs, mode)
        clf = train_stream(data, est, kwargs, classes, epochs, args.shuffle_buffer, mode)
    else:
        X, y = load_svmlight(args.data, n_features=args.n_features, zero_based=args.zero_based)
        _weigh(args, kwargs, np.unique(y))
        total = epochs_of(est, kwargs)  # None: the exact SVMs, LinearSVC (no progress before the end)
        with Progress(mode if total else "off", total, "epoch") as progress:
            # a one-class SVM learns from the rows alone: the file's labels are for predict's accuracy
            clf = fit(est, kwargs, X, None if args.svm_type == 2 else y, progress)
    save_model(clf, args.model, format=args.format)
    if not args.quiet:
        size = getattr(clf, "n_support_", None)
        what = f"{int(np.sum(size))} support vectors" if size is not None else f"{clf.coef_.shape[1]} features"
        print(f"trained {args.solver} ({type(clf).__name__}) on {_trained(clf)}: {what}, "
              f"{time.perf_counter() - start:.2f} s; model written to {args.model}", file=sys.stderr)
    return 0


def _cross_validate(args: argparse.Namespace, est: type, kwargs: Dict[str, Any], mode: str) -> int:
    """-v K: the accuracy over K folds, as svm-train -v prints it, with the
    random state that fixes the folds and the training (--random-state, else 0)."""
    k = args.cross_validation
    check_folds(k, None, args.data)
    seed = kwargs.get("random_state", 0)
    if "random_state" in inspect.signature(est).parameters:  # NuSVR and the exact regressors draw nothing
        kwargs["random_state"] = seed
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**32:
        raise ValueError(f"-v needs --random-state to be an integer in [0, 2**32) (it draws the folds); got {seed!r}")
    if args.stream:
        from ._stream import cross_validate as cross_validate_stream

        data, classes, epochs = _stream_setup(args, est, kwargs, mode)
        check_folds(k, data.rows, args.data)  # rows known after the label pass
        correct, rows = cross_validate_stream(data, est, kwargs, classes, epochs, k, seed, args.shuffle_buffer, mode)
    else:
        X, y = load_svmlight(args.data, n_features=args.n_features, zero_based=args.zero_based)
        _weigh(args, kwargs, np.unique(y))
        if args.svm_type in (3, 4):
            predicted = cross_validate(est, kwargs, X, y, k, seed, mode, args.data, kind="regression")
            mse, scc = regression_scores(predicted, y)
            print(f"Cross Validation Mean squared error = {mse:g} ({k} folds, random state {seed})")
            print(f"Cross Validation Squared correlation coefficient = {scc:g}")
            return 0
        kind = "one-class" if args.svm_type == 2 else "classification"
        correct, rows = cross_validate(est, kwargs, X, y, k, seed, mode, args.data, kind=kind)
    print(f"Cross Validation Accuracy = {100 * correct / rows:g}% ({k} folds, random state {seed})")
    return 0


def regression_scores(predicted: np.ndarray, truth: np.ndarray) -> Tuple[float, float]:
    """svm-predict's two numbers: the mean squared error and the squared
    correlation coefficient of predictions and targets (nan when either is
    constant)."""
    v = np.asarray(predicted, dtype=np.float64)
    t = np.asarray(truth, dtype=np.float64)
    n = v.size
    if n == 0:
        return math.nan, math.nan
    mse = float(np.mean((v - t) ** 2))
    sv, st = v.sum(), t.sum()
    cov = n * float(np.dot(v, t)) - sv * st
    var = (n * float(np.dot(v, v)) - sv * sv) * (n * float(np.dot(t, t)) - st * st)
    return mse, (cov * cov / var if var > 0 else math.nan)


def _predict_rows(model: Any, X: Any, output: str, pred: np.ndarray) -> List[str]:
    if output == "label":
        return [_label_text(v) for v in pred]
    values = model.decision_function(X) if output == "decision" else model.predict_proba(X)
    values = np.asarray(values).reshape(X.shape[0], -1)
    return [" ".join(f"{v:.17g}" for v in row) for row in values]


def _chunks(args: argparse.Namespace, n_features: int) -> Iterator[Tuple[Any, np.ndarray]]:
    """DATA in chunks of the model's width. Fewer columns than the model's is
    normal (a test file need not use the last features); indices beyond them
    are ignored, as LIBLINEAR does, with one warning naming both widths once
    the file is read."""
    data = SvmlightChunks(args.data, args.chunk_rows, n_features, args.zero_based, drop_extra_columns=True)
    yield from data
    if data.columns_seen > n_features:
        largest = data.columns_seen - (1 if args.zero_based else 0)
        base = " (0-based)" if args.zero_based else ""
        warnings.warn(
            f"{args.data}: its largest feature index is {largest}{base}, beyond the model's "
            f"n_features={n_features}; the features beyond are ignored",
            stacklevel=1,
        )


def _run_predict_values(args: argparse.Namespace, model: Any) -> int:
    """A regression model: one predicted value per line, then svm-predict's
    mean squared error and squared correlation coefficient."""
    if args.output == "proba":
        raise ValueError("--output proba needs a classifier with probability estimates; this is a regression model")
    predicted: List[np.ndarray] = []
    truth: List[np.ndarray] = []
    with replacing(args.output_file, "w", encoding="utf-8") as out, _progress(None, "rows", args.quiet) as bar:
        for X, y in _chunks(args, int(model.n_features_in_)):
            values = np.asarray(model.predict(X), dtype=np.float64)
            out.write("".join(f"{v:.17g}\n" for v in values))
            predicted.append(values)
            truth.append(np.asarray(y, dtype=np.float64))
            if bar is not None:
                bar.update(X.shape[0])
    if predicted and not args.quiet:
        mse, scc = regression_scores(np.concatenate(predicted), np.concatenate(truth))
        print(f"Mean squared error = {mse:g} (regression)")
        print(f"Squared correlation coefficient = {scc:g} (regression)")
    return 0


def _run_predict(args: argparse.Namespace) -> int:
    refuse_same_files([args.output_file], [args.data, args.model])
    model = load_model(args.model)
    if _is_regressor(model):
        return _run_predict_values(args, model)
    if args.output == "proba" and not hasattr(model, "predict_proba"):
        raise ValueError("--output proba needs a model with probability estimates (train it with -b 1)")
    # a one-class model predicts +1 (inlier) or -1: the file's labels are compared with those
    classes = np.array([-1, 1]) if _is_detector(model) else model.classes_
    numeric = np.issubdtype(np.asarray(classes).dtype, np.number)
    correct = total = unseen = 0
    # OUTPUT is replaced only once every row is written: a failure leaves the previous file
    with replacing(args.output_file, "w", encoding="utf-8") as out, _progress(None, "rows", args.quiet) as bar:
        if args.output == "proba":
            out.write("labels " + " ".join(_label_text(c) for c in classes) + "\n")
        for X, y in _chunks(args, int(model.n_features_in_)):
            pred = model.predict(X)
            lines = _predict_rows(model, X, args.output, pred)
            out.write("\n".join(lines) + "\n" if lines else "")
            # the file's labels are numbers: string classes match their text
            truth = y if numeric else np.asarray([_label_text(v) for v in y])
            known = np.isin(truth, classes)
            unseen += int(np.sum(~known))
            correct += int(np.sum(known & (pred == truth)))
            total += X.shape[0]
            if bar is not None:
                bar.update(X.shape[0])
    if unseen:
        warnings.warn(f"{unseen} rows carry labels never seen in training; counted as wrong", stacklevel=1)
    if total and not args.quiet:
        print(f"Accuracy = {100.0 * correct / total:g}% ({correct}/{total}) (classification)")
    return 0


def _run_info(args: argparse.Namespace) -> int:
    model = load_model(args.model)
    rows: List[Tuple[str, Any]] = [("estimator", type(model).__name__)]
    if hasattr(model, "classes_"):
        rows.append(("classes", " ".join(_label_text(c) for c in model.classes_)))
    rows.append(("features", model.n_features_in_))
    for name in ("solver", "kernel", "gamma_", "C", "nu", "epsilon", "budget", "n_support_", "t_", "n_samples_seen_",
                 "n_iter_"):
        value = getattr(model, name, None)
        if value is not None:
            rows.append((name.rstrip("_"), value if not isinstance(value, np.ndarray) else value.tolist()))
    for key, value in rows:
        print(f"{key:16} {value}")
    return 0


def _run_convert(args: argparse.Namespace) -> int:
    refuse_same_files([args.output], [args.input])
    save_model(load_model(args.input), args.output, format=args.to)
    return 0


def _data_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--zero-based", action="store_true", help="feature indices start at 0 (LIBSVM's start at 1)")
    parser.add_argument(
        "--chunk-rows", type=parse_int, default=CHUNK_ROWS, help=f"rows read at a time (default {CHUNK_ROWS})"
    )
    parser.add_argument("-q", "--quiet", action="store_true", help="no summary, and no progress unless --progress")


def add_commands(commands: "argparse._SubParsersAction") -> None:
    train = commands.add_parser(
        "train",
        prescan=extract,  # -wLABEL WEIGHT: see _weights.py
        help="train a model on a LIBSVM/svmlight file (as svm-train)",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Train a model on DATA (LIBSVM/svmlight text; .bz2/.gz/.xz too) and write it to MODEL.",
        epilog=(
            "examples:\n"
            "  budgetsvm train -c 32 -g 2 --budget 500 ijcnn1 ijcnn1.model\n"
            "  budgetsvm train --solver smo -c 1 -g 0.5 a9a a9a.model --format libsvm\n"
            "  budgetsvm train --solver linear -c 1 -v 5 w8a              (5-fold cross-validation)\n"
            "  budgetsvm train -w1 5 -w-1 0.5 -c 4 a9a a9a.model          (C x 5 for label 1, x 0.5 for -1)\n"
            "  budgetsvm train --stream --n-features 18 big.svm.gz big.model\n"
            "  budgetsvm train --solver bsgd --help                       (only the flags of bsgd)\n"
            "  budgetsvm train --auto --time 2m big.svm big.model          (settings chosen in 2 minutes)\n"
            "LIBSVM's -s 0 -c -g -b -m -e -d -r -wi -v -q mean what they mean in svm-train; BudgetedSVM's own flags\n"
            "(budgetedsvm-train's -B, -e, -m, ...) mean other things there and are not mirrored.\n"
            "Progress goes to stderr: a bar with the ETA on a terminal, else a line per epoch (or fold) and\n"
            "at most one every 10 s; a mistake is one line on stderr and exit code 1."
        ),
    )
    train.add_argument("data", metavar="DATA")
    train.add_argument("model", metavar="MODEL", nargs="?", help="the model file to write (not with -v)")
    train.add_argument("--solver", choices=list(SOLVERS), default=None,
                       help="bsca/bsgd: BudgetedSVC; linear: LinearSVC; exact: SVC, its solver chosen per "
                       "problem (SMO below 10,000 rows or on very sparse rows, else ALFPGM); alfpgm/smo: SVC "
                       "with that solver (default bsca)")
    train.add_argument("--format", choices=list(FORMATS), default="budgetsvm",
                       help="model file format (default budgetsvm)")
    train.add_argument("-s", dest="svm_type", type=_svm_type, default=0, metavar="TYPE",
                       help="svm-train's svm_type: 0 C-SVC (default; SVC, BudgetedSVC, LinearSVC), 1 nu-SVC "
                       "(NuSVC), 2 one-class SVM (OneClassSVM; --solver bsgd: BudgetedOneClassSVM, the default), "
                       "3 epsilon-SVR (SVR; --solver bsca or bsgd: BudgetedSVR, the default), 4 nu-SVR (NuSVR); "
                       "-p is epsilon, -n nu")
    train.add_argument("--auto", action="store_true",
                       help="choose the solver, C, gamma, budget and epochs within --time (AutoSVC: a search on "
                       "growing subsamples scored on held-out rows, then the final fit on all rows; with --stream "
                       "the search runs on a sample of the file and the final fit is one pass); prints what it tried. "
                       "Keeps --random-state and --n-jobs; --solver bsca, bsgd or exact restricts the choice")
    train.add_argument("--time", type=_duration, default=None, metavar="DURATION",
                       help="with --auto: the time for the whole run, e.g. 90, 90s, 2m, 1h (default 2m)")
    train.add_argument("-v", dest="cross_validation", type=parse_int, metavar="K",
                       help="K-fold cross-validation only: print the accuracy and each fold's (folds drawn by "
                       "--random-state, default 0; with --stream one pass per fold and epoch)")
    train._optionals._group_actions.append(argparse.Action(  # shown only: the parser's prescan reads it
        ["-wLABEL"], dest="label_weights", metavar="WEIGHT",
        help="multiply C by WEIGHT for the rows labelled LABEL, as svm-train's -wi (-w1 5 -w-1 0.5); "
        "not with --class-weight"))
    train.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                       help="show progress (a bar even when stderr is not a terminal) or not; default: a bar on "
                       "a terminal, else plain lines; -q: none")
    train.add_argument("--n-features", type=parse_int, help="columns of the data (default: the largest index in DATA)")
    train.add_argument("--stream", action="store_true",
                       help="budgeted solvers: read DATA in chunks and train by partial_fit (needs --n-features)")
    train.add_argument("--classes", type=lambda s: [parse_float(v) for v in s.split(",")],
                       help="with --stream: the labels, comma-separated (default: one pass over DATA finds them)")
    train.add_argument("--shuffle-buffer", type=parse_int, default=100_000,
                       help="with --stream: rows mixed in memory before training (0: none; default 100000)")
    _data_options(train)
    train.set_defaults(handler=_checked_train, flags=add_flags(train), label_weights=[])

    predict = commands.add_parser(
        "predict",
        help="predict a LIBSVM/svmlight file with a model (as svm-predict)",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Predict DATA with MODEL, write one line per row to OUTPUT and print the accuracy.",
        epilog=("examples:\n  budgetsvm predict ijcnn1.t ijcnn1.model out.txt\n"
                "  budgetsvm predict --output decision a9a.t a9a.model scores.txt\n"
                "A label never seen in training counts as wrong (with a warning): unlabeled files carry dummy labels.\n"
                "Features beyond the model's (an index in DATA past its n_features) are ignored, with one warning."),
    )
    predict.add_argument("data", metavar="DATA")
    predict.add_argument("model", metavar="MODEL")
    predict.add_argument("output_file", metavar="OUTPUT")
    predict.add_argument("--output", choices=["label", "decision", "proba"], default="label",
                         help="what each line holds (default label)")
    _data_options(predict)
    predict.set_defaults(handler=_run_predict)

    info = commands.add_parser("info", help="describe a model file", description="Describe a model file.")
    info.add_argument("model", metavar="MODEL")
    info.set_defaults(handler=_run_info)

    convert = commands.add_parser(
        "convert", help="convert a model file between formats",
        description="Convert a model file (budgetsvm, LIBSVM or LIBLINEAR; recognised by its content).",
        epilog="example:  budgetsvm convert --to libsvm ijcnn1.model ijcnn1.libsvm",
    )
    convert.add_argument("--to", choices=list(FORMATS), required=True)
    convert.add_argument("input", metavar="IN")
    convert.add_argument("output", metavar="OUT")
    convert.set_defaults(handler=_run_convert)


def _checked_train(args: argparse.Namespace) -> int:
    if args.model is None and args.cross_validation is None:
        raise ValueError("train needs MODEL (the file to write) unless -v K asks for cross-validation")
    refuse_same_files([args.model], [args.data])
    return _run_train(args)
