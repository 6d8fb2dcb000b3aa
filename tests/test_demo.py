"""Tests of the ``budgetsvm demo`` command."""

from __future__ import annotations

import io
import re
import subprocess
import sys

import numpy as np
import pytest
from sklearn.datasets import dump_svmlight_file

from budgetsvm.cli import main
from budgetsvm.demo import checkerboard, run_demo


def _table_rows(text):
    """(method, accuracy, SVs, merges) of every table line."""
    pattern = re.compile(r"^(BSCA.*?|BSGD.*?|SVC \(exact\))\s+[\d,]+\s+([\d.]+)%\s+([\d,]+)\s+([\d,]+|-)\s+[\d.]+$")
    rows = []
    for line in text.splitlines():
        match = pattern.match(line)
        if match:
            method, accuracy, svs, merges = match.groups()
            rows.append((method, float(accuracy) / 100, int(svs.replace(",", "")), merges))
    return rows


def test_checkerboard_recipe():
    X, y = checkerboard(40_000, seed=3)
    # uniform on the square, standardised: mean 0, standard deviation 1
    np.testing.assert_allclose(X.mean(axis=0), 0.0, atol=0.02)
    np.testing.assert_allclose(X.std(axis=0), 1.0, atol=0.02)
    # alternating 4 x 4 cells, balanced classes
    cell = np.floor((X * (4 / np.sqrt(12.0))) + 2).astype(int)
    assert cell.min() == 0 and cell.max() == 3
    np.testing.assert_array_equal(y, np.where(cell.sum(axis=1) % 2 == 0, 1, -1))
    assert abs(np.mean(y == 1) - 0.5) < 0.01


def test_demo_quick_from_the_command_line(capsys):
    assert main(["demo", "--quick"]) == 0
    out = capsys.readouterr().out
    assert "checkerboard 4x4" in out and "digits (sklearn)" in out
    rows = _table_rows(out)
    assert [r[0].split()[0] for r in rows] == ["BSCA", "BSGD", "SVC"] * 2
    board, digits = rows[:3], rows[3:]
    # budget 50; one-vs-rest BSCA on digits has a budget per class (10 classes)
    for (method, _accuracy, svs, merges), limit in zip(board[:2] + digits[:2], (50, 50, 500, 50)):
        assert svs <= limit, method
        assert merges != "-" and int(merges.replace(",", "")) > 0, method
    assert board[0][1] > 0.9  # BSCA on the checkerboard
    assert digits[0][1] > 0.85  # BSCA one-vs-rest on digits
    assert board[2][1] > 0.9 and digits[2][1] > 0.9  # the exact SVC


def test_demo_rows_report_what_was_trained():
    rows = run_demo(quick=True, budget=20, epochs=1, svc_seconds=0.2, out=io.StringIO())
    assert len(rows) == 6
    for row in rows:
        assert 0.0 <= row.accuracy <= 1.0
        assert row.seconds > 0
        if row.method.startswith(("BSCA", "BSGD")):
            # one-vs-rest BSCA on digits: a budget per class
            n_machines = 10 if row.method.startswith("BSCA") and row.problem.startswith("digits") else 1
            assert row.n_support <= 20 * n_machines
            assert "B=20, 1 epochs" in row.method
    board_svc = rows[2]
    assert board_svc.method == "SVC (exact)"
    assert board_svc.n_train <= 5_000


@pytest.fixture
def svmlight_files(tmp_path):
    X, y = checkerboard(1500, seed=21)
    labels = np.where(y > 0, 2, 1)  # labels that are not -1/+1
    train = tmp_path / "board.svm"
    dump_svmlight_file(X[:1200], labels[:1200], str(train), zero_based=False)
    test = tmp_path / "board.t.svm"
    dump_svmlight_file(X[1200:], labels[1200:], str(test), zero_based=False)
    return train, test


def test_demo_on_a_libsvm_file_with_split(svmlight_files, capsys):
    train, _ = svmlight_files
    assert main(["demo", "--data", str(train), "--budget", "30", "--epochs", "3", "--C", "32", "--gamma", "2"]) == 0
    out = capsys.readouterr().out
    assert "seeded 80/20 split: 960 train / 240 test points" in out
    rows = _table_rows(out)
    assert [r[0].split()[0] for r in rows] == ["BSCA", "BSGD", "SVC"]
    assert rows[0][2] <= 30 and rows[1][2] <= 30
    assert rows[0][1] > 0.8
    assert "full training set" in out


def test_demo_on_a_libsvm_file_with_test_file(svmlight_files, capsys):
    train, test = svmlight_files
    assert main(["demo", "--data", str(train), "--test", str(test), "--budget", "30", "--C", "32", "--gamma", "2"]) == 0
    out = capsys.readouterr().out
    assert "1,200 train / 300 test points" in out
    assert len(_table_rows(out)) == 3


def test_demo_bad_arguments(capsys, tmp_path):
    with pytest.raises(SystemExit):
        main(["demo", "--budget", "0"])
    with pytest.raises(SystemExit):
        main(["demo", "--gamma", "-1"])
    with pytest.raises(SystemExit, match="--test needs --data"):
        main(["demo", "--test", "x.svm"])
    assert main(["demo", "--data", str(tmp_path / "missing.svm")]) == 1  # one line on stderr
    assert "No such file or directory" in capsys.readouterr().err


def test_console_entry_point_help():
    result = subprocess.run(
        [sys.executable, "-m", "budgetsvm.cli", "demo", "--help"], capture_output=True, text=True, check=True
    )
    assert "--data FILE" in result.stdout and "--quick" in result.stdout
    result = subprocess.run([sys.executable, "-m", "budgetsvm.cli"], capture_output=True, text=True, check=True)
    assert "demo" in result.stdout


def test_docstring_examples_run():
    import doctest

    import budgetsvm.cli.demo
    import budgetsvm.estimators.budgeted

    for module in (budgetsvm.estimators.budgeted, budgetsvm.cli.demo):
        result = doctest.testmod(module)
        assert result.attempted > 0 and result.failed == 0, module.__name__


def test_demo_on_a_shared_multiclass_data_set(capsys):
    from conftest import dataset_path

    train, test = dataset_path("dna.scale.bz2"), dataset_path("dna.scale.t.bz2")
    args = ["demo", "--data", str(train), "--test", str(test), "--budget", "50", "--gamma", "0.01", "--C", "4"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "2,000 train / 1,186 test points" in out
    rows = _table_rows(out)
    assert [r[0].split()[0] for r in rows] == ["BSCA", "BSGD", "SVC"]
    assert rows[0][2] <= 3 * 50 and rows[1][2] <= 50  # one-vs-rest BSCA: a budget per class
    assert "one-vs-rest" in out
    assert min(r[1] for r in rows) > 0.8  # three classes; chance is about 0.5
