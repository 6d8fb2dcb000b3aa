"""``budgetsvm train / predict / info / convert`` on generated svmlight files."""

from __future__ import annotations

import os

import numpy as np
import pytest

from budgetsvm import load_model
from budgetsvm.io import load_svmlight
from budgetsvm.cli import main
from conftest import write_svmlight, xor_rows


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    X, y = xor_rows(1200)
    d = tmp_path_factory.mktemp("cli")
    write_svmlight(d / "train.svm", X[:900], y[:900])
    write_svmlight(d / "test.svm", X[900:], y[900:])
    return d


@pytest.mark.parametrize(
    "solver, flags",
    [("bsca", ["-g", "2", "-c", "10", "--budget", "50"]), ("bsgd", ["-g", "2", "-c", "10", "--budget", "50"]),
     ("smo", ["-g", "2", "-c", "10"]), ("alfpgm", ["-g", "2"]), ("exact", ["-g", "2"]), ("linear", ["-c", "1"])],
)
def test_train_predict_round_trip(files, solver, flags, capsys):
    model = files / f"{solver}.model"
    assert main(["train", "-q", "--solver", solver, *flags, str(files / "train.svm"), str(model)]) == 0
    out = files / f"{solver}.out"
    assert main(["predict", str(files / "test.svm"), str(model), str(out)]) == 0
    printed = capsys.readouterr().out
    assert printed.startswith("Accuracy = ") and "/300) (classification)" in printed
    labels = np.loadtxt(out)
    clf = load_model(model)
    from budgetsvm import load_svmlight

    X, y = load_svmlight(files / "test.svm", n_features=3)
    np.testing.assert_array_equal(labels, clf.predict(X))
    if solver != "linear":
        assert np.mean(labels == y) > 0.85


def test_hyperparameters_reach_the_estimator(files):
    model = files / "hp.model"
    args = ["train", "-q", "--budget", "17", "--merge-method", "gss", "--epochs", "3", "-g", "1.5",
            "--random-state", "4", str(files / "train.svm"), str(model)]
    assert main(args) == 0
    clf = load_model(model)
    assert (clf.budget, clf.merge_method, clf.epochs, clf.gamma_, clf.random_state) == (17, "gss", 3, 1.5, 4)
    assert clf.n_support_ <= 17


def test_shards_and_threads_flags(files):
    # --shards is the registry's option (the sharding, an algorithmic choice); --n-jobs the threads only (#60)
    models = {}
    for flags in (["--n-jobs", "1"], ["--n-jobs", "2"], ["--shards", "2", "--n-jobs", "2"]):
        model = files / f"shards{'_'.join(flags)}.model"
        args = ["train", "-q", "--budget", "20", "-g", "2", "--random-state", "0", *flags, str(files / "train.svm"),
                str(model)]
        assert main(args) == 0
        models[" ".join(flags)] = load_model(model)
    assert models["--shards 2 --n-jobs 2"].shards == 2 and models["--n-jobs 2"].shards == 1
    assert np.array_equal(models["--n-jobs 1"].dual_coef_, models["--n-jobs 2"].dual_coef_)
    assert not np.array_equal(models["--n-jobs 2"].dual_coef_, models["--shards 2 --n-jobs 2"].dual_coef_)


def test_svm_type_as_in_svm_train(files, capsys):
    # -s 0..4 as in svm-train; other values, and a solver that does not train the type, are one-line errors
    model = files / "s0.model"
    assert main(["train", "-q", "-s", "0", "--budget", "20", str(files / "train.svm"), str(model)]) == 0
    assert model.exists()
    for args, message in [(["-s", "7"], "not an svm_type"), (["-s", "x"], "must be an integer"),
                          (["-s", "1", "--solver", "bsca"], "-s 1 (nu-SVC) is trained by --solver exact"),
                          (["-s", "4", "--solver", "linear"], "not --solver linear"),
                          (["-s", "3", "-b", "1"], "--probability does not apply to BudgetedSVR"),
                          (["-s", "3", "-w1", "2"], "weighs the classes of a classifier"),
                          (["-s", "2", "--auto"], "--auto trains C-SVC classifiers"),
                          (["-s", "3", "--stream", "--n-features", "2"], "--stream trains the budgeted classifiers"),
                          (["-s", "0", "-n", "0.5"], "--nu does not apply to BudgetedSVC")]:
        try:  # a usage error (argparse) exits, a refused combination returns 1: both one line on stderr
            code = main(["train", *args, str(files / "train.svm"), str(files / "never.model")])
        except SystemExit as exit_:
            code = exit_.code
        assert code == 1
        err = capsys.readouterr().err
        assert message in err and err.count("\n") == 1, err
    assert not (files / "never.model").exists()


@pytest.fixture(scope="module")
def regression_files(tmp_path_factory):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(500, 3))
    y = np.sin(2 * X[:, 0]) + 0.5 * X[:, 1] + 0.1 * rng.normal(size=500)
    inlier = np.where(np.abs(X[:, 0]) < 1.5, 1, -1)
    d = tmp_path_factory.mktemp("cli-regression")
    write_svmlight(d / "reg.svm", X[:400], y[:400])
    write_svmlight(d / "reg.t", X[400:], y[400:])
    write_svmlight(d / "oc.svm", X[:400], inlier[:400])
    write_svmlight(d / "oc.t", X[400:], inlier[400:])
    return d


@pytest.mark.parametrize("args, estimator", [
    (["-s", "3", "-p", "0.05", "-c", "4", "--budget", "100", "--random-state", "0"], "BudgetedSVR"),
    (["-s", "3", "--solver", "bsgd", "-c", "0.1", "--budget", "100", "--random-state", "0"], "BudgetedSVR"),
    (["-s", "3", "--solver", "smo", "-p", "0.05", "-c", "4"], "SVR"),
    (["-s", "4", "-n", "0.3", "-c", "4"], "NuSVR"),
])
def test_regression_types_train_and_predict_as_svm_predict(regression_files, capsys, args, estimator):
    d = regression_files
    Xt, yt = load_svmlight(d / "reg.t", n_features=3)  # the rows as the file holds them
    model = d / "r.model"
    assert main(["train", "-q", *args, str(d / "reg.svm"), str(model)]) == 0
    est = load_model(model)
    assert type(est).__name__ == estimator
    for flag, name in [("-p", "epsilon"), ("-n", "nu"), ("-c", "C")]:
        if flag in args:
            assert getattr(est, name) == float(args[args.index(flag) + 1])
    out = d / "r.out"
    assert main(["predict", str(d / "reg.t"), str(model), str(out)]) == 0
    printed = capsys.readouterr().out.splitlines()
    values = np.loadtxt(out)
    np.testing.assert_array_equal(values, est.predict(Xt))
    mse = float(np.mean((values - yt) ** 2))
    scc = float(np.corrcoef(values, yt)[0, 1] ** 2)
    assert printed[0] == f"Mean squared error = {mse:g} (regression)"
    assert printed[1].startswith("Squared correlation coefficient = ")
    assert float(printed[1].split("= ")[1].split()[0]) == pytest.approx(scc, rel=1e-5)
    assert mse < 0.5 * np.var(yt)  # learned something: well below predicting the mean
    assert main(["predict", "--output", "proba", str(d / "reg.t"), str(model), str(out)]) == 1
    assert "regression model" in capsys.readouterr().err
    np.testing.assert_array_equal(np.loadtxt(out), values)  # the refused run left the file as it was


@pytest.mark.parametrize("args, estimator", [(["-s", "2", "-n", "0.1", "-g", "0.5", "--random-state", "0"],
                                              "BudgetedOneClassSVM"),
                                             (["-s", "2", "--solver", "exact", "-n", "0.1", "-g", "0.5"],
                                              "OneClassSVM")])
def test_one_class_type_learns_from_the_rows_and_predicts_plus_minus_one(regression_files, capsys, args, estimator):
    d = regression_files
    Xt, inlier = load_svmlight(d / "oc.t", n_features=3)
    model = d / "o.model"
    assert main(["train", "-q", *args, str(d / "oc.svm"), str(model)]) == 0
    est = load_model(model)
    assert type(est).__name__ == estimator
    out = d / "o.out"
    assert main(["predict", str(d / "oc.t"), str(model), str(out)]) == 0
    pred = np.loadtxt(out)
    np.testing.assert_array_equal(pred, est.predict(Xt))
    assert set(np.unique(pred)) <= {-1.0, 1.0}
    right = int(np.sum(pred == inlier))
    assert capsys.readouterr().out.strip() == f"Accuracy = {100.0 * right / len(inlier):g}% ({right}/{len(inlier)}) " \
        "(classification)"
    assert main(["predict", "--output", "decision", str(d / "oc.t"), str(model), str(out)]) == 0
    np.testing.assert_array_equal(np.loadtxt(out), est.decision_function(Xt))


def test_cross_validation_of_the_new_types(regression_files, capsys):
    d = regression_files
    assert main(["train", "-s", "4", "-v", "3", str(d / "reg.svm")]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("Cross Validation Mean squared error = ") and "(3 folds, random state 0)" in out[0]
    assert out[1].startswith("Cross Validation Squared correlation coefficient = ")
    assert main(["train", "-s", "2", "-n", "0.1", "-v", "3", str(d / "oc.svm")]) == 0
    assert capsys.readouterr().out.startswith("Cross Validation Accuracy = ")


def test_nu_svc_type(files, capsys):
    model = files / "nu.model"
    assert main(["train", "-q", "-s", "1", "-n", "0.3", "-g", "2", str(files / "train.svm"), str(model)]) == 0
    est = load_model(model)
    assert type(est).__name__ == "NuSVC" and est.nu == 0.3
    assert main(["predict", str(files / "test.svm"), str(model), str(files / "nu.out")]) == 0
    accuracy = float(capsys.readouterr().out.split("=")[1].split("%")[0])
    assert accuracy > 90


def test_time_takes_a_duration(files, capsys):
    for value in ("2 min", "0", "-5s", "inf", "m"):
        with pytest.raises(SystemExit) as exit_:
            main(["train", "--auto", f"--time={value}", str(files / "train.svm"), str(files / "never.model")])
        assert exit_.value.code == 1
        err = capsys.readouterr().err
        assert "not a duration" in err and err.count("\n") == 1, err


def test_probability_flag_as_in_svm_train(files, capsys):
    # -b 1 is svm-train's option: no FutureWarning about SVC's Python parameter (warnings are errors here)
    model = files / "b1.model"
    assert main(["train", "-q", "--solver", "smo", "-b", "1", "-g", "2", str(files / "train.svm"), str(model)]) == 0
    out = files / "b1.out"
    assert main(["predict", "--output", "proba", str(files / "test.svm"), str(model), str(out)]) == 0
    proba = np.loadtxt(out, skiprows=1)
    assert proba.shape == (300, 2) and np.allclose(proba.sum(axis=1), 1.0)
    with pytest.raises(SystemExit):
        main(["train", "--help"])
    assert "-b VALUE, --probability VALUE" in capsys.readouterr().out


@pytest.mark.parametrize("text, value", [("auto", "auto"), ("true", True), ("false", False)])
def test_merge_duplicates_flag_takes_auto_true_false(files, text, value):
    model = files / f"merge_{text}.model"
    args = ["train", "-q", "--solver", "linear", "--merge-duplicates", text, str(files / "train.svm"), str(model)]
    assert main(args) == 0
    assert load_model(model).merge_duplicates == value


def test_stream_training_and_outputs(files, capsys):
    model = files / "stream.model"
    args = ["train", "-q", "--stream", "--n-features", "3", "--chunk-rows", "100", "--solver", "bsgd", "-g", "2",
            "-c", "10", "--budget", "40", "--epochs", "2", str(files / "train.svm"), str(model)]
    assert main(args) == 0
    clf = load_model(model)
    assert clf.n_samples_seen_ == 1800 and clf.n_iter_ == 18  # two passes of 9 chunks
    out = files / "decision.out"
    assert main(["predict", "-q", "--output", "decision", str(files / "test.svm"), str(model), str(out)]) == 0
    assert np.loadtxt(out).shape == (300,)


def test_convert_to_libsvm_and_info(files, capsys):
    model = files / "bsca.model"
    if not model.exists():
        assert main(["train", "-q", "-g", "2", "--budget", "30", str(files / "train.svm"), str(model)]) == 0
    assert main(["convert", "--to", "libsvm", str(model), str(files / "bsca.libsvm")]) == 0
    assert (files / "bsca.libsvm").read_text().startswith("svm_type c_svc")
    assert main(["info", str(files / "bsca.libsvm")]) == 0
    assert "estimator" in capsys.readouterr().out


def test_cross_validation(files, capsys):
    assert main(["train", "-v", "3", "-g", "2", "--budget", "30", str(files / "train.svm")]) == 0
    accuracy = float(capsys.readouterr().out.split("=")[1].split("%")[0])
    assert 80 < accuracy <= 100


@pytest.mark.parametrize(
    "args, message",
    [
        (["train", "--solver", "smo", "--budget", "5", "{train}", "{d}/x.model"], "--budget does not apply to"),
        (["train", "-c", "-1", "{train}", "{d}/x.model"], "C must be > 0.0"),
        (["train", "--shards", "0", "{train}", "{d}/x.model"], "shards must be >= 1"),
        (["train", "--solver", "linear", "--shards", "2", "{train}", "{d}/x.model"], "--shards does not apply to"),
        (["train", "--stream", "{train}", "{d}/x.model"], "--stream needs --n-features"),
        (["train", "--stream", "--n-features", "3", "--solver", "linear", "{train}", "{d}/x.model"], "--stream trains"),
        (["train", "{train}"], "train needs MODEL"),
        (["train", "--auto", "-c", "2", "--budget", "9", "{train}", "{d}/x.model"],
         "--auto chooses the settings itself: drop -"),
        (["train", "--auto", "-v", "3", "{train}"], "not with -v"),
        (["train", "--auto", "--solver", "linear", "{train}", "{d}/x.model"], "--auto searches the kernel SVMs"),
        (["train", "--time", "2m", "{train}", "{d}/x.model"], "--time is the time budget of --auto"),
        (["train", "--auto", "--stream", "--n-features", "3", "/dev/stdin", "{d}/x.model"], "not a pipe"),
        (["predict", "{train}", "{d}/missing.model", "{d}/x.out"], "No such file"),
        (["info", "{train}"], "is not a model file"),
    ],
)
def test_errors_are_one_line(files, args, message, capsys):
    args = [a.format(train=files / "train.svm", d=files) for a in args]
    assert main(args) == 1
    err = capsys.readouterr().err.strip()
    assert message in err and len(err.splitlines()) == 1


@pytest.mark.parametrize("stream", [False, True])
def test_auto_chooses_within_the_time_and_writes_the_model(files, stream, capsys):
    model = files / f"auto{stream}.model"
    extra = ["--stream", "--n-features", "3"] if stream else []
    args = ["train", "--auto", "--time", "6s", "--random-state", "0", *extra, str(files / "train.svm"), str(model)]
    assert main(args) == 0
    err = capsys.readouterr().err
    assert "AutoSVC: " in err and "stage   rung" in err and f"model written to {model}" in err
    assert "final     -1       900" in err  # the final fit on every row of the file
    clf = load_model(model)
    assert clf.random_state is not None  # the search's seed, fixed for a refit
    if stream:
        assert type(clf).__name__ == "BudgetedSVC" and clf.n_samples_seen_ == 900
    assert main(["predict", str(files / "test.svm"), str(model), str(files / "auto.out")]) == 0
    accuracy = float(capsys.readouterr().out.split("=")[1].split("%")[0])
    assert accuracy > 85


def test_unseen_labels_count_as_wrong(files, tmp_path, capsys):
    model = files / "unseen.model"
    assert main(["train", "-q", "-g", "2", "--budget", "30", str(files / "train.svm"), str(model)]) == 0
    rng = np.random.default_rng(1)
    write_svmlight(tmp_path / "odd.svm", rng.uniform(-1, 1, size=(10, 3)), np.full(10, 7))
    with pytest.warns(UserWarning, match="10 rows carry labels never seen in training"):
        assert main(["predict", str(tmp_path / "odd.svm"), str(model), str(tmp_path / "odd.out")]) == 0
    assert "Accuracy = 0% (0/10)" in capsys.readouterr().out


@pytest.mark.parametrize(
    "args, link",
    [
        (["predict", "{data}", "{model}", "{data}"], None),
        (["predict", "{data}", "{model}", "{model}"], None),
        (["train", "-q", "--budget", "20", "{data}", "{data}"], None),
        (["convert", "--to", "libsvm", "{model}", "{model}"], None),
        (["predict", "{data}", "{model}", "{link}"], "symlink:data"),
        (["predict", "{data}", "{model}", "{link}"], "hardlink:model"),
        (["train", "-q", "--budget", "20", "{data}", "{link}"], "hardlink:data"),
        (["convert", "--to", "budgetsvm", "{model}", "{link}"], "symlink:model"),
    ],
    ids=["predict-D-M-D", "predict-D-M-M", "train-D-D", "convert-M-M", "predict-D-M-symlink-to-D",
         "predict-D-M-hardlink-to-M", "train-D-hardlink-to-D", "convert-M-symlink-to-M"],
)
def test_an_output_that_is_an_input_is_refused(files, tmp_path, args, link, capsys):
    # `predict D M D` emptied D and exited 0; `train D D` and `predict D M M` replaced D or M
    data, model = tmp_path / "d.svm", tmp_path / "m.model"
    data.write_bytes((files / "test.svm").read_bytes())
    assert main(["train", "-q", "--budget", "20", str(data), str(model)]) == 0
    if link is not None:
        kind, target = link.split(":")
        if kind == "symlink" and os.name != "posix":
            pytest.skip("symbolic links need privileges on Windows")
        (os.symlink if kind == "symlink" else os.link)(data if target == "data" else model, tmp_path / "link")
    before = {name: (tmp_path / name).read_bytes() for name in os.listdir(tmp_path)}
    capsys.readouterr()
    argv = [a.format(data=data, model=model, link=tmp_path / "link") for a in args]
    assert main(argv) == 1
    err = capsys.readouterr().err.strip()
    assert "is the same file as the input" in err and len(err.splitlines()) == 1, err
    assert {name: (tmp_path / name).read_bytes() for name in os.listdir(tmp_path)} == before


def test_a_failed_predict_leaves_the_previous_output(files, tmp_path, capsys):
    # a bad line half-way: exit 1 with one line, the previous output byte-identical, no partial file
    model = tmp_path / "m.model"
    assert main(["train", "-q", "--budget", "20", str(files / "train.svm"), str(model)]) == 0
    lines = (files / "train.svm").read_text().splitlines(keepends=True)
    bad = tmp_path / "bad.svm"
    bad.write_text("".join(lines[:600]) + "1 1:abc\n" + "".join(lines[600:]))
    out = tmp_path / "out.txt"
    out.write_text("previous predictions\n")
    before = sorted(os.listdir(tmp_path))
    capsys.readouterr()
    assert main(["predict", "-q", "--chunk-rows", "100", str(bad), str(model), str(out)]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith("budgetsvm predict: error:") and len(err.splitlines()) == 1, err
    assert out.read_text() == "previous predictions\n"
    assert sorted(os.listdir(tmp_path)) == before
    # and the same command on good data replaces it whole
    assert main(["predict", "-q", "--chunk-rows", "100", str(files / "train.svm"), str(model), str(out)]) == 0
    assert len(out.read_text().splitlines()) == 900
    assert sorted(os.listdir(tmp_path)) == before
