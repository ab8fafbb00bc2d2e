"""Running the ten tools: arguments checked, the library called, the access logged.

Each tool calls the same library function as its ``skc`` command (no subprocess) and returns
the object that command prints with ``--format json``; :meth:`ToolRunner.call` wraps it into
an MCP ``CallToolResult``: the object as ``structuredContent`` and as JSON text. A failure the
agent can act on (unknown skill, bad path, missing section, stale index, bad argument) is a
result with ``isError`` whose text is the ``error[EXXX]: ...`` diagnostic of RFC-0005.

Calls are logged like CLI calls (RFC-0007:C-LOGGING, DECISIONS "Logging and analytics"): one
access row per call of a command that resolves a skill, the CLI's command name and arguments,
and one run id for the whole server process (a session). The libraries are imported on first
use, so starting the server and listing the tools stay cheap.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, TextIO

from skillc_mcp._access import AccessLogWriter
from skillc_mcp._arguments import ArgumentError, check_arguments
from skillc_mcp._catalog import TOOLS

if TYPE_CHECKING:
    from skillc_index import Diagnostic, Layout, Notice, ResolvedSkill

Data = dict[str, Any]
Handler = Callable[["ToolRunner", "Layout", dict[str, Any]], Data]

REPLY_CHARS = 100_000
"""Characters of content in one ``skc_open`` or ``skc_show`` reply, at most (some 25,000
tokens): whole lines while they fit; a single longer line is cut to this length. (Lines: the
``max_lines`` default of the tool schemas, 500.)"""


class UnknownTool(KeyError):
    """``tools/call`` named a tool this server does not have (a protocol error, -32602)."""


class ToolRunner:
    """Runs ``tools/call`` requests. ``run_id`` tags this session's access-log rows
    (default: ``$SKC_RUN_ID`` or a new one); ``log`` is where warnings go (stderr).

    ``skc_build`` deploys to agents by name, and to a folder path only when it is one of the
    agent folders (the built-in targets and the ``[targets]`` of the home config, for the
    project and the home folder) or in one of ``allowed_targets`` (absolute folders, or below
    them): the model chooses the arguments, the user chooses where the server may write.

    Access-log rows are written by a background thread; :meth:`close` writes the last ones.
    """

    def __init__(
        self,
        *,
        run_id: str | None = None,
        log: TextIO | None = None,
        allowed_targets: Sequence[str] = (),
    ) -> None:
        self._run_id = run_id
        self._log = log
        self._allowed = tuple(os.path.realpath(path) for path in allowed_targets)
        self._reported: set[str] = set()
        self._schemas = {tool["name"]: tool["inputSchema"] for tool in TOOLS}
        self._writer = AccessLogWriter(self.warn)

    def flush(self) -> None:
        """Wait until the access-log rows of the calls so far are written."""
        self._writer.flush()

    def close(self) -> None:
        """Write the pending access-log rows and stop the writer thread."""
        self._writer.close()

    @property
    def run_id(self) -> str:
        if self._run_id is None:
            from skillc_index import new_run_id

            self._run_id = new_run_id()
        return self._run_id

    def definitions(self) -> list[dict[str, Any]]:
        """The ``tools`` array of ``tools/list``."""
        return list(TOOLS)

    def call(self, name: str, arguments: Mapping[str, Any]) -> dict[str, Any]:
        """Run tool ``name``; the ``CallToolResult``. Raises :class:`UnknownTool`."""
        handler = HANDLERS.get(name)
        if handler is None:
            raise UnknownTool(name)
        try:
            args = check_arguments(self._schemas[name], arguments)
            from skillc_index import Layout

            data = handler(self, Layout.discover(), args)
        except ArgumentError as exc:
            from skillc_index import InvalidOption

            return error_result(InvalidOption(str(exc)).diagnostic)
        except Exception as exc:
            from skillc_index import SkillcError

            if isinstance(exc, SkillcError):
                return error_result(exc.diagnostic)
            return error_result(self.internal_error(name, exc))
        text = json.dumps(data, ensure_ascii=False)
        return {
            "content": [{"type": "text", "text": text}],
            "structuredContent": data,
            "isError": False,
        }

    def check_targets(self, layout: Layout, targets: Sequence[str]) -> None:
        """E100 unless every folder among ``targets`` may be deployed to (see the class)."""
        from skillc_mcp._targets import check_targets

        check_targets(layout, targets, self._allowed)

    # -- logging ---------------------------------------------------------------------------

    def warn(self, diagnostics: Iterable[Diagnostic | Notice]) -> None:
        """Write warnings to the server log (stderr); W003 once per session."""
        from skillc_index import format_diagnostic

        for diagnostic in diagnostics:
            code = getattr(diagnostic, "code", None)
            if code == "W003":
                if code in self._reported:
                    continue
                self._reported.add(code)
            print(format_diagnostic(diagnostic), file=self._log or sys.stderr, flush=True)

    def internal_error(self, tool: str, exc: Exception) -> Diagnostic:
        """E999 for a failure nobody planned for; the traceback goes to the server log."""
        import traceback

        from skillc_index import InternalError

        log = self._log or sys.stderr
        print(f"skillc-mcp: {tool} failed:", file=log)
        traceback.print_exception(exc, file=log)
        return InternalError.unexpected(exc).diagnostic

    def record(
        self,
        layout: Layout,
        skill: ResolvedSkill,
        command: str,
        args: Mapping[str, Any],
        error: str | None = None,
    ) -> None:
        """Queue one access-log row (RFC-0007:C-LOGGING); logging never fails the call."""
        from skillc_index import AccessRecord

        record = AccessRecord.for_skill(layout, skill, command, args, error, self.run_id)
        self._writer.submit(layout, skill.runtime, record)

    @contextmanager
    def logged(
        self, layout: Layout, command: str, skill: str, args: dict[str, Any]
    ) -> Iterator[ResolvedSkill]:
        """Resolve ``skill`` and log the access when the block ends, with the error if one
        escapes. Nothing is logged when the skill does not resolve: there is no log to use."""
        from skillc_index import access_logged

        def record(resolved: ResolvedSkill, error: str | None) -> None:
            self.record(layout, resolved, command, args, error)

        with access_logged(layout, skill, record) as resolved:
            self.warn(resolved.notices)
            yield resolved


def error_result(diagnostic: Diagnostic) -> dict[str, Any]:
    """A tool execution error: ``isError`` and the diagnostic text (E020 with suggestions)."""
    from skillc_index import format_diagnostic

    return {"content": [{"type": "text", "text": format_diagnostic(diagnostic)}], "isError": True}


def _page(data: Data, offset: int, limit: int) -> Data:
    """Cut the ``to_dict`` of a file or section read with ``max_lines=offset + limit`` to the
    lines from ``offset`` on: at most ``limit`` lines and :data:`REPLY_CHARS` characters.
    Adds ``offset``, and ``next_offset`` (the ``offset`` that reads on) when lines are left."""
    from skillc_index import split_lines  # the lines skillc numbers everywhere

    lines = split_lines(data["content"])[offset : offset + limit]
    shown: list[str] = []
    size = 0
    cut = False
    for line in lines:
        if size + len(line) > REPLY_CHARS:
            if not shown:  # one line longer than a reply: its start
                shown.append(line[:REPLY_CHARS])
                cut = True
            break
        shown.append(line)
        size += len(line)
    end = offset + len(shown)
    data.update(
        content="".join(shown),
        shown_lines=len(shown),
        truncated=cut or end < data["total_lines"],
        offset=offset,
    )
    if end < data["total_lines"]:
        data["next_offset"] = end
    return data


def _with_warnings(data: Data, diagnostics: Iterable[Diagnostic | Notice]) -> Data:
    from skillc_index import format_diagnostic

    lines = [format_diagnostic(diagnostic) for diagnostic in diagnostics]
    if lines:
        data["warnings"] = lines
    return data


def _tokenizer(runner: ToolRunner, layout: Layout) -> str:
    """``[search].tokenizer`` (RFC-0009) for show and search; config problems are logged."""
    from skillc_index import load_config

    config = load_config(layout)
    runner.warn(config.notices)
    return config.tokenizer


# -- the tools (RFC-0007:C-COMMANDS) --------------------------------------------------------


def _init(runner: ToolRunner, layout: Layout, a: dict[str, Any]) -> Data:
    """RFC-0006 ``init``: not logged (it resolves no skill), like the CLI."""
    from skillc_index import InvalidOption, init_project, init_skill

    if a["name"] is None:
        if a["global"]:
            raise InvalidOption("'global' needs a skill 'name'")
        return init_project(layout).to_dict()
    return init_skill(a["name"], layout, global_store=a["global"]).to_dict()


def _list(runner: ToolRunner, layout: Layout, a: dict[str, Any]) -> Data:
    """RFC-0007:C-LIST; a skill skipped for invalid frontmatter is a warning in the result."""
    from skillc_index import list_skills

    result = list_skills(
        layout,
        scope=a["scope"],
        status=a["status"],
        pattern=a["pattern"],
        limit=a["limit"],
        check_obsolete=a["check_obsolete"],
    )
    return _with_warnings(result.to_dict(), result.notices)


def _build(runner: ToolRunner, layout: Layout, a: dict[str, Any]) -> Data:
    """RFC-0001 ``build``: logged after the build, or with its error when the skill resolves."""
    from skillc_index import build_skill, load_config, record_failed_build

    targets = a["target"] or []
    runner.check_targets(layout, targets)
    config = load_config(layout)
    runner.warn(config.notices)
    args = {"global": a["global"], "target": targets, "copy": a["copy"], "force": a["force"]}
    try:
        result = build_skill(
            a["skill"],
            layout,
            targets=targets,
            copy=a["copy"],
            force=a["force"],
            force_global=a["global"],
            config=config,
        )
    except Exception as exc:
        record_failed_build(
            layout,
            a["skill"],
            a["global"],
            exc,
            lambda resolved, error: runner.record(layout, resolved, "build", args, error),
        )
        raise
    runner.record(layout, result.skill, "build", args)
    runner.warn(result.notices)
    return result.to_dict()


def _lint(runner: ToolRunner, layout: Layout, a: dict[str, Any]) -> Data:
    """RFC-0008 for one skill, with the project's ``[lint]`` configuration."""
    from skillc_index import Notice, load_config
    from skillc_lint import configured_registry, json_report, lint_skill, profiles_in

    config = load_config(layout)
    runner.warn(config.notices)
    registry, problems = configured_registry(config.lint)
    runner.warn(Notice(f"config [lint]: {problem}") for problem in problems)
    profiles = list(profiles_in(registry))
    args: dict[str, Any] = {"force": a["force"], "profiles": profiles, "select": [], "ignore": []}
    with runner.logged(layout, "lint", a["skill"], args) as resolved:
        folder = resolved.imported_from or resolved.source  # the folder being edited
        result = lint_skill(folder, registry=registry, force=a["force"])
        args.update(errors=result.errors, warnings=result.warnings, skipped=result.skipped)
    data: Data = json_report([result], layout.cwd, single=True)
    data["error_count"] = result.errors
    data["warning_count"] = result.warnings
    return _with_warnings(data, result.notices)


def _outline(runner: ToolRunner, layout: Layout, a: dict[str, Any]) -> Data:
    from skillc_gateway import outline

    with runner.logged(layout, "outline", a["skill"], {"level": a["level"]}) as resolved:
        found = outline(resolved, level=a["level"])
    data: Data = {"skill": resolved.name, "headings": [h.to_dict() for h in found.headings]}
    return _with_warnings(data, found.warnings)


def _show(runner: ToolRunner, layout: Layout, a: dict[str, Any]) -> Data:
    from skillc_gateway import show_section

    tokenizer = _tokenizer(runner, layout)
    args = {"section": a["section"], "file": a["file"], "max_lines": a["max_lines"]}
    if a["offset"]:
        args["offset"] = a["offset"]
    with runner.logged(layout, "show", a["skill"], args) as resolved:
        found = show_section(
            resolved,
            a["section"],
            file=a["file"],
            max_lines=a["offset"] + a["max_lines"],
            tokenizer_setting=tokenizer,
        )
    data = _page(found.to_dict(), a["offset"], a["max_lines"])
    return _with_warnings({"skill": resolved.name, **data}, found.warnings)


def _open(runner: ToolRunner, layout: Layout, a: dict[str, Any]) -> Data:
    from skillc_gateway import open_file

    args = {"path": a["path"], "max_lines": a["max_lines"]}
    if a["offset"]:
        args["offset"] = a["offset"]
    if a["hidden"]:
        args["hidden"] = True
    with runner.logged(layout, "open", a["skill"], args) as resolved:
        content = open_file(
            resolved, a["path"], max_lines=a["offset"] + a["max_lines"], hidden=a["hidden"]
        )
    return {"skill": resolved.name, **_page(content.to_dict(), a["offset"], a["max_lines"])}


def _sources(runner: ToolRunner, layout: Layout, a: dict[str, Any]) -> Data:
    from skillc_gateway import source_tree

    args = {"depth": a["depth"], "dir": a["dir"], "limit": a["limit"], "pattern": a["pattern"]}
    with runner.logged(layout, "sources", a["skill"], args) as resolved:
        tree = source_tree(
            resolved,
            depth=a["depth"],
            directory=a["dir"],
            limit=a["limit"],
            pattern=a["pattern"],
        )
    return {"skill": resolved.name, "tree": tree.to_dict()}


def _search(runner: ToolRunner, layout: Layout, a: dict[str, Any]) -> Data:
    """RFC-0004; the log row carries ``result_count`` (RFC-0004:C-LOGGING), 0 when it failed."""
    from skillc_gateway import search_skill

    tokenizer = _tokenizer(runner, layout)
    args: dict[str, Any] = {"query": a["query"], "limit": a["limit"], "result_count": 0}
    with runner.logged(layout, "search", a["skill"], args) as resolved:
        found = search_skill(resolved, a["query"], limit=a["limit"], tokenizer_setting=tokenizer)
        args["result_count"] = len(found.results)
    return found.to_dict()


def _stats(runner: ToolRunner, layout: Layout, a: dict[str, Any]) -> Data:
    """RFC-0003: the response schema of RFC-0003:C-SCHEMA, as ``skc stats --format json``."""
    from skillc_stats import query_stats

    runner.flush()  # the rows of the calls before this one count
    projects = a["project"] or []
    args = {"group_by": a["group_by"], "since": a["since"], "until": a["until"]}
    args["project"] = projects
    with runner.logged(layout, "stats", a["skill"], args) as resolved:
        report = query_stats(
            resolved,
            layout,
            group_by=a["group_by"],
            since=a["since"],
            until=a["until"],
            projects=projects,
        )
    return dict(report)


HANDLERS: dict[str, Handler] = {
    "skc_init": _init,
    "skc_list": _list,
    "skc_build": _build,
    "skc_lint": _lint,
    "skc_outline": _outline,
    "skc_show": _show,
    "skc_open": _open,
    "skc_sources": _sources,
    "skc_search": _search,
    "skc_stats": _stats,
}
