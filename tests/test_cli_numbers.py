"""The CLI on files of another width than the model's, and on input without
newlines (issue 64, items 4 and 7). Data are generated: an a9a-like file
(123 binary features) and an ijcnn1-like one (22), no real data set."""

from __future__ import annotations

import os
import subprocess
import sys
import warnings

import numpy as np
import pytest

from budgetsvm import load_model, load_svmlight
from budgetsvm.cli import main
from conftest import write_svmlight


@pytest.fixture(scope="module")
def a9a_like(tmp_path_factory):
    """A LinearSVC model of 123 binary features (a9a's width) and the rows it was trained on."""
    rng = np.random.default_rng(0)
    X = (rng.random((600, 123)) < 0.1).astype(float)
    y = np.where(X[:, :10].sum(axis=1) - X[:, 10:20].sum(axis=1) > 0, 1, -1)
    d = tmp_path_factory.mktemp("widths")
    write_svmlight(d / "train.svm", X, y)
    assert main(["train", "-q", "--solver", "linear", "--n-features", "123", str(d / "train.svm"),
                 str(d / "a9a.model")]) == 0
    return d, X, y


def test_a_narrower_file_is_predicted_without_a_word(a9a_like, tmp_path, capsys):
    # ijcnn1's width (22 features) against a model of 123: fewer columns is normal in svmlight files
    d, X, y = a9a_like
    narrow = X[:200, :22]
    write_svmlight(tmp_path / "narrow.svm", narrow, y[:200])
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # not even a warning
        assert main(["predict", str(tmp_path / "narrow.svm"), str(d / "a9a.model"), str(tmp_path / "out")]) == 0
    captured = capsys.readouterr()
    assert captured.out.startswith("Accuracy = ") and captured.err == ""
    model = load_model(d / "a9a.model")
    expected = model.predict(np.hstack([narrow, np.zeros((200, 101))]))
    np.testing.assert_array_equal(np.loadtxt(tmp_path / "out"), expected)


@pytest.mark.parametrize("zero_based", [False, True])
def test_a_wider_file_warns_once_naming_both_widths_and_ignores_the_extra_features(
    a9a_like, tmp_path, capsys, zero_based
):
    # a file whose largest index (130) exceeds the model's 123 features: it was an error
    # ("feature index 124 is out of range"), and in the issue a silent prediction
    d, X, y = a9a_like
    rows = X[:300]
    path = tmp_path / "wide.svm"
    with open(path, "w") as f:
        for i, (row, label) in enumerate(zip(rows, y[:300])):
            base = 0 if zero_based else 1
            pairs = [f"{k + base}:{v:g}" for k, v in enumerate(row) if v != 0]
            if i % 3 == 0:
                pairs += [f"{124 + base - 1}:5", f"{130 + base - 1}:-2"]  # columns 124 and 130 (1-based)
            f.write(f"{label:g} " + " ".join(pairs) + "\n")
    args = ["predict", "--chunk-rows", "64", str(path), str(d / "a9a.model"), str(tmp_path / "out")]
    if zero_based:
        args.insert(1, "--zero-based")
    largest = "129 (0-based)" if zero_based else "130"
    with pytest.warns(UserWarning) as record:
        assert main(args) == 0
    assert len(record) == 1
    assert str(record[0].message) == (
        f"{path}: its largest feature index is {largest}, beyond the model's n_features=123; "
        "the features beyond are ignored"
    )
    assert capsys.readouterr().out.startswith("Accuracy = ")
    model = load_model(d / "a9a.model")
    np.testing.assert_array_equal(np.loadtxt(tmp_path / "out"), model.predict(rows))


def test_the_warning_is_one_message_on_stderr_of_the_command(a9a_like, tmp_path):
    d, X, y = a9a_like
    write_svmlight(tmp_path / "wide.svm", X[:50], y[:50], extra=(200, 1.0))
    out = subprocess.run(
        [sys.executable, "-m", "budgetsvm.cli", "predict", str(tmp_path / "wide.svm"), str(d / "a9a.model"),
         str(tmp_path / "out")], capture_output=True, text=True, timeout=300,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
    )
    assert out.returncode == 0, out.stderr
    assert out.stderr.count("UserWarning") == 1 and "largest feature index is 200" in out.stderr
    assert "n_features=123" in out.stderr and "Traceback" not in out.stderr
    assert len(np.loadtxt(tmp_path / "out")) == 50


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
@pytest.mark.parametrize("command", ["train", "predict"])
def test_dev_zero_is_one_line_and_exit_code_1(a9a_like, tmp_path, capsys, command):
    # issue 64, item 7: the readers grew until MemoryError (bad_alloc at 3 GiB)
    d, _, _ = a9a_like
    args = ["train", "/dev/zero", str(tmp_path / "m")] if command == "train" else \
        ["predict", "/dev/zero", str(d / "a9a.model"), str(tmp_path / "out")]
    assert main(args) == 1
    err = capsys.readouterr().err.strip()
    assert err == (
        f"budgetsvm {command}: error: /dev/zero: line 1: longer than max_line_bytes=16777216 bytes "
        "(binary data, or a file without newlines?)"
    )
    assert not os.path.exists(tmp_path / "m")


def test_numbers_with_two_signs_are_refused_by_the_commands(a9a_like, tmp_path, capsys):
    d, X, y = a9a_like
    for text, what in (("+-1 1:1\n", "label"), ("1 1:+-1\n", "value")):
        (tmp_path / "signs.svm").write_text("1 2:1\n" + text)
        assert main(["train", "-q", "--solver", "linear", str(tmp_path / "signs.svm"), str(tmp_path / "m")]) == 1
        assert f"line 2: cannot parse the {what}" in capsys.readouterr().err
        assert main(["predict", str(tmp_path / "signs.svm"), str(d / "a9a.model"), str(tmp_path / "o")]) == 1
        assert f"line 2: cannot parse the {what}" in capsys.readouterr().err
    assert load_svmlight(d / "train.svm", n_features=123)[0].shape == (600, 123)


@pytest.mark.parametrize("value", ["+-1", "1_0", " 1", "0x10", "1e"])
def test_command_line_numbers_follow_the_readers_grammar(a9a_like, tmp_path, capsys, value):
    # Python's float() reads "1_0" as 10 and " 1" as 1: not numbers of the grammar
    d, _, _ = a9a_like
    data = str(d / "train.svm")
    for args in (["train", "-c", value, data, str(tmp_path / "m")],  # a float flag of the registry
                 ["train", "--budget", value, data, str(tmp_path / "m")],  # an int flag of the registry
                 ["train", "--n-features", value, data, str(tmp_path / "m")],
                 ["demo", "--C", value], ["demo", "--gamma", value]):
        with pytest.raises(SystemExit) as info:
            main(args)
        assert info.value.code == 1  # a usage error (the CLI exits 1 on every mistake)
        assert value in capsys.readouterr().err
    assert not os.path.exists(tmp_path / "m")


def test_command_line_numbers_of_the_grammar_are_read(a9a_like, tmp_path):
    d, _, _ = a9a_like
    assert main(["train", "-q", "--solver", "linear", "-c", "+.5e1", "--n-features", "+123", "--tol", "1E-4",
                 str(d / "train.svm"), str(tmp_path / "m")]) == 0
    model = load_model(tmp_path / "m")
    assert (model.C, model.tol, model.n_features_in_) == (5.0, 1e-4, 123)
