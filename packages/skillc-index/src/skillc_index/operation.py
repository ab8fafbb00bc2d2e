"""Operations: each command of the kit defined once, for the CLI and the MCP server alike.

An :class:`Operation` is a command as data: its name, a *parameters record* (a
:class:`~skillc_index.record.Record`, the kit's ``NamedTuple``, whose fields are the command's
parameters, each annotated with its description and JSON Schema constraints, ``Annotated[int,
Param(...)]``), the function that runs it, and the JSON Schema of its result. The function
takes a :class:`Session` and the record, resolves the skill, logs the access (through the
session's :class:`~skillc_index.accesslog.AccessLog`) and returns a result object with
``to_dict()``: the JSON that ``--format json`` prints and the MCP tool returns as
``structuredContent``. Its ``warnings`` are printed by the CLI and returned by the MCP tool.
What the access log stores is the record's ``log_args()``.

The CLI parses its options into the record and renders text from the result; the MCP server
builds its tool table from the operations (:meth:`Operation.tool`). A parameter's MCP default
may differ from the CLI's (``mcp_default``: a reply must stay small, a terminal may show a
whole file); everything else is the same on both sides, which a test checks.

The parameters record's own machinery (:class:`Param`, :func:`fields`, the input schema and
the checks of a Python call) is :mod:`skillc_index.parameters`'. ``Param``, ``fields``,
``input_schema`` and ``property_name`` are named here too, as 0.1.0 released them here; the
rest (``given``, ``checked_values``, ``checked_record``) is imported from there only, and
``MAX_COUNT`` from :mod:`skillc_index.arguments`.

This module imports only the standard library (and :mod:`skillc_index.record`,
:mod:`skillc_index.arguments`, :mod:`skillc_index.parameters`), and no
dataclasses: the operation tables are imported by every ``skc show`` and read when ``skc mcp``
lists its tools, and creating a dataclass costs a millisecond or two where a ``Record`` costs a
twentieth of that.
"""

from __future__ import annotations

import types
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from functools import cached_property
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from skillc_index.arguments import check_arguments, checked
from skillc_index.parameters import Param, checked_record, fields, input_schema, property_name
from skillc_index.record import Record

if TYPE_CHECKING:
    from typing import Protocol

    from skillc_index.accesslog import AccessLog
    from skillc_index.config import Config
    from skillc_index.diagnostics import Diagnostic, Notice
    from skillc_index.layout import Layout, ResolvedSkill

    class Result(Protocol):
        """What an operation returns (a protocol for type checkers only: defining one costs
        an import on every command)."""

        @property
        def warnings(self) -> tuple[Diagnostic | Notice, ...]: ...

        def to_dict(self) -> Mapping[str, Any] | list[Any]:
            """The JSON: an object (what a tool returns); a command line's run of several
            skills may print a list."""


__all__ = [
    "READ_ONLY",
    "SKILL_DESCRIPTION",
    "WARNINGS",
    "WARNING_LINES",
    "WRITES",
    "Operation",
    "Param",
    "Part",
    "Session",
    "fields",
    "input_schema",
    "property_name",
]

SKILL_DESCRIPTION = (
    "Skill name (looked up in the project store .skillc/skills/, the global store "
    "~/.skillc/skills/, then the agent skills folders of the project and the home, then "
    "installed plugins; plugin:skill names a plugin's), a path to a folder holding SKILL.md "
    "(relative to the working directory or absolute), or a skill:// URI of skills/list. "
    "skc_list shows the names."
)
"""The ``skill`` parameter of every command that reads one installed skill."""

READ_ONLY: Mapping[str, Any] = types.MappingProxyType(
    {"readOnlyHint": True, "openWorldHint": False}
)
"""The MCP annotations of a command that changes nothing."""

#: The MCP annotations of a command that writes files, deletes nothing, and writes the same
#: again when run again (``package``, ``route``).
WRITES = {"readOnlyHint": False, "destructiveHint": False, "idempotentHint": True,
          "openWorldHint": False}  # fmt: skip

#: What a result's ``warnings`` hold (its schema's description): RFC-0005's coded warnings,
#: and the kit's notices, which have no code there (a reply cut to its size by
#: :meth:`Session.fit`, a configuration problem): a new code needs an RFC amendment.
WARNING_LINES = (
    "Warnings, a line each: 'warning[WXXX]: ...' (RFC-0005's codes) or 'warning: ...' (no "
    "code: a reply cut to its size, a configuration problem)."
)

WARNINGS: Mapping[str, Any] = types.MappingProxyType(
    {
        "type": "array",
        "items": {"type": "string"},
        "description": f"{WARNING_LINES} Present only when there are some.",
    }
)
"""The ``warnings`` key the MCP server adds to a result that has warnings."""


P = TypeVar("P")
R = TypeVar("R", bound="Result")


#: What a reply's warnings add to it around their lines (``, "warnings": [...]``).
_WARNINGS = len(', "warnings": []')


def warning_lines(diagnostics: Iterable[Diagnostic | Notice]) -> list[str]:
    """A reply's ``warnings``: each diagnostic's line (:func:`~skillc_index.diagnostics.
    format_diagnostic`)."""
    from skillc_index.diagnostics import format_diagnostic

    return [format_diagnostic(diagnostic) for diagnostic in diagnostics]


def with_warnings(
    data: Mapping[str, Any], diagnostics: Iterable[Diagnostic | Notice]
) -> dict[str, Any]:
    """A reply's JSON: ``data`` with the lines of ``diagnostics`` as its ``warnings`` when
    there are any, unless it has ``warnings`` itself (build's JSON)."""
    reply = dict(data)
    lines = warning_lines(diagnostics)
    if lines and "warnings" not in reply:
        reply["warnings"] = lines
    return reply


class Part(Record):
    """A list of a reply that :meth:`Session.fit_parts` may cut: its ``items`` (JSON values,
    best first), what they are (``noun``), and how many the result has (``total``: when it
    counts more than ``items``)."""

    noun: str
    items: Sequence[object]
    total: int | None = None


class Session:
    """What operations run in: the layout (working folder, project, home), the access log,
    and the front end's limits and hooks.

    ``reply_chars``: the most characters of file content one result may hold (the MCP server
    sets it; None: no limit; E100 for one that is no integer from 1 to
    :data:`~skillc_index.arguments.MAX_COUNT`). ``progress``: ``progress(done, total)`` as a
    long command works (the CLI's progress bar; None: not reported). ``check_targets``:
    called with the layout and the deployment targets before a command writes anything to
    them, it raises for one the front end may not write to (the MCP server: the model
    chooses the arguments, the user chooses where the server may write; None: wherever the
    user asks).
    ``configured_stores_only``: a command reads a team store only when the configuration
    names it (the MCP server: a model does not choose which host the server connects to).
    ``confined_paths``: the folders and files a command is given (``find``'s ``path``, every
    ``path`` parameter: :meth:`check_paths`) lie in the project, the working folder, the
    home folder or the folders of installed skills (the MCP server: a model does not walk
    the whole disk into the user's catalog, nor read a folder that is no skill of the
    user's; a linked entry of such a folder leading out of them is skipped and said).
    ``one_shot``: the front end runs one command and exits (the CLI): an operation that
    keeps something warm between calls asks a resident process of the kit for its answer
    first, and may start one for the next commands, rather than load what this process
    would throw away (``find``: the find server of ``skc watch``); False (the MCP server, an
    embedder): the process serves many calls and keeps its own. ``starts_servers``: an
    operation may start such a resident process in the background, to outlive the call
    (``find``: a find server to build the catalog and compute the vectors); None (the
    default): when ``one_shot``; the MCP server sets it; an embedder's session starts none.
    Warnings that are not part of a result (configuration problems, a folder shadowing a
    store skill, logging trouble) go to the access log's ``warn``. ``notices_in_result``:
    the notices of resolving the skill a call names (W001 for a name several installed
    skills have, the shadowing folder: :meth:`warn_resolved`) are also kept in
    :attr:`result_notices` for the result's ``warnings`` (the MCP server: the model that
    named the skill learns which one it got, and which others there are).
    """

    def __init__(
        self,
        layout: Layout,
        log: AccessLog,
        *,
        reply_chars: int | None = None,
        progress: Callable[[int, int], None] | None = None,
        check_targets: Callable[[Layout, Sequence[str]], None] | None = None,
        configured_stores_only: bool = False,
        confined_paths: bool = False,
        one_shot: bool = False,
        starts_servers: bool | None = None,
        notices_in_result: bool = False,
    ) -> None:
        self.layout = layout
        self.log = log
        if reply_chars is not None:  # a bound of every reply: checked as an argument is
            reply_chars = checked("reply_chars", reply_chars, {"type": "integer", "minimum": 1})
        self.reply_chars = reply_chars
        self.progress = progress
        self.check_targets = check_targets
        self.configured_stores_only = configured_stores_only
        self.confined_paths = confined_paths
        self.one_shot = one_shot
        self.starts_servers = one_shot if starts_servers is None else starts_servers
        self.notices_in_result = notices_in_result
        self.result_notices: list[Diagnostic | Notice] = []

    def warn(self, diagnostics: Iterable[Diagnostic | Notice]) -> None:
        self.log.warn(diagnostics)

    def warn_resolved(self, notices: Iterable[Diagnostic | Notice]) -> None:
        """The notices of resolving a skill the call named: warned, and kept for the result
        with ``notices_in_result`` (see the class)."""
        notices = tuple(notices)
        if self.notices_in_result:
            self.result_notices.extend(notices)
        self.warn(notices)

    def fit(
        self,
        items: Callable[[], Sequence[object]],
        what: str,
        noun: str,
        advice: str,
        *,
        total: int | None = None,
        beside: object = None,
        warnings: Sequence[Diagnostic | Notice] = (),
    ) -> tuple[tuple[bool, ...], tuple[Notice, ...]]:
        """:meth:`fit_parts` of one list, ``items()`` (JSON values): its mask, the warning."""
        parts = lambda: [Part(noun, items(), total)]  # noqa: E731
        kept, cut = self.fit_parts(parts, what, advice, beside, warnings=warnings)
        return (kept[0] if kept else ()), cut

    def fit_parts(
        self,
        parts: Callable[[], Sequence[Part]],
        what: str,
        advice: str,
        beside: object = None,
        *,
        warnings: Sequence[Diagnostic | Notice] = (),
    ) -> tuple[tuple[tuple[bool, ...], ...], tuple[Notice, ...]]:
        """Which items of each of ``parts()`` (a result's lists as JSON values, each best
        first) one reply holds, a mask of each part (for :func:`itertools.compress`), and the
        warning when that is not all of them (the masks are the caller's only then): an item
        too long alone is left out, not the ones after it; then, while the reply's JSON is
        over ``reply_chars``, the last item kept of the longest part (in characters).
        ``parts`` is called only when the reply is bounded (an MCP session). ``beside``: the
        rest of the reply (kept whole, without its ``warnings``), counted first, with
        ``warnings``, the result's own the reply holds (:func:`with_warnings`), and their
        frame (``, "warnings": [...]``). The warning reads ``<what> cut at K of
        N <noun>[, K of N <noun>...] (the reply's limit of C characters[; M too long
        alone]): <advice>`` (N: a part's ``total``, when the result counts more); it is
        counted too, as the reply's ``warnings`` hold it (``"warnings": ["warning: ..."]``),
        with :attr:`result_notices`: the reply with them stays within ``reply_chars`` (unless
        ``beside`` and the warning alone are over it)."""
        if self.reply_chars is None:
            return (), ()
        import heapq
        import json

        from skillc_index.diagnostics import Notice, format_diagnostic

        listed = parts()
        dumps = json.JSONEncoder(ensure_ascii=False).encode
        sizes = [[len(dumps(item)) + 2 for item in part.items] for part in listed]
        used = 0 if beside is None else len(dumps(beside))
        held = [*self.result_notices, *warnings]  # the reply's warnings but the cut's
        used += sum(len(dumps(line)) + 2 for line in warning_lines(held))
        used += _WARNINGS if held else 0
        room = self.reply_chars - used  # for one item alone
        keep = [[i for i, size in enumerate(part) if size <= room] for part in sizes]
        too_long = sum(map(len, sizes)) - sum(map(len, keep))
        chars = [sum(part[i] for i in k) for part, k in zip(sizes, keep, strict=True)]
        used += sum(chars)
        longest = [(-n, index) for index, n in enumerate(chars) if n]  # a heap
        heapq.heapify(longest)

        def notice() -> Notice | None:
            cut = [
                f"{len(k):,} of {len(p.items) if p.total is None else p.total:,} {p.noun}"
                for p, k in zip(listed, keep, strict=True)
                if len(k) < len(p.items)
            ]
            if not cut:
                return None
            shown = ", ".join(cut[:-1]) + " and " + cut[-1] if len(cut) > 1 else cut[0]
            limit = f"the reply's limit of {self.reply_chars:,} characters"
            limit += f"; {too_long:,} too long alone" if too_long else ""
            return Notice(f"{what} cut at {shown} ({limit}): {advice}")

        def warned() -> int:  # the characters of the reply's warning of the cut, if any
            said = notice()
            if said is None:
                return 0
            return len(dumps(format_diagnostic(said))) + (2 if held else _WARNINGS)

        alone = used - sum(chars)  # the reply without its lists' items
        while longest:  # the items over the bound, then the few more its warning needs
            if used <= self.reply_chars:
                warning = warned()  # (unless even with no item the warning would not fit)
                if used + warning <= self.reply_chars or alone + warning > self.reply_chars:
                    break
            negative, index = heapq.heappop(longest)
            size = sizes[index][keep[index].pop()]
            used -= size
            if keep[index]:
                heapq.heappush(longest, (negative + size, index))
        masks = tuple(
            tuple(map(set(k).__contains__, range(len(p)))) for p, k in zip(sizes, keep, strict=True)
        )
        said = notice()
        return masks, (() if said is None else (said,))

    def check_paths(self, command: str, params: Any) -> None:
        """With ``confined_paths``: E100 (:mod:`skillc_index.inventory.reads`) for a value of a
        ``path`` parameter of ``params`` (a parameters record of ``command``: a skill's path, a
        baseline file, folders to search) that does not really lie in the folders a model may
        read, before anything is read. A name is a path from the working folder
        (there), a ``skill://`` URI too (its resolution keeps to the inventory)."""
        if not self.confined_paths:
            return
        from skillc_index.items import as_items

        for name, _hint, meta in fields(type(params)):
            value = getattr(params, name)
            if not meta.path or value is None:
                continue
            flag = (meta.flags or (f"--{property_name(name).replace('_', '-')}",))[0]
            option = f"{flag} {meta.metavar}" if meta.metavar and not meta.argument else "PATH"
            self.confine(command, option, as_items(value))

    def confine(self, command: str, option: str, values: Iterable[str]) -> None:
        """With ``confined_paths``: E100 for a folder or file of ``values`` (paths from the
        working folder, ``~`` expanded) that ``command`` would read (given as its
        ``option``) and that does not really lie where a model may read (see
        :meth:`check_paths`, which checks the ``path`` parameters with it; ``eval`` checks
        the folders of the ``[libraries]`` entry a model names with it too)."""
        if not self.confined_paths:
            return
        from skillc_index.inventory.reads import confine
        from skillc_index.layout import expand_user

        for named in values:  # (not ``given``: the function this module names)
            path = self.layout.cwd / expand_user(named)
            confine(named, path, self._model_folders, command, option)

    @cached_property
    def _model_folders(self) -> tuple[Any, ...]:
        """The folders a model may read (:func:`~skillc_index.inventory.reads.model_folders`),
        found once."""
        from skillc_index.inventory.folders import search_roots, trusted_targets
        from skillc_index.inventory.reads import model_folders

        configured = trusted_targets(self.layout, self.config)
        return model_folders(self.layout, search_roots(self.layout, configured))

    @cached_property
    def config(self) -> Config:
        """The configuration (RFC-0009), loaded once; its problems are warned."""
        from skillc_index.config import load_config

        config = load_config(self.layout)
        self.warn(config.notices)
        return config

    @contextmanager
    def logged(
        self, command: str, skill: str, args: Mapping[str, Any], *, stores_only: bool = False
    ) -> Iterator[ResolvedSkill]:
        """:meth:`AccessLog.logged <skillc_index.accesslog.AccessLog.logged>` here."""
        with self.log.logged(
            self.layout, command, skill, args, stores_only=stores_only, warn=self.warn_resolved
        ) as skill_:
            yield skill_


class Operation(Generic[P, R]):
    """One command: see the module docstring. ``name`` is the ``skc`` command (and the
    access log's ``command``); the MCP tool is ``skc_<name>``; ``description`` tells agents
    what the command does and when to use it.

    ``output``: where the JSON shape of the result is written, ``"module:Name"`` of a
    ``TypedDict`` that ``to_dict()`` returns (imported only to make the MCP output schema:
    :mod:`skillc_index.shapes`). ``output_schema`` gives the schema as a dict instead, for a
    result whose shape is not a ``TypedDict``.

    The command line has every field of the record but ``mcp_only``, the MCP tool every
    field but ``cli_only``: each maps a field to the reason. ``no_tool``: why the MCP server
    does not serve the command (None: it does), e.g. ``run`` starts code a model should not
    start."""

    __slots__ = (
        "_schemas",
        "annotations",
        "cli_only",
        "description",
        "function",
        "mcp_only",
        "name",
        "no_tool",
        "output",
        "params",
        "title",
    )

    def __init__(
        self,
        name: str,
        *,
        title: str,
        description: str,
        params: type[P],
        run: Callable[[Session, P], R],
        output: str | Mapping[str, Any],
        annotations: Mapping[str, Any] = READ_ONLY,
        cli_only: Mapping[str, str] = types.MappingProxyType({}),
        mcp_only: Mapping[str, str] = types.MappingProxyType({}),
        no_tool: str | None = None,
    ) -> None:
        self.name = name
        self.title = title
        self.description = description
        self.params = params
        self.function = run
        self.output = output
        self.annotations = annotations
        self.cli_only = cli_only
        self.mcp_only = mcp_only
        self.no_tool = no_tool
        self._schemas: dict[str, dict[str, Any]] = {}

    def __repr__(self) -> str:
        return f"Operation({self.name!r})"

    def run(self, session: Session, params: P) -> R:
        """Run the command on ``params``, checked first as the MCP tool's arguments are
        (:func:`checked_record`: E100 for a value of the wrong type, outside its bounds or
        its choices, before anything runs or is logged): the Python API. The command line
        (click) and the MCP server (:meth:`parse`) checked their record already: they call
        :attr:`function` on it, not checked again."""
        return self.function(session, checked_record(params))

    @property
    def tool_name(self) -> str:
        return f"skc_{self.name}"

    def cli_fields(self) -> tuple[tuple[str, Any, Param], ...]:
        """The fields the command line has (all but ``mcp_only``), in order."""
        return tuple(field for field in fields(self.params) if field[0] not in self.mcp_only)

    def input_schema(self) -> dict[str, Any]:
        """The MCP ``inputSchema`` (made once)."""
        found = self._schemas.get("input")
        if found is None:
            found = self._schemas["input"] = input_schema(self.params, self.cli_only)
        return found

    def output_schema(self) -> dict[str, Any]:
        """The MCP ``outputSchema``: the JSON Schema of :attr:`output` (made once)."""
        found = self._schemas.get("output")
        if found is None:
            if isinstance(self.output, str):
                from skillc_index.shapes import schema_of

                found = schema_of(self.output)
            else:
                found = dict(self.output)
            self._schemas["output"] = found
        return found

    def tool(self) -> dict[str, Any]:
        """The MCP tool definition (``tools/list``)."""
        return {
            "name": self.tool_name,
            "title": self.title,
            "description": self.description,
            "inputSchema": self.input_schema(),
            "outputSchema": self.output_schema(),
            "annotations": dict(self.annotations),
        }

    def parse(self, arguments: Mapping[str, Any]) -> P:
        """The parameters record of a tool call's arguments, checked against the input
        schema (:class:`~skillc_index.InvalidOption`, E100, says what is wrong): a missing
        one takes its MCP default, else the field's default (an absent array is ``()``);
        arrays become tuples; the command line's own fields keep their defaults."""
        checked = check_arguments(self.input_schema(), arguments)
        values: dict[str, Any] = {}
        for name, _hint, meta in fields(self.params):
            if name in self.cli_only:
                continue
            value = checked.get(property_name(name))
            if value is not None:
                values[name] = tuple(value) if isinstance(value, list) else value
            elif meta.mcp_default is not None:
                values[name] = meta.mcp_default
        return self.params(**values)
