"""Reading changed skills into the catalog: the :class:`Indexer` the :class:`~.engine.Catalog`
runs inside its write transactions (a skill's SKILL.md read again under the write lock, its
row and words written, a moved skill's row taken over instead of indexed anew)."""

from __future__ import annotations

import os
import sqlite3
import stat as stat_module
from collections.abc import Callable, Iterable
from pathlib import Path

from skillc_gateway.catalog import database as catalog_database
from skillc_gateway.catalog import postings
from skillc_gateway.catalog.scan import SKILL_FILE
from skillc_gateway.catalog.skill_text import MAX_SKILL_BYTES, cut, read_skill_text
from skillc_gateway.catalog.tree_state import SKILL, SKIPPED, TreeState, fingerprint, is_racy

__all__ = ["Indexer", "same_skill_key", "skill_digest"]


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
