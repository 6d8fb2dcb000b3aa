"""Saving and loading fitted models: ``save_model`` and ``load_model``.

Three formats: budgetsvm's own portable binary format (docs/model_format.md;
read by the C++ ``budgetsvm::load_model`` too), LIBSVM's model text (SVC and
binary BudgetedSVC) and LIBLINEAR's (LinearSVC). ``load_model`` tells them
apart by their first bytes. Loading never executes code from the file.
"""

from __future__ import annotations

import json
import os
from typing import Any, Dict, Union

import numpy as np
from sklearn.utils.validation import check_is_fitted

from . import _model_container as container
from . import _model_state as state
from ._model_values import Unencodable, decode, encode, plain_names

PathLike = Union[str, "os.PathLike[str]"]
FORMATS = ("budgetsvm", "libsvm", "liblinear")
KNOWN_TAGS = (b"MODL", b"ARRY", b"ATTR")


def _estimator_classes() -> Dict[str, Any]:
    from .budgeted import BudgetedSVC
    from .exact import SVC
    from .linear import LinearSVC

    return {"SVC": SVC, "LinearSVC": LinearSVC, "BudgetedSVC": BudgetedSVC}


def _attributes(est, family: str) -> Dict[str, Any]:
    """The fitted attributes to store: public ones ending in ``_`` and the family's private list."""
    names = [n for n in vars(est) if n.endswith("_") and not n.startswith("_")]
    names += [n for n in state.PRIVATE[family] if hasattr(est, n)]
    return {n: getattr(est, n) for n in names}


def _budgetsvm_sections(est) -> list:
    family, modl, core = state.core_of(est)
    sections = [container.Section(b"MODL", modl, required=True)]
    sections += [container.Section(b"ARRY", container.encode_array(k, v)) for k, v in core.items()]
    arrays: Dict[str, np.ndarray] = {}
    params = {}
    for name, value in est.get_params(deep=False).items():
        try:
            params[name] = encode(value, arrays)
        except Unencodable:
            pass  # callables (callback), RandomState objects: not stored, the default comes back
    attrs = {}
    for name, value in _attributes(est, family).items():
        try:
            attrs[name] = encode(value, arrays)
        except Unencodable as err:
            raise ValueError(f"{family}.{name} holds a {err} value, which model files do not store") from err
    text = json.dumps({"params": params, "attrs": attrs}, allow_nan=False).encode("utf-8")
    sections.append(container.Section(b"ATTR", text))
    sections += [container.Section(b"ARRY", container.encode_array(k, v)) for k, v in arrays.items()]
    return sections


def save_model(estimator: Any, path: PathLike, format: str = "budgetsvm") -> None:
    """Write a fitted estimator to a model file.

    Parameters
    ----------
    estimator : SVC, LinearSVC or BudgetedSVC
        A fitted estimator.
    path : str or path-like
        The file to write. It is replaced all at once (a temporary file in
        the same folder, synced to the disk, then renamed over it): if the
        save fails or the process is killed, ``path`` still holds its
        previous content, and a concurrent ``load_model`` sees the old model
        or the new one, never a part.
    format : {"budgetsvm", "libsvm", "liblinear"}, default="budgetsvm"
        ``"budgetsvm"``: the portable binary format (any of the three
        families, labels of any number or string type, every fitted
        attribute); ``"libsvm"``: LIBSVM's model text, for SVC and binary
        BudgetedSVC with numeric labels; ``"liblinear"``: LIBLINEAR's, for
        LinearSVC with numeric labels.

    Examples
    --------
    >>> import os, tempfile
    >>> import numpy as np
    >>> from budgetsvm import SVC, save_model, load_model
    >>> X = np.array([[0.0], [1.0], [3.0], [4.0]])
    >>> clf = SVC(kernel="linear").fit(X, ["a", "a", "b", "b"])
    >>> path = os.path.join(tempfile.mkdtemp(), "model.bsvm")
    >>> save_model(clf, path)
    >>> load_model(path).predict([[0.5], [3.5]])
    array(['a', 'b'], dtype='<U1')
    """
    if format not in FORMATS:
        raise ValueError(f"format must be one of {FORMATS}; got {format!r}")
    check_is_fitted(estimator)
    if format == "budgetsvm":
        container.write_container(path, _budgetsvm_sections(estimator))
        return
    from . import _libsvm_format
    from ._atomic import replacing

    text = _libsvm_format.to_libsvm(estimator) if format == "libsvm" else _libsvm_format.to_liblinear(estimator)
    with replacing(path, "w", encoding="ascii", newline="\n") as f:
        f.write(text)


def _from_budgetsvm(data: bytes):
    _, sections = container.read_container(data, KNOWN_TAGS)
    modl = [s for s in sections if s.tag == b"MODL"]
    if len(modl) != 1:
        raise ValueError(f"model file holds {len(modl)} MODL sections; expected 1 (damaged model file)")
    info = state.read_modl(modl[0].payload)
    arrays = container.arrays_of(sections)
    est = _estimator_classes()[info["family"]]()
    attr_sections = [s for s in sections if s.tag == b"ATTR"]
    if attr_sections:
        try:
            doc = json.loads(attr_sections[0].payload.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as err:
            raise ValueError(f"model file: its attributes are not valid JSON (damaged model file): {err}") from err
        if not isinstance(doc, dict):
            raise ValueError("model file: its attributes are not a JSON object (damaged model file)")
        params, attrs = doc.get("params", {}), doc.get("attrs", {})
        if not (isinstance(params, dict) and isinstance(attrs, dict)):
            raise ValueError("model file: its parameters or attributes are not JSON objects (damaged model file)")
        known = est.get_params(deep=False)
        est.set_params(**{k: decode(v, arrays) for k, v in params.items() if k in known})
        for name in plain_names(list(attrs)):
            setattr(est, name, decode(attrs[name], arrays))
    state.restore_core(est, info, arrays)
    return est


def load_model(path: PathLike, n_features: Any = None):
    """Load a model file written by ``save_model``, LIBSVM or LIBLINEAR.

    The format is recognised by the file's content. The file is read as
    data only (no code runs); every size in it is checked against the file's
    length, so a damaged, truncated or unrelated file is a ``ValueError``.

    Parameters
    ----------
    path : str or path-like
    n_features : int, default=None
        LIBSVM / LIBLINEAR files only: the number of features the model
        accepts (LIBSVM files do not record it; default: the largest feature
        index the support vectors use). Ignored for budgetsvm files.

    Returns
    -------
    estimator : SVC, LinearSVC or BudgetedSVC
        Fitted, predicting as the saved estimator did.

    Examples
    --------
    >>> import os, tempfile
    >>> import numpy as np
    >>> from budgetsvm import LinearSVC, save_model, load_model
    >>> X = np.array([[0.0, 1.0], [1.0, 0.0], [3.0, 4.0], [4.0, 3.0]])
    >>> clf = LinearSVC().fit(X, [1, 1, 2, 2])
    >>> path = os.path.join(tempfile.mkdtemp(), "linear.bsvm")
    >>> save_model(clf, path)
    >>> bool(np.array_equal(load_model(path).decision_function(X), clf.decision_function(X)))
    True
    """
    with open(path, "rb") as f:
        data = f.read()
    return load_model_bytes(data, n_features, name=repr(os.fspath(path)))


def load_model_bytes(data: bytes, n_features: Any = None, name: str = "the data"):
    """``load_model`` of a model file's bytes (``name`` is used in errors)."""
    if data.startswith(container.MAGIC[:4]):
        return _from_budgetsvm(data)
    from . import _libsvm_format

    kind = _libsvm_format.sniff(data)
    if kind == "libsvm":
        return _libsvm_format.from_libsvm(data, n_features)
    if kind == "liblinear":
        return _libsvm_format.from_liblinear(data, n_features)
    raise ValueError(
        f"{name} is not a model file budgetsvm reads (neither budgetsvm's binary format nor "
        "LIBSVM's or LIBLINEAR's model text)"
    )
