"""Run scikit-learn's installed ``svm/tests/test_svm.py`` and ``test_sparse.py`` against budgetsvm.

    python tests/sklearn_parity/run.py [extra pytest arguments]

The test files are read from the installed scikit-learn at run time (never
copied here), with scikit-learn's own fixtures (its ``conftest.py``) and its
warning filters (``SKLEARN_WARNINGS_AS_ERRORS=1``, as in its CI). The list of
expected differences is written for the scikit-learn range in ``SUPPORTED``;
other versions are refused rather than half-matched. ``.ci/run`` installs that
range and runs this; the plain ``python -m pytest`` does not (it must not
depend on the scikit-learn version a user has).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

SUPPORTED = ((1, 9), (1, 10))  # scikit-learn >= 1.9, < 1.10
#: scikit-learn's SVM test files run (expected.py: the expected differences of each)
TEST_FILES = ("test_svm.py", "test_sparse.py")


def main(argv) -> int:
    import pytest
    import sklearn

    version = tuple(int(p) for p in sklearn.__version__.split(".")[:2])
    if not SUPPORTED[0] <= version < SUPPORTED[1]:
        print(f"scikit-learn {sklearn.__version__} is outside the range the expected differences are "
              f"written for (>= {SUPPORTED[0]}, < {SUPPORTED[1]}).", file=sys.stderr)
        return 2
    package = Path(sklearn.__file__).resolve().parent
    test_files = [package / "svm" / "tests" / name for name in TEST_FILES]
    here = Path(__file__).resolve().parent
    sys.path.insert(0, str(here))
    os.environ.setdefault("SKLEARN_WARNINGS_AS_ERRORS", "1")
    args = [
        *map(str, test_files),
        "-p", "plugin",
        # test_sparse.py hands zip objects to parametrize, which the pytest of this range deprecates
        "-W", "ignore::pytest.PytestRemovedIn10Warning",
        "-p", "no:cacheprovider",  # nothing written into site-packages
        "--rootdir", str(package.parent),
        "-c", os.devnull,
        "-o", "xfail_strict=true",
        "-ra", "-q",
        *argv,
    ]
    return pytest.main(args)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
