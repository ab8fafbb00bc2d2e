"""Reading changed skills into the catalog: :func:`apply` writes what a
:class:`~.engine.Catalog`'s walks found in timed write transactions, and the :class:`Indexer`
runs inside them (a skill's SKILL.md read again under the write lock, its row and words
written, a moved skill's row taken over instead of indexed anew); :func:`busy` and
:func:`unwritable` say why a write failed."""

from __future__ import annotations

import os
import sqlite3
import stat as stat_module
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from skillc_gateway.catalog import FINISH_WITHIN, postings
from skillc_gateway.catalog import database as catalog_database
from skillc_gateway.catalog import semantic as semantic_step
from skillc_gateway.catalog.database import forget_roots, forgotten
from skillc_gateway.catalog.scan import SKILL_FILE, Walk
from skillc_gateway.catalog.skill_text import MAX_SKILL_BYTES, cut, read_skill_text
from skillc_gateway.catalog.tree_state import (
    RACY_NS,
    SKILL,
    SKIPPED,
    TreeState,
    fingerprint,
    is_racy,
)

if TYPE_CHECKING:
    from skillc_gateway.catalog.engine import Catalog

__all__ = [
    "BATCH_SECONDS",
    "Indexer",
    "apply",
    "busy",
    "finishes",
    "same_skill_key",
    "skill_digest",
    "unwritable",
]

#: Changed skills are written in transactions of about this long (others wait meanwhile).
BATCH_SECONDS = 0.5


class Indexer:
    """Reads changed skills into the catalog, inside the caller's transaction."""

    def __init__(
        self,
        db: sqlite3.Connection,
        since: int,
        add: Callable[[sqlite3.Connection, int, postings.SkillText], None] | None = None,
        digest: Callable[[str, postings.SkillText], str] | None = None,
    ) -> None:
        self.db = db
        self.since = since
        self.add = postings.add if add is None else add
        """How a skill's text is written (:func:`.postings.add`; the first answer keeps the
        texts instead: :mod:`.first_answer`)."""
        self.digest = (lambda _real, text: skill_digest(text)) if digest is None else digest
        """The digest of the skill at a real path (:func:`skill_digest`; the first answer
        computes it only where another skill has the same name and description)."""
        self.done: dict[str, tuple[int, int, bool]] = {}  # real path -> id, fingerprint, skipped
        self.moved = 0
        """Skills that moved, whose rows were kept (:meth:`adopt`)."""

    def index(self, state: TreeState, index: int) -> None:
        """(Re)index the skill at ``state``'s entry ``index`` and record it there. Its
        SKILL.md is looked at again here, under the write lock: what is written is what the
        file is now (another process may have indexed it meanwhile)."""
        real = state.real_path(state.paths[index])
        result = self.done.get(real)
        if result is None:
            result = self.done[real] = self._read(real)
        skill_id, fp, skipped = result
        if not skill_id:  # its SKILL.md is gone: the folder is listed again next time
            state.kinds[index] &= ~SKILL
            state.stamps[index] = 0
            state.ids[index] = state.fps[index] = 0
            return
        state.ids[index], state.fps[index] = skill_id, fp
        if skipped:
            state.kinds[index] |= SKIPPED
        else:
            state.kinds[index] &= ~SKIPPED

    def _read(self, real: str) -> tuple[int, int, bool]:
        file = f"{real}/{SKILL_FILE}"
        row = catalog_database.skill_by_path(self.db, real)
        try:
            st = os.lstat(file)
        except OSError:
            if row is not None:
                self.remove([(row[0], real)])
            return 0, 0, False
        fp = fingerprint(st)
        if row is not None and row[1] == fp:
            return row[0], fp, row[2]
        data = _read_regular(real, st)  # None (skipped): a symlink, a FIFO, unreadable
        stored = 0 if is_racy(st, self.since) else fp  # read again until it has settled
        content = None if data is None else _sha1(data)
        if row is not None and content is not None and row[3] == content:
            # the same bytes (looked at again while racy, or touched): nothing to index
            catalog_database.set_fingerprint(self.db, row[0], stored)
            return row[0], stored, row[2]
        text = None if data is None else read_skill_text(data, real.rpartition("/")[2])
        values = catalog_database.SkillRow(
            text.name if text else real.rpartition("/")[2],
            text.description if text else "",
            self.digest(real, text) if text else None,
            content,
            stored,
        )
        if row is None:
            skill_id = catalog_database.insert_skill(self.db, real, values)
        else:
            skill_id = row[0]
            catalog_database.update_skill(self.db, skill_id, values)
        if text is None:
            postings.remove(self.db, skill_id)
        else:
            self.add(self.db, skill_id, text)
        return skill_id, stored, text is None

    def adopt(
        self, removed: list[tuple[int, str]], todo: list[tuple[TreeState, int]]
    ) -> list[tuple[int, str]]:
        """A skill moved (``skc route install`` and ``uninstall`` move skill folders between
        an agent folder and a store) is not a change of its text: each new skill folder of
        ``todo`` whose SKILL.md holds the bytes of a removed one that is gone, under the same
        folder name (the ranker reads the folder name too), takes that one's row, and with
        it its words and its vector, instead of being indexed anew. The removed skills left
        (:meth:`remove`), each with its row's id (a walk gives 0 for a skill its state did not
        hold the id of: :attr:`.scan.Walk.removed`)."""
        removed = self._ids(removed)
        gone: dict[tuple[bytes, str], list[tuple[int, str]]] = {}
        for skill_id, real in removed:
            if _still_there(real):
                continue
            row = catalog_database.skill_by_id(self.db, skill_id)
            if row is not None and row[0] == real and row[2] is not None:
                gone.setdefault((row[2], real.rpartition("/")[2]), []).append((skill_id, real))
        if not gone:
            return removed
        names = {name for _, name in gone}
        adopted: set[int] = set()
        for state, index in todo:
            real = state.real_path(state.paths[index])
            name = real.rpartition("/")[2]
            if name not in names or real in self.done:
                continue
            if catalog_database.skill_by_path(self.db, real) is not None:
                continue
            file = f"{real}/{SKILL_FILE}"
            try:
                st = os.lstat(file)
            except OSError:
                continue
            data = _read_regular(real, st)
            same = None if data is None else gone.get((_sha1(data), name))
            if not same:
                continue
            skill_id, old = same.pop()
            fp = 0 if is_racy(st, self.since) else fingerprint(st)  # read again until settled
            if catalog_database.move_skill(self.db, skill_id, old, real, fp):
                row = catalog_database.skill_by_id(self.db, skill_id)
                self.done[real] = (skill_id, fp, bool(row and row[1]))
                adopted.add(skill_id)
                self.moved += 1
        return [item for item in removed if item[0] not in adopted]

    def _ids(self, removed: list[tuple[int, str]]) -> list[tuple[int, str]]:
        """``removed`` with the id of the row at its path for each skill given as 0 (those
        without a row left out)."""
        found: list[tuple[int, str]] = []
        for skill_id, real in removed:
            if not skill_id:
                row = catalog_database.skill_by_path(self.db, real)
                if row is None:
                    continue
                skill_id = row[0]
            found.append((skill_id, real))
        return found

    def remove(self, removed: Iterable[tuple[int, str]]) -> None:
        """Drop the skills whose SKILL.md is gone (one still there is reached another way)."""
        for skill_id, real in removed:
            if _still_there(real):
                continue
            if catalog_database.delete_skill(self.db, skill_id, real):
                postings.remove(self.db, skill_id)
            self.done.pop(real, None)


def _still_there(real: str) -> bool:
    """Whether the skill folder at the real path ``real`` that a walk found gone is still
    there, reached another way (under another searched folder): its SKILL.md is, and
    ``real`` is still its folder's real path (a folder replaced by a symlink to where it was
    moved is not: its skill is indexed at the link's target)."""
    if not os.path.isfile(f"{real}/{SKILL_FILE}"):  # noqa: PTH113
        return False
    return os.path.realpath(real) == real


def _read_regular(real: str, st: os.stat_result) -> bytes | None:
    """The first :data:`MAX_SKILL_BYTES` of the SKILL.md of the skill at ``real`` (cut at a
    line end), or None (the skill is skipped): not a regular file by ``st`` (its ``lstat``:
    a symlink is not read, the catalog's fingerprints would not see its target change), or
    not one when opened (:func:`skillc_index.read_in_root`: no symlink out of the skill, no
    FIFO that blocks), or unreadable. ``real`` is the folder's real path as the walk found it
    (it follows symlinks only as a root's own entries, :mod:`.scan`): not resolved again."""
    from skillc_index import SkillcError, read_in_root

    if not stat_module.S_ISREG(st.st_mode):
        return None
    try:
        return cut(read_in_root(Path(real), SKILL_FILE, MAX_SKILL_BYTES + 1, real_root=real))
    except (SkillcError, OSError):
        return None


def same_skill_key(text: postings.SkillText) -> tuple[str, str]:
    """The part of :func:`skill_digest` that does not read the body: the name and the
    description, spaces collapsed. Skills of one digest have one key (the first answer
    digests only the skills that share theirs: :mod:`.first_answer`)."""
    return text.name, " ".join(text.description.split())


def skill_digest(text: postings.SkillText) -> str:
    """What makes two skills the same one: name, description and body, spaces collapsed."""
    body = " ".join(text.body.split())
    data = "\0".join((*same_skill_key(text), body))
    return _sha1(data.encode("utf-8", "surrogatepass")).hex()


def _sha1(data: bytes) -> bytes:
    import hashlib

    return hashlib.sha1(data, usedforsecurity=False).digest()


def apply(
    catalog: Catalog,
    walks: list[tuple[str, Walk]],
    budget: float,
    watching: bool,
    waiting: Callable[[], bool] | None = None,
) -> int | None:
    """Index the pending skills of ``catalog`` (:meth:`~.engine.Catalog.refresh`'s walks)
    and drop the removed ones, saving each changed state, in
    transactions of :data:`BATCH_SECONDS`. The number of skills left when the budget ran
    out (0: all done), None when the catalog was busy; it raises the SQLite error when the
    catalog cannot be written (read-only, its disk full or failing: the files answer).
    The budget stretches to :data:`FINISH_WITHIN` budgets when, as it runs out, the pace
    so far says the rest fits in them (:func:`finishes`).

    A ``watching`` catalog keeps its states in memory and saves one only when its folders
    changed, not when skills were only indexed again (a state is megabytes at 20,000
    skills): a new process's walk then finds those fingerprints out of date and takes
    them from the skills' rows, without reading the files. ``waiting()``, asked between
    two skills, ends it early (:meth:`~.engine.Catalog.build`: a request waits)."""
    todo = [(result.state, index) for _, result in walks for index in result.pending]
    removed = [item for _, result in walks for item in result.removed]
    dirty = [
        (key, result.state)
        for key, result in walks
        if result.changed or (result.pending and not watching)
    ]
    used_ns = time.time_ns()
    keys = list(dict.fromkeys(key for key, _ in walks))
    every = catalog_database.TOUCH_NS
    touch = [key for key in keys if used_ns - catalog._used.get(key, 0) >= every]
    # nothing but vectors to compute (rank computes those it needs meanwhile): not partial
    filling = not (todo or removed or dirty)
    if (
        filling
        and not touch
        and forgotten(catalog.db) == catalog._forgotten  # else its states may need repair
        and not semantic_step.unfilled(catalog.db, semantic_step.QUERY_FILL)
    ):
        return 0
    start = time.monotonic()
    deadline = start + budget
    indexer = Indexer(catalog.db, time.time_ns() - RACY_NS)
    waiting = waiting or (lambda: False)
    position = 0
    first = True
    saved: set[str] = set()
    dropped: list[str] = []
    try:
        while True:
            with catalog_database.writing(catalog.db):
                if first and forgotten(catalog.db) != catalog._forgotten:
                    _repair(catalog.db, walks, todo, dirty)
                if removed:
                    indexer.remove(indexer.adopt(removed, todo))
                    removed = []
                stop = min(deadline, time.monotonic() + BATCH_SECONDS)
                while position < len(todo) and time.monotonic() < stop and not waiting():
                    indexer.index(*todo[position])
                    position += 1
                postings.finish(catalog.db)
                missing = position == len(todo) and semantic_step.fill(
                    catalog.db, stop, semantic_step.QUERY_FILL
                )
                for key, state in dirty:
                    catalog_database.save_root(catalog.db, key, state.dumps(), used_ns)
                if first:
                    saved = {key for key, _ in dirty}
                    catalog_database.touch_roots(
                        catalog.db, [key for key in touch if key not in saved], used_ns
                    )
                    dropped = _forget(catalog, walks)
                    catalog._forgotten = forgotten(catalog.db)
            if first:
                first = False
                catalog._used.update(dict.fromkeys((*touch, *saved), used_ns))
                for key in dropped:
                    catalog._states.pop(key, None)
                    catalog._used.pop(key, None)
            if position == len(todo) and not missing:
                return 0
            if waiting():
                return len(todo) - position
            now = time.monotonic()
            if now >= deadline:
                left, longest = len(todo) - position, budget * FINISH_WITHIN
                if deadline - start < longest and finishes(now - start, position, left, longest):
                    deadline = start + longest
                    continue
                return left
    except sqlite3.OperationalError as exc:
        if filling and (busy(exc) or unwritable(exc)):
            return 0
        if busy(exc):
            return None
        raise  # read-only, the disk full or failing: the caller answers from the files


def _repair(
    db: sqlite3.Connection,
    walks: list[tuple[str, Walk]],
    todo: list[tuple[TreeState, int]],
    dirty: list[tuple[str, TreeState]],
) -> None:
    """Inside the write transaction, when another process forgot roots since the states
    were read: each skill a state holds whose row is gone (it was only under a forgotten
    root when that was decided) is indexed again now (``todo``), and its state saved."""
    ids = sorted({skill_id for _, result in walks for skill_id in result.state.ids if skill_id})
    present = catalog_database.present_skills(db, ids)
    saved = {key for key, _ in dirty}
    for key, result in walks:
        state = result.state
        gone = [i for i, skill_id in enumerate(state.ids) if skill_id and skill_id not in present]
        for index in gone:
            state.ids[index] = state.fps[index] = 0
            if state.kinds[index] & SKILL:
                todo.append((state, index))
        if gone and key not in saved:
            dirty.append((key, state))
            saved.add(key)


def _forget(catalog: Catalog, walks: list[tuple[str, Walk]]) -> list[str]:
    """:func:`~.database.forget_roots` for this query: its roots are kept, and the
    skills of the states in memory (theirs and the others') held."""
    held: dict[str, Sequence[int]] = {key: state.ids for key, state in catalog._states.items()}
    held.update((key, result.state.ids) for key, result in walks)
    return forget_roots(catalog.db, [key for key, _ in walks], held)


def finishes(elapsed: float, done: int, left: int, longest: float) -> bool:
    """Whether, at the pace of ``done`` skills indexed in ``elapsed`` seconds, the ``left``
    ones are indexed before ``longest`` seconds from the start (no pace yet: no)."""
    return done > 0 and left > 0 and elapsed + left * elapsed / done <= longest


def busy(exc: sqlite3.DatabaseError) -> bool:
    """The catalog is locked by another process's transaction (try again later)."""
    text = str(exc)
    return isinstance(exc, sqlite3.OperationalError) and ("locked" in text or "busy" in text)


def unwritable(exc: sqlite3.OperationalError) -> bool:
    """A catalog that cannot be written now: read-only, or its disk full or failing."""
    return "readonly" in str(exc) or "disk" in str(exc)
