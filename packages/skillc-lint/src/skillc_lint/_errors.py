"""The errors of a lint run's own options (E100), as types: front ends match on them.

Their messages name the parameter (``select``, ``profile``), never a command-line flag: the
command line turns them into its usage errors (``Invalid value for '--select': ...``).
"""

from __future__ import annotations

from collections.abc import Iterable

from skillc_index import InvalidOption

__all__ = ["InvalidBaseline", "UnknownProfile", "UnknownRule"]


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
