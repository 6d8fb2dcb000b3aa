"""Saving and loading fitted models: :func:`save_model` and :func:`load_model`.

Three formats, told apart by their first bytes when loading:
budgetsvm's own portable binary format (docs/model_format.md; read by the
C++ ``budgetsvm::load_model`` too), LIBSVM's model text (SVC and binary
BudgetedSVC) and LIBLINEAR's (LinearSVC). Loading never executes code from
the file. The modules:

``_save_load``
    :func:`save_model`, :func:`load_model`: the format of a file, and a
    budgetsvm file as the sections below.
``_container``
    The binary container: header, tagged sections, typed n-d arrays and the
    checksum; every length checked before it is used.
``_estimator_state``
    A fitted estimator <-> the portable part of a file (``MODL`` and the
    core arrays the C++ reader predicts from) and its other fitted
    attributes (``ATTR``, a fixed list per family).
``_values``
    Python values <-> JSON text plus named arrays (the ``ATTR`` section).
``_libsvm_text``
    LIBSVM and LIBLINEAR model text, written and read.
``_families``
    The estimator class of each family a file records.
"""

from ._save_load import FORMATS, load_model, load_model_bytes, save_model

__all__ = ["FORMATS", "load_model", "load_model_bytes", "save_model"]
