"""``sync --from claude-code``: skill usage from Claude Code's own session transcripts.

Claude Code writes every session as JSON Lines under ``<claude dir>/projects/<project>/``
(``<session id>.jsonl``, and ``<session id>/subagents/agent-*.jsonl`` for subagents). Each
line is one record; the tool calls of the model are ``tool_use`` blocks of ``assistant``
records. :func:`sync_transcripts` reads them and records, as access rows in each skill's
primary runtime log (so ``skc stats`` counts them):

- ``activate``: a ``Skill`` tool call (``{"skill": name}``; ``{"command": name}`` in 2.0.x),
  a ``SlashCommand`` tool call (``{"command": "/name args"}``, 2.0.x), or a skill the user
  typed (a ``user`` record holding ``<command-name>/name</command-name>``);
- ``read``: a ``Read`` tool call of a file inside a skill folder (``args.path``: the file
  relative to the skill, as ``open`` logs it).

Only skills that are installed count: the stores and every agent skills folder (project
folders seen from the record's own ``cwd``), and the skills of installed Claude Code
plugins (:func:`skillc_index.installed.search_roots`); a deployed skillc skill counts as its
source. ``Skill`` calls of other names are skipped and counted; so are malformed lines,
records of kinds this version does not know, and lines over :data:`MAX_LINE_BYTES`. Nothing
in a transcript is ever a failure.

Reading is incremental: ``<skillc home>/.skillc/imports/claude-code.json`` keeps, per
transcript file, its device, inode, size, the offset read up to (complete lines only: a
partial last line waits for the next run) and a hash of its first bytes. A file that grew
is read from that offset; one whose inode changed, that shrank or whose first bytes changed
was rewritten and is read from the start. Rows are identified by all their columns, and
each carries the id of its tool call (or record), so reading a file again adds nothing:
the state only saves work. A file's position is saved only once its rows are stored.
"""

# Folder paths are str here: read paths are matched against them by prefix, record by record.
# ruff: noqa: PTH100, PTH117, PTH118, PTH120, PTH206

from __future__ import annotations

import hashlib
import json
import os
import re
import sqlite3
from collections import Counter, OrderedDict
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, NamedTuple

from skillc_index import (
    SKILL_FILE,
    Layout,
    MalformedFilter,
    Notice,
    SkillcError,
    SyncDestinationNotWritable,
    format_diagnostic,
    load_config,
    open_in_root,
    runtime_for,
)
from skillc_index.accesslog import AccessRecord, primary_log
from skillc_index.accesslog.merge import FallbackRows, Identity, copy_missing, count_missing
from skillc_index.installed import agent_folders, deployed_source, search_roots
from skillc_stats._filters import parse_time
from skillc_stats._sync import _misplaced_destination, _why

if TYPE_CHECKING:
    from skillc_stats.shapes import SkillImportShape, TranscriptSyncShape

AGENT = "claude-code"
#: Where Claude Code keeps its data when ``$CLAUDE_CONFIG_DIR`` does not say: ``~/.claude``.
CONFIG_DIR_VARIABLE = "CLAUDE_CONFIG_DIR"
#: A longer line is skipped (and counted): real records are a few KB, a pasted image a few MB.
MAX_LINE_BYTES = 16 * 1024 * 1024
#: At most this many transcript files are read per run (the rest are counted, not read).
MAX_FILES = 100_000
#: The bytes at the start of a file whose hash tells a rewritten file from a grown one.
HEAD_BYTES = 4096
#: A larger state file is not read (it then starts over: the rows are not doubled).
MAX_STATE_BYTES = 64 * 1024 * 1024
#: Views of the installed skills kept at once (one per project root the records name; one
#: is computed again when its project comes back after this many others).
MAX_VIEWS = 64
#: Distinct unknown skill names kept for the report (the rest are only counted).
MAX_UNKNOWN_NAMES = 1000
STATE_VERSION = 1

#: Record types seen in Claude Code transcripts (1.0.x to 2.1.x); they carry no skill use
#: unless listed in the module docstring. Any other ``type`` is an unknown record.
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


class _Row(NamedTuple):
    destination: Path
    runtime: Path
    layout: Layout
    skill: str
    skill_path: Path
    identity: Identity


@dataclass(frozen=True)
class SkillImport:
    """The rows one skill got from the transcripts (a dry run: would get)."""

    skill: str
    skill_path: Path
    destination: Path
    activations: int
    """``activate`` rows found (new or not)."""
    reads: int
    added: int
    """Rows added to the log (dry run: rows that would be added)."""
    error: SkillcError | None = None

    def to_dict(self) -> SkillImportShape:
        return {
            "skill": self.skill,
            "skill_path": str(self.skill_path),
            "destination": str(self.destination),
            "activations": self.activations,
            "reads": self.reads,
            "added": self.added,
            "error": None if self.error is None else format_diagnostic(self.error.diagnostic),
        }


@dataclass
class _Counts:
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


@dataclass(frozen=True)
class TranscriptSync:
    """The result of :func:`sync_transcripts`."""

    source: str
    """The agent whose records were read (``claude-code``)."""
    folder: Path
    """The ``projects`` folder read."""
    dry_run: bool
    files: int
    """Transcript files found."""
    files_read: int
    """Files that were new, had grown or were rewritten (read this time)."""
    files_rewritten: int
    files_skipped: int
    """Files not read: over :data:`MAX_FILES`, symlinks leading out of ``folder``, or
    unreadable."""
    lines: int
    malformed_lines: int
    long_lines: int
    unknown_records: int
    unknown_skill_calls: int
    """``Skill`` calls of skills found nowhere (not imported)."""
    unknown_skills: dict[str, int]
    skills: tuple[SkillImport, ...]
    warnings: tuple[Notice, ...] = ()
    """Problems that cost no row (the positions could not be saved)."""

    @property
    def ok(self) -> bool:
        return all(skill.error is None for skill in self.skills)

    @property
    def added(self) -> int:
        return sum(skill.added for skill in self.skills)

    def to_dict(self) -> TranscriptSyncShape:
        return {
            "source": self.source,
            "folder": str(self.folder),
            "dry_run": self.dry_run,
            "files": self.files,
            "files_read": self.files_read,
            "files_rewritten": self.files_rewritten,
            "files_skipped": self.files_skipped,
            "lines": self.lines,
            "malformed_lines": self.malformed_lines,
            "long_lines": self.long_lines,
            "unknown_records": self.unknown_records,
            "unknown_skill_calls": self.unknown_skill_calls,
            "unknown_skills": self.unknown_skills,
            "added": self.added,
            "skills": [skill.to_dict() for skill in self.skills],
            "warnings": [warning.text for warning in self.warnings],
        }


def claude_dir(env: Mapping[str, str] | None = None, layout: Layout | None = None) -> Path:
    """``$CLAUDE_CONFIG_DIR``, else ``.claude`` in the home folder (``$SKILLC_HOME`` when set,
    as for the plugin records :mod:`skillc_index.installed` reads)."""
    env = os.environ if env is None else env
    given = env.get(CONFIG_DIR_VARIABLE)
    if given:
        return Path(given).expanduser()
    return (layout or Layout.discover(None, env)).home / ".claude"


# -- finding the skills ------------------------------------------------------------------------


def _deployed_source(real: Path, layout: Layout) -> Path:
    """The source skill of an agent-folder entry (real path ``real``): a skill skillc deployed
    (:func:`skillc_index.installed.deployed_source`) is its store skill; anything else is
    itself."""
    source = deployed_source(str(real), layout)
    return real if source is None else Path(source)


class _Entry(NamedTuple):
    name: str
    source: Path
    folders: tuple[str, ...]
    """The folder as agents name it and its real path (reads are matched against both)."""


class _Folder:
    """The skills directly under one skills folder (each entry holding a ``SKILL.md``), by
    name and by folder: listed once per run, shared by every working folder that sees it."""

    def __init__(self, root: Path, layout: Layout) -> None:
        self.by_name: dict[str, _Entry] = {}
        self.by_folder: dict[str, _Entry] = {}
        for entry in _list_root(root, layout):
            self.by_name.setdefault(entry.name, entry)
            for folder in entry.folders:
                self.by_folder.setdefault(folder, entry)


class _Skills:
    """The installed skills seen from one project (or, outside projects, one working
    folder): its skills folders (:class:`_Folder`, shared) in the order an agent prefers
    them. Holds no per-skill data of its own, so a view per project costs what its list of
    folders costs, not what its skills cost."""

    def __init__(self, layout: Layout, folders: dict[Path, _Folder]) -> None:
        self.layout = layout
        try:
            targets: dict[str, str] | None = dict(load_config(layout).targets)
        except (SkillcError, OSError):
            targets = None
        roots = search_roots(layout, targets)
        claude = {
            folder.path: 0 if folder.scope == "global" else 1
            for folder in agent_folders(layout, targets)
            if folder.agent == "claude"
        }
        order = {"agent": 2, "plugin": 3, "store": 4}

        def rank(index: int) -> tuple[int, int]:
            root = roots[index]
            return claude.get(root.path, order.get(root.kind, 5)), index

        ranked: list[tuple[_Folder, bool]] = []
        for index in sorted(range(len(roots)), key=rank):
            root = roots[index]
            if root.path not in folders:
                folders[root.path] = _Folder(root.path, layout)
            ranked.append((folders[root.path], root.kind == "plugin"))
        self.folders = tuple(folder for folder, _ in ranked)
        self.plugins = tuple(folder for folder, plugin in ranked if plugin)

    def named(self, name: str) -> _Entry | None:
        """The skill a ``Skill`` call names: ``plugin:skill`` among the plugins' skills (the
        plugin's own folder first), a bare name in agent folders, plugins, then stores."""
        plugin, _, bare = name.rpartition(":")
        if plugin:
            plugins = [f.by_name[bare] for f in self.plugins if bare in f.by_name]
            for entry in plugins:
                if plugin in entry.folders[0].split(os.sep):
                    return entry
            return plugins[0] if plugins else None
        for folder in self.folders:
            found = folder.by_name.get(name)
            if found is not None:
                return found
        return None

    def holding(self, path: str) -> tuple[_Entry, str] | None:
        """The skill whose folder holds the file ``path`` (absolute), and the file relative
        to that folder; None when no skill folder holds it."""
        candidates = [os.path.normpath(path)]
        real = os.path.realpath(candidates[0])
        if real != candidates[0]:
            candidates.append(real)
        for candidate in candidates:
            folder = os.path.dirname(candidate)
            while True:
                for skills in self.folders:
                    entry = skills.by_folder.get(folder)
                    if entry is not None:
                        relative = candidate[len(folder) + 1 :]
                        return entry, relative.replace(os.sep, "/")
                parent = os.path.dirname(folder)
                if parent == folder:
                    break
                folder = parent
        return None


def _list_root(root: Path, layout: Layout) -> list[_Entry]:
    """The skills directly under ``root`` (each entry holding a ``SKILL.md``), by name."""
    try:
        names = sorted(entry.name for entry in os.scandir(root) if not entry.name.startswith("."))
    except OSError:
        return []
    entries = []
    for name in names:
        folder = root / name
        try:
            if not (folder / SKILL_FILE).is_file():
                continue
        except OSError:
            continue
        real = Path(os.path.realpath(folder))
        source = _deployed_source(real, layout)
        folders = tuple(dict.fromkeys((os.path.normpath(folder), str(real))))
        entries.append(_Entry(name, source, folders))
    return entries


# -- reading the transcripts -------------------------------------------------------------------


def transcript_files(projects: Path) -> Iterator[Path]:
    """``<project>/*.jsonl`` and ``<project>/<session>/subagents/*.jsonl`` under ``projects``,
    sorted."""
    try:
        folders = sorted(entry.path for entry in os.scandir(projects) if entry.is_dir())
    except OSError:
        return
    for folder in folders:
        try:
            entries = sorted(os.scandir(folder), key=lambda entry: entry.name)
        except OSError:
            continue
        for entry in entries:
            if entry.name.endswith(".jsonl"):
                yield Path(entry.path)
        for entry in entries:
            if entry.is_dir(follow_symlinks=False):
                subagents = Path(entry.path) / "subagents"
                try:
                    names = sorted(e.name for e in os.scandir(subagents))
                except OSError:
                    continue
                for name in names:
                    if name.endswith(".jsonl"):
                        yield subagents / name


def _lines(handle: IO[bytes], start: int, counts: _Counts) -> Iterator[tuple[bytes, int]]:
    """Each complete line from ``start`` with the offset after it; longer lines than
    :data:`MAX_LINE_BYTES` are counted and skipped; a last line without its newline is left
    for the next run."""
    handle.seek(start)
    position = start
    while True:
        line = handle.readline(MAX_LINE_BYTES + 1)
        if line.endswith(b"\n"):
            position += len(line)
            yield line, position
            continue
        if len(line) <= MAX_LINE_BYTES:
            return  # end of file, or a line still being written
        length = len(line)
        while True:
            chunk = handle.readline(1 << 20)
            if not chunk:
                return  # not finished yet: read again next time
            length += len(chunk)
            if chunk.endswith(b"\n"):
                break
        position += length
        counts.long_lines += 1


class _FileState(NamedTuple):
    device: int
    inode: int
    size: int
    offset: int
    head: str

    @classmethod
    def load(cls, value: object) -> _FileState | None:
        if not isinstance(value, dict):
            return None
        try:
            state = cls(*(value[key] for key in cls._fields))
        except KeyError:
            return None
        numbers = state[:4]
        if not all(type(n) is int and n >= 0 for n in numbers) or not isinstance(state.head, str):
            return None
        return state


def _head(handle: IO[bytes], length: int) -> str:
    handle.seek(0)
    return hashlib.sha256(handle.read(min(length, HEAD_BYTES))).hexdigest()


def _text(value: object) -> str | None:
    return value if isinstance(value, str) and value and "\0" not in value else None


class _AccessRows:
    """The access rows of transcript records (a skill activated, a skill's file read), the skills
    found from each record's working folder."""

    def __init__(self, env: Mapping[str, str] | None, counts: _Counts) -> None:
        self.env = env
        self.counts = counts
        self._bases: dict[str, Path] = {}
        self._skills: OrderedDict[Path, _Skills] = OrderedDict()
        self._folders: dict[Path, _Folder] = {}
        self._cwds: dict[str, str] = {}
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

    def canonical(self, cwd: str) -> str:
        """The working folder as access rows store it (symlinks resolved)."""
        if cwd not in self._cwds:
            self._cwds[cwd] = os.path.realpath(cwd)
        return self._cwds[cwd]

    def rows(self, line: bytes, fallback_session: str) -> list[_Row]:
        counts = self.counts
        try:
            record = _DECODER.decode(line.decode("utf-8"))
        except (ValueError, RecursionError):  # UnicodeDecodeError is a ValueError
            counts.malformed_lines += 1
            return []
        if not isinstance(record, dict):
            counts.malformed_lines += 1
            return []
        kind = record.get("type")
        if kind not in KNOWN_TYPES:
            counts.unknown_records += 1
            return []
        if kind not in ("assistant", "user"):
            return []
        uses = list(self._uses(record))
        if not uses:
            return []
        cwd, stamp = _text(record.get("cwd")), _text(record.get("timestamp"))
        moment = _timestamp(stamp)
        if cwd is None or not os.path.isabs(cwd) or moment is None:
            counts.malformed_lines += 1
            return []
        session = _text(record.get("sessionId")) or fallback_session
        skills = self.skills(cwd)
        rows = []
        for command, target, args in uses:
            if command == "activate":
                entry = skills.named(target)
                if entry is None:
                    if args["tool"] in ("Skill",):
                        counts.unknown_skill_calls += 1
                        if target in counts.unknown_skills or (
                            len(counts.unknown_skills) < MAX_UNKNOWN_NAMES
                        ):
                            counts.unknown_skills[target] += 1
                    continue
            else:
                path = target if os.path.isabs(target) else os.path.join(cwd, target)
                held = skills.holding(path)
                if held is None:
                    continue
                entry, relative = held
                args["path"] = relative
            row = self._row(skills.layout, entry, command, args, moment, session, cwd)
            if row is not None:
                rows.append(row)
        return rows

    def _uses(self, record: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
        """``(command, skill name or file path, args)`` of each skill use in a record."""
        message = record.get("message")
        content = message.get("content") if isinstance(message, dict) else None
        if record.get("type") == "user":
            if record.get("isMeta"):
                return  # the skill body Claude Code adds after an activation, not a use
            blocks = content if isinstance(content, list) else [{"text": content}]
            texts = [block.get("text") for block in blocks if isinstance(block, dict)]
            for text in texts:
                if isinstance(text, str) and "<command-name>" in text:
                    match = _COMMAND_NAME.search(text)
                    if match:
                        ident = _text(record.get("uuid")) or ""
                        yield "activate", match.group(1), _args("typed", ident)
            return
        if not isinstance(content, list):
            return
        for block in content:
            if not isinstance(block, dict) or block.get("type") != "tool_use":
                continue
            tool, given = block.get("name"), block.get("input")
            if not isinstance(given, dict):
                continue
            ident = _text(block.get("id")) or _text(record.get("uuid")) or ""
            if tool == "Skill":
                name = _text(given.get("skill")) or _text(given.get("command"))
                if name:
                    name = name.strip().lstrip("/")[:_MAX_NAME]
                    if name:
                        yield "activate", name, _args(tool, ident)
            elif tool == "SlashCommand":
                command = _text(given.get("command"))
                words = command.strip().split() if command else []
                if words and words[0].startswith("/"):
                    yield "activate", words[0][1:_MAX_NAME], _args(tool, ident)
            elif tool == "Read":
                path = _text(given.get("file_path"))
                if path:
                    yield "read", path, _args(tool, ident)

    def _row(
        self,
        layout: Layout,
        entry: _Entry,
        command: str,
        args: dict[str, Any],
        moment: str,
        session: str,
        cwd: str,
    ) -> _Row | None:
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
            entry.source.name,
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
        return _Row(
            primary_log(runtime), runtime, layout, entry.source.name, entry.source, identity
        )


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


# -- the state -----------------------------------------------------------------------------


def state_path(layout: Layout) -> Path:
    """``<skillc home>/.skillc/imports/claude-code.json``."""
    return layout.global_dir / "imports" / f"{AGENT}.json"


def _load_state(path: Path) -> dict[str, _FileState]:
    """The saved positions; a missing, oversized or damaged file is none (everything is
    read again, which adds no row twice)."""
    from skillc_index import read_json_bounded

    try:
        value = read_json_bounded(path, max_bytes=MAX_STATE_BYTES)
    except (OSError, ValueError):
        return {}
    if not isinstance(value, dict) or value.get("version") != STATE_VERSION:
        return {}
    files = value.get("files")
    if not isinstance(files, dict):
        return {}
    loaded = {}
    for key, item in files.items():
        state = _FileState.load(item)
        if state is not None:
            loaded[key] = state
    return loaded


def _save_state(path: Path, files: Mapping[str, _FileState]) -> None:
    """Write the state atomically (a temporary file renamed over it)."""
    data = {"version": STATE_VERSION, "files": {k: v._asdict() for k, v in sorted(files.items())}}
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        temporary.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        temporary.replace(path)
    finally:
        temporary.unlink(missing_ok=True)


# -- the import ----------------------------------------------------------------------------


def _read_file(
    projects: Path, path: Path, old: _FileState | None, access_rows: _AccessRows, counts: _Counts
) -> tuple[_FileState, list[_Row]] | None:
    """The rows of the part of ``path`` (in ``projects``) not read yet and its new state; None
    when it has not changed (or cannot be read). Opened as the gateway opens a skill's files
    (:func:`skillc_index.open_in_root`): a regular file inside ``projects`` only, never
    through a symlink leading out, and without blocking (a FIFO named ``*.jsonl`` waited
    forever for a writer)."""
    try:
        relative = path.relative_to(projects).as_posix()
        with open_in_root(projects, relative) as handle:
            st = os.fstat(handle.fileno())
            start = 0
            if (
                old is not None
                and (old.device, old.inode) == (st.st_dev, st.st_ino)
                and st.st_size >= old.offset
                and _head(handle, old.offset) == old.head
            ):
                if st.st_size == old.size:
                    return None  # unchanged: nothing after what was read
                start = old.offset
            elif old is not None and old.offset > 0:
                counts.files_rewritten += 1
            counts.files_read += 1
            rows: list[_Row] = []
            end, session = start, path.stem
            for line, offset in _lines(handle, start, counts):
                end = offset
                counts.lines += 1
                rows += access_rows.rows(line, session)
            head = _head(handle, end)
    except (OSError, SkillcError):  # unreadable, gone meanwhile, not a regular file, outside
        counts.files_skipped += 1
        return None
    return _FileState(st.st_dev, st.st_ino, st.st_size, end, head), rows


def _store(rows: list[_Row], dry_run: bool) -> tuple[list[SkillImport], set[Path]]:
    """Add the rows each log lacks; the per-skill report, and the logs that failed."""
    groups: dict[Path, list[_Row]] = {}
    for row in rows:
        groups.setdefault(row.destination, []).append(row)
    results: list[SkillImport] = []
    failed: set[Path] = set()
    for destination, part in sorted(groups.items()):
        first = part[0]
        identities = list(dict.fromkeys(row.identity for row in part))
        batch = FallbackRows([(identity, 1) for identity in identities])
        activations = sum(1 for identity in identities if identity[2] == "activate")
        error: SkillcError | None = None
        added = 0
        error = _misplaced_destination(first.layout, destination, first.runtime)
        if error is None:
            try:
                added = (count_missing if dry_run else copy_missing)(destination, batch)
            except (sqlite3.Error, OSError) as exc:
                shown = first.layout.display(destination)
                error = SyncDestinationNotWritable(shown, _why(exc))
        if error is not None:
            failed.add(destination)
        results.append(
            SkillImport(
                first.skill,
                first.skill_path,
                destination,
                activations,
                len(identities) - activations,
                added,
                error,
            )
        )
    results.sort(key=lambda item: (item.skill, str(item.skill_path)))
    return results, failed


def sync_transcripts(
    *,
    claude_folder: str | os.PathLike[str] | None = None,
    dry_run: bool = False,
    env: Mapping[str, str] | None = None,
) -> TranscriptSync:
    """Import skill activations and skill-file reads from Claude Code's transcripts into the
    skills' access logs (``skc sync --from claude-code``); see the module docstring.

    ``claude_folder`` is Claude Code's data folder (default: :func:`claude_dir`); its
    ``projects`` folder is read (none: nothing to import). ``env`` stands in for
    ``os.environ`` (``SKILLC_HOME``, ``CLAUDE_CONFIG_DIR``). ``dry_run`` writes nothing and
    reports the rows that would be added. A log that cannot be written is E041 in that
    skill's :class:`SkillImport` (the files holding its rows are read again next time).
    """
    home_layout = Layout.discover(None, env)
    base = Path(claude_folder) if claude_folder is not None else claude_dir(env, home_layout)
    projects = Path(os.path.abspath(base.expanduser())) / "projects"
    counts = _Counts()
    state_file = state_path(home_layout)
    saved = _load_state(state_file)
    access_rows = _AccessRows(env, counts)
    new_states: dict[str, _FileState] = {}
    rows_of: dict[str, list[_Row]] = {}
    seen: set[str] = set()
    for path in transcript_files(projects):
        counts.files += 1
        key = str(path)
        seen.add(key)
        if counts.files > MAX_FILES:
            counts.files_skipped += 1
            continue
        result = _read_file(projects, path, saved.get(key), access_rows, counts)
        if result is not None:
            new_states[key], rows_of[key] = result
    rows = [row for part in rows_of.values() for row in part]
    skills, failed = _store(rows, dry_run)
    warnings: list[Notice] = []
    if not dry_run:
        inside = str(projects) + os.sep  # files gone from this folder are forgotten
        states = {k: v for k, v in saved.items() if k in seen or not k.startswith(inside)}
        for key, state in new_states.items():
            if not any(row.destination in failed for row in rows_of[key]):
                states[key] = state
        if states != saved:
            try:
                _save_state(state_file, states)
            except OSError as exc:
                reason = exc.strerror or str(exc)
                warnings.append(
                    Notice(
                        f"cannot save how far the transcripts were read "
                        f"('{home_layout.display(state_file)}': {reason}); the next run reads "
                        "them again (no row is imported twice)"
                    )
                )
    names = dict(sorted(counts.unknown_skills.items(), key=lambda item: (-item[1], item[0])))
    return TranscriptSync(
        AGENT,
        projects,
        dry_run,
        counts.files,
        counts.files_read,
        counts.files_rewritten,
        counts.files_skipped,
        counts.lines,
        counts.malformed_lines,
        counts.long_lines,
        counts.unknown_records,
        counts.unknown_skill_calls,
        names,
        tuple(skills),
        tuple(warnings),
    )
