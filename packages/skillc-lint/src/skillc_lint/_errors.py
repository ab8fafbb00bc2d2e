"""The errors of a lint run's own options (E100) and of fixing (E999), as types: front ends
match on them.

Their messages name the parameter (``select``, ``profile``), never a command-line flag: the
command line turns them into its usage errors (``Invalid value for '--select': ...``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from skillc_index import InternalError, InvalidOption

__all__ = ["FixOutsideTree", "InvalidBaseline", "NotFixed", "UnknownProfile", "UnknownRule"]


class UnknownProfile(InvalidOption):
    """A profile name that is not one of ``known``."""

    def __init__(self, name: str, known: Iterable[str]) -> None:
        self.name = name
        self.known = tuple(known)
        self.reason = f"unknown profile '{name}' (known: {', '.join(self.known)})"
        super().__init__(f"profile: {self.reason}")


class InvalidBaseline(InvalidOption):
    """A baseline file that cannot be read, or is not a skillc-lint baseline."""

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(f"baseline: {reason}")


class UnknownRule(InvalidOption):
    """A rule selector of ``parameter`` (``select`` or ``ignore``) that names no rule."""

    def __init__(self, selector: str, parameter: str) -> None:
        self.selector = selector
        self.parameter = parameter
        self.reason = f"no rule matches '{selector}'"
        super().__init__(f"{parameter}: {self.reason}")


class NotFixed(InternalError):
    """E999: a file of a skill that ``--fix`` could not change (``reason``: why: read-only,
    not UTF-8 text, changed on disk meanwhile). Nothing of it was written."""

    def __init__(self, file: str, reason: str) -> None:
        super().__init__(f"cannot fix '{file}': {reason}")
        self.file = file
        self.reason = reason

    def shown(self, show: Callable[[str], str]) -> NotFixed:
        """The same error with its paths as ``show`` writes them (the command line: relative
        to the working folder)."""
        return NotFixed(show(self.file), self.reason)


class FixOutsideTree(NotFixed):
    """E999: a file whose fixes are not written because its real path (``real``) is outside
    ``tree``, the folder the fixer was given: a symlink in that folder leads out of it (a
    linked skill). A fixer writes only inside what it was given; the file is still read."""

    def __init__(self, file: str, real: str, tree: str) -> None:
        self.real = real
        self.tree = tree
        super().__init__(
            file,
            f"it is outside '{tree}', the folder being fixed (its real path is '{real}'); "
            "fix it where it is",
        )

    def shown(self, show: Callable[[str], str]) -> NotFixed:
        return FixOutsideTree(show(self.file), show(self.real), show(self.tree))
