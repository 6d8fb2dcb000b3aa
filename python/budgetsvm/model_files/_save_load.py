"""Saving and loading fitted models: ``save_model`` and ``load_model``.

Three formats: budgetsvm's own portable binary format (docs/model_format.md;
read by the C++ ``budgetsvm::load_model`` too), LIBSVM's model text (SVC and
binary BudgetedSVC) and LIBLINEAR's (LinearSVC). ``load_model`` tells them
apart by their first bytes. Loading never executes code from the file.
"""

from __future__ import annotations

import io
import json
import os
from typing import IO, Any, Dict, Union

import numpy as np
from sklearn.utils.validation import check_is_fitted

from .._atomic import replacing
from .._limits import MAX_LINE_BYTES, check_max_line_bytes
from ..estimators.auto import AutoSVC
from . import _container as container
from . import _estimator_state as state
from . import _libsvm_text
from ._families import ESTIMATORS
from ._values import Unencodable, decode_plain, encode

PathLike = Union[str, "os.PathLike[str]"]
FORMATS = ("budgetsvm", "libsvm", "liblinear")
KNOWN_TAGS = (b"MODL", b"ARRY", b"ATTR")


def _attributes(est, family: str) -> Dict[str, Any]:
    """The fitted attributes to store: those of the family's fixed list (the
    only ones a reader restores) that the estimator has."""
    return {n: getattr(est, n) for n in state.attribute_rules(family) if hasattr(est, n)}


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
    estimator : a fitted estimator of budgetsvm
        SVC, NuSVC, SVR, NuSVR, OneClassSVM, LinearSVC, BudgetedSVC,
        BudgetedSVR, BudgetedOneClassSVM, or AutoSVC (of an :class:`~budgetsvm.AutoSVC`, its
        ``best_estimator_``: the file holds the model, not the search's
        report).
    path : str or path-like
        The file to write. It is replaced all at once (a temporary file in
        the same folder, synced to the disk, then renamed over it): if the
        save fails or the process is killed, ``path`` still holds its
        previous content, and a concurrent ``load_model`` sees the old model
        or the new one, never a part.
    format : {"budgetsvm", "libsvm", "liblinear"}, default="budgetsvm"
        ``"budgetsvm"``: the portable binary format (every estimator,
        labels of any number or string type, every fitted attribute);
        ``"libsvm"``: LIBSVM's model text, for the kernel estimators but
        multi-class BudgetedSVC, classifiers with numeric labels (svm_type
        c_svc, nu_svc, one_class, epsilon_svr, nu_svr); ``"liblinear"``:
        LIBLINEAR's, for LinearSVC with numeric labels.

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
    if isinstance(estimator, AutoSVC):
        estimator = estimator.best_estimator_
    if format == "budgetsvm":
        container.write_container(path, _budgetsvm_sections(estimator))
        return
    text = _libsvm_text.to_libsvm(estimator) if format == "libsvm" else _libsvm_text.to_liblinear(estimator)
    with replacing(path, "w", encoding="ascii", newline="\n") as f:
        f.write(text)


def _from_budgetsvm(data: Any):
    _, sections = container.read_container(data, KNOWN_TAGS)
    modl = [s for s in sections if s.tag == b"MODL"]
    if len(modl) != 1:
        raise ValueError(f"model file holds {len(modl)} MODL sections; expected 1 (damaged model file)")
    info = state.read_modl(modl[0].payload)
    arrays = container.arrays_of(sections)
    core = state.Core(info, arrays)
    attr_sections = [s for s in sections if s.tag == b"ATTR"]
    if len(attr_sections) > 1:
        raise ValueError("model file: more than one ATTR section (damaged model file)")
    params: Dict[str, Any] = {}
    attrs: Dict[str, Any] = {}
    if attr_sections:
        # the rules of both readers first (attributes.hpp): nothing is decoded from a text that breaks them
        state.check_attributes(attr_sections[0].payload, core, arrays)
        doc = json.loads(bytes(attr_sections[0].payload).decode("utf-8"))
        params, attrs = doc.get("params", {}), doc.get("attrs", {})
    est = ESTIMATORS[info["family"]]()
    known = est.get_params(deep=False)
    # hyperparameters only (other names are ignored: set_params sets nothing else)
    est.set_params(**{k: decode_plain(v) for k, v in params.items() if k in known})
    state.restore_kernel(est, info, params)
    state.restore_attributes(est, info["family"], attrs, arrays)
    state.restore_core(est, info, arrays, attrs, core)
    return est


def load_model(path: PathLike, n_features: Any = None, max_line_bytes: int = MAX_LINE_BYTES):
    """Load a model file written by ``save_model``, LIBSVM or LIBLINEAR.

    The format is recognised by the file's first bytes. The file is read as
    data only (no code runs, no attribute outside a fixed list is set); every
    size in it is checked against the bytes that are there before anything
    is allocated, and no more is read than a budgetsvm file's header declares
    or than one text line of ``max_line_bytes``, so a damaged, truncated,
    hostile or unrelated file (even ``/dev/zero``) is a ``ValueError``
    (docs/model_format.md, "What a model file can and cannot do").

    Parameters
    ----------
    path : str or path-like
    n_features : int, default=None
        LIBSVM / LIBLINEAR files only: the number of features the model
        accepts (LIBSVM files do not record it; default: the largest feature
        index the support vectors use). Ignored for budgetsvm files.
    max_line_bytes : int, default=16 MiB
        LIBSVM / LIBLINEAR files only: the longest line accepted; a longer
        one is a ``ValueError`` naming its line number and this limit.

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
    max_line_bytes = check_max_line_bytes(max_line_bytes)
    with open(path, "rb") as f:
        return _load(f, n_features, max_line_bytes, repr(os.fspath(path)))


def load_model_bytes(data: bytes, n_features: Any = None, name: str = "the data", max_line_bytes: int = MAX_LINE_BYTES):
    """``load_model`` of a model file's bytes (``name`` is used in errors)."""
    return _load(io.BytesIO(data), n_features, check_max_line_bytes(max_line_bytes), name)


def _load(f: IO[bytes], n_features: Any, max_line_bytes: int, name: str):
    """The model in the open file ``f``: its first bytes tell the format;
    nothing more is read before they are recognised."""
    head = _read_head(f, container.HEADER.size)
    if head and container.MAGIC.startswith(head[:4]):
        return _from_budgetsvm(container.read_file(f, head))
    kind = _libsvm_text.sniff(head)
    if kind is not None:
        return _libsvm_text.read_text_model(f, head, kind, n_features, max_line_bytes)
    raise ValueError(
        f"{name} is not a model file budgetsvm reads (neither budgetsvm's binary format nor "
        "LIBSVM's or LIBLINEAR's model text)"
    )


def _read_head(f: IO[bytes], n: int) -> bytes:
    """Up to ``n`` first bytes (a pipe may deliver fewer at a time)."""
    head = b""
    while len(head) < n:
        piece = f.read(n - len(head))
        if not piece:
            break
        head += piece
    return head
