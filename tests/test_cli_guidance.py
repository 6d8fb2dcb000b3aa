"""A command line that guides (issue 58): per-solver help, svm-train's -wLABEL
weights, progress with a total and an ETA, -v K with and without --stream,
usage errors that exit 1, one default for epochs."""

from __future__ import annotations

import gzip
import importlib.util
import inspect
import io
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from budgetsvm import SVC, BudgetedSVC, LinearSVC, iter_svmlight, load_model
from budgetsvm.cli._flags import FAMILY_SOLVERS, NOT_FLAGS, SOLVERS, flag_help
from budgetsvm.cli._progress import Progress, choose_mode, size_text
from budgetsvm.cli import main
from budgetsvm.cli._stream import folds
from budgetsvm.io import SvmlightChunks as FileChunks
from conftest import write_svmlight, xor_rows

ESTIMATORS = {"BudgetedSVC": BudgetedSVC, "SVC": SVC, "LinearSVC": LinearSVC}


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    X, y = xor_rows(600)
    d = tmp_path_factory.mktemp("guidance")
    write_svmlight(d / "train.svm", X, y)
    with open(d / "train.svm", "rb") as plain, gzip.open(d / "train.svm.gz", "wb") as packed:
        packed.write(plain.read())
    # labels other than -1 and 1 (the estimators take integer-valued labels only)
    write_svmlight(d / "odd.svm", X, np.where(y > 0, 7, -3))
    return d


def one_line_error(capsys, message):
    err = capsys.readouterr().err.strip()
    assert message in err, err
    assert len(err.splitlines()) == 1, err


# -- 1. help per solver -------------------------------------------------------


def _help(argv, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 0
    return capsys.readouterr().out


def _section(text, title):
    """The entries (flag line, help text) of one help section."""
    lines = text.split(title, 1)[1].splitlines()[1:]
    entries, current = [], None
    for line in lines:
        if line and not line.startswith(" "):
            break  # the next section
        entry = re.match(r"^  (-\S.*?)(?:\s{2,}(\S.*))?$", line)
        if entry:
            current = [entry.group(1), entry.group(2) or ""]
            entries.append(current)
        elif current is not None and line.strip():
            current[1] = (current[1] + " " + line.strip()).strip()
    return entries


@pytest.mark.parametrize("solver", list(SOLVERS))
def test_solver_help_lists_only_its_estimators_flags_each_with_a_help_line(solver, capsys):
    est_name = SOLVERS[solver][0]
    text = _help(["train", "--solver", solver, "--help"], capsys)
    titles = re.findall(r"^hyperparameters of (\w+)", text, re.M)
    assert titles == [est_name]
    entries = _section(text, f"hyperparameters of {est_name}")
    shown = {re.search(r"--([\w-]+)", flags).group(1).replace("-", "_") for flags, _ in entries}
    params = set(inspect.signature(ESTIMATORS[est_name]).parameters) - NOT_FLAGS
    assert shown == params
    for flags, help_text in entries:
        assert help_text and "docstring" not in help_text, flags
        assert re.search(r"\(default: \S.*\)$", help_text), (flags, help_text)
        assert len(help_text.split()) >= 4, (flags, help_text)


def test_every_flag_of_bsca_help_has_a_non_empty_help_line(capsys):
    # the target of the issue, on the text as printed; also with --help first
    for argv in (["train", "--solver", "bsca", "--help"], ["train", "--help", "--solver=bsca"]):
        entries = _section(_help(argv, capsys), "hyperparameters of BudgetedSVC")
        assert len(entries) >= 19 and all(help_text.strip() for _, help_text in entries)


def test_help_without_solver_groups_the_flags_by_estimator(capsys):
    text = _help(["train", "--help"], capsys)
    assert re.findall(r"^hyperparameters of .*$", text, re.M) == [
        "hyperparameters of BudgetedSVC (-s 0 --solver bsca, bsgd):",
        "hyperparameters of SVC (-s 0 --solver exact, alfpgm, smo):",
        "hyperparameters of LinearSVC (-s 0 --solver linear):",
        "hyperparameters of NuSVC (-s 1 --solver exact):",
        "hyperparameters of OneClassSVM (-s 2 --solver exact, alfpgm, smo):",
        "hyperparameters of BudgetedOneClassSVM (-s 2 --solver bsgd):",
        "hyperparameters of SVR (-s 3 --solver exact, alfpgm, smo):",
        "hyperparameters of BudgetedSVR (-s 3 --solver bsca, bsgd):",
        "hyperparameters of NuSVR (-s 4 --solver exact):",
    ]
    # -s TYPE (with or without --solver) narrows the groups to that type's estimators
    titles = re.findall(r"^hyperparameters of (\w+)", _help(["train", "-s", "3", "--help"], capsys), re.M)
    assert titles == ["SVR", "BudgetedSVR"]
    titles = re.findall(r"^hyperparameters of (\w+)", _help(["train", "-s", "3", "--solver", "bsgd", "--help"], capsys),
                        re.M)
    assert titles == ["BudgetedSVR"]
    # a flag of two estimators is listed in both, with each one's default
    svc = dict(_section(text, "hyperparameters of SVC"))
    linear = dict(_section(text, "hyperparameters of LinearSVC"))
    assert svc["--max-iter VALUE"].endswith("(default: -1)")
    assert linear["--max-iter VALUE"].endswith("(default: none)")
    # the usage line is short: the hyperparameters are in the groups
    usage = text.split("\n\n")[0]
    assert "--budget" not in usage and "--merge-method" not in usage


def test_flag_help_of_every_estimator_is_real_text():
    for est_name, est in ESTIMATORS.items():
        helps = flag_help(est_name)
        assert set(helps) == set(inspect.signature(est).parameters) - NOT_FLAGS
        for name, text in helps.items():
            doc = text.rsplit(" (default: ", 1)[0]
            assert len(doc.split()) >= 3 and "docstring" not in doc and "``" not in doc, (est_name, name, text)


def test_help_defaults_are_the_estimators():
    assert flag_help("BudgetedSVC")["epochs"] == "passes over the data (default: 3)"
    assert flag_help("BudgetedSVC")["budget"].endswith("(default: 500)")
    assert flag_help("LinearSVC")["fit_intercept"].endswith("(default: true)")
    assert flag_help("BudgetedSVC")["fit_intercept"].endswith("(default: false)")
    assert flag_help("SVC")["probability"].endswith("(default: 0)")  # svm-train's -b


def test_the_documented_parser_shows_the_groups():
    # docs/cli.md renders docs/cli_reference.parser() with sphinx-argparse,
    # which reads every group's actions: the three groups, each flag with its help
    spec = importlib.util.spec_from_file_location("cli_reference", Path(__file__).parents[1] / "docs" /
                                                  "cli_reference.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    top = module.parser()
    train = next(a for a in top._actions if a.__class__.__name__ == "_SubParsersAction").choices["train"]
    groups = [g for g in train._action_groups if getattr(g, "solvers", None)]
    assert sorted(g.solvers for g in groups) == sorted(FAMILY_SOLVERS.values())
    for group in groups:
        assert group._group_actions and all(a.help and a.help != "==SUPPRESS==" for a in group._group_actions)


# -- 2. -wLABEL WEIGHT ----------------------------------------------------------


def test_label_weights_are_class_weight(files):
    model = files / "w.model"
    args = ["train", "-q", "--solver", "smo", "-g", "2", "-w1", "5", "-w-1", "0.5", str(files / "train.svm"),
            str(model)]
    assert main(args) == 0
    from budgetsvm import load_svmlight

    X, y = load_svmlight(files / "train.svm")
    expected = SVC(gamma=2.0, class_weight={1.0: 5.0, -1.0: 0.5}).fit(X, y)
    unweighted = SVC(gamma=2.0).fit(X, y)
    got = load_model(model).decision_function(X)
    np.testing.assert_allclose(got, expected.decision_function(X), rtol=1e-9, atol=1e-9)
    assert not np.allclose(got, unweighted.decision_function(X), atol=1e-3)


def test_label_weights_with_other_labels_and_the_budgeted_solvers(files):
    model = files / "w_odd.model"
    # a label's number as written or not (-3.0 is the label -3)
    args = ["train", "-q", "-g", "2", "--budget", "30", "--random-state", "0", "-w7", "3", "-w-3.0", "0.25",
            str(files / "odd.svm"), str(model)]
    assert main(args) == 0
    from budgetsvm import load_svmlight

    X, y = load_svmlight(files / "odd.svm")
    expected = BudgetedSVC(gamma=2.0, budget=30, random_state=0, class_weight={7.0: 3.0, -3.0: 0.25}).fit(X, y)
    np.testing.assert_array_equal(load_model(model).dual_coef_, expected.dual_coef_)


def test_label_weights_in_a_stream(files):
    model = files / "w_stream.model"
    args = ["train", "-q", "--stream", "--n-features", "3", "--solver", "bsgd", "--epochs", "1", "-w1", "2",
            str(files / "train.svm"), str(model)]
    assert main(args) == 0
    assert load_model(model).class_weight == {1.0: 2.0}
    bad = ["train", "-q", "--stream", "--n-features", "3", "-w7", "2", str(files / "train.svm"), str(model)]
    assert main(bad) == 1


def test_an_unknown_label_is_one_line_and_exit_1(files, capsys):
    model = files / "never.model"
    assert main(["train", "-w3", "2", str(files / "train.svm"), str(model)]) == 1
    one_line_error(capsys, "-w3: no row of")
    assert not model.exists()


@pytest.mark.parametrize(
    "flags, message",
    [
        (["-w1", "0"], "-w1: the weight must be a positive finite number"),
        (["-w1", "-2"], "-w1: the weight must be a positive finite number"),
        (["-w1", "nan"], "-w1: the weight must be a positive finite number"),
        (["-w1", "inf"], "-w1: the weight must be a positive finite number"),
        (["-w1", "heavy"], "-w1 needs a weight after it"),
        (["-wone", "2"], "the label after -w must be a number"),
        (["-w", "2"], "-w needs the label in its name"),
        (["-w1", "2", "-w1.0", "3"], "is given a weight twice"),
    ],
)
def test_malformed_label_weights_are_usage_errors(files, flags, message, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["train", *flags, str(files / "train.svm"), str(files / "x.model")])
    assert exit_.value.code == 1
    one_line_error(capsys, message)


def test_label_weights_and_class_weight_exclude_each_other(files, capsys):
    args = ["train", "-w1", "2", "--class-weight", "balanced", str(files / "train.svm"), str(files / "x.model")]
    assert main(args) == 1
    one_line_error(capsys, "-wLABEL and --class-weight both set the class weights")


def test_a_missing_weight_at_the_end(files, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["train", str(files / "train.svm"), "-w1"])
    assert exit_.value.code == 1
    one_line_error(capsys, "-w1 needs a weight")


# -- 3. progress ------------------------------------------------------------------


def test_choose_mode():
    class Terminal(io.StringIO):
        def isatty(self):
            return True

    assert choose_mode(None, False, Terminal()) == "bar"
    assert choose_mode(None, False, io.StringIO()) == "lines"
    assert choose_mode(False, False, Terminal()) == "off"
    assert choose_mode(True, False, io.StringIO()) == "bar"
    assert choose_mode(None, True, Terminal()) == "off"
    assert choose_mode(True, True, io.StringIO()) == "bar"  # --progress wins over -q


def test_lines_at_the_first_update_then_at_most_every_interval():
    now = [0.0]
    out = io.StringIO()
    with Progress("lines", 100, "epoch 1/1", unit="B", pass_bytes=100, out=out, clock=lambda: now[0]) as p:
        for second in range(1, 101):  # one byte a second, 100 s
            now[0] = float(second)
            p.moveto(second)
    lines = out.getvalue().splitlines()
    elapsed = [re.search(r", (.*) elapsed", line).group(1) for line in lines]
    assert elapsed == ["1 s", "11 s", "21 s", "31 s", "41 s", "51 s", "1 min 01 s", "1 min 11 s", "1 min 21 s",
                       "1 min 31 s"]
    assert lines[0] == "epoch 1/1: 1 B of 100 B; 1% in all, 1 s elapsed, ETA 1 min 39 s"


def test_a_mark_is_one_line_with_the_progress():
    now = [0.0]
    out = io.StringIO()
    with Progress("lines", 3, "epoch 1/3", out=out, clock=lambda: now[0]) as p:
        now[0] = 10.0
        p.mark("500 support vectors", advance=1)
        p.describe("epoch 2/3")
        now[0] = 20.0
        p.mark("500 support vectors", advance=1)
    assert out.getvalue().splitlines() == [
        "epoch 1/3: 500 support vectors; 33% in all, 10 s elapsed, ETA 20 s",
        "epoch 2/3: 500 support vectors; 67% in all, 20 s elapsed, ETA 10 s",
    ]
    assert Progress("off", 3, "x", out=out).mode == "off"


def test_in_memory_fit_prints_one_line_per_epoch_when_not_a_terminal(files, capsys):
    args = ["train", "-g", "2", "--budget", "30", "--epochs", "3", str(files / "train.svm"), str(files / "p.model")]
    assert main(args) == 0
    err = capsys.readouterr().err.splitlines()
    epochs = [line for line in err if line.startswith("epoch ")]
    assert [line.split(":")[0] for line in epochs] == ["epoch 1/3", "epoch 2/3", "epoch 3/3"]
    assert all("ETA" in line for line in epochs) and "33% in all" in epochs[0]
    assert err[-1].startswith("trained bsca")


def test_no_progress_and_quiet(files, capsys):
    base = ["-g", "2", "--budget", "30", str(files / "train.svm"), str(files / "p.model")]
    assert main(["train", "--no-progress", *base]) == 0
    err = capsys.readouterr().err
    assert "epoch" not in err and err.startswith("trained bsca")
    assert main(["train", "-q", *base]) == 0
    assert capsys.readouterr().err == ""


def test_progress_bar_when_forced(files, capsys):
    args = ["train", "--progress", "-q", "-g", "2", "--budget", "30", str(files / "train.svm"), str(files / "p.model")]
    assert main(args) == 0
    err = capsys.readouterr().err
    assert "epoch 3/3" in err and "ETA" in err and "|" in err  # tqdm's bar, written to the captured stderr


def _first_progress(err):
    return next(part for part in re.split(r"[\r\n]", err) if part.startswith("epoch 1/"))


@pytest.mark.parametrize("name", ["train.svm", "train.svm.gz"])
@pytest.mark.parametrize("mode", ["bar", "lines"])
def test_stream_progress_shows_the_total_and_an_eta_first(files, name, mode, capsys):
    path = files / name
    flags = ["--progress"] if mode == "bar" else []
    args = ["train", *flags, "--stream", "--n-features", "3", "--chunk-rows", "20", "--shuffle-buffer", "0",
            "--classes=-1,1", "--solver", "bsgd", "--budget", "20", "--epochs", "2", str(path), str(files / "s.model")]
    assert main(args) == 0
    first = _first_progress(capsys.readouterr().err)
    # the total is the file's size as stored (compressed bytes for .gz)
    assert f"of {size_text(os.path.getsize(path))}" in first, first
    assert re.search(r"ETA (\d|\d\d:\d\d)", first), first  # a time, not "?"
    assert first.startswith("epoch 1/2")


def test_stream_without_a_terminal_prints_a_line_per_epoch(files, capsys):
    args = ["train", "--stream", "--n-features", "3", "--solver", "bsgd", "--budget", "20", "--epochs", "2",
            str(files / "train.svm.gz"), str(files / "s.model")]
    assert main(args) == 0
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith("reading the labels: ")
    ends = [line for line in err if "support vectors" in line and line.startswith("epoch")]
    assert [line.split(":")[0] for line in ends] == ["epoch 1/2", "epoch 2/2"]
    assert "600 rows" in ends[0] and "100% in all" in ends[1]


def test_file_chunks_are_iter_svmlights(files):
    # FileChunks reads as iter_svmlight (with the position of the raw file); if
    # iter_svmlight gains a parameter, FileChunks must pass it on as well
    assert list(inspect.signature(iter_svmlight).parameters) == ["path", "chunk_rows", "n_features", "zero_based",
                                                                 "dtype", "max_line_bytes"]
    for name in ("train.svm", "train.svm.gz"):
        data = FileChunks(files / name, chunk_rows=64, n_features=3, zero_based=False)
        positions = []
        ours = []
        for X, y in data:
            ours.append((X, y))
            positions.append(data.position())
        theirs = list(iter_svmlight(files / name, 64, n_features=3, zero_based=False))
        assert len(ours) == len(theirs) and data.rows == 600
        for (X, y), (Xt, yt) in zip(ours, theirs):
            assert (X != Xt).nnz == 0 and np.array_equal(y, yt)
        assert positions == sorted(positions) and positions[-1] == data.size == os.path.getsize(files / name)


def test_file_chunks_errors_as_iter_svmlight(tmp_path):
    path = tmp_path / "bad.svm"
    path.write_text("1 1:0.5\n1 2:x\n")
    with pytest.raises(ValueError) as theirs:
        list(iter_svmlight(path, 1, n_features=3, zero_based=False))
    with pytest.raises(ValueError) as ours:
        list(FileChunks(path, 1, n_features=3, zero_based=False))
    assert str(ours.value) == str(theirs.value)
    with pytest.raises(ValueError, match="chunk_rows"):
        FileChunks(path, 0, n_features=3, zero_based=False)
    with pytest.raises(FileNotFoundError):
        FileChunks(tmp_path / "missing.svm", 1, n_features=3, zero_based=False)


@pytest.mark.parametrize("mode", ["bar", "lines"])
def test_a_stream_of_a_large_file_shows_its_total_and_eta_at_the_first_chunk(tmp_path, monkeypatch, mode):
    # 200,000 rows, compressed (the issue measured 2M: the first output comes
    # after the first chunk, whatever the file's length)
    rng = np.random.default_rng(3)
    X = rng.uniform(-1, 1, size=(200_000, 2)).round(3)
    y = np.where(X[:, 0] * X[:, 1] > 0, 1, -1)
    path = tmp_path / "large.svm.gz"
    with gzip.open(path, "wt", compresslevel=1) as f:
        f.write("\n".join(f"{label} 1:{a} 2:{b}" for label, (a, b) in zip(y, X)) + "\n")
    err = io.StringIO()
    monkeypatch.setattr(sys, "stderr", err)
    flags = ["--progress"] if mode == "bar" else []
    args = ["train", *flags, "--stream", "--n-features", "2", "--classes=-1,1", "--solver", "bsgd", "--budget", "20",
            "--epochs", "1", str(path), str(tmp_path / "large.model")]
    assert main(args) == 0
    first = _first_progress(err.getvalue())
    size = size_text(os.path.getsize(path))
    shown = re.match(r"epoch 1/1: ([\d.]+ [kM]?B) of " + re.escape(size), first)
    assert shown, first
    assert re.search(r"ETA (\d+ s|\d+ min|\d\d:\d\d)", first), first
    assert shown.group(1) != size  # shown while the file is being read, not at its end


# -- 4. -v K ----------------------------------------------------------------------


def test_folds_deal_every_block_of_k_rows_to_the_k_folds():
    f = folds(0, 1003, 7, seed=0)
    assert set(f.tolist()) == set(range(7))
    for start in range(0, 1001 - 7, 7):
        assert sorted(f[start:start + 7].tolist()) == list(range(7))
    counts = np.bincount(f, minlength=7)
    assert counts.max() - counts.min() <= 1
    # independent of the chunks, dependent on the seed
    chunked = np.concatenate([folds(s, min(100, 1003 - s), 7, seed=0) for s in range(0, 1003, 100)])
    assert np.array_equal(chunked, f)
    assert not np.array_equal(folds(0, 1003, 7, seed=1), f)
    # not the identity: rows are dealt in a drawn order
    assert not np.array_equal(f[:7], np.arange(7))


def _fold_lines(err):
    return [line for line in err.splitlines() if re.match(r"fold \d+/\d+: accuracy", line)]


@pytest.mark.parametrize("stream", [False, True])
def test_cross_validation_shows_each_fold_and_is_repeatable(files, stream, capsys):
    args = ["train", "-v", "3", "-g", "2", "--budget", "30", "--epochs", "2", str(files / "train.svm")]
    if stream:
        args[1:1] = ["--stream", "--n-features", "3", "--chunk-rows", "50"]
    assert main(args) == 0
    first = capsys.readouterr()
    assert main(args) == 0
    second = capsys.readouterr()
    assert first.out == second.out
    assert re.fullmatch(r"Cross Validation Accuracy = [\d.]+% \(3 folds, random state 0\)\n", first.out)
    accuracy = float(first.out.split("= ")[1].split("%")[0])
    assert 85 < accuracy <= 100
    folds_ = _fold_lines(first.err)
    assert [line.split(":")[0] for line in folds_] == ["fold 1/3", "fold 2/3", "fold 3/3"]
    counts = [re.search(r"\((\d+)/(\d+)\)", line).groups() for line in folds_]
    assert sum(int(n) for _, n in counts) == 600  # every row tested once
    assert sum(int(c) for c, _ in counts) == round(accuracy * 6)
    assert [line.split(";")[0] for line in _fold_lines(second.err)] == [line.split(";")[0] for line in folds_]


def test_cross_validation_random_state_is_printed_and_used(files, capsys):
    base = ["train", "-q", "-v", "4", "--solver", "linear", str(files / "train.svm")]
    assert main([*base, "--random-state", "7"]) == 0
    assert capsys.readouterr().out.endswith("(4 folds, random state 7)\n")
    assert main([*base, "--random-state", "x"]) == 1
    one_line_error(capsys, "-v needs --random-state to be an integer")


def test_cross_validation_of_the_linear_solver_counts_folds(files, capsys):
    assert main(["train", "-v", "3", "--solver", "linear", str(files / "train.svm")]) == 0
    err = capsys.readouterr().err
    assert [line.split(";")[1].strip().split(",")[0] for line in _fold_lines(err)] == [
        "33% in all", "67% in all", "100% in all"]


@pytest.mark.parametrize(
    "extra, message",
    [
        (["-v", "1"], "-v needs at least 2 folds; got 1"),
        (["-v", "0"], "-v needs at least 2 folds; got 0"),
        (["-v", "601"], "has 600 rows, fewer than the 601 folds"),
        (["--stream", "--n-features", "3", "-v", "601"], "has 600 rows, fewer than the 601 folds"),
        (["--stream", "--n-features", "3", "--classes=-1,1", "-v", "601"], "has 600 rows, fewer than the 601 folds"),
        (["--stream", "-v", "3"], "--stream needs --n-features"),
    ],
)
def test_bad_folds_are_one_line_and_exit_1(files, extra, message, capsys):
    assert main(["train", "-q", *extra, str(files / "train.svm")]) == 1
    one_line_error(capsys, message)


def test_cross_validation_on_as_many_folds_as_rows(files, tmp_path, capsys):
    rng = np.random.default_rng(2)
    path = tmp_path / "tiny.svm"
    write_svmlight(path, rng.uniform(-1, 1, size=(6, 2)), np.array([1, -1] * 3))
    assert main(["train", "-q", "--stream", "--n-features", "2", "-v", "6", "--budget", "5", str(path)]) == 0
    assert "(6 folds, random state 0)" in capsys.readouterr().out


# -- 5. usage errors exit 1 ---------------------------------------------------------


@pytest.mark.parametrize(
    "argv, message",
    [
        (["train", "--nope", "{train}", "{d}/x.model"], "budgetsvm train: error: unrecognized arguments: --nope"),
        (["train", "--budget", "many", "{train}", "{d}/x.model"], "argument --budget: must be an integer; got many"),
        (["train", "--solver", "fast", "{train}"], "argument --solver: invalid choice: 'fast'"),
        (["train"], "the following arguments are required: DATA"),
        (["predict", "{train}"], "the following arguments are required"),
        (["frobnicate"], "budgetsvm: error: argument COMMAND: invalid choice: 'frobnicate'"),
        (["convert", "a", "b"], "the following arguments are required: --to"),
        (["demo", "--budget", "1"], "argument --budget: must be an integer >= 2"),
    ],
)
def test_usage_errors_exit_1_with_one_line(files, argv, message, capsys):
    argv = [a.format(train=files / "train.svm", d=files) for a in argv]
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 1
    one_line_error(capsys, message)


def test_help_and_version_still_exit_0(capsys):
    for argv in (["--help"], ["--version"], ["train", "--help"], ["predict", "--help"]):
        with pytest.raises(SystemExit) as exit_:
            main(argv)
        assert exit_.value.code == 0
    capsys.readouterr()


def test_the_program_exits_1_on_a_wrong_flag():
    result = subprocess.run([sys.executable, "-m", "budgetsvm.cli", "train", "--nope", "x.svm"], capture_output=True,
                            text=True)
    assert result.returncode == 1
    assert result.stderr.strip().splitlines() == [
        "budgetsvm train: error: unrecognized arguments: --nope (see budgetsvm train --help)"]


# -- 6. one default for epochs ----------------------------------------------------


def test_one_default_for_epochs(files):
    default = inspect.signature(BudgetedSVC).parameters["epochs"].default
    assert default == 3
    model = files / "default_epochs.model"
    assert main(["train", "-q", "-g", "2", "--budget", "30", str(files / "train.svm"), str(model)]) == 0
    assert load_model(model).epochs == default and load_model(model).n_iter_ == default
    # a stream runs as many passes
    args = ["train", "-q", "--stream", "--n-features", "3", "--solver", "bsgd", "--budget", "20",
            str(files / "train.svm"), str(model)]
    assert main(args) == 0
    assert load_model(model).n_samples_seen_ == default * 600


def test_readme_examples_use_the_default_epochs():
    default = inspect.signature(BudgetedSVC).parameters["epochs"].default
    readme = (Path(__file__).parents[1] / "README.md").read_text()
    shown = re.findall(r"epochs=(\d+)|--epochs (\d+)", readme)
    assert shown and all(int(a or b) == default for a, b in shown), shown
