"""The ``budgetsvm`` command line (``docs/cli.md``): :func:`main` and the
parser it reads the arguments with, :func:`build_parser`.

The modules:

``main``
    The program: its parser, ``demo``'s flags and the handling of a user's
    mistake (one line on stderr, exit code 1).
``_commands``
    ``train``, ``predict``, ``info`` and ``convert``, LIBSVM-style commands
    over svmlight data files and model files.
``_flags``
    ``train``'s hyperparameter flags, generated from the estimators'
    signatures, docstrings and the options registry.
``_weights``
    LIBSVM's ``-wLABEL WEIGHT``, taken out before argparse parses.
``_parser``
    The argument parser of every command (a mistake is one line and exit
    code 1; ``--solver NAME --help`` shows that solver's flags).
``_numbers``
    The one grammar of numbers read from the command line.
``_fit``, ``_stream``, ``_progress``
    Training in memory and by ``partial_fit`` over a file, ``-v K``
    cross-validation, and the progress they show on stderr.
``demo``
    ``budgetsvm demo``: budgeted SVMs next to scikit-learn's exact SVC.

The commands use the library through its public names only (the estimators,
``budgetsvm.io``, ``budgetsvm.model_files``).
"""

from .main import build_parser, main

__all__ = ["build_parser", "main"]
