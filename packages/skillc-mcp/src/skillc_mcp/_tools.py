"""Running the tools: arguments checked, the operation run, the access logged.

Each tool runs the same operation as its ``skc`` command (:mod:`skillc_index.operation`, no
subprocess) and returns the object that command prints with ``--format json``;
:meth:`ToolRunner.call` wraps it into an MCP ``CallToolResult``: the object as
``structuredContent`` and as JSON text. A failure the agent can act on (unknown skill, bad
path, missing section, stale index, bad argument) is a result with ``isError`` whose text is
the ``error[EXXX]: ...`` diagnostic of RFC-0005.

A result with a ``resource()`` that returns resource contents (``skc_open`` of a binary
file: ``uri``, ``mimeType`` and a base64 ``blob``) also gets them as an embedded resource
after the text: a client that reads the content blocks hands the model an image as an image
(Claude Code does for PNG, JPEG, GIF and WebP) and can save other types as a file, where the
base64 of the JSON is only characters to the model. Clients that give the model the
structured content (Claude Code when there is one) still have the bytes there.

Calls are logged like CLI calls, by the operation (RFC-0007:C-LOGGING, DECISIONS "Logging and
analytics"): one access row per call of a command that resolves a skill, the CLI's command
name and arguments, and one run id for the whole server process (a session); the rows are
queued and written when the calls pause, off the calls' path. A skill's file read through the
Skills extension (``resources/read``) is logged here too (:meth:`ToolRunner.record_read`).
The libraries are imported on first use, so starting the server and listing the tools stay
cheap.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TextIO

from skillc_mcp._catalog import operations, tools
from skillc_mcp._failures import code_changed, print_exception, unloaded_kit_result

if TYPE_CHECKING:
    from skillc_index import Diagnostic, Layout, Notice

Data = dict[str, Any]

REPLY_CHARS = 100_000
"""Characters of content in one ``skc_open`` or ``skc_show`` reply, at most (some 25,000
tokens): whole lines while they fit; a single longer line is cut to this length; a binary
file's base64 (75,000 bytes), else E023. (Lines: the ``max_lines`` default of the tool
schemas, 500.)"""


class UnknownTool(KeyError):
    """``tools/call`` named a tool this server does not have (a protocol error, -32602)."""


class ToolRunner:
    """Runs ``tools/call`` requests. ``run_id`` tags this session's access-log rows
    (default: ``$SKC_RUN_ID`` or a new one); ``log`` is where warnings go (stderr).

    ``skc_build`` deploys to agents by name, and to a folder path only when it is one of the
    agent folders (the built-in targets and the ``[targets]`` of the home config, for the
    project and the home folder) or in one of ``allowed_targets`` (absolute folders, or below
    them): the model chooses the arguments, the user chooses where the server may write.
    A folder or file an argument names lies in the project, the working folder, the home
    folder or the folders of installed skills
    (:meth:`~skillc_index.operation.Session.check_paths`). ``writes``: False (the HTTP
    server unless started with ``--allow-writes``) refuses the tools that write
    (``skc_init``, ``skc_build``: not ``readOnlyHint``); ``hidden``: False (the HTTP server:
    a token user gets what is served) refuses ``hidden: true``; both E100.

    Access-log rows are queued and written by a background thread (the
    :class:`~skillc_index.accesslog.AccessLog` of the session); :meth:`close` writes the last
    ones.
    """

    def __init__(
        self,
        *,
        run_id: str | None = None,
        log: TextIO | None = None,
        allowed_targets: Sequence[str] = (),
        writes: bool = True,
        hidden: bool = True,
    ) -> None:
        from skillc_index.accesslog import AccessLog
        from skillc_index.spelling import MCP_SPELLING

        self._log = log
        self._allowed = tuple(os.path.realpath(path) for path in allowed_targets)
        self._writes = writes
        self._hidden = hidden
        self._operations = operations()
        self.access = AccessLog(self._print, run_id=run_id, queued=True, spelling=MCP_SPELLING)
        self._catalogs: set[Any] = set()
        """The find catalogs this runner's calls opened (``skc_find``), closed by :meth:`close`."""

    def flush(self) -> None:
        """Wait until the access-log rows of the calls so far are written."""
        self.access.flush()

    def close(self, *, catalogs: bool = True, timeout: float | None = None) -> None:
        """Write the pending access-log rows and stop the writer thread (waiting for it at
        most ``timeout`` seconds: the HTTP server's stop deadline); close the find
        catalogs this runner's calls opened (the last connection's close checkpoints the
        catalog's ``-wal`` into it and removes it and the ``-shm``). A catalog another caller
        in the process opened stays open; one of this runner's that another caller used
        since is opened again by that caller's next find. ``catalogs`` False: they stay open
        (a call still running may read one: the HTTP server's stop past its deadline)."""
        try:
            self.access.close(timeout)
        finally:
            while catalogs and self._catalogs:
                self._catalogs.pop().close()

    @property
    def run_id(self) -> str:
        return self.access.run_id

    def definitions(self) -> list[dict[str, Any]]:
        """The ``tools`` array of ``tools/list``."""
        return list(tools())

    def call(self, name: str, arguments: Mapping[str, Any]) -> dict[str, Any]:
        """Run tool ``name``; the ``CallToolResult``. Raises :class:`UnknownTool`."""
        before = self._thread_catalogs()
        try:
            return self._call(name, arguments)
        finally:  # this call's (close); never turns the tool's result into an error
            self._catalogs.update(self._thread_catalogs() - before)

    def _thread_catalogs(self) -> set[Any]:
        """:func:`_thread_catalogs`, never raising: a failure is logged and counts as none
        (a catalog it misses stays open until the process ends)."""
        try:
            return _thread_catalogs()
        except Exception as exc:
            log = self._log or sys.stderr
            print("skillc-mcp: could not list the find catalogs of a call:", file=log)
            print_exception(exc, file=log)
            return set()

    def _call(self, name: str, arguments: Mapping[str, Any]) -> dict[str, Any]:
        operation = self._operations.get(name)
        if operation is None:
            raise UnknownTool(name)
        try:
            import skillc_index.installed  # noqa: F401 (internal_error's: loaded while on disk)
            from skillc_index import Layout
            from skillc_index.inventory.nested import one_walk
            from skillc_index.operation import Session, with_warnings

            session = Session(
                Layout.discover(),
                self.access,
                reply_chars=REPLY_CHARS,
                check_targets=self.check_targets,
                configured_stores_only=True,
                confined_paths=True,
                starts_servers=True,  # skc_find's find server (skillc-mcp's README)
                notices_in_result=True,
            )
            params = operation.parse(arguments)
            self._check_allowed(name, operation.annotations, params)
            session.check_paths(operation.name, params)
            with one_walk():  # a call searches the nested .claude/skills once
                result = operation.function(session, params)  # parse checked it (not run again)
            warnings = (*session.result_notices, *result.warnings)
            data = with_warnings(result.to_dict(), warnings)
        except Exception as exc:
            unloaded = unloaded_kit_result(exc, self._log)  # before what words the rest loads
            if unloaded is not None:
                return unloaded
            from skillc_index import MCP_SPELLING, SkillcError

            if isinstance(exc, SkillcError):  # its remedies as this server's caller has them
                return error_result(exc.spelled(MCP_SPELLING))
            return error_result(self.internal_error(name, exc))
        text = json.dumps(data, ensure_ascii=False)
        content: list[dict[str, Any]] = [{"type": "text", "text": text}]
        resource = getattr(result, "resource", None)
        embedded = resource() if callable(resource) else None
        if embedded is not None:  # a binary file, as what it is (see the module)
            content.append({"type": "resource", "resource": embedded})
        return {"content": content, "structuredContent": data, "isError": False}

    def record_read(self, folder: str, path: str, uri: str) -> None:
        """Log a Skills-extension ``resources/read`` of file ``path`` (relative, ``/``) of
        the served skill in ``folder``: an agent loading the skill (its ``SKILL.md``:
        ``activate``, as ``skc sync --from`` imports an agent's skill activations) or reading
        one of its files (``read``, as an agent's own reads are imported), so that the same
        act is the same use whatever path it took. Never raises (logging never fails a
        call); a skill that no longer resolves is not logged."""
        from skillc_index import SKILL_FILE, Layout, SkillcError
        from skillc_index.layout import resolve_skill

        try:
            layout = Layout.discover()
            skill = resolve_skill(folder, layout)
        except (SkillcError, OSError):
            return
        if path == SKILL_FILE:
            self.access.record(layout, skill, "activate", {"uri": uri})
        else:
            self.access.record(layout, skill, "read", {"path": path, "uri": uri})

    def _check_allowed(self, tool: str, annotations: Mapping[str, Any], params: Any) -> None:
        """E100 for a tool that writes when ``writes`` is off, and for ``hidden: true``
        when ``hidden`` is (see the class)."""
        from skillc_index import InvalidOption

        if not self._writes and not annotations.get("readOnlyHint"):
            raise InvalidOption(
                f"{tool} writes to the server's disk, which this HTTP server does not let its "
                "users do (the operator can: 'skc mcp --http HOST:PORT --allow-writes')"
            )
        if not self._hidden and getattr(params, "hidden", False):
            raise InvalidOption(
                "hidden files (.env, .git/) are not served over HTTP: give hidden false"
            )

    def check_targets(self, layout: Layout, targets: Sequence[str]) -> None:
        """E100 unless every folder among ``targets`` may be deployed to (see the class)."""
        from skillc_mcp._targets import check_targets

        check_targets(layout, targets, self._allowed)

    # -- logging ---------------------------------------------------------------------------

    def _print(self, diagnostics: Iterable[Diagnostic | Notice]) -> None:
        from skillc_index import format_diagnostic

        for diagnostic in diagnostics:
            text = format_diagnostic(diagnostic, terminal=True)  # one line of the log each
            print(text, file=self._log or sys.stderr, flush=True)

    def internal_error(self, tool: str, exc: Exception) -> Diagnostic:
        """E999 for a failure nobody planned for; the traceback goes to the server log
        (:func:`~skillc_mcp._failures.print_exception`: its one line when a failure for lack
        of descriptors cannot load ``traceback``, rather than taking the whole server down).
        A failure of a changed installation (a tool's module, first imported after an upgrade
        or uninstall, imports what the loaded code lacks; a version changed:
        :class:`~skillc_index.installed.CodeChanged`) says to restart the server instead,
        without the path of the installation, and the log says it once
        (:func:`~skillc_mcp._failures.code_changed`)."""
        from skillc_index import InternalError

        log = self._log or sys.stderr
        changed = code_changed(exc, self._log)
        if changed is not None:
            return changed
        print(f"skillc-mcp: {tool} failed:", file=log)
        print_exception(exc, file=log)
        return InternalError.unexpected(exc).diagnostic


def _thread_catalogs() -> set[Any]:
    """The shared find catalogs of this thread (``Catalog.of_this_thread``); none while no
    find loaded the catalog's module (a call that finds nothing does not import it). The
    module is imported, not read from ``sys.modules``: while another thread's first find is
    still importing it, the import waits until it is whole (the half-made module has no
    ``Catalog`` yet)."""
    if "skillc_gateway.catalog.engine" not in sys.modules:
        return set()
    from skillc_gateway.catalog.engine import Catalog

    return set(Catalog.of_this_thread())


def error_result(diagnostic: Diagnostic) -> dict[str, Any]:
    """A tool execution error: ``isError`` and the diagnostic text (E020 with suggestions),
    its control characters escaped as the CLI's (``terminal``): an argument quoted in it
    (a path ``"a\\nhint: evil"``) can neither make up a line of its own nor hold an escape
    sequence."""
    from skillc_index import format_diagnostic

    text = format_diagnostic(diagnostic, terminal=True)
    return {"content": [{"type": "text", "text": text}], "isError": True}
