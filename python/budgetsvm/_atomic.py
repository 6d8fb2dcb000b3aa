"""Fitted state published in one step: ``fit`` either completes or changes nothing.

An estimator's state is its instance ``__dict__`` (hyperparameters and fitted
attributes). Two rules make every fit atomic, for a failure and for a
concurrent reader alike:

* ``fit`` and ``partial_fit`` (wrapped by :func:`atomic_fit`) run on a
  detached copy of the estimator, whose ``__dict__`` is a shallow copy of the
  live one, and publish it with one assignment of ``__dict__`` at the end.
  A fit that raises (``KeyboardInterrupt`` included) publishes nothing: the
  estimator is exactly as it was. Fitting only ever rebinds attributes on
  the copy and never mutates a published array, list or dict in place.
* The methods that read fitted state (``predict``, ``decision_function``,
  ...; wrapped by :func:`fitted_view`) take the ``__dict__`` current at the
  call once and compute from it alone, so a ``predict`` running while
  another thread fits sees the old model or the new one, never a mix.

Not made safe: two fits of one estimator at the same time (the last to finish
wins; the other's work is discarded), and ``set_params`` during a fit or a
``predict`` (it changes the live hyperparameters in place). docs/api.md says
so to users.
"""

from __future__ import annotations

import functools
from typing import Any, Callable, TypeVar

F = TypeVar("F", bound=Callable[..., Any])


def _detached(est: Any, state: dict) -> Any:
    """An instance of ``est``'s class whose ``__dict__`` is ``state`` itself (no copy)."""
    other = object.__new__(type(est))
    other.__dict__ = state
    return other


def atomic_fit(fit: F) -> F:
    """Run ``fit`` on a copy of the estimator and publish its state in one assignment."""

    @functools.wraps(fit)
    def wrapper(self, *args, **kwargs):
        work = _detached(self, dict(self.__dict__))
        result = fit(work, *args, **kwargs)
        self.__dict__ = work.__dict__  # the one step that publishes the new model
        return self if result is work else result

    return wrapper  # type: ignore[return-value]


def fitted_view(method: F) -> F:
    """Run a read-only ``method`` on the estimator's state as it is at the call."""

    @functools.wraps(method)
    def wrapper(self, *args, **kwargs):
        return method(_detached(self, self.__dict__), *args, **kwargs)

    return wrapper  # type: ignore[return-value]


# --------------------------------------------------------------------------
# Output files: every file budgetsvm writes goes through ``replacing``.
#
# A file written in place is lost when the write fails part-way (a full
# disk, "File too large", Ctrl-C, ``kill -9``) and is seen half written by a
# reader meanwhile. ``replacing`` writes a new file next to the target (the
# same folder, so the same file system), flushes it to the disk and renames
# it over the target: the target holds the old bytes or all of the new ones,
# never a part. ``refuse_same_files`` is the check every command runs before
# it opens anything, so that an output never truncates one of its inputs.
# --------------------------------------------------------------------------

import contextlib  # noqa: E402
import errno  # noqa: E402
import os  # noqa: E402
import secrets  # noqa: E402
import stat  # noqa: E402
import time  # noqa: E402
from typing import IO, Iterable, Iterator, Optional, Tuple, Union  # noqa: E402

PathLike = Union[str, "os.PathLike[str]"]

#: temporary files are named ``.<target's name><TEMP_MARK><random hex>``;
#: one left behind by a killed process can be removed at any time
TEMP_MARK = ".tmp-"


def refuse_same_files(outputs: Iterable[Optional[PathLike]], inputs: Iterable[Optional[PathLike]]) -> None:
    """Raise ``ValueError`` if an output is the same file as one of the inputs.

    Compared with :func:`os.path.samefile` (device and inode), so a symbolic
    link or a hard link to an input is the input. An output or input that
    does not exist (yet) cannot be the same file and passes; ``None`` entries
    are skipped. Call it before opening anything: writing first would
    truncate the input it then reads.

    Examples
    --------
    >>> import os, tempfile
    >>> folder = tempfile.mkdtemp()
    >>> data = os.path.join(folder, "data.svm")
    >>> with replacing(data, "w") as f:
    ...     _ = f.write("1 1:1\\n")
    >>> refuse_same_files([os.path.join(folder, "out.txt")], [data])  # a new file: fine
    >>> os.link(data, os.path.join(folder, "hard.svm"))
    >>> refuse_same_files([os.path.join(folder, "hard.svm")], [data])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: the output '...hard.svm' is the same file as the input '...data.svm'; choose another output file
    """
    sources = [os.fspath(p) for p in inputs if p is not None]
    for out in outputs:
        if out is None:
            continue
        out = os.fspath(out)
        for src in sources:
            try:
                same = os.path.samefile(out, src)
            except (OSError, ValueError):  # one of them does not exist (or is not a valid path)
                same = False
            if same:
                raise ValueError(
                    f"the output {out!r} is the same file as the input {src!r}; choose another output file"
                )


def _fsync_folder(folder: str) -> None:
    """Make a rename in ``folder`` durable where the platform allows (POSIX)."""
    if os.name == "nt":
        return
    flags = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0)
    try:
        fd = os.open(folder, flags)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:  # EINVAL, EBADF, EACCES: file systems that cannot sync a folder
        pass
    finally:
        os.close(fd)


def _replace(src: str, dst: str) -> None:
    # Windows refuses to replace a file another process holds open (a reader,
    # a virus scanner) for a moment: retry for about a second
    for attempt in range(20 if os.name == "nt" else 1):
        try:
            os.replace(src, dst)
            return
        except PermissionError:
            if os.name != "nt" or attempt == 19:
                raise
            time.sleep(0.05)


def _new_file(target: str) -> Tuple[int, str]:
    """A new, empty file next to ``target``: its descriptor and path.

    Created by ``os.open`` with mode 0o666, so the umask (and a folder's
    default ACL) gives it the permissions ``open(target, "w")`` would; an
    existing target's permission bits are copied instead."""
    folder, name = os.path.split(target)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0) | getattr(os, "O_CLOEXEC", 0)
    for _ in range(100):
        temp = os.path.join(folder, f".{name[:200]}{TEMP_MARK}{secrets.token_hex(6)}")  # [:200]: NAME_MAX
        try:
            return os.open(temp, flags, 0o666), temp
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, "no free temporary file name next to it", target)


@contextlib.contextmanager
def replacing(
    path: PathLike,
    mode: str = "wb",
    encoding: Optional[str] = None,
    newline: Optional[str] = None,
) -> Iterator[IO]:
    """Write ``path`` all at once: a temporary file renamed over it on success.

    Yields a file object (``mode`` ``"wb"`` binary or ``"w"`` text, with
    ``encoding`` and ``newline`` as :func:`open` takes them) on a new file in
    the target's folder. When the ``with`` block ends normally the file is
    flushed, synced to the disk and closed, then renamed over ``path``
    (:func:`os.replace`, atomic), and the folder is synced where the platform
    allows. If anything fails (an exception, ``KeyboardInterrupt``, a full
    disk while flushing), the temporary file is removed and ``path`` is left
    exactly as it was; a reader opening ``path`` at any moment sees the old
    file or the whole new one. A process killed meanwhile (``kill -9``, a
    power cut) may leave a hidden ``.<name>.tmp-<hex>`` file beside the
    target, never a damaged target.

    An existing target keeps its permission bits; a new one gets those of
    ``open(path, "w")``. A target that is a symbolic link is written through
    (the file it points to is replaced, the link stays); one that is not a
    regular file (``/dev/null``, a pipe) is written directly, as nothing can
    be renamed over it. A read-only target is a ``PermissionError``, as with
    :func:`open`.

    Examples
    --------
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "out.txt")
    >>> with replacing(path, "w", encoding="utf-8") as f:
    ...     _ = f.write("old\\n")
    >>> try:
    ...     with replacing(path, "w", encoding="utf-8") as f:
    ...         _ = f.write("new, half written")
    ...         raise RuntimeError("failed part-way")
    ... except RuntimeError:
    ...     pass
    >>> with open(path) as f:
    ...     f.read()
    'old\\n'
    >>> os.listdir(os.path.dirname(path))
    ['out.txt']
    """
    if mode not in ("w", "wb"):
        raise ValueError(f"mode must be 'w' or 'wb'; got {mode!r}")
    given = os.path.abspath(os.fspath(path))
    try:
        st: Optional[os.stat_result] = os.stat(given)  # through symbolic links
    except FileNotFoundError:
        st = None
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), os.fspath(path))
    if st is not None and not stat.S_ISREG(st.st_mode):  # /dev/null, /dev/stdout on a pipe or a terminal
        with open(given, mode, encoding=encoding, newline=newline) as direct:
            yield direct
        return
    target = os.path.realpath(given) if os.path.islink(given) else given
    if st is not None and not os.access(target, os.W_OK):
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), os.fspath(path))
    fd, temp = _new_file(target)
    renamed = False
    try:
        if st is not None:
            with contextlib.suppress(OSError):  # best effort: some file systems have no modes
                if hasattr(os, "fchmod"):
                    os.fchmod(fd, stat.S_IMODE(st.st_mode))
                else:
                    os.chmod(temp, stat.S_IMODE(st.st_mode))
        f = open(fd, mode, encoding=encoding, newline=newline, closefd=True)
    except BaseException:
        os.close(fd)
        os.remove(temp)
        raise
    try:
        with f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        _replace(temp, target)
        renamed = True
    finally:
        if not renamed:
            with contextlib.suppress(OSError):
                os.remove(temp)
    _fsync_folder(os.path.dirname(target))
