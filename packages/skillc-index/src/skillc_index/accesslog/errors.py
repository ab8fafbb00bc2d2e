"""The errors of the usage logs' commands (``stats``, ``sync``): E030, E031, E040-E044."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from skillc_index.command_errors import _Worded
from skillc_index.diagnostics import Diagnostic, SkillcError, _hint
from skillc_index.option_errors import WordedOption
from skillc_index.spelling import PARAMETER_NAMES, Spelling

if TYPE_CHECKING:
    from pathlib import Path

__all__ = [
    "DriverMissing",
    "EmptyTimeRange",
    "InvalidFilter",
    "InvalidQueryType",
    "MalformedFilter",
    "NoLocalLogs",
    "NoSyncFolder",
    "SyncDestinationNotWritable",
    "SyncSourceNotReadable",
    "TeamStoreUnavailable",
    "sync_folder",
]


class InvalidQueryType(SkillcError):
    """E030; ``valid`` (the query types there are) is listed on a ``hint:`` line after it."""

    code = "E030"

    def __init__(self, query_type: str, valid: tuple[str, ...] = ()) -> None:
        hint = f"valid query types: {', '.join(valid)}" if valid else ""
        super().__init__(Diagnostic(self.code, {"type": query_type}, _hint(hint)))
        self.query_type = query_type
        self.valid = valid


class InvalidFilter(SkillcError):
    code = "E031"

    def __init__(self, message: str) -> None:
        super().__init__(Diagnostic(self.code, {"message": message}))


class MalformedFilter(_Worded, InvalidFilter):
    """E031: the value ``text`` of the filter ``option`` (``since``, ``until``, ``project``)
    is not one; ``problem`` says why (``is not a time: use ...``)."""

    def __init__(self, option: str, text: str, problem: str) -> None:
        self.option = option
        self.text = text
        self.problem = problem
        super().__init__(self.worded(PARAMETER_NAMES))

    def worded(self, spelling: Spelling) -> str:
        return f"{spelling.option(self.option)} {self.text!r} {self.problem}"


class EmptyTimeRange(_Worded, InvalidFilter):
    """E031: ``since`` is later than ``until``, a range that can match nothing."""

    def __init__(self, since: str, until: str) -> None:
        self.since = since
        self.until = until
        super().__init__(self.worded(PARAMETER_NAMES))

    def worded(self, spelling: Spelling) -> str:
        since, until = spelling.option("since"), spelling.option("until")
        return f"{since} {self.since} is after {until} {self.until}"


class NoLocalLogs(SkillcError):
    code = "E040"

    def __init__(self) -> None:
        super().__init__(Diagnostic(self.code))


class NoSyncFolder(WordedOption):
    """E100: a folder ``sync`` was told to read (``project``, Claude Code's folder) that is no
    folder: a typo is refused, not taken for nothing to sync. ``parameter`` is the Python
    API's name, ``option`` the command line's (``claude_dir``: ``--claude-dir``). A bad value
    of an option: the command line adds its ``Try '... --help'`` line."""

    usage = True

    def __init__(self, parameter: str, path: str, option: str | None = None) -> None:
        self.parameter = parameter
        self.path = path
        self.option = option or parameter
        super().__init__()

    def worded(self, spelling: Spelling) -> str:
        name = spelling.option(self.option) if spelling.option_prefix else self.parameter
        return f"{name} '{self.path}' is not a folder"


def sync_folder(value: object, parameter: str, option: str | None = None) -> Path:
    """``value``, a folder ``sync`` was told to read, ``~`` expanded; :class:`NoSyncFolder`
    when it is none: ``''`` (which a ``Path`` reads as the working folder) and a value of
    another type (``5``, a TypeError further on) too."""
    from skillc_index.files import is_folder
    from skillc_index.layout import expand_user

    if isinstance(value, str | os.PathLike) and value != "":
        path = expand_user(value)
        if is_folder(path):
            return path
    raise NoSyncFolder(parameter, str(value), option)


class SyncDestinationNotWritable(SkillcError):
    code = "E041"

    def __init__(self, path: str, reason: str = "") -> None:
        super().__init__(Diagnostic(self.code, {"path": path}, _hint(reason)))
        self.path = path


class SyncSourceNotReadable(SkillcError):
    code = "E042"

    def __init__(self, path: str, reason: str = "") -> None:
        super().__init__(Diagnostic(self.code, {"path": path}, _hint(reason)))
        self.path = path


class TeamStoreUnavailable(SkillcError):
    """E043: the team store (a PostgreSQL database) cannot be reached, refuses the login, is
    not a skillc store, or a statement failed; ``url`` is shown without its password, and
    ``reason`` (the driver's message, the password removed) is the hint."""

    code = "E043"

    def __init__(self, url: str, reason: str = "") -> None:
        super().__init__(Diagnostic(self.code, {"url": url}, _hint(reason)))
        self.url = url
        self.reason = reason


class DriverMissing(SkillcError):
    """E044: a ``postgresql://`` store was named but psycopg 3 is not installed."""

    code = "E044"

    def __init__(self) -> None:
        super().__init__(
            Diagnostic(self.code, {}, _hint("install it: pip install 'skillc-stats[postgres]'"))
        )
