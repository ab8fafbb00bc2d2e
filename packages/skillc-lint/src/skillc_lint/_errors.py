"""The errors of a lint run's own options (E100) and of fixing (E999), as types: front ends
match on them.

Their messages name the parameter (``select``, ``profile``), never a command-line flag; the
command line writes them as its usage errors (``Invalid value for --select: ...``):
:meth:`~skillc_index.SkillcError.spelled` with ``CLI_SPELLING``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from skillc_index import Diagnostic, InternalError, InvalidOption, Spelling
from skillc_index.command_errors import CannotWrite
from skillc_index.option_errors import ParameterError as SharedParameterError

__all__ = [
    "BaselineNotWritten",
    "ConflictingParameters",
    "FixOutsideTree",
    "InvalidBaseline",
    "NotFixed",
    "ParameterError",
    "UnknownProfile",
    "UnknownRule",
]


class ParameterError(InvalidOption):
    """E100 of one parameter's value: ``<parameter>: <reason>``; the command line says
    ``Invalid value for --<parameter>: <reason>``, as click does for its own checks, and as
    for them a usage error (``Try '... --help' for help.`` follows)."""

    usage = True

    parameter: str
    reason: str

    def __init__(self, parameter: str, reason: str) -> None:
        self.parameter = parameter
        self.reason = reason
        super().__init__(f"{parameter}: {reason}")

    def spelled(self, spelling: Spelling) -> Diagnostic:
        if not spelling.option_prefix:
            return self.diagnostic
        message = f"Invalid value for {spelling.option(self.parameter)}: {self.worded(spelling)}"
        return self.diagnostic._replace(params={"message": message})

    def worded(self, spelling: Spelling) -> str:
        """The reason as ``spelling`` names what it refers to."""
        return self.reason


class _NotFound(ParameterError, KeyError):
    """A name that names nothing: also a ``KeyError``, what the registry raised for it before
    (``except KeyError`` still catches it), with the diagnostic as its text (not KeyError's
    quoted repr)."""

    def __str__(self) -> str:
        return Exception.__str__(self)


class UnknownProfile(_NotFound):
    """A profile name that is not one of ``known`` (``default_registry``, ``use_profile``)."""

    def __init__(self, name: str, known: Iterable[str]) -> None:
        self.name = name
        self.known = tuple(known)
        from skillc_index.layout import shown

        known_ = ", ".join(self.known)
        super().__init__("profile", f"unknown profile '{shown(name)}' (known: {known_})")


class InvalidBaseline(ParameterError):
    """A baseline file that cannot be read, or is not a skillc-lint baseline."""

    def __init__(self, reason: str) -> None:
        super().__init__("baseline", reason)


class ConfigNotFound(ParameterError):
    """``--config PATH`` names no file (the run does not fall back to another config), one
    that is no regular file: ``kind`` says what it is (``a character device``), or one that
    gives no settings: ``reason`` says why (``invalid TOML in config file ...``)."""

    def __init__(self, file: str, kind: str | None = None, *, reason: str | None = None) -> None:
        if reason is not None:
            what = f"cannot be used: {reason}"
        else:
            what = "is not found" if kind is None else f"is {kind}, not a regular file"
        super().__init__("config", f"the config file '{file}' {what}")


#: A file to write (``write_baseline``, ``sarif_file``) that cannot be written: the kit's E100
#: ``cannot write 'FILE': reason`` of every command's output file.
BaselineNotWritten = CannotWrite


class UnknownRule(_NotFound):
    """A rule selector of ``parameter`` (``select``, ``ignore``, ``explain``) that names no
    rule (the registry's ``enable``, ``enable_only``: ``select``; ``disable``: ``ignore``);
    the command line points to its list of rules."""

    def __init__(self, selector: str, parameter: str) -> None:
        self.selector = selector
        super().__init__(parameter, f"'{selector}' matches no rule")

    def worded(self, spelling: Spelling) -> str:
        return f"{self.reason} (see {spelling.option('list_rules')})"


class ConflictingParameters(SharedParameterError):
    """Two parameters given together that exclude each other (``baseline`` and
    ``write_baseline``)."""

    def __init__(self, first: str, second: str) -> None:
        self.first = first
        self.second = second
        super().__init__(f"use one of {{{first}}} and {{{second}}}")


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
