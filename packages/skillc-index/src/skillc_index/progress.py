"""A long command's progress on a terminal: :class:`DelayedProgress`, the bar a command
shows on stderr (``skc build``'s, every command made with ``command(progress=...)``), only on a
terminal and only once the work takes a while, and the rules it and skillc-lint's bar share:
how wide a bar may be (:func:`bar_cells`, from :func:`stderr_columns`) and where none is
drawn (:func:`dumb_terminal`). Imported when a command has work to count, never by the read
commands (``show``, ``search``, ``find``).
"""

from __future__ import annotations

import sys
from typing import Any

import click

__all__ = ["DelayedProgress", "bar_cells", "dumb_terminal", "stderr_columns"]


def dumb_terminal() -> bool:
    """``TERM=dumb``: a terminal that cannot move the cursor nor colour (Emacs' shell, some CI
    runners): no progress bar there (:class:`DelayedProgress`, lint's), no colour (as
    ``NO_COLOR``)."""
    import os

    return os.environ.get("TERM") == "dumb"


def stderr_columns() -> int:
    """The width of the terminal stderr shows on (a progress line's: stdout may be a pipe),
    else :func:`shutil.get_terminal_size`'s (``COLUMNS``, stdout's terminal, 80)."""
    import os
    import shutil

    try:
        columns = os.get_terminal_size(sys.stderr.fileno()).columns
    except (AttributeError, OSError, ValueError):  # no descriptor, not a terminal, closed
        columns = 0
    return columns or shutil.get_terminal_size().columns


def bar_cells(taken: int, least: int, most: int) -> int | None:
    """The cells of a progress bar whose line on stderr holds ``taken`` columns besides them:
    as many as fit below the last column of its terminal (:func:`stderr_columns`; a line as
    wide as the terminal wraps on some, and each redraw, ``\\r``, then leaves a row behind),
    at most ``most``; None, no bar drawn, when fewer than ``least`` fit (the bars of
    :class:`DelayedProgress` and of lint)."""
    cells = min(most, stderr_columns() - taken - 1)
    return cells if cells >= least else None


#: What click's bar line holds besides its label and its cells: ``"  ["``, ``"]  "``, the
#: percentage (``100%``) and the ETA with its two spaces (``"  00:00:02"``, a day's ``"  1d
#: 00:00:02"``).
_BAR_CLUTTER = 23
#: The fewest cells a bar is drawn with; the widest, click's default.
_BAR_CELLS = (5, 36)


class DelayedProgress:
    """A progress bar on stderr that appears only on a terminal (not ``TERM=dumb``), and only
    once the work has taken longer than ``delay`` seconds (short runs and piped output stay
    quiet). Its line fits the terminal's width, or it is not drawn (:func:`bar_cells`).

    Call it as ``progress(done, total)``; the bar closes when ``done`` reaches ``total`` (what
    the command prints next starts on a line of its own) or, at the latest, when the context
    manager exits.
    """

    def __init__(self, label: str, delay: float = 1.0) -> None:
        import time

        self._clock = time.monotonic
        self._start = self._clock()
        self._label = label
        self._delay = delay
        self._enabled = sys.stderr.isatty() and not dumb_terminal()
        self._bar: Any = None
        self._shown = 0

    def __call__(self, done: int, total: int) -> None:
        if not self._enabled:
            return
        if self._bar is None:
            if done >= total or self._clock() - self._start < self._delay:
                return
            cells = bar_cells(len(self._label) + _BAR_CLUTTER, *_BAR_CELLS)
            if cells is None:
                self._enabled = False
                return
            self._bar = click.progressbar(
                length=total, label=self._label, file=sys.stderr, width=cells
            )
            self._bar.__enter__()
        self._bar.update(done - self._shown)
        self._shown = done
        if done >= total:
            self.__exit__()

    def __enter__(self) -> DelayedProgress:
        return self

    def __exit__(self, *exc_info: object) -> None:
        if self._bar is not None:
            self._bar.__exit__(None, None, None)
            self._bar = None
            self._shown = 0
