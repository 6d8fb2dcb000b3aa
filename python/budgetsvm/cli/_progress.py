"""Progress of ``budgetsvm train``: a bar on a terminal, plain lines elsewhere.

A :class:`Progress` counts units of work towards a known total (epochs of an
in-memory fit, folds of a cross-validation, bytes of a file read over several
passes) and shows, as soon as the first unit is done, the total and the
estimated time left:

* ``"bar"`` (stderr is a terminal, or ``--progress``): a tqdm bar, redrawn at
  most ten times a second;
* ``"lines"`` (stderr is not a terminal: a log file, a pipe, CI): one plain
  line at the first update, at most one every ``interval`` seconds after it,
  and one at every :meth:`Progress.mark` (the end of an epoch or a fold), so
  a log shows the total and the ETA at once and grows by a few lines a minute;
* ``"off"`` (``--no-progress``, or ``-q`` without ``--progress``): nothing.
"""

from __future__ import annotations

import math
import os
import shutil
import sys
import time
from typing import Any, Callable, Dict, Optional, TextIO

MODES = ("bar", "lines", "off")


def choose_mode(force: Optional[bool], quiet: bool, stream: Optional[TextIO] = None) -> str:
    """The mode of ``--progress`` (``force=True``), ``--no-progress``
    (``force=False``) or neither (``None``: a bar on a terminal, lines
    elsewhere, nothing with ``quiet``).

    Examples
    --------
    >>> import io
    >>> choose_mode(None, quiet=False, stream=io.StringIO())
    'lines'
    >>> choose_mode(True, quiet=True, stream=io.StringIO())
    'bar'
    >>> choose_mode(None, quiet=True)
    'off'
    """
    if force is not None:
        return "bar" if force else "off"
    if quiet:
        return "off"
    stream = sys.stderr if stream is None else stream
    isatty = getattr(stream, "isatty", None)
    return "bar" if isatty is not None and isatty() else "lines"


def _columns(stream: Any) -> int:
    """The width of the terminal ``stream`` writes to; 0 if none."""
    try:
        return os.get_terminal_size(stream.fileno()).columns
    except (AttributeError, OSError, ValueError):  # no fileno (StringIO), not a terminal, closed
        return 0


def size_text(n: float) -> str:
    """Bytes for people: ``size_text(366_000_000) == '366.0 MB'``.

    Examples
    --------
    >>> size_text(512), size_text(2_500), size_text(366_000_000)
    ('512 B', '2.5 kB', '366.0 MB')
    """
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if n >= scale:
            return f"{n / scale:.1f} {unit}"
    return f"{int(n)} B"


def duration_text(seconds: float) -> str:
    """A duration for people: ``'7 s'``, ``'3 min 05 s'``, ``'2 h 10 min'``.

    Examples
    --------
    >>> duration_text(7.2), duration_text(185), duration_text(7800)
    ('7 s', '3 min 05 s', '2 h 10 min')
    """
    if not math.isfinite(seconds):
        return "?"
    seconds = max(0, int(round(seconds)))
    if seconds < 60:
        return f"{seconds} s"
    if seconds < 3600:
        return f"{seconds // 60} min {seconds % 60:02d} s"
    return f"{seconds // 3600} h {seconds % 3600 // 60:02d} min"


class Progress:
    """Work done towards ``total`` units, shown as the mode says.

    Parameters
    ----------
    mode : {"bar", "lines", "off"}
        See :func:`choose_mode`.
    total : float or None
        The units of the whole task (``None``: unknown, no ETA).
    desc : str
        What is being done (``"epoch 1/3"``); :meth:`describe` changes it.
    unit : str, default="epoch"
        The unit counted. ``"B"`` counts bytes read over passes of a file of
        ``pass_bytes`` bytes: the position in the current pass is shown as
        ``"45.2 MB of 366.0 MB"``.
    pass_bytes : int or None
        With ``unit="B"``: the file's size.
    out : text stream or None
        Where to write (default ``sys.stderr``, looked up when created).
    interval : float, default=10
        Lines mode: the fewest seconds between two progress lines.
    clock : callable, default=time.monotonic
        Seconds (for tests).

    Examples
    --------
    >>> import io
    >>> out = io.StringIO()
    >>> with Progress("lines", total=3, desc="epoch 1/3", out=out, clock=lambda: 0.0) as p:
    ...     p.mark("done", advance=1)
    >>> print(out.getvalue().strip())
    epoch 1/3: done; 33% in all, 0 s elapsed, ETA 0 s
    """

    def __init__(
        self,
        mode: str,
        total: Optional[float],
        desc: str,
        unit: str = "epoch",
        pass_bytes: Optional[int] = None,
        out: Optional[TextIO] = None,
        interval: float = 10.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if mode not in MODES:
            raise ValueError(f"mode must be one of {MODES}; got {mode!r}")
        self.mode, self.total, self.unit, self.pass_bytes = mode, total, unit, pass_bytes
        self.out = sys.stderr if out is None else out
        self.interval, self.clock = interval, clock
        self.done = 0.0
        self.pass_start = 0.0
        self.desc = desc
        self.start = clock()
        self._last_line: Optional[float] = None
        self._bar: Any = None
        if mode == "bar":
            from tqdm import tqdm

            if total is None:
                bar_format = "{desc} [{elapsed}]"
            else:
                rate = ", {rate_fmt}" if unit == "B" else ""
                bar_format = "{desc} |{bar}| {percentage:3.0f}% [{elapsed}, ETA {remaining}" + rate + "]"
            # delay > 0: nothing is drawn before the first update, and the
            # first update is drawn at once (moveto), so the first thing
            # shown has a rate, hence an ETA
            # the terminal's width as it changes; where it reports none (a pty
            # of size 0, not a terminal) a fixed size, else tqdm draws nothing
            size = shutil.get_terminal_size()
            width: Dict[str, Any] = {"dynamic_ncols": True} if _columns(self.out) else {
                "ncols": size.columns, "nrows": size.lines}
            self._bar = tqdm(total=total, desc=self._head(), unit=unit, unit_scale=unit == "B", file=self.out,
                             leave=False, delay=1e-9, bar_format=bar_format, **width)

    def __enter__(self) -> "Progress":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def describe(self, desc: str) -> None:
        """What is being done from now on (``"epoch 2/3"``); with bytes, a new pass starts here."""
        self.desc = desc
        self.pass_start = self.done
        if self._bar is not None:
            self._bar.set_description_str(self._head(), refresh=False)

    def update(self, n: float) -> None:
        """``n`` more units done."""
        self.moveto(self.done + n)

    def moveto(self, done: float) -> None:
        """``done`` units done in all (with bytes: the passes before this one plus the file's position)."""
        first = self.done == 0 and done > 0
        step, self.done = done - self.done, done
        if self.mode == "bar":
            if self.unit == "B":
                self._bar.set_description_str(self._head(), refresh=False)
            if not self._bar.update(step) and first:
                self._bar.refresh()  # drawn at once: the first thing shown has its ETA
        elif self.mode == "lines":
            if first or self._last_line is None or self.clock() - self._last_line >= self.interval:
                self._line(f"{self._head()}; {self._status()}")

    def mark(self, text: str, advance: float = 0, desc: Optional[str] = None) -> None:
        """The end of a stage (an epoch, a fold: ``desc``, by default the
        current one), after ``advance`` more units: one line, with the
        progress in lines mode, above the bar in bar mode."""
        self.done += advance
        head = self.desc if desc is None else desc
        if self.mode == "lines":
            self._line(f"{head}: {text}; {self._status()}")
        elif self.mode == "bar":
            self._bar.write(f"{head}: {text}", file=self.out)
            self._bar.update(advance)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None

    def _head(self) -> str:
        if self.unit != "B" or self.pass_bytes is None:
            return self.desc
        return f"{self.desc}: {size_text(self.done - self.pass_start)} of {size_text(self.pass_bytes)}"

    def _line(self, text: str) -> None:
        self._last_line = self.clock()
        print(text, file=self.out, flush=True)

    def _status(self) -> str:
        elapsed = self.clock() - self.start
        parts = [f"{duration_text(elapsed)} elapsed"]
        if self.total:
            parts.insert(0, f"{100 * min(self.done / self.total, 1.0):.0f}% in all")
            if self.done > 0:
                parts.append(f"ETA {duration_text(elapsed * max(self.total - self.done, 0) / self.done)}")
        return ", ".join(parts)
