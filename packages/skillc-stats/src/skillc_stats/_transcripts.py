"""``sync --from claude-code``: skill usage from Claude Code's own session transcripts.

Claude Code writes every session as JSON Lines under ``<claude dir>/projects/<project>/``
(``<session id>.jsonl``, and ``<session id>/subagents/agent-*.jsonl`` for subagents). Each
line is one record; the tool calls of the model are ``tool_use`` blocks of ``assistant``
records. :func:`sync_transcripts` reads them and records, as access rows in each skill's
primary runtime log (so ``skc stats`` counts them):

- ``activate``: a ``Skill`` tool call (``{"skill": name}``; ``{"command": name}`` in 2.0.x),
  a ``SlashCommand`` tool call (``{"command": "/name args"}``, 2.0.x), unless its
  ``tool_result`` is an error (``is_error``: refused, nothing loaded), or a skill the user
  typed (a ``user`` record holding ``<command-name>/name</command-name>``);
- ``read``: a ``Read`` tool call of a file inside a skill folder, not a hidden one
  (``args.path``: the file relative to the skill, as ``open`` logs it).

Only skills that are installed count: the inventory seen from the record's own ``cwd``,
then from the folder the session started in when ``cwd`` is below it (the one its
transcripts are kept for: :meth:`~skillc_stats._transcript_rows.AccessRows.folders`)
(:func:`skillc_index.inventory.entries.installed_skills`: the stores, every agent skills
folder, project, nested and home, and the skills of installed Claude Code plugins); a
deployed skillc skill counts as its source. ``Skill`` calls of other names are skipped and
counted; so are malformed lines, records of kinds this version does not know, and lines over
:data:`MAX_LINE_BYTES`. Nothing in a transcript is ever a failure.

Reading is incremental: ``<skillc home>/.skillc/imports/claude-code.json`` keeps, per
transcript file, its device, inode, size, the offset read up to (complete lines only: a
partial last line waits for the next run) and hashes of its first bytes and of those just
before that offset. A file that grew is read from that offset; one whose inode changed,
that shrank or whose hashed bytes changed was rewritten and is read from the start. Rows
are identified by all their columns, and each carries the id of its tool call (or record),
so reading a file again adds nothing: the state only saves work. A file's position is
saved only once its rows are stored.
"""

# Folder paths are str here: read paths are matched against them by prefix, record by record.
# ruff: noqa: PTH100

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, NamedTuple

from skillc_index import (
    Layout,
    Notice,
    SkillcError,
    expand_user,
    open_in_root,
)
from skillc_index.accesslog.merge import (
    FallbackRows,
    Identity,
    copy_missing,
    count_missing,
    sessionless,
)
from skillc_stats._sync import _misplaced_destination, _unwritable, error_json, state_dir
from skillc_stats._transcript_rows import AGENT, AccessRows, Counts, FileRows, Row

if TYPE_CHECKING:
    from skillc_stats.shapes import SkillImportShape, TranscriptSyncShape

#: A longer line is skipped (and counted): real records are a few KB, a pasted image a few MB.
MAX_LINE_BYTES = 16 * 1024 * 1024
#: At most this many transcript files are read per run (the rest are counted, not read).
MAX_FILES = 100_000
#: The bytes at the start of a file whose hash tells a rewritten file from a grown one.
HEAD_BYTES = 4096
#: A larger state file is not read (it then starts over: the rows are not doubled).
MAX_STATE_BYTES = 64 * 1024 * 1024
#: Saved positions of another version are none: every file is read again once (no row is added
#: twice). Bumped when a fix changes which skills a line resolves to, so the lines an older
#: version skipped are read again: 2, the plugins' uses under ``CLAUDE_CONFIG_DIR``.
STATE_VERSION = 2


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
            "error": error_json(self.error),
        }


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
    router_calls: int = 0
    """``Skill`` calls of ``skc route``'s router (``skill-router``): not imported, no skill's
    use (the skills it routes to log their own)."""

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
            "router_calls": self.router_calls,
            "added": self.added,
            "skills": [skill.to_dict() for skill in self.skills],
            "warnings": [warning.text for warning in self.warnings],
        }


def claude_dir(env: Mapping[str, str] | None = None, layout: Layout | None = None) -> Path:
    """Claude Code's folder (:func:`skillc_index.inventory.folders.claude_home`:
    ``$CLAUDE_CONFIG_DIR``, else ``.claude`` in the home folder), where the plugin records
    that name its skills are read too."""
    from skillc_index.inventory.folders import claude_home

    return claude_home(layout or Layout.discover(None, env), env)


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


def _lines(handle: IO[bytes], start: int, counts: Counts) -> Iterator[tuple[bytes, int]]:
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
    tail: str = ""
    """The hash of the bytes just before ``offset`` (:func:`_tail`); empty in a state saved
    before it was kept (not compared then)."""

    @classmethod
    def load(cls, value: object) -> _FileState | None:
        if not isinstance(value, dict):
            return None
        try:
            kept = {key: value[key] for key in cls._fields[:5]}
            state = cls(**kept, tail=value.get("tail", ""))
        except KeyError:
            return None
        numbers = state[:4]
        if not all(type(n) is int and n >= 0 for n in numbers) or not all(
            isinstance(text, str) for text in state[4:]
        ):
            return None
        return state


def _head(handle: IO[bytes], length: int) -> str:
    handle.seek(0)
    return hashlib.sha256(handle.read(min(length, HEAD_BYTES))).hexdigest()


def _tail(handle: IO[bytes], offset: int) -> str:
    """The hash of the :data:`HEAD_BYTES` before ``offset``: a file rewritten in place with
    its first bytes unchanged (the same first records) differs there, and was read from
    the old offset, mid-line (its records lost)."""
    handle.seek(max(0, offset - HEAD_BYTES))
    return hashlib.sha256(handle.read(min(offset, HEAD_BYTES))).hexdigest()


# -- the state -----------------------------------------------------------------------------


def state_path(layout: Layout) -> Path:
    """``<skillc home>/.skillc/imports/claude-code.json`` (:func:`~._sync.state_dir`)."""
    return state_dir(layout) / f"{AGENT}.json"


def _load_state(path: Path) -> dict[str, _FileState]:
    """The saved positions; a missing, oversized or damaged file is none (everything is
    read again, which adds no row twice)."""
    from skillc_stats._sync import read_state

    value = read_state(path, STATE_VERSION, MAX_STATE_BYTES)
    if value is None:
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
    """Write the state atomically (:func:`skillc_index.write_file_atomic`: a new temporary
    file, created exclusively, renamed over it)."""
    from skillc_index import write_file_atomic

    data = {"version": STATE_VERSION, "files": {k: v._asdict() for k, v in sorted(files.items())}}
    path.parent.mkdir(parents=True, exist_ok=True)
    write_file_atomic(path, (json.dumps(data, indent=1) + "\n").encode())


# -- the import ----------------------------------------------------------------------------


def _read_file(
    projects: Path, path: Path, old: _FileState | None, access_rows: AccessRows, counts: Counts
) -> tuple[_FileState, list[Row]] | None:
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
                and old.tail in ("", _tail(handle, old.offset))
            ):
                if st.st_size == old.size:
                    return None  # unchanged: nothing after what was read
                start = old.offset
            elif old is not None and old.offset > 0:
                counts.files_rewritten += 1
            counts.files_read += 1
            found = FileRows(counts, relative.partition("/")[0])
            end, session = start, path.stem
            for line, offset in _lines(handle, start, counts):
                end = offset
                counts.lines += 1
                access_rows.read(line, session, found)
            rows = found.finish()
            head, tail = _head(handle, end), _tail(handle, end)
    except (OSError, SkillcError):  # unreadable, gone meanwhile, not a regular file, outside
        counts.files_skipped += 1
        return None
    return _FileState(st.st_dev, st.st_ino, st.st_size, end, head, tail), rows


def _store(rows: list[Row], dry_run: bool) -> tuple[list[SkillImport], set[Path]]:
    """Add the rows each log lacks; the per-skill report, and the logs that failed. One
    report per skill and log: skills of one name share their runtime's log (RFC-0007:
    C-RESOLUTION), and each is written and counted on its own (``skill_path`` tells them
    apart), as it is reported."""
    groups: dict[tuple[Path, Path], list[Row]] = {}
    for row in rows:
        groups.setdefault((row.destination, row.skill_path), []).append(row)
    results: list[SkillImport] = []
    failed: set[Path] = set()
    for (destination, _), part in sorted(groups.items()):
        first = part[0]
        # one tool call once, also when the agent copied it into another session's file
        # (a backgrounded, forked or resumed session): its id is in the row's args, and only
        # the run id (the session) differs
        calls: dict[Identity, Identity] = {}
        for row in part:
            calls.setdefault(sessionless(row.identity), row.identity)
        identities = list(calls.values())
        batch = FallbackRows([(identity, 1) for identity in identities])
        activations = sum(1 for identity in identities if identity[2] == "activate")
        error: SkillcError | None = None
        added = 0
        error = _misplaced_destination(first.layout, destination, first.runtime)
        if error is None:
            try:
                added = (count_missing if dry_run else copy_missing)(
                    destination, batch, sessions=False
                )
            except (sqlite3.Error, OSError) as exc:  # E041, E999 for the disk failing
                error = _unwritable(first.layout, destination, exc)
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

    ``claude_folder`` is Claude Code's data folder (default: :func:`claude_dir`; one given
    that is no folder is ``NoSyncFolder``, E100); its ``projects`` folder is read (none:
    nothing to import). ``env`` stands in for
    ``os.environ`` (``SKILLC_HOME``, ``CLAUDE_CONFIG_DIR``). ``dry_run`` writes nothing and
    reports the rows that would be added. A log that cannot be written is E041 in that
    skill's :class:`SkillImport` (the files holding its rows are read again next time).
    """
    from skillc_index.accesslog.errors import sync_folder

    given = None
    if claude_folder is not None:  # checked first: '' (./projects) and 5 too
        given = sync_folder(claude_folder, "claude_folder", "claude_dir")
    home_layout = Layout.discover(None, env)
    base = given if given is not None else claude_dir(env, home_layout)
    projects = Path(os.path.abspath(expand_user(base))) / "projects"
    counts = Counts()
    state_file = state_path(home_layout)
    saved = _load_state(state_file)
    access_rows = AccessRows(env, counts)
    new_states: dict[str, _FileState] = {}
    rows_of: dict[str, list[Row]] = {}
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
        counts.router_calls,
    )
