"""The index's schema, rows and location (RFC-0004:C-INDEX).

The schema version covers the tables and what the parse stores in them (the headings and
sections :mod:`~skillc_index.index.rows` makes of a file): a parser fix that changes the rows
of any file bumps it, so that every index made before is stale and built again (an index
made by older code would otherwise still be current and serve the old parse;
``test_index_fingerprint`` fails until the version is bumped).

Schema (version 16): the RFC's ``sections`` FTS5 table (and its ``path``), its ``originals``,
the ``headings`` table with ``idx_headings_text``, ``index_meta`` (``source_hash``,
``skill_path``, ``schema_version``, ``indexed_at``, ``tokenizer``, plus ``stats_at_ns``), and a
``files`` table with the path, size, modification time, inode and change time of every source
file at build time, so a reader can tell that the sources are unchanged from file stats alone
(DECISIONS "Gateway and index"), and, for a Markdown file over the parse limit, how many of its
first lines were parsed (``parsed_lines``, NULL for every other file): with the headings, what
``outline`` and the stub need, so neither parses an unchanged skill again (version 3 added
it). Version 4 has the same tables; its headings name an empty heading by its label
(:func:`~skillc_index.markdown.document.empty_heading_label`), which version 3 stored as ``""``.
Version 5 numbers the rows by file: the ``sections`` rowids and ``headings`` ids of the
``n``-th indexed file (in walk order) are ``n * FILE_ROWS + k``, so that the rows of one
changed file can be replaced where they are and the index is then the one a whole build
writes (:mod:`~skillc_index.index.cache`); and its ``files`` table keeps each file's SHA-256
(``sha256``), so that when stats differ only the files whose stats moved are hashed again
(the source hash is made from the digests: :func:`~skillc_index.digests.combine_digests`).
Version 6 has version 5's tables; its rows are the parse that keeps the headings after a list
nested past markdown-it's nesting limit (version 5 indexes made before that fix lost them).
Version 7 has version 6's rows; its ``files`` table records each file's inode and change time
(``ino``, ``ctime_ns``) as well: a file replaced by one of the same size and modification
time (unzipped from an archive with fixed dates, ``cp -p``, ``tar x``) was taken for the
indexed one, and the readers served the old lines.
Version 8 has version 7's tables and rows; under the ``cjk`` setting its FTS5 tokenizer keeps
the marks of the Indic and Southeast Asian scripts in words (``tokenchars``:
:data:`~skillc_index.index.scripts.TOKEN_MARKS`) and sets each Thai, Lao, Myanmar and Khmer
grapheme apart (the ``ascii`` setting keeps RFC-0004's clause exactly): version 7 split
``कोमा`` into ``क`` and ``म`` (so ``काम`` found it) and kept a Thai run as one word.
Version 9 has version 8's tables; under ``cjk`` a Thai or Lao SARA AM (U+0E33, U+0EB3) stays
in the grapheme of the letter before it (:data:`~skillc_index.index.scripts.GRAPHEME`):
version 8 set ``ก`` and ``ำ`` of ``กำลัง`` apart.
Version 10 has version 9's tables; a file in UTF-16 or UTF-32 with its BOM is indexed as its
text (:func:`~skillc_index.files.decoded`), which version 9 read as UTF-8: a NUL in each line.
Version 11 has version 10's tables; the text of its ``sections`` is folded
(:func:`~skillc_index.folding.folded`: composed, accented Latin letters decomposed), for both
settings: version 10 kept a decomposed text's words apart from the same words composed, and
``ữ``, ``ệ`` whole.
Version 12 has version 11's tables; a file whose suffix is ``.md`` or ``.txt`` in another case
(``REFERENCE.MD``, :func:`~skillc_index.index.rows.is_indexed`) has rows, which version 11 left
out (lint read it as Markdown; ``outline``, ``show`` and ``search`` did not see it).
Version 13 has version 12's rows; its ``sections`` table has one more column, ``path``
(``UNINDEXED``: never matched nor ranked), the file's name on disk
(:func:`~skillc_index.files.path_to_db`), which ``search`` reports: the ``file`` column is
matched, so it is folded (composed, accents apart), and version 12 reported that spelling, not
the file's (``é.md`` in NFD was named as its NFC twin, another file).
Version 14 has version 13's tables; its folded text also takes out the breathings of polytonic
Greek, narrows full-width ASCII and half-width Hangul (:func:`~skillc_index.folding.folded`) and,
under ``cjk``, keeps a consonant stacked under a Khmer or Myanmar virama in the grapheme above
it (:data:`~skillc_index.index.scripts.GRAPHEME`).
Version 15 adds the ``originals`` table: of each ``sections`` row whose text the folding changed
(:func:`~skillc_index.index.fts.prepare_fts_text`), its section and content as written (``id``
the row's rowid, NULL for a column the folding left as it was), which ``search`` shows
(:mod:`~skillc_index.index.snippets`: the harakat and points, the accents, the full-width
letters, without the U+200B of ``cjk``) while it matches the folded text.
Version 16 has version 15's tables; its folded text also spells ``ı`` as ``i`` and ``ß`` as
``ss`` and drops the variation selectors U+FE0E and U+FE0F (:mod:`~skillc_index.folding`,
the fold ``show --section`` and ``find`` share): version 15 found ``Işık`` by ``Işık`` only
and ``Straße`` by no ``strasse``.
An index of another version is stale, so it is built again; so is a find catalog made under
another version (it keeps each skill's headings). The version lives in
:mod:`~skillc_index.index.version`, which imports nothing.

The FTS5 ``tokenize`` option is spliced into the DDL from the fixed table
:data:`~skillc_index.index.fts.TOKENIZE_CLAUSES` (DDL cannot take parameters); every value
goes through ``?`` parameters. It is the RFC's ``porter unicode61`` (or ``unicode61``) as
written, and for ``cjk`` ``unicode61`` with a ``tokenchars`` list: the marks above, which the
RFC's tokenizer makes word separators.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from skillc_index.digests import sha256_hasher
from skillc_index.file_times import COARSE_WINDOW_NS, RACY_WINDOW_NS, racy_window_ns, settled
from skillc_index.files import fs_bytes
from skillc_index.index.version import SCHEMA_VERSION
from skillc_index.layout import META_DIR
from skillc_index.record import Record

__all__ = [
    "COARSE_WINDOW_NS",
    "FILE_ROWS",
    "RACY_WINDOW_NS",
    "REQUIRED_KEYS",
    "REQUIRED_TABLES",
    "SCHEMA_OBJECTS",
    "SCHEMA_SQL",
    "SCHEMA_VERSION",
    "Document",
    "FileStat",
    "HeadingRow",
    "IndexMeta",
    "IndexedHeading",
    "StoredHeading",
    "canonical_hash16",
    "canonical_source",
    "file_stat",
    "hash16",
    "index_path",
    "racy_window_ns",
    "settle",
    "stat_files",
]

#: Row numbers each indexed file has (since version 5): the ``n``-th file's rows are ``n *
#: FILE_ROWS`` and up. A file has at most one row per line parsed (20,000) plus one.
FILE_ROWS = 1 << 20
REQUIRED_KEYS = ("skill_path", "source_hash", "schema_version", "tokenizer")
REQUIRED_TABLES = frozenset({"sections", "headings", "index_meta", "files"})

#: The DDL of a new index; ``{tokenize}`` is a value of ``TOKENIZE_CLAUSES``.
SCHEMA_SQL = """
CREATE VIRTUAL TABLE sections USING fts5(
    file,
    section,
    content,
    path UNINDEXED,
    tokenize='{tokenize}'
);
CREATE TABLE headings (
    id INTEGER PRIMARY KEY,
    file TEXT NOT NULL,
    text TEXT NOT NULL,
    level INTEGER NOT NULL,
    start_line INTEGER NOT NULL,
    end_line INTEGER NOT NULL
);
CREATE INDEX idx_headings_text ON headings(text COLLATE NOCASE);
CREATE TABLE index_meta (
    key TEXT PRIMARY KEY,
    value TEXT
);
CREATE TABLE originals (
    id INTEGER PRIMARY KEY,
    section TEXT,
    content TEXT
);
CREATE TABLE files (
    path TEXT PRIMARY KEY,
    size INTEGER NOT NULL,
    mtime_ns INTEGER NOT NULL,
    ino INTEGER NOT NULL,
    ctime_ns INTEGER NOT NULL,
    parsed_lines INTEGER,
    sha256 TEXT NOT NULL
);
"""

#: Every object :data:`SCHEMA_SQL` makes, as ``(type, name)`` in ``sqlite_master`` (the FTS5
#: table's shadow tables and the primary keys' automatic indexes included). An index holding
#: anything else (a trigger, a view, another table or index) is not skillc's: it is read as
#: corrupt and built again whole, never updated in place (a trigger would run on the update).
SCHEMA_OBJECTS = frozenset(
    {
        *(
            ("table", name)
            for name in (
                "sections",
                "sections_data",
                "sections_idx",
                "sections_content",
                "sections_docsize",
                "sections_config",
                "headings",
                "originals",
                "index_meta",
                "files",
            )
        ),
        ("index", "idx_headings_text"),
        ("index", "sqlite_autoindex_index_meta_1"),
        ("index", "sqlite_autoindex_files_1"),
    }
)

#: A document of the ``sections`` table: ``(file, section, content)`` (``path`` is ``file``'s
#: name on disk, stored beside it).
Document = tuple[str, str, str]
#: A row of the ``headings`` table: ``(file, text, level, start_line, end_line)``.
HeadingRow = tuple[str, str, int, int, int]


class IndexedHeading(Record):
    """A row of the ``headings`` table, as read back."""

    file: str
    text: str
    level: int
    start_line: int
    end_line: int


StoredHeading = tuple[Any, str, int, int, int]
"""A ``headings`` row as read back, before it is an :class:`IndexedHeading`: the file as
stored (text, or bytes for a name that is not UTF-8), text, level, start and end line."""


class IndexMeta(Record):
    """The ``index_meta`` of a readable index."""

    skill_path: str
    source_hash: str
    schema_version: int
    tokenizer: str
    indexed_at: str | None
    stats_at_ns: int | None


class FileStat(Record):
    """A source file as the ``files`` table records it (since version 7: with its inode and
    change time, what the find catalog's SKILL.md fingerprint holds too): a file replaced by
    one of the same size and modification time (an archive's fixed dates, ``cp -p``) has
    another change time, and often another inode, so it is never taken for the indexed one."""

    path: str
    size: int
    mtime_ns: int
    ino: int
    ctime_ns: int

    @property
    def changed_ns(self) -> int:
        """When the file was last written or replaced: the later of its times (a restored
        modification time is older than the change)."""
        return max(self.mtime_ns, self.ctime_ns)

    def settled_before(self, at_ns: int) -> bool:
        """Whether the file, with these stats at ``at_ns``, was last changed long enough
        before it to be proven unchanged while its stats stay the same: both its times more
        than its file system's :func:`racy_window_ns` before ``at_ns`` (one changed closer may
        have been changed again within the same timestamp, unseen)."""
        return settled(self.mtime_ns, self.ctime_ns, at_ns)


def settle(stats: Mapping[str, FileStat]) -> bool:
    """Let the clock move past each time of ``stats`` by its :func:`racy_window_ns` before
    they are recorded (readers then check stats alone): sleep the rest of it, never longer,
    when a file was changed a moment ago (up to :data:`COARSE_WINDOW_NS` on a file system of
    whole seconds); True when it slept (stat the files again). A file dated in the future (a
    clock ahead, or set back since) is not waited for: it stays changed too recently to
    trust, and readers hash it."""
    import time

    now = time.time_ns()
    wait_ns = max(
        (
            s.changed_ns + racy_window_ns(s.mtime_ns, s.ctime_ns) - now
            for s in stats.values()
            if s.changed_ns <= now
        ),
        default=0,
    )
    if wait_ns <= 0:
        return False
    time.sleep(wait_ns / 1e9)
    return True


def stat_files(
    source: Path,
    files: Iterable[str],
    *,
    canonical: str | None = None,
    optional: Callable[[str], bool] | None = None,
) -> dict[str, FileStat]:
    """The :func:`file_stat` of each file (symlinks followed), by relative path.
    ``canonical``: the source's :func:`canonical_source`, when the caller has it. A file
    ``optional`` says True of that is gone (``ENOENT``, ``ENOTDIR``) is left out; any other
    ``OSError`` is raised."""
    root = canonical_source(source) if canonical is None else canonical
    stats: dict[str, FileStat] = {}
    for rel in files:
        try:
            st = os.stat(os.path.join(root, rel))  # noqa: PTH116, PTH118 - a hot loop
        except (FileNotFoundError, NotADirectoryError):
            if optional is not None and optional(rel):
                continue
            raise
        stats[rel] = file_stat(rel, st)
    return stats


#: The range of an SQLite INTEGER (signed 64-bit): nanoseconds from 1677-09-21 to 2262-04-11.
_NS_MIN, _NS_MAX = -(2**63), 2**63 - 1


def file_stat(rel: str, st: os.stat_result) -> FileStat:
    """The :class:`FileStat` of the source file ``rel`` whose ``stat`` is ``st``, its times
    clamped to what the ``files`` table holds (:data:`_NS_MIN` to :data:`_NS_MAX`): a file
    dated after 2262 (``touch -d 2300-01-01``, which ext4 stores) is recorded at the bound,
    which is in the future, so it is never trusted by its stats and readers hash it (an edit
    that keeps its date is still seen). Its inode is the signed integer of its 64 bits: one of
    2**63 or more (some FUSE file systems) failed the build with an OverflowError, and a clamp
    would make every such file one inode, where this keeps them apart (one to one)."""
    mtime = min(max(st.st_mtime_ns, _NS_MIN), _NS_MAX)
    ctime = min(max(st.st_ctime_ns, _NS_MIN), _NS_MAX)
    ino = (st.st_ino - _NS_MIN) % 2**64 + _NS_MIN  # itself below 2**63
    return FileStat(rel, st.st_size, mtime, ino, ctime)


def canonical_source(source: Path) -> str:
    """The canonical absolute path of a source folder, as ``skill_path`` records it."""
    return os.path.realpath(source)


def hash16(source: Path) -> str:
    """First 16 hex characters of the SHA-256 of the canonical source path (RFC-0004)."""
    return canonical_hash16(canonical_source(source))


def canonical_hash16(canonical: str) -> str:
    """:func:`hash16` of a source whose :func:`canonical_source` is ``canonical``."""
    return _sha256_hex(fs_bytes(canonical))[:16]


def index_path(runtime: Path, source: Path) -> Path:
    """``<runtime>/.skillc-meta/search-<hash16>.db`` for a source folder."""
    return runtime / META_DIR / f"search-{hash16(source)}.db"


def _sha256_hex(data: bytes) -> str:
    """SHA-256 of a few bytes. ``show``/``search`` hash one path per call: the built-in
    module (:func:`~skillc_index.digests.sha256_hasher`) spares them loading OpenSSL."""
    return str(sha256_hasher()(data).hexdigest())
