"""The language server on pygls: LSP messages in, :mod:`.session`, :mod:`.text`,
:mod:`.navigation` and :mod:`.fields` answers out, as lsprotocol types.

This module imports pygls and lsprotocol at its top: only :func:`skillc_lint.server.serve`
imports it, when the server starts.

- Diagnostics: on open, change, save and close of a Markdown file of a skill, the skill is
  linted with the unsaved texts; a client that pulls diagnostics (LSP 3.17
  ``textDocument/diagnostic``) asks for them, any other is sent them
  (``publishDiagnostics``) for every file of the skill with findings (a link removed from
  SKILL.md orphans another file); a file closed whose skill is gone (its folder moved,
  SKILL.md deleted) has its findings cleared. A file changed on disk
  (``workspace/didChangeWatchedFiles``, watched when the client lets the server register
  for it) or a configuration change (``workspace/didChangeConfiguration``) lints the skills
  shown again, a file change those holding the file (:class:`.session.Session` sees what
  changed on disk). ``workspace/diagnostic``
  lints every skill under the workspace folders, and reports empty a file it reported
  findings for before that has none now.
- Code actions: the quick fixes of the findings in range whose fix is safe (what
  ``--fix`` applies), as a workspace edit of the document.
- Hover and completion in the frontmatter (:mod:`.fields`), document links and
  go-to-definition (:mod:`.navigation`), document symbols (:func:`.text.outline`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from pathlib import Path
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any, BinaryIO
from urllib.parse import unquote

from lsprotocol import types
from pygls.exceptions import JsonRpcParseError
from pygls.lsp.server import LanguageServer

from skillc_index import printable
from skillc_lint.server.fields import field_help, field_values
from skillc_lint.server.guard import F, failed, guarded, quiet_pygls
from skillc_lint.server.lifecycle import Lifecycle
from skillc_lint.server.session import (
    MAX_DOCUMENT_CHARS,
    FileReport,
    Place,
    Session,
    holding,
    path_of,
    place_of,
)
from skillc_lint.server.shape import NotJson, loads
from skillc_lint.server.text import Lines, diagnostic_span, frontmatter_lines, key_on_line

if TYPE_CHECKING:
    from pygls.server import ServerErrors

    from skillc_lint import LintDiagnostic, TextEdit
    from skillc_lint.server.navigation import LinkTarget
    from skillc_lint.server.text import Section

__all__ = ["SkillServer", "make_server"]

SOURCE = "skillc-lint"
#: Seconds between a document's change and its skill's lint, so that a burst of changes is
#: linted once (not a wait: the lint itself takes milliseconds for most skills).
SETTLE = 0.05


class SkillServer(LanguageServer):
    """pygls's server with the lint session (its protocol :class:`Lifecycle`)."""

    protocol: Lifecycle

    def __init__(self, profiles: Sequence[str], version: str) -> None:
        # Whole texts on every change: pygls applies a range edit by its own lines, which
        # break at U+2028, form feeds and others LSP does not count (the server's copy
        # drifted from the editor's), and places an end past the last line one short.
        super().__init__(
            "skillc-lint",
            version,
            text_document_sync_kind=types.TextDocumentSyncKind.Full,
            protocol_cls=Lifecycle,
        )
        self.session = Session(profiles, self.folders)
        self.pending: set[Path] = set()
        """Skills changed whose findings are not published yet."""
        self.flushing: asyncio.TimerHandle | None = None
        self.pulled: set[Path] = set()
        """The files the last ``workspace/diagnostic`` reported findings for."""
        self.told_changed = False
        """Whether the user was shown that skillc-lint changed on disk (:mod:`.guard`)."""
        quiet_pygls()

    def start_io(self, stdin: BinaryIO | None = None, stdout: BinaryIO | None = None) -> None:
        """pygls's, each body read by :func:`.shape.loads` (pygls's reader calls its module's
        ``json.loads``: a huge integer failed the whole request), restored when it ends."""
        from pygls import io_

        read, io_.json = io_.json, SimpleNamespace(loads=loads)  # type: ignore[attr-defined,assignment]
        try:
            super().start_io(stdin, stdout)
        finally:
            io_.json = read  # type: ignore[attr-defined]

    def feature(self, feature_name: str, options: Any | None = None) -> Callable[[F], F]:
        """pygls's, each handler guarded (:func:`.guard.guarded`: an unplanned failure
        answered on one line, never with a traceback)."""
        register = super().feature(feature_name, options)
        return lambda handler: register(guarded(feature_name, handler))

    def report_server_error(self, error: Exception, source: ServerErrors) -> None:
        """pygls's reader reports here a message it could not read as JSON (not UTF-8 either,
        ``NaN``, ``1e400``: :func:`.shape.loads`): answered Parse error (-32700) with id null,
        as JSON-RPC asks; any other error is shown to the user, as pygls does."""
        if isinstance(error, NotJson):
            self.protocol.answer(None, JsonRpcParseError(f"Parse error: not JSON ({error})"))
        else:
            super().report_server_error(error, source)

    # -- helpers -------------------------------------------------------------------------

    def folders(self) -> list[Path]:
        """The workspace folders' paths (none before the client initialized the server)."""
        try:
            folders = self.workspace.folders.values()
        except RuntimeError:  # pygls: no workspace yet
            return []
        return [path for folder in folders if (path := path_of(folder.uri)) is not None]

    def lines(self, text: str, path: Path | None = None) -> Lines:
        """The lines of ``text``, the server's text of the file at ``path``: when the
        client's text of it starts with a BOM (dropped from the server's, :meth:`.Session.open`),
        its positions on the first line count it (a fix on that line edited a character too
        far left; kept with the session's text, whatever URI the client spelled it by)."""
        lead = "" if path is None else self.session.lead(path)
        return Lines(text, self.workspace.position_codec.client_num_units, lead)

    def place(self, uri: str) -> Place | None:
        path = path_of(uri)
        return None if path is None else place_of(path)

    def document_text(self, uri: str) -> str | None:
        path = path_of(uri)
        return None if path is None else self.session.documents.get(path)

    def position(self, lines: Lines, line: int, character: int) -> types.Position:
        line, character = lines.to_client(line, character)
        return types.Position(line=line, character=character)

    def span(self, lines: Lines, start: tuple[int, int], end: tuple[int, int]) -> types.Range:
        return types.Range(start=self.position(lines, *start), end=self.position(lines, *end))

    def diagnostic(self, lines: Lines, found: LintDiagnostic) -> types.Diagnostic:
        line, start, end_line, end = diagnostic_span(found, lines)
        severity = (
            types.DiagnosticSeverity.Error
            if found.severity == "error"
            else types.DiagnosticSeverity.Warning
        )
        return types.Diagnostic(
            range=self.span(lines, (line, start), (end_line, end)),
            message=printable(found.message),  # a stranger's file names, escaped
            severity=severity,
            code=found.rule,
            source=SOURCE,
            data={"name": found.name, "fix": found.fix is not None and found.fix.safe},
        )

    def diagnostics(self, report: FileReport) -> list[types.Diagnostic]:
        if report.path in self.session.documents and self.session.too_large(report.path):
            message = (
                f"not linted as you type: over {MAX_DOCUMENT_CHARS} characters "
                "(run skillc-lint on the saved file)"
            )
            where = types.Range(start=types.Position(0, 0), end=types.Position(0, 0))
            warning = types.DiagnosticSeverity.Warning
            return [types.Diagnostic(where, message, severity=warning, source=SOURCE)]
        lines = self.lines(report.text, report.path)
        return [self.diagnostic(lines, found) for found in report.diagnostics]

    def pulls(self) -> bool:
        """Whether the client asks for diagnostics (LSP 3.17) rather than being sent them."""
        text_document = self.client_capabilities.text_document
        return text_document is not None and text_document.diagnostic is not None

    def publish(self, root: Path) -> None:
        """Send the findings of the skill at ``root``, file by file, and clear those of
        files that have none any more."""
        reports = self.session.reports(root)
        before = self.session.published.get(root, set())
        now = {report.rel for report in reports if report.diagnostics}
        for report in reports:
            self.text_document_publish_diagnostics(
                types.PublishDiagnosticsParams(report.path.as_uri(), self.diagnostics(report))
            )
        for rel in before - now - {report.rel for report in reports}:
            if self.session.owner(root, rel) != root:
                continue  # a nested skill's file now: its lint sends it
            self.text_document_publish_diagnostics(
                types.PublishDiagnosticsParams((root / rel).as_uri(), [])
            )
        self.session.published[root] = now

    def changed(self, uri: str, *, closed: bool = False) -> None:
        """A document opened, changed, was saved or closed: lint its skill again (a client
        that pulls diagnostics asks for them itself); a document closed, or changed, whose
        skill is gone (moved, SKILL.md deleted): clear the findings shown of the skill it was
        in."""
        path, place = path_of(uri), self.place(uri)
        if path is None:
            return
        roots = set() if place is None else {place.root}
        shown = {root for root in self.session.published if path.is_relative_to(root)}
        if closed:
            self.session.close(path)  # the saved text's findings now
            roots |= shown
        elif place is None:  # its skill gone: what was shown of the skills it was in, cleared
            roots = shown
        else:
            document = self.workspace.text_documents.get(unquote(uri))
            if document is None:  # not opened: pygls would read it from the disk, anywhere
                return
            self.session.open(path, document.source)
        self.relint(roots)

    def refresh(self, changed: Sequence[Path] | None = None) -> None:
        """Files changed on disk (``changed``) or the configuration did (None): lint again
        the skills shown (their open documents' and those with findings published) that
        hold a file changed, each once (:func:`.session.holding`), or ask a client that
        pulls diagnostics to pull them again (when it can be asked). The skills holding a
        file changed (all of them for a configuration change) are listed and read again at
        their next lint (:meth:`.Session.changed_on_disk`)."""
        self.session.changed_on_disk(changed)
        if self.pulls():
            self.pull_again()
            return
        roots = {root for root, shown in self.session.published.items() if shown}
        for path in self.session.documents:
            place = place_of(path)
            if place is not None:
                roots.add(place.root)
        self.relint(roots if changed is None else holding(roots, changed))

    def pull_again(self) -> None:
        """Ask a client that pulls diagnostics to pull them again, when it can be asked
        (``workspace/diagnostic/refresh``): after a save, a file changed on disk, a
        configuration change."""
        workspace = self.client_capabilities.workspace
        diagnostics = workspace.diagnostics if workspace is not None else None
        if diagnostics is not None and diagnostics.refresh_support:
            self.workspace_diagnostic_refresh(None)

    def relint(self, roots: set[Path]) -> None:
        """Publish the findings of the skills at ``roots`` (a client that pulls asks for
        them). The skills changed in one burst of messages (fast typing: the changes queued
        while a lint ran) are linted once, :data:`SETTLE` seconds after the first change."""
        if self.pulls():
            self.log_problems()
            return
        self.pending |= roots
        if self.flushing is None:
            try:
                self.flushing = asyncio.get_running_loop().call_later(SETTLE, self.flush)
            except RuntimeError:  # no event loop (pygls's synchronous transport)
                self.flush()

    def flush(self) -> None:
        """Publish the findings of the skills changed since the last flush, then log the
        problems their lint met (their configuration's: read by the lint). Run by the event
        loop's timer, outside every handler: each skill's unplanned failure is logged on one
        line (:func:`.guard.failed`) and the other skills are published still."""
        self.flushing = None
        roots, self.pending = self.pending, set()
        for root in roots:
            try:
                self.publish(root)
            except Exception as exc:
                failed(self, f"lint of {printable(str(root))}", exc)
        self.log_problems()

    def links(self, uri: str) -> tuple[Path, Lines, list[LinkTarget]] | None:
        """The skill root, lines and links (:func:`.navigation.links_of`) of an open
        document of a skill; None for any other document."""
        from skillc_lint.server.navigation import links_of

        place, text = self.place(uri), self.document_text(uri)
        skill = None if place is None else self.session.skill(place.root)
        if place is None or text is None or skill is None:
            return None
        return place.root, self.lines(text, place.root / place.rel), links_of(skill, place.rel)

    def log_problems(self) -> None:
        for problem in self.session.problems:
            self.window_log_message(types.LogMessageParams(types.MessageType.Warning, problem))
        self.session.problems.clear()

    def edit(self, lines: Lines, edit: TextEdit) -> types.TextEdit:
        return types.TextEdit(
            range=self.span(
                lines, (edit.line - 1, edit.column - 1), (edit.end_line - 1, edit.end_column - 1)
            ),
            new_text=edit.text,
        )


def _overlaps(one: types.Range, other: types.Range) -> bool:
    def key(position: types.Position) -> tuple[int, int]:
        return position.line, position.character

    return key(one.start) <= key(other.end) and key(other.start) <= key(one.end)


def _symbols(server: SkillServer, lines: Lines, sections: list[Section]) -> list[Any]:
    symbols = []
    for section in sections:
        heading = lines.line(section.line)
        end_line = max(section.end_line - 1, section.line)
        symbols.append(
            types.DocumentSymbol(
                name=printable(section.title) or "(empty heading)",
                kind=types.SymbolKind.String,
                range=server.span(lines, (section.line, 0), (end_line, len(lines.line(end_line)))),
                selection_range=server.span(lines, (section.line, 0), (section.line, len(heading))),
                detail="#" * section.level,
                children=_symbols(server, lines, section.children),
            )
        )
    return symbols


def make_server(profiles: Sequence[str] = ()) -> SkillServer:
    """The language server, its features registered (:func:`serve` starts it)."""
    from skillc_lint import __version__

    server = SkillServer(profiles, __version__)

    @server.feature(types.INITIALIZE)
    def initialize(ls: SkillServer, params: types.InitializeParams) -> None:
        root = ls.workspace.root_uri  # rootUri, else rootPath's (pygls)
        if params.workspace_folders is None and root is not None:
            # a client without workspace folders (LSP before 3.6): its root is the one
            name = Path(ls.workspace.root_path or root).name
            ls.workspace.add_folder(types.WorkspaceFolder(uri=root, name=name))
        options = params.initialization_options
        chosen = options.get("profiles") if isinstance(options, dict) else None
        if chosen is not None:
            from skillc_lint._profiles import known_profiles

            names, unknown = known_profiles(chosen)
            ls.session.profiles = tuple(dict.fromkeys([*ls.session.profiles, *names]))
            ls.session.problems += [  # as the config's: logged to the editor, then ignored
                f"initialization options: {problem}" for problem in unknown
            ]
            ls.log_problems()

    @server.feature(types.INITIALIZED)
    def initialized(ls: SkillServer, params: types.InitializedParams) -> None:
        workspace = ls.client_capabilities.workspace
        watched = workspace.did_change_watched_files if workspace is not None else None
        if watched is None or not watched.dynamic_registration:
            return  # the client's saves and the files' times on each lint only
        # any file: a link's target, an orphan, a configuration file
        options = types.DidChangeWatchedFilesRegistrationOptions(
            watchers=[types.FileSystemWatcher(glob_pattern="**/*")]
        )
        registration = types.Registration(
            id="skillc-lint-files",
            method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
            register_options=options,
        )
        future = ls.client_register_capability(types.RegistrationParams([registration]))

        def registered(done: Any) -> None:  # the client reports changes: a listing is kept
            ls.session.watched = not done.cancelled() and done.exception() is None

        future.add_done_callback(registered)

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def did_change_watched_files(
        ls: SkillServer, params: types.DidChangeWatchedFilesParams
    ) -> None:
        changed = [path_of(change.uri) for change in params.changes]
        ls.refresh([path for path in changed if path is not None])

    @server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    def did_change_configuration(
        ls: SkillServer, params: types.DidChangeConfigurationParams
    ) -> None:
        ls.refresh()

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: SkillServer, params: types.DidOpenTextDocumentParams) -> None:
        ls.changed(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: SkillServer, params: types.DidChangeTextDocumentParams) -> None:
        ls.changed(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: SkillServer, params: types.DidSaveTextDocumentParams) -> None:
        ls.changed(params.text_document.uri)
        if ls.pulls():  # a file saved: the other files' findings may change too
            ls.pull_again()

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: SkillServer, params: types.DidCloseTextDocumentParams) -> None:
        ls.changed(params.text_document.uri, closed=True)

    @server.feature(
        types.TEXT_DOCUMENT_DIAGNOSTIC,
        types.DiagnosticOptions(
            identifier=SOURCE, inter_file_dependencies=True, workspace_diagnostics=True
        ),
    )
    def document_diagnostic(
        ls: SkillServer, params: types.DocumentDiagnosticParams
    ) -> types.RelatedFullDocumentDiagnosticReport:
        place = ls.place(params.text_document.uri)
        items: list[types.Diagnostic] = []
        if place is not None:
            for report in ls.session.reports(place.root):
                if report.rel == place.rel:
                    items = ls.diagnostics(report)
        ls.log_problems()
        return types.RelatedFullDocumentDiagnosticReport(items=items)

    @server.feature(types.WORKSPACE_DIAGNOSTIC)
    def workspace_diagnostic(
        ls: SkillServer, params: types.WorkspaceDiagnosticParams
    ) -> types.WorkspaceDiagnosticReport:
        found = {
            report.path: ls.diagnostics(report)
            for _root, reports in ls.session.workspace(ls.folders())
            for report in reports
        }
        # a file reported with findings before and none now is reported empty (a client
        # keeps what it was told of a file not reported)
        before, ls.pulled = ls.pulled, {path for path, shown in found.items() if shown}
        found.update({path: [] for path in before - found.keys()})
        items: list[types.WorkspaceDocumentDiagnosticReport] = []
        for path, shown in found.items():
            document = ls.workspace.text_documents.get(unquote(path.as_uri()))
            version = document.version if path in ls.session.documents and document else None
            items.append(
                types.WorkspaceFullDocumentDiagnosticReport(
                    uri=path.as_uri(), items=shown, version=version
                )
            )
        ls.log_problems()
        return types.WorkspaceDiagnosticReport(items=items)

    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix]),
    )
    def code_action(ls: SkillServer, params: types.CodeActionParams) -> list[types.CodeAction]:
        uri = params.text_document.uri
        place, text = ls.place(uri), ls.document_text(uri)
        if place is None or text is None or ls.session.too_large(place.root / place.rel):
            return []  # not linted as typed: the saved text's fixes would edit the wrong places
        result = ls.session.lint(place.root)
        lines = ls.lines(text, place.root / place.rel)
        actions = []
        for found in result.diagnostics if result is not None else ():
            if found.file != place.rel or found.fix is None or not found.fix.safe:
                continue
            shown = ls.diagnostic(lines, found)
            if not _overlaps(shown.range, params.range):
                continue
            edits = [ls.edit(lines, edit) for edit in found.fix.edits]
            actions.append(
                types.CodeAction(
                    title=f"{found.fix.description} ({found.rule})",
                    kind=types.CodeActionKind.QuickFix,
                    diagnostics=[shown],
                    edit=types.WorkspaceEdit(changes={uri: edits}),
                    is_preferred=True,
                )
            )
        return actions

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    def hover(ls: SkillServer, params: types.HoverParams) -> types.Hover | None:
        uri = params.text_document.uri
        place, text = ls.place(uri), ls.document_text(uri)
        if place is None or text is None or place.rel != "SKILL.md":
            return None
        lines = ls.lines(text, place.root / place.rel)
        line, character = lines.from_client(params.position.line, params.position.character)
        key = key_on_line(lines, line)
        if key is None or not key[1] <= character <= key[2]:
            return None
        found = field_help(key[0], ls.session.profiles_in_use(place.root))
        if found is None:
            return None
        return types.Hover(
            contents=types.MarkupContent(types.MarkupKind.Markdown, found.markdown()),
            range=ls.span(lines, (line, key[1]), (line, key[2])),
        )

    @server.feature(
        types.TEXT_DOCUMENT_COMPLETION, types.CompletionOptions(trigger_characters=[":", " "])
    )
    def completion(ls: SkillServer, params: types.CompletionParams) -> types.CompletionList:
        return _completion(ls, params)

    @server.feature(types.TEXT_DOCUMENT_DEFINITION)
    def definition(ls: SkillServer, params: types.DefinitionParams) -> list[types.Location]:
        found = ls.links(params.text_document.uri)
        if found is None:
            return []
        root, lines, links = found
        line, character = lines.from_client(params.position.line, params.position.character)
        for link in links:
            if link.line == line and link.start <= character <= link.end:
                target = ls.lines(ls.session.text(root, link.file), link.path)
                where = ls.position(target, link.target_line, 0)
                return [types.Location(link.path.as_uri(), types.Range(where, where))]
        return []

    @server.feature(types.TEXT_DOCUMENT_DOCUMENT_LINK)
    def document_link(ls: SkillServer, params: types.DocumentLinkParams) -> list[Any]:
        found = ls.links(params.text_document.uri)
        if found is None:
            return []
        _root, lines, links = found
        shown = []
        for link in links:
            target = link.path.as_uri()
            if link.target_line:
                target += f"#L{link.target_line + 1}"  # VS Code's and others' line fragment
            shown.append(
                types.DocumentLink(
                    range=ls.span(lines, (link.line, link.start), (link.line, link.end)),
                    target=target,
                    tooltip=printable(link.file),
                )
            )
        return shown

    @server.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    def document_symbol(ls: SkillServer, params: types.DocumentSymbolParams) -> list[Any]:
        text = ls.document_text(params.text_document.uri)
        if (
            text is None
            or ls.place(params.text_document.uri) is None
            or len(text) > (MAX_DOCUMENT_CHARS)
        ):
            return []
        from skillc_lint.server.text import outline

        return _symbols(ls, ls.lines(text, path_of(params.text_document.uri)), outline(text))

    return server


def _completion(ls: SkillServer, params: types.CompletionParams) -> types.CompletionList:
    """Field names at the start of a frontmatter line (those the profiles in use know,
    less those already there), values after ``name:`` (those the field takes)."""
    uri = params.text_document.uri
    place, text = ls.place(uri), ls.document_text(uri)
    empty = types.CompletionList(is_incomplete=False, items=[])
    if place is None or text is None or place.rel != "SKILL.md":
        return empty
    lines = ls.lines(text, place.root / place.rel)
    line, character = lines.from_client(params.position.line, params.position.character)
    inside = frontmatter_lines(lines)
    if inside is None or line not in inside:
        return empty
    before = lines.line(line)[:character]
    profiles = ls.session.profiles_in_use(place.root)
    items = []
    if ":" not in before and before == before.lstrip():
        present = {
            key[0] for index in inside if index != line and (key := key_on_line(lines, index))
        }
        for name in ls.session.known_fields(place.root):
            if name in present or not name.startswith(before.strip()):
                continue
            found = field_help(name, profiles)
            documentation = (
                types.MarkupContent(types.MarkupKind.Markdown, found.markdown())
                if found is not None
                else None
            )
            items.append(
                types.CompletionItem(
                    label=name,
                    kind=types.CompletionItemKind.Field,
                    detail=found.type if found is not None else None,
                    documentation=documentation,
                    insert_text=f"{name}: ",
                )
            )
        return types.CompletionList(is_incomplete=False, items=items)
    key = key_on_line(lines, line)
    if key is None or character <= key[2]:
        return empty
    typed = before[key[2] :].lstrip(" \t:")
    start = len(before) - len(typed)
    # right after the colon (a trigger character): a space first, else `effort:low` is no YAML
    space = " " if before[:start].endswith(":") else ""
    where = ls.span(lines, (line, start), (line, len(before)))
    for value in field_values(key[0], profiles, folder=place.root.name):
        if value.startswith(typed):
            edit = types.TextEdit(range=where, new_text=space + value)
            items.append(
                types.CompletionItem(
                    label=value, kind=types.CompletionItemKind.Value, text_edit=edit
                )
            )
    return types.CompletionList(is_incomplete=False, items=items)
