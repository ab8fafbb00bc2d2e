"""E100 (RFC-0005: invalid option): an option or argument the command refuses, worded by each
front end.

:class:`InvalidOption` is the code's class; each condition has its subclass
(:class:`UnknownTarget`, :class:`TextTooLong`, :class:`TooManyItems`,
:class:`TooManyQueryWords`; the other packages' own, ``UnknownTool(InvalidOption)``). One that
names parameters (:class:`WordedOption`; :class:`ParameterError`: parameters that do not go
together, or one missing) is worded with :data:`~skillc_index.spelling.PARAMETER_NAMES` for the
Python API and MCP, and by :meth:`~skillc_index.diagnostics.SkillcError.spelled` for the command
line (``--force``). A usage error (:attr:`InvalidOption.usage`) gets the command line's ``Try
'... --help' for help.`` line. The registry and the other error types are
:mod:`skillc_index.diagnostics`'.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import ClassVar

from skillc_index.diagnostics import Diagnostic, SkillcError, _hint
from skillc_index.spelling import PARAMETER_NAMES, Spelling
from skillc_index.text import NUL_REASON, nul_shown

__all__ = [
    "InvalidOption",
    "ParameterError",
    "TextTooLong",
    "TooManyItems",
    "TooManyQueryWords",
    "UnknownTarget",
    "WordedOption",
]


class InvalidOption(SkillcError):
    code = "E100"

    #: A command line's usage error, a missing argument (``skc stats`` without SKILL), a bad
    #: value of an option (:class:`UnknownTarget`, skillc-lint's ``ParameterError``) or
    #: parameters that do not go together (every :class:`ParameterError`): the command line
    #: adds click's ``Try '... --help' for help.`` line, as for the arguments click checks.
    #: A subclass sets it for all its errors; ``usage=True`` for one raised as it is.
    usage: bool = False
    #: A missing setting's usage error: what its Try line says instead of ``--help``.
    remedy: str = ""

    def __init__(
        self,
        message: str,
        hint: str = "",
        *,
        logged: str = "",
        usage: bool = False,
        remedy: str = "",
    ) -> None:
        """``logged``: the message without the value it quotes, for the access log;
        ``usage``: a bad value of an option the command checks itself (``package --name``),
        a usage error (:attr:`usage`); ``remedy``: a setting missing (``--from team``), a
        usage error whose command line line says ``Try {remedy}.`` (``setting X``), the
        Python API's and MCP's ``hint: try {remedy}``."""
        hint = hint or (f"try {remedy}" if remedy else "")
        super().__init__(Diagnostic(self.code, {"message": message}, _hint(hint)))
        if logged:
            self.logged = Diagnostic(self.code, {"message": logged}, _hint(hint))
        if usage or remedy:
            self.usage = True
            self.remedy = remedy


class WordedOption(InvalidOption):
    """E100 whose message names parameters, worded by each front end: a subclass writes
    :meth:`worded`; the diagnostic is the Python API's and MCP's (:data:`PARAMETER_NAMES`),
    :meth:`spelled` gives the command line's."""

    def __init__(self) -> None:
        super().__init__(self.worded(PARAMETER_NAMES))

    def worded(self, spelling: Spelling) -> str:
        raise NotImplementedError

    def spelled(self, spelling: Spelling) -> Diagnostic:
        return self.diagnostic._replace(params={"message": self.worded(spelling)})


class ParameterError(WordedOption):
    """E100: parameters given together that do not go together, or one missing.
    ``template`` is the message with each parameter written ``{name}`` (``"use one of
    {from} and {to}"``): ``from`` for the Python API and MCP, ``--from`` on the command line,
    where ``skill`` and ``skills`` are its arguments ``SKILL`` (``[SKILL]...`` in ``--help``).
    ``python``: a Python function's own names where they differ (``{"from": "store"}``:
    ``query_all``'s ``store`` is the tool's ``from``), for its message (:data:`PARAMETER_NAMES`)."""

    usage = True

    #: The parameters the command line takes as positional arguments, as it names them.
    ARGUMENTS: ClassVar[Mapping[str, str]] = MappingProxyType({"skill": "SKILL", "skills": "SKILL"})

    def __init__(self, template: str, python: Mapping[str, str] | None = None) -> None:
        self.template = template
        self.python = python or {}
        super().__init__()

    def worded(self, spelling: Spelling) -> str:
        import string

        names = {name for _, name, _, _ in string.Formatter().parse(self.template) if name}
        return self.template.format_map({name: self._spelled(name, spelling) for name in names})

    def _spelled(self, name: str, spelling: Spelling) -> str:
        if name in self.ARGUMENTS and spelling.option_prefix:
            return self.ARGUMENTS[name]
        if spelling == PARAMETER_NAMES and name in self.python:  # not MCP's: the function's
            return self.python[name]
        return spelling.option(name)


class UnknownTarget(InvalidOption):
    """E100: a deployment target that is neither a folder path, a ``[targets]`` entry of the
    config nor a built-in agent (``known``: the names there are). A bad value: a usage error."""

    usage = True

    def __init__(self, target: str, known: tuple[str, ...]) -> None:
        super().__init__(
            f"unknown target '{nul_shown(target)}' (known: {', '.join(known)})",
            NUL_REASON if "\0" in target else "",
        )
        self.target = target
        self.known = known


class TextTooLong(InvalidOption):
    """E100: a text parameter longer than its bound (a tool call's ``maxLength``; ``find``'s
    query: ``skillc_gateway.QueryTooLong``): one wording wherever it is refused."""

    def __init__(self, name: str, length: int, maximum: int) -> None:
        super().__init__(f"the {name} has {length:,} characters; at most {maximum:,} are allowed")
        self.length = length


class TooManyItems(ParameterError):
    """E100: an array parameter with more values than its bound (a tool call's ``maxItems``,
    the command line's repeated option, ``find``'s folders): one wording wherever it is
    refused (``path holds 17 values; at most 16 are allowed``, ``--path`` on the command
    line), before any value is looked at. A bound on a value, as :class:`TextTooLong`: no
    usage error."""

    usage = False

    def __init__(self, name: str, count: int, maximum: int) -> None:
        super().__init__(f"{{{name}}} holds {count:,} values; at most {maximum:,} are allowed")
        self.count = count


class TooManyQueryWords(InvalidOption):
    """E100: a search query with more different words than ``limit``."""

    def __init__(self, count: int, limit: int) -> None:
        super().__init__(f"the query has {count} different words; at most {limit} are allowed")
        self.count = count
        self.limit = limit
