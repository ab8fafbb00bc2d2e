"""The access rows of Claude Code's transcript records (``sync --from claude-code``): which
installed skill a record names or reads from, seen from the record's working folder (one view
of the inventory per project), and the row it makes (:class:`AccessRows`). Nothing in a
record is ever a failure: what is not understood is counted (:class:`Counts`)."""

# Folder paths are str here: read paths are matched against them by prefix, record by record.
# ruff: noqa: PTH117, PTH118, PTH120

from __future__ import annotations

import json
import os
import re
from collections import Counter, OrderedDict
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple, TypeVar

from skillc_index import (
    Layout,
    MalformedFilter,
    SkillcError,
    load_config,
    runtime_for,
)
from skillc_index.accesslog import AccessRecord, primary_log
from skillc_index.accesslog.merge import Identity
from skillc_index.files import inside, is_file, is_hidden
from skillc_index.inventory.deployed import ROUTER_NAME
from skillc_index.inventory.entries import InstalledSkill, Listing, Location, installed_skills
from skillc_index.inventory.folders import search_roots, trusted_targets
from skillc_index.inventory.plugins import plugin_folders, plugin_version_parts
from skillc_index.inventory.resolve import plugin_parts, skill_names
from skillc_stats._filters import parse_time

#: The agent whose records are read.
AGENT = "claude-code"

#: Views of the installed skills kept at once (one per project root the records name; one
#: is computed again when its project comes back after this many others).
MAX_VIEWS = 64
#: Distinct unknown skill names kept for the report (the rest are only counted).
MAX_UNKNOWN_NAMES = 1000
#: Calls of unknown skills remembered by id, each counted once (beyond: each copy counts).
MAX_UNKNOWN_CALLS = 100_000

#: Record types seen in Claude Code transcripts (1.0.x to 2.1.x); they carry no skill use
#: unless :mod:`skillc_stats._transcripts` lists them. Any other ``type`` is an unknown record.
KNOWN_TYPES = frozenset(
    {
        "user",
        "assistant",
        "system",
        "summary",
        "attachment",
        "progress",
        "file-history-snapshot",
        "permission-mode",
        "queue-operation",
        "ai-title",
        "custom-title",
        "agent-name",
        "last-prompt",
        "tag",
        "bridge-session",
    }
)
_DECODER = json.JSONDecoder()
_COMMAND_NAME = re.compile(r"<command-name>/?([^<\s]{1,200})</command-name>")
_MAX_NAME = 200
_NOT_IN_PROJECT_KEY = re.compile(r"[^A-Za-z0-9]")
_T = TypeVar("_T")


class Row(NamedTuple):
    destination: Path
    runtime: Path
    layout: Layout
    skill: str
    skill_path: Path
    identity: Identity


@dataclass
class Counts:
    files: int = 0
    files_read: int = 0
    files_rewritten: int = 0
    files_skipped: int = 0
    lines: int = 0
    malformed_lines: int = 0
    long_lines: int = 0
    unknown_records: int = 0
    unknown_skills: Counter[str] = field(default_factory=Counter)
    unknown_skill_calls: int = 0
    unknown_calls: set[tuple[str, str]] = field(default_factory=set)
    router_calls: int = 0

    def unknown(self, name: str, ident: str) -> None:
        """A ``Skill`` call of a skill not installed, counted once per call (its id): a
        copy of it in another session's file (a resumed session) is the same call, as the
        rows of installed skills' calls are one row. One of ``skc route``'s router
        (``skill-router``, which the inventory leaves out: it is no skill of its own, it
        points to the routed ones, whose uses count) is counted apart."""
        if ident:
            if (name, ident) in self.unknown_calls:
                return
            if len(self.unknown_calls) < MAX_UNKNOWN_CALLS:
                self.unknown_calls.add((name, ident))
        if name == ROUTER_NAME:
            self.router_calls += 1
            return
        self.unknown_skill_calls += 1
        if name in self.unknown_skills or len(self.unknown_skills) < MAX_UNKNOWN_NAMES:
            self.unknown_skills[name] += 1


class _Call(NamedTuple):
    place: int
    """Its row's index in :attr:`FileRows.rows`."""
    name: str
    tool: str


class FileRows:
    """The rows of the part of one transcript file read, as its lines are read, in order. A
    ``Skill``, ``SlashCommand`` or ``Read`` call is told by its ``tool_result``: one Claude
    Code refused (``is_error``: "Unknown skill", a permission denied, "File does not exist")
    loaded or read nothing and is no use (a ``Skill`` call of it counts with the calls of
    skills not installed). A call whose result is not in the part read counts."""

    def __init__(self, counts: Counts, project: str) -> None:
        self.counts = counts
        self.project = project
        """The file's folder in ``projects`` (:meth:`AccessRows.folders`)."""
        self.rows: list[Row | None] = []
        self.waiting: dict[str, _Call] = {}

    def add(self, row: Row, call: str, name: str, tool: str) -> None:
        """A row, of the call ``call`` (its id; empty: of no call whose result tells)."""
        if call:
            self.waiting[call] = _Call(len(self.rows), name, tool)
        self.rows.append(row)

    def answered(self, ident: str, refused: bool) -> None:
        call = self.waiting.pop(ident, None)
        if call is not None and refused:
            self.rows[call.place] = None
            if call.tool == "Skill":
                self.counts.unknown(call.name, ident)

    def finish(self) -> list[Row]:
        """The rows found, in the file's order, those of refused calls left out."""
        return [row for row in self.rows if row is not None]


# -- finding the skills ------------------------------------------------------------------------


def _rank(location: Location) -> int:
    """Where Claude Code looks first for a skill it names: its personal folder, the project's
    (nested ones included), the other agents' folders, the plugins, then the stores."""
    if location.kind in ("agent", "config"):
        if location.agent == "claude":
            return 0 if location.scope == "global" else 1
        return 2
    return 3 if location.kind == "plugin" else 4


class _Skills:
    """The installed skills seen from one project (or, outside projects, one working
    folder): the inventory (:func:`skillc_index.inventory.entries.installed_skills`, each
    folder listed once per run, shared by every view), by the name Claude Code calls them
    and by the folders reads are matched against; each skill's name as the read commands and
    ``stats --all`` take it (:func:`~skillc_index.inventory.resolve.skill_names`:
    ``devkit:review``), which the report gives. The skills of every installed plugin count,
    those Claude Code does not load now too (turned off since, :func:`plugin_folders`'s
    ``every``): it loaded them when the session ran."""

    def __init__(self, layout: Layout, listed: dict[Path, Listing]) -> None:
        self.layout = layout
        try:
            targets: dict[str, str] | None = trusted_targets(layout, load_config(layout))
        except (SkillcError, OSError):
            targets = None
        roots = search_roots(layout, targets)
        served = {root.path for root in roots}
        off = [root for root in plugin_folders(layout, every=True) if root.path not in served]
        skills = installed_skills(layout, roots=(*roots, *off), cache=listed).skills
        unloaded = {root.path for root in off}
        ranked = sorted(
            (
                (_rank(location), order, location, skill)
                for order, skill in enumerate(skills)
                for location in skill.locations
            ),
            key=lambda item: item[:2],
        )
        names = skill_names(skills)
        self.called = {skill.source: name for skill, name in zip(skills, names, strict=True)}
        self.by_name: dict[str, InstalledSkill] = {}
        self.by_plugin: dict[tuple[str, str, str], InstalledSkill] = {}
        self.by_folder: dict[str, InstalledSkill] = {}
        self.real_of: dict[str, str] = {}  # a skill folder's real path, known from its location
        self.by_version: dict[tuple[str, str], InstalledSkill] = {}  # a plugin's, any version
        for _, _, location, skill in ranked:
            if location.path.parent not in unloaded:  # (a plugin's only by its plugin's name)
                self.by_name.setdefault(location.name, skill)
            parts = None if location.plugin is None else plugin_version_parts(str(location.path))
            if parts is not None:
                self.by_version.setdefault(parts, skill)
            if location.plugin is not None:
                for market in ("", location.marketplace or ""):
                    self.by_plugin.setdefault((location.plugin, market, location.name), skill)
            for folder in (str(location.path), str(location.real)):
                self.by_folder.setdefault(folder, skill)
                self.real_of.setdefault(folder, str(location.real))

    def named(self, name: str) -> InstalledSkill | None:
        """The skill a ``Skill`` call names, as ``skc show`` resolves it
        (:func:`~skillc_index.inventory.resolve.plugin_parts`): ``plugin:skill`` (or
        ``plugin@marketplace:skill``) among that plugin's skills only, else the name as a
        folder's (``foo:bar``); a bare name as Claude Code looks."""
        parts = plugin_parts(name)
        found = None if parts is None else self.by_plugin.get(parts)
        return found or self.by_name.get(name)

    def holding(self, path: str) -> tuple[InstalledSkill, str] | None:
        """The skill whose folder holds the file ``path`` (absolute), and the file relative to
        that folder; None when no skill folder holds it, when no regular file is there now (a
        read Claude Code answered with an error: a file missing, a folder, a file of the source
        read through a deployed stub, which holds ``SKILL.md`` only), or when it is hidden there
        (a dot-file or dot-folder, or a symlink of the skill leading to one, as ``open`` judges
        it: :func:`~skillc_index.files.hidden_refusal`; no file of the skill by
        :func:`skillc_index.walk_skill`'s rule, unserved by ``open`` without ``--hidden``;
        skillc's own ``.skillc-meta/`` among them). Judged by where it leads: a symlink of the
        skill leading out of its real folder (``sshdir -> ~/.ssh``) is no file of it (``open``
        says E012, ``sources`` leaves it out: :func:`~skillc_index.files.inside`), and the file
        is then the skill's that holds its real path, if any. A file of another version of
        a plugin's skill (``.../devkit/1.2.0/skills/review`` once 1.3.0 is installed: a
        session that started before the update) is the installed version's skill's, as
        ``stats`` counts every version (:func:`plugin_version_parts`)."""
        candidates = [os.path.normpath(path)]
        real = os.path.realpath(candidates[0])
        if not is_file(Path(real)):
            return None
        if real != candidates[0]:
            candidates.append(real)
        for candidate in candidates:
            folder = os.path.dirname(candidate)
            while True:
                skill = self.by_folder.get(folder)
                root = self.real_of.get(folder, "")
                if skill is None and (parts := plugin_version_parts(folder)) is not None:
                    skill, root = self.by_version.get(parts), os.path.realpath(folder)
                if skill is not None:
                    if not inside(real, root):
                        break  # it leads out of this skill: not one of its files
                    relative = candidate[len(folder) + 1 :].replace(os.sep, "/")
                    led = real[len(root) + 1 :].replace(os.sep, "/")
                    return None if is_hidden(relative) or is_hidden(led) else (skill, relative)
                parent = os.path.dirname(folder)
                if parent == folder:
                    break
                folder = parent
        return None


def _text(value: object) -> str | None:
    return value if isinstance(value, str) and value and "\0" not in value else None


def _paths(*texts: str) -> bool:
    """Whether each text (a record's ``cwd``, a read's ``file_path``) can name a file: it
    encodes to the file system's bytes. An escaped lone high surrogate (``"\\ud800"``, valid
    JSON) does not, and failed every file operation (every import was E999)."""
    try:
        for text in texts:
            os.fsencode(text)
    except UnicodeEncodeError:
        return False
    return True


class AccessRows:
    """The access rows of transcript records (a skill activated, a skill's file read), the skills
    found from each record's working folder."""

    def __init__(self, env: Mapping[str, str] | None, counts: Counts) -> None:
        self.env = env
        self.counts = counts
        self._bases: dict[str, Path] = {}
        self._skills: OrderedDict[Path, _Skills] = OrderedDict()
        self._folders: dict[Path, Listing] = {}
        self._cwds: dict[str, str] = {}
        self._started: dict[tuple[str, str], str | None] = {}
        self._runtimes: dict[tuple[Path, Path], Path | None] = {}

    def skills(self, cwd: str) -> _Skills:
        """The installed skills seen from ``cwd``: one view per project root (the working
        folder outside projects), since what is installed depends on nothing else; the
        :data:`MAX_VIEWS` most recently used are kept."""
        base = self._bases.get(cwd)
        found = None if base is None else self._skills.get(base)
        if base is None or found is None:
            layout = Layout.discover(cwd, self.env)
            base = self._bases[cwd] = layout.project_root or layout.cwd
            found = self._skills.get(base)
            if found is None:
                found = self._skills[base] = _Skills(layout, self._folders)
                if len(self._skills) > MAX_VIEWS:
                    self._skills.popitem(last=False)
        self._skills.move_to_end(base)
        return found

    def folders(self, cwd: str, project: str) -> list[str]:
        """Where skills are seen from for a record of the file of ``project`` (its folder in
        ``projects``): ``cwd``, then the folder the session started in when ``cwd`` is
        below it (after a ``cd packages/web``): the one Claude Code keeps the session's
        transcripts for (``project`` is its path, each character but ASCII letters and
        digits a ``-``), whose project skills it loaded at the start and kept."""
        key = (cwd, project)
        if key not in self._started:
            self._started[key] = _started(cwd, project)
        started = self._started[key]
        return [cwd] if started is None else [cwd, started]

    def canonical(self, cwd: str) -> str:
        """The working folder as access rows store it (symlinks resolved)."""
        if cwd not in self._cwds:
            self._cwds[cwd] = os.path.realpath(cwd)
        return self._cwds[cwd]

    def read(self, line: bytes, fallback_session: str, found: FileRows) -> None:
        """Add to ``found`` the rows of one line of a transcript file."""
        counts = self.counts
        try:
            record = _DECODER.decode(line.decode("utf-8"))
        except (ValueError, RecursionError):  # UnicodeDecodeError is a ValueError
            counts.malformed_lines += 1
            return
        if not isinstance(record, dict):
            counts.malformed_lines += 1
            return
        kind = record.get("type")
        if not isinstance(kind, str) or kind not in KNOWN_TYPES:  # a list is no type (unhashable)
            counts.unknown_records += 1
            return
        if kind not in ("assistant", "user"):
            return
        uses = []
        for use in self._uses(record):
            if use[0] == "result":
                found.answered(use[1], use[2]["refused"])
            else:
                uses.append(use)
        if not uses:
            return
        cwd, stamp = _text(record.get("cwd")), _text(record.get("timestamp"))
        moment = _timestamp(stamp)
        reads = [target for command, target, _, _ in uses if command == "read"]
        if cwd is None or not os.path.isabs(cwd) or moment is None or not _paths(cwd, *reads):
            counts.malformed_lines += 1
            return
        session = _text(record.get("sessionId")) or fallback_session
        try:
            views = [self.skills(folder) for folder in self.folders(cwd, found.project)]
            views = views[:1] if views[-1] is views[0] else views
        except (OSError, RuntimeError):  # a folder not searchable, in a symlink loop (3.11)
            counts.malformed_lines += 1  # that line only: the file's other rows are imported
            return
        for command, target, args, call in uses:
            if command == "activate":
                entry, skills = _first(views, _Skills.named, target)
                if entry is None:
                    if args["tool"] in ("Skill",):
                        counts.unknown(target, args["id"])
                    continue
            else:
                path = target if os.path.isabs(target) else os.path.join(cwd, target)
                held, skills = _first(views, _Skills.holding, path)
                if held is None:
                    continue
                entry, relative = held
                args["path"] = relative
            row = self._row(skills, entry, command, args, moment, session, cwd)
            if row is None:
                continue
            found.add(row, call, target, args["tool"])  # a call's result: did it load?

    def _uses(self, record: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any], str]]:
        """``(command, skill name or file path, args, call)`` of each skill use in a record
        (``call``: the id of a ``Skill``, ``SlashCommand`` or ``Read`` call, whose result is
        awaited), and ``("result", call, {"refused": ...}, "")`` of each tool result."""
        message = record.get("message")
        content = message.get("content") if isinstance(message, dict) else None
        if record.get("type") == "user":
            blocks = content if isinstance(content, list) else [{"text": content}]
            for block in blocks:
                answer = _text(block.get("tool_use_id")) if isinstance(block, dict) else None
                if answer and block.get("type") == "tool_result":
                    yield "result", answer, {"refused": block.get("is_error") is True}, ""
            if record.get("isMeta"):
                return  # the skill body Claude Code adds after an activation, not a use
            texts = [block.get("text") for block in blocks if isinstance(block, dict)]
            for text in texts:
                if isinstance(text, str) and "<command-name>" in text:
                    match = _COMMAND_NAME.search(text)
                    if match:
                        ident = _text(record.get("uuid")) or ""
                        yield "activate", match.group(1), _args("typed", ident), ""
            return
        if not isinstance(content, list):
            return
        for block in content:
            if not isinstance(block, dict) or block.get("type") != "tool_use":
                continue
            tool, given = block.get("name"), block.get("input")
            if not isinstance(given, dict):
                continue
            call = _text(block.get("id")) or ""
            ident = call or _text(record.get("uuid")) or ""
            if tool == "Skill":
                name = _text(given.get("skill")) or _text(given.get("command"))
                if name:
                    name = name.strip().lstrip("/")[:_MAX_NAME]
                    if name:
                        yield "activate", name, _args(tool, ident), call
            elif tool == "SlashCommand":
                command = _text(given.get("command"))
                words = command.strip().split() if command else []
                if words and words[0].startswith("/"):
                    yield "activate", words[0][1:_MAX_NAME], _args(tool, ident), call
            elif tool == "Read":
                path = _text(given.get("file_path"))
                if path:
                    yield "read", path, _args(tool, ident), call

    def _row(
        self,
        skills: _Skills,
        entry: InstalledSkill,
        command: str,
        args: dict[str, Any],
        moment: str,
        session: str,
        cwd: str,
    ) -> Row | None:
        layout = skills.layout
        key = (entry.source, layout.project_root or layout.cwd)  # what runtime_for reads
        if key not in self._runtimes:
            try:
                self._runtimes[key] = runtime_for(entry.source, layout)[1]
            except (OSError, ValueError):
                self._runtimes[key] = None
        runtime = self._runtimes[key]
        if runtime is None:
            return None
        record = AccessRecord(
            command,
            runtime.name,  # the skill's name: its store entry's (runtime_for)
            str(entry.source),
            self.canonical(cwd),
            args,
            None,
            moment,
            session,
        )
        try:
            identity = record.values()
        except ValueError:
            return None
        called = skills.called.get(entry.source, runtime.name)
        return Row(primary_log(runtime), runtime, layout, called, entry.source, identity)


def _first(
    views: list[_Skills], look: Callable[[_Skills, str], _T | None], key: str
) -> tuple[_T | None, _Skills]:
    """What the first view that has it finds for ``key``, and that view (none: the first)."""
    for view in views:
        got = look(view, key)
        if got is not None:
            return got, view
    return None, views[0]


def _started(cwd: str, project: str) -> str | None:
    """The folder above ``cwd`` whose transcripts Claude Code keeps in ``projects/<project>``
    (its path with each character but ASCII letters and digits a ``-``; as long), if any."""
    folder = os.path.dirname(cwd)
    while len(folder) >= len(project):
        if len(folder) == len(project) and _NOT_IN_PROJECT_KEY.sub("-", folder) == project:
            return folder
        parent = os.path.dirname(folder)
        if parent == folder:
            break
        folder = parent
    return None


def _args(tool: str, ident: str) -> dict[str, Any]:
    """What an imported row's ``args`` hold: where it came from and the id of the call (or
    record), which makes the row unique."""
    return {"agent": AGENT, "tool": tool, "id": ident}


def _timestamp(text: str | None) -> str | None:
    """A record's time as access rows store it (whole seconds, UTC), None when it is none."""
    if text is None or "T" not in text.upper():
        return None
    try:
        return parse_time(text, "timestamp", upper=True)
    except MalformedFilter:
        return None
