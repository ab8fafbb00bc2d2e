"""The search and headings index (RFC-0004:C-INDEX, C-FORMATS), the ``index/`` subpackage:
sections and schema (``schema``, ``writer``), the readers' freshness check and its handle
(``freshness``; DECISIONS "Gateway and index") and the reads (``queries``), on real files and
real SQLite."""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from skillc_index import (
    IndexUnusable,
    Layout,
    ResolvedSkill,
    index_path,
    parse_markdown,
    resolve_skill,
)
from skillc_index.build.compiler import compile_skill
from skillc_index.diagnostics import IndexCollision
from skillc_index.index.freshness import check_index, index_is_fresh, require_index
from skillc_index.index.rows import markdown_documents
from skillc_index.index.schema import FileStat, hash16

WriteSkill = Callable[..., Path]


def rows(db: Path, sql: str) -> list[tuple[object, ...]]:
    connection = sqlite3.connect(db)
    try:
        return connection.execute(sql).fetchall()
    finally:
        connection.close()


def set_meta(db: Path, key: str, value: str | None) -> None:
    connection = sqlite3.connect(db)
    if value is None:
        connection.execute("DELETE FROM index_meta WHERE key = ?", (key,))
    else:
        connection.execute("UPDATE index_meta SET value = ? WHERE key = ?", (value, key))
    connection.commit()
    connection.close()


def age(folder: Path, seconds: float = 10) -> None:
    """Move every file's times into the past, as if written long before the build."""
    past = time.time() - seconds
    for path in folder.rglob("*"):
        os.utime(path, (past, past))


@pytest.fixture
def skill(layout: Layout, project: Path, write_skill: WriteSkill) -> ResolvedSkill:
    folder = write_skill(project / ".skillc" / "skills" / "demo", body="## Usage\n\nRun it.\n")
    (folder / "notes.txt").write_text("plain text notes\n", encoding="utf-8")
    age(folder)
    return resolve_skill("demo", layout)


# -- sections (RFC-0004:C-FORMATS) ---------------------------------------------------------------


def test_markdown_sections_nest_and_keep_the_preamble() -> None:
    text = "---\nname: x\n---\nIntro line.\n\n# Title\n\nBody.\n\n## A\n\nA text.\n\n### A.1\n\nDeep.\n\n## B\n\nB text.\n"  # noqa: E501
    docs = list(markdown_documents("SKILL.md", text, parse_markdown(text)))
    assert docs[0] == ("SKILL.md", "", "Intro line.\n\n")
    sections = {section: content for _, section, content in docs[1:]}
    assert list(sections) == ["Title", "A", "A.1", "B"]
    assert sections["Title"].startswith("# Title") and sections["Title"].endswith("B text.\n")
    assert sections["A"] == "## A\n\nA text.\n\n### A.1\n\nDeep.\n\n"  # subsections included
    assert sections["B"] == "## B\n\nB text.\n"
    assert "name: x" not in "".join(content for _, _, content in docs)


def test_markdown_without_headings_is_one_document() -> None:
    text = "Just text.\n```\n# not a heading\n```\n"
    assert list(markdown_documents("a.md", text, parse_markdown(text))) == [("a.md", "", text)]


def test_blank_preamble_is_skipped() -> None:
    text = "\n\n# Title\n"
    docs = list(markdown_documents("a.md", text, parse_markdown(text)))
    assert [section for _, section, _ in docs] == ["Title"]


# -- what a build writes ---------------------------------------------------------------------


def test_index_name_and_schema(skill: ResolvedSkill) -> None:
    result = compile_skill(skill)
    db = result.index.path
    expected = hashlib.sha256(str(skill.source).encode()).hexdigest()[:16]
    assert db == skill.runtime / ".skillc-meta" / f"search-{expected}.db"
    assert hash16(skill.source) == expected
    assert index_path(skill.runtime, skill.source) == db
    ddl = dict(rows(db, "SELECT name, sql FROM sqlite_master WHERE name NOT LIKE 'sections_%'"))
    assert "fts5(" in str(ddl["sections"]) and "porter unicode61" in str(ddl["sections"])
    assert "text COLLATE NOCASE" in str(ddl["idx_headings_text"])
    meta = dict(rows(db, "SELECT key, value FROM index_meta"))
    assert meta["schema_version"] == "16"
    assert meta["skill_path"] == str(skill.source)
    assert meta["source_hash"] == result.source_hash == result.manifest.source_hash
    assert meta["tokenizer"] == "porter"
    assert {"indexed_at", "stats_at_ns"} <= set(meta)
    assert rows(db, "SELECT path FROM files ORDER BY path") == [("SKILL.md",), ("notes.txt",)]
    digests = dict(rows(db, "SELECT path, sha256 FROM files"))
    assert digests["notes.txt"] == hashlib.sha256(b"plain text notes\n").hexdigest()
    assert ("notes.txt", "", "plain text notes\n", "notes.txt") in rows(
        db, "SELECT * FROM sections"
    )
    assert rows(db, "SELECT file, text, level, start_line, end_line FROM headings") == [
        ("SKILL.md", "demo", 1, 6, 11),
        ("SKILL.md", "Usage", 2, 8, 11),
    ]


def test_rows_come_from_the_bytes_hashed(skill: ResolvedSkill) -> None:
    """The build hashes every file (the source hash), then reads the indexed ones again to
    parse them: a version written between the two reads gave the index the rows of one version
    under the digest of the other, and the readers, trusting the digest, served wrong lines
    (audit-fs 1). Here notes.txt is rewritten once while SKILL.md is parsed, and put back once
    it has been parsed: its rows must be those of the bytes its recorded digest hashes."""
    notes = skill.source / "notes.txt"
    edits = {1: "PLAIN text notes\n", 2: "plain text notes\n"}  # done -> notes.txt then

    def progress(done: int, total: int) -> None:  # called after each file is parsed
        if done in edits:  # each edit once
            notes.write_text(edits.pop(done), encoding="utf-8")

    result = compile_skill(skill, progress=progress)
    db = result.index.path
    ((content,),) = rows(db, "SELECT content FROM sections WHERE file = 'notes.txt'")
    ((digest,),) = rows(db, "SELECT sha256 FROM files WHERE path = 'notes.txt'")
    assert digest == hashlib.sha256(str(content).encode()).hexdigest()
    # the file is back to the version hashed first: the index, of the other one, is stale
    assert not index_is_fresh(skill.runtime, skill.source, "ascii")


def test_sources_that_keep_changing_under_the_build_are_e002(skill: ResolvedSkill) -> None:
    notes = skill.source / "notes.txt"
    versions = itertools.cycle(["PLAIN text notes\n", "plain text notes\n"])

    def progress(done: int, total: int) -> None:  # notes.txt rewritten before each parse
        if done == 1:
            notes.write_text(next(versions), encoding="utf-8")

    with pytest.raises(IndexUnusable, match=r"kept changing.*'notes.txt' changed"):
        compile_skill(skill, progress=progress)
    assert not skill.runtime.exists()  # nothing written


def test_the_build_waits_for_the_sources_to_settle_on_its_first_attempt_only(
    monkeypatch: pytest.MonkeyPatch, skill: ResolvedSkill
) -> None:
    """``skc build`` while an editor saves every 100 ms: each attempt waited for the sources
    to be 100 ms old (schema.settle), about when the next save lands under it again; an
    attempt after one they changed under does not wait (as the index made on demand)."""
    from skillc_index.build import compiler

    waits: list[int] = []
    monkeypatch.setattr(compiler, "settle", lambda _stats: bool(waits.append(1)))
    notes = skill.source / "notes.txt"

    def progress(done: int, total: int) -> None:  # notes.txt saved under the first attempt
        if done == 1 and not notes.read_text(encoding="utf-8").startswith("saved"):
            notes.write_text("saved notes\n", encoding="utf-8")

    result = compile_skill(skill, progress=progress)
    assert len(waits) == 1  # the first attempt's only
    ((content,),) = rows(result.index.path, "SELECT content FROM sections WHERE file = 'notes.txt'")
    assert content == "saved notes\n"


# -- the readers' check ----------------------------------------------------------------------


def test_fresh_after_build(skill: ResolvedSkill) -> None:
    assert check_index(skill.runtime, skill.source, "ascii").status == "missing"
    compile_skill(skill)
    assert index_is_fresh(skill.runtime, skill.source, "ascii")
    handle = require_index(skill, "ascii")
    assert handle.path == index_path(skill.runtime, skill.source)
    assert handle.skill == "demo" and handle.meta.tokenizer == "porter"
    assert set(handle.files) == {"SKILL.md", "notes.txt"}


def test_edit_makes_it_stale(skill: ResolvedSkill) -> None:
    compile_skill(skill)
    with (skill.source / "SKILL.md").open("a", encoding="utf-8") as handle:
        handle.write("\nMore.\n")
    state = check_index(skill.runtime, skill.source, "ascii")
    assert state.status == "stale"
    with pytest.raises(IndexUnusable):
        require_index(skill, "ascii")


def test_files_changed_near_the_recording_are_hashed(skill: ResolvedSkill) -> None:
    """An edit within the file system's timestamp granularity can keep both size and time:
    stats of files changed that close to when the stats were recorded prove nothing, so those
    files are hashed."""
    compile_skill(skill)
    path = skill.source / "notes.txt"
    before = path.stat()
    path.write_text("PLAIN text notes\n", encoding="utf-8")  # same size
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))  # same time
    db = index_path(skill.runtime, skill.source)
    # as if the build had recorded the stats in the same clock tick as the edit
    set_meta(db, "stats_at_ns", str(before.st_mtime_ns + 1))
    assert check_index(skill.runtime, skill.source, "ascii").status == "stale"


def test_old_files_with_matching_stats_are_not_read(
    skill: ResolvedSkill, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The common case costs stats only: files whose stats are those recorded are not read."""
    from skillc_index.index import freshness

    compile_skill(skill)

    def read(*args: object) -> None:
        raise AssertionError("a source file or the digests were read")

    monkeypatch.setattr(freshness, "file_sha256", read)
    monkeypatch.setattr(freshness, "read_digests", read)
    assert index_is_fresh(skill.runtime, skill.source, "ascii")


@pytest.mark.parametrize("how", ["rewritten", "replaced"])
def test_a_file_of_the_same_size_and_time_is_a_change(skill: ResolvedSkill, how: str) -> None:
    """A new version of a file with the old one's size and modification time (unzipped from
    an archive whose entries have fixed dates, as ``skc package`` writes them; ``cp -p``;
    ``tar x``) has another change time (and, replaced, another inode): it is hashed, so the
    index is stale (its stats alone matched, and the readers served the old lines)."""
    compile_skill(skill)
    path = skill.source / "notes.txt"
    before = path.stat()
    if how == "rewritten":  # cp -p: written in place, its time set back
        path.write_text("PLAIN text notes\n", encoding="utf-8")
        os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    else:  # unzip, tar x: a new file renamed over the old one
        new = skill.source / "notes.new"
        new.write_text("PLAIN text notes\n", encoding="utf-8")
        os.utime(new, ns=(before.st_atime_ns, before.st_mtime_ns))
        new.replace(path)
    after = path.stat()
    assert (after.st_size, after.st_mtime_ns) == (before.st_size, before.st_mtime_ns)
    state = check_index(skill.runtime, skill.source, "ascii")
    assert (state.status, state.reason) == ("stale", "sources changed")


def test_touch_without_change_stays_fresh(skill: ResolvedSkill) -> None:
    compile_skill(skill)
    os.utime(skill.source / "notes.txt")  # new time, same content: hashed, still current
    assert index_is_fresh(skill.runtime, skill.source, "ascii")


@pytest.mark.parametrize("change", ["add", "remove"])
def test_added_or_removed_file_is_stale(skill: ResolvedSkill, change: str) -> None:
    compile_skill(skill)
    if change == "add":
        (skill.source / "new.md").write_text("# New\n", encoding="utf-8")
    else:
        (skill.source / "notes.txt").unlink()
    assert check_index(skill.runtime, skill.source, "ascii").status == "stale"


def test_tokenizer_change_is_stale(skill: ResolvedSkill) -> None:
    compile_skill(skill)
    state = check_index(skill.runtime, skill.source, "cjk")
    assert state.status == "stale"
    assert "tokenizer" in state.reason


@pytest.mark.parametrize(
    "tamper",
    [
        "garbage",
        "no-meta-table",
        "no-key",
        "bad-version",
        "no-sections",
        "bad-stats",
        "trigger",
        "view",
        "index",
    ],
)
def test_corrupt_index(skill: ResolvedSkill, tamper: str) -> None:
    compile_skill(skill)
    db = index_path(skill.runtime, skill.source)
    if tamper == "garbage":
        db.write_bytes(b"this is not a database")
    else:
        connection = sqlite3.connect(db)
        statement = {
            "no-meta-table": "DROP TABLE index_meta",
            "no-key": "DELETE FROM index_meta WHERE key = 'source_hash'",
            "bad-version": "UPDATE index_meta SET value = 'two' WHERE key = 'schema_version'",
            "no-sections": "DROP TABLE sections",
            "bad-stats": "UPDATE files SET size = 'big'",
            "trigger": "CREATE TRIGGER t AFTER DELETE ON files BEGIN SELECT 1; END",
            "view": "CREATE VIEW v AS SELECT * FROM headings",
            "index": "CREATE INDEX i ON files(size)",
        }[tamper]
        connection.execute(statement)
        connection.commit()
        connection.close()
    assert check_index(skill.runtime, skill.source, "ascii").status == "corrupt"
    with pytest.raises(IndexUnusable) as caught:
        require_index(skill, "ascii")
    assert caught.value.diagnostic.code == "E002"


def test_collision(skill: ResolvedSkill) -> None:
    compile_skill(skill)
    db = index_path(skill.runtime, skill.source)
    set_meta(db, "skill_path", "/somewhere/else")
    assert check_index(skill.runtime, skill.source, "ascii").status == "collision"
    with pytest.raises(IndexCollision) as caught:
        require_index(skill, "ascii")
    assert caught.value.diagnostic.code == "E003"
    assert hash16(skill.source) in str(caught.value)


def test_older_schema_is_stale(skill: ResolvedSkill) -> None:
    compile_skill(skill)
    set_meta(index_path(skill.runtime, skill.source), "schema_version", "1")
    assert check_index(skill.runtime, skill.source, "ascii").status == "stale"


@pytest.mark.parametrize(
    ("change", "status"),
    [
        ("CREATE TABLE newer_stuff (x)", "stale"),
        ("CREATE INDEX newer_i ON files (size)", "stale"),
        ("DROP TABLE files", "stale"),
        ("CREATE TRIGGER t AFTER DELETE ON files BEGIN SELECT 1; END", "corrupt"),
        ("CREATE VIEW v AS SELECT * FROM headings", "corrupt"),
    ],
    ids=["table", "index", "no-files-table", "trigger", "view"],
)
def test_a_newer_schema_is_newer_whatever_its_tables_but_a_trigger_or_view(
    skill: ResolvedSkill, change: str, status: str
) -> None:
    """An index a newer skillc wrote may add tables and indexes, or change this version's:
    it is newer (``newer_index``: never rebuilt by this code), not corrupt (rebuilt), as it
    was when an object this version does not make was checked before its schema version.
    A trigger or view is still refused first: it would run."""
    from skillc_index.index.freshness import newer_index
    from skillc_index.index.schema import SCHEMA_VERSION

    compile_skill(skill)
    db = index_path(skill.runtime, skill.source)
    connection = sqlite3.connect(db)
    with connection:
        connection.execute(change)
        connection.execute(
            "UPDATE index_meta SET value = ? WHERE key = 'schema_version'", (SCHEMA_VERSION + 1,)
        )
    connection.close()
    state = check_index(skill.runtime, skill.source, "ascii")
    assert state.status == status
    assert bool(newer_index(state.meta)) == (status == "stale")


def test_an_index_of_schema_6_is_stale_and_built_again(skill: ResolvedSkill) -> None:
    """A version 6 index (its ``files`` table without ``ino`` and ``ctime_ns``) is stale, not
    corrupt, and the readers build it again."""
    from skillc_index.index.cache import ensure_index

    compile_skill(skill)
    db = index_path(skill.runtime, skill.source)
    connection = sqlite3.connect(db)
    with connection:
        connection.execute("ALTER TABLE files DROP COLUMN ino")
        connection.execute("ALTER TABLE files DROP COLUMN ctime_ns")
        connection.execute("UPDATE index_meta SET value = '6' WHERE key = 'schema_version'")
    connection.close()
    state = check_index(skill.runtime, skill.source, "ascii")
    assert (state.status, state.reason) == ("stale", "schema version 6, expected 16")
    assert ensure_index(skill, "ascii").meta.schema_version == 16
    assert check_index(skill.runtime, skill.source, "ascii").status == "current"


def test_paths_with_uri_characters(tmp_path: Path, home: Path, write_skill: WriteSkill) -> None:
    """The index is opened through a SQLite URI: ``%``, ``?``, ``#`` and spaces in the path
    must not break reading it (a misread index would be rebuilt on every build)."""
    project = tmp_path / "odd dir #1 %20 ?x"
    write_skill(project / ".skillc" / "skills" / "demo")
    layout = Layout.discover(project, {"SKILLC_HOME": str(home)})
    skill = resolve_skill("demo", layout)
    compile_skill(skill)
    assert check_index(skill.runtime, skill.source, "ascii").status == "current"
    assert compile_skill(skill).up_to_date


# -- headings: cached for small indexes, scanned for large ones ---------------------------------


@pytest.mark.parametrize("cache_max", [20_000, 2])
def test_find_headings_with_and_without_the_cache(
    skill: ResolvedSkill, monkeypatch: pytest.MonkeyPatch, cache_max: int
) -> None:
    from skillc_index import find_headings, read_headings
    from skillc_index.index import queries

    monkeypatch.setattr(queries, "HEADINGS_CACHE_MAX", cache_max)
    (skill.source / "more.md").write_text("# USAGE\n\n## Straße\n\n## other\n", encoding="utf-8")
    age(skill.source)
    age(compile_skill(skill).index.path.parent)  # an index this old is cached (RACY_WINDOW_NS)
    for _ in range(2):  # the second handle has what the first one's reads kept (or the verdict)
        index = require_index(skill, "ascii")
        found = find_headings(index, "usage")
        assert [(h.file, h.text, h.start_line) for h in found] == [
            ("SKILL.md", "Usage", 8),
            ("more.md", "USAGE", 1),
        ]
        assert [h.text for h in find_headings(index, "STRASSE")] == ["Straße"]
        assert find_headings(index, "usage", "more.md")[0].end_line == 6
        assert find_headings(index, "nothing") == []
    assert [h.text for h in read_headings(index, "more.md")] == ["USAGE", "Straße", "other"]
    assert require_index(skill, "ascii").snapshot is index.snapshot  # one cache entry
    assert index.snapshot.headings_read
    assert (index.snapshot.headings is None) == (cache_max == 2)


@pytest.mark.parametrize("cache_max", [20_000, 2])
def test_a_heading_with_the_query_s_accents_wins_over_one_without(
    skill: ResolvedSkill, monkeypatch: pytest.MonkeyPatch, cache_max: int
) -> None:
    """``Résumé`` found ``## Resume`` and ``## Résumé`` both once ``show`` ignored accents (two
    matches, the first served with W001): the headings with the query's accents win, the
    others only answer a query none has (``ΕΛΛΗΝΙΚΑ``, ``cafe``). SQLite's lookup (the first),
    the snapshot's (the next), a large index's (always SQLite's), in one file as in all."""
    from skillc_index import find_headings
    from skillc_index.index import queries

    monkeypatch.setattr(queries, "HEADINGS_CACHE_MAX", cache_max)
    text = "# Notes\n\n## Resume\n\n## Résumé\n\n## Ελληνικά\n\n## Café\n"
    (skill.source / "more.md").write_text(text, encoding="utf-8")
    (skill.source / "only.md").write_text("# Resume\n", encoding="utf-8")
    age(skill.source)
    age(compile_skill(skill).index.path.parent)
    index = require_index(skill, "ascii")
    cases = {
        "Résumé": [("more.md", "Résumé")],
        "résumé": [("more.md", "Résumé")],
        "RÉSUMÉ": [("more.md", "Résumé")],
        "Re\u0301sume\u0301": [("more.md", "Résumé")],  # decomposed, as a Mac may type it
        "Resume": [("more.md", "Resume"), ("only.md", "Resume")],
        "RESUME": [("more.md", "Resume"), ("only.md", "Resume")],
        "ΕΛΛΗΝΙΚΑ": [("more.md", "Ελληνικά")],
        "cafe": [("more.md", "Café")],
    }
    for _ in range(2):
        for query, expected in cases.items():
            assert [(h.file, h.text) for h in find_headings(index, query)] == expected, query
        # in one file: the accents of another file's heading take nothing from this one's
        assert [h.text for h in find_headings(index, "Résumé", "only.md")] == ["Resume"]
    assert index.snapshot.headings_read


@pytest.mark.parametrize("cache_max", [20_000, 2])
def test_the_heading_as_written_wins_over_its_folded_twin(
    skill: ResolvedSkill, monkeypatch: pytest.MonkeyPatch, cache_max: int
) -> None:
    """The fold writes ``ß`` as ``ss`` and drops U+FE0F, and the accents' key is built on it:
    beside ``## Masse`` no query reached ``## Maße`` without ``--nth``, and ``⚠️ Warnung``
    (U+FE0F) served ``## ⚠ Warnung`` with W001 (s49 unifollow). The heading as written
    (case and composition aside) wins; the fold still answers a query none is
    (``MASSE`` finds ``## Masse``, ``strasse`` the one ``## Straße``)."""
    from skillc_index import find_headings
    from skillc_index.index import queries

    monkeypatch.setattr(queries, "HEADINGS_CACHE_MAX", cache_max)
    text = "# Units\n\n## Masse\n\n## Maße\n\n## \u26a0 Warnung\n\n## \u26a0\ufe0f Warnung\n"
    text += "\n## Straße\n"
    (skill.source / "de.md").write_text(text, encoding="utf-8")
    age(skill.source)
    age(compile_skill(skill).index.path.parent)
    index = require_index(skill, "ascii")
    cases = {
        "Maße": ["Maße"],
        "MAẞE": ["Maße"],  # the capital sharp s
        "maße": ["Maße"],
        "Masse": ["Masse"],
        "MASSE": ["Masse"],
        "\u26a0\ufe0f Warnung": ["\u26a0\ufe0f Warnung"],
        "\u26a0 warnung": ["\u26a0 Warnung"],
        "strasse": ["Straße"],
    }
    for _ in range(2):
        for query, expected in cases.items():
            assert [h.text for h in find_headings(index, query)] == expected, query
    assert index.snapshot.headings_read


def test_the_matcher_prefers_the_query_s_accents_in_each_of_its_lookups() -> None:
    """:class:`HeadingMatcher` (``stats``, the stub's commands, ``show --hidden``) chooses as
    ``find_headings`` does, by the exact text and by the text on one line alike."""
    from skillc_index import IndexedHeading
    from skillc_index.index.queries import HeadingMatcher

    matcher = HeadingMatcher(
        IndexedHeading("a.md", text, 2, line, line + 1)
        for line, text in enumerate(["Resume", "Résumé", "Resume\tnotes", "Résumé\tnotes"], 1)
    )
    assert [h.text for h in matcher.matches("RÉSUMÉ")] == ["Résumé"]
    assert [h.text for h in matcher.matches("resume")] == ["Resume"]
    assert [h.text for h in matcher.matches("Résumé notes")] == ["Résumé\tnotes"]
    assert [h.text for h in matcher.matches("## resume notes")] == ["Resume\tnotes"]
    assert [h.text for h in matcher.matches("résumé", "b.md")] == []
    twins = HeadingMatcher(
        IndexedHeading("a.md", text, 2, line, line + 1)
        for line, text in enumerate(["Masse", "Maße", "\u26a0 Warnung", "\u26a0\ufe0f Warnung"], 1)
    )  # the stub's commands: Maße needs no --nth (s49 unifollow)
    assert [h.text for h in twins.matches("Maße")] == ["Maße"]
    assert [h.text for h in twins.matches("\u26a0\ufe0f warnung")] == ["\u26a0\ufe0f Warnung"]


def test_one_lookup_reads_only_its_matches(skill: ResolvedSkill) -> None:
    """A process that looks up one heading (``skc show``) has SQLite find it; the headings
    are read into the snapshot when a second lookup comes (issue 32: reading the 800
    headings of a large skill cost a command line ``show`` four times the lookup)."""
    from skillc_index import find_headings

    (skill.source / "more.md").write_text("# USAGE\n\n## Straße\n", encoding="utf-8")
    age(skill.source)
    age(compile_skill(skill).index.path.parent)
    index = require_index(skill, "ascii")
    assert [h.text for h in find_headings(index, "strasse")] == ["Straße"]
    assert not index.snapshot.headings_read
    assert [h.file for h in find_headings(index, "usage")] == ["SKILL.md", "more.md"]
    assert index.snapshot.headings_read


@pytest.mark.parametrize(
    "query",
    ["usage", "USAGE", "strasse", "STRASSE", "straße", "été", "ÉTÉ", "ete", "k", "k-1", "x"],
)
def test_the_first_lookup_finds_what_the_cache_finds(skill: ResolvedSkill, query: str) -> None:
    """SQLite's answer to a first lookup (each heading folded by ``heading_key``, in a
    function the query calls) is the cached lookup's: Unicode case folding, accents out,
    either way."""
    from skillc_index.index import queries

    (skill.source / "more.md").write_text(
        "# USAGE\n\n## Straße\n\n## ÉTÉ\n\n## \u212a\n\n## K-1\n\n## usage\n",
        encoding="utf-8",
    )
    age(skill.source)
    age(compile_skill(skill).index.path.parent)
    index = require_index(skill, "ascii")
    fold = queries.heading_key(query)
    by_fold = queries._headings_by_fold(index)
    assert by_fold is not None
    cached = by_fold.get(fold, [])
    assert queries._matching_rows(index, fold) == cached
    assert cached or query == "x"


def test_a_new_index_file_is_read_again(skill: ResolvedSkill) -> None:
    """The cache holds an index file while it is the same file: a rebuild (a new file renamed
    over it) is read afresh, headings included."""
    from skillc_index import find_headings

    age(skill.source)
    age(compile_skill(skill).index.path.parent)
    first = require_index(skill, "ascii")
    assert [h.text for h in find_headings(first, "usage")] == ["Usage"]
    (skill.source / "SKILL.md").write_text(
        (skill.source / "SKILL.md").read_text(encoding="utf-8").replace("Usage", "Use"),
        encoding="utf-8",
    )
    age(skill.source)
    compile_skill(skill)
    second = require_index(skill, "ascii")
    assert second.snapshot is not first.snapshot
    assert find_headings(second, "usage") == []
    assert [h.text for h in find_headings(second, "use")] == ["Use"]


# -- the handle: what the check proved about the sources ----------------------------------------


def file_stat(path: Path, rel: str) -> FileStat:
    from skillc_index.index.schema import file_stat

    return file_stat(rel, path.stat())


def test_the_handle_describes_the_files_the_check_proved(skill: ResolvedSkill) -> None:
    compile_skill(skill)
    notes = skill.source / "notes.txt"
    index = require_index(skill, "ascii")
    assert index.describes(file_stat(notes, "notes.txt"))  # as recorded
    assert index.verified == index.files
    notes.write_text("changed after the check\n", encoding="utf-8")
    assert not index.describes(file_stat(notes, "notes.txt"))
    assert not index.describes(FileStat("missing.md", 1, 1, 1, 1))


def test_the_handle_describes_touched_files_once_hashed(skill: ResolvedSkill) -> None:
    """Touched (new time, same content) long enough before the check: the check hashed the
    sources, and the stats it saw before doing so describe the indexed file."""
    from skillc_index.index.schema import RACY_WINDOW_NS

    compile_skill(skill)
    notes = skill.source / "notes.txt"
    past = time.time() - 5
    os.utime(notes, (past, past))
    time.sleep(RACY_WINDOW_NS / 1e9)  # its change time is now: let it age past the window
    index = require_index(skill, "ascii")
    assert index.files["notes.txt"] != file_stat(notes, "notes.txt")
    assert index.describes(file_stat(notes, "notes.txt"))
    os.utime(notes)  # touched now, after the check: not described, whatever the content
    assert not index.describes(file_stat(notes, "notes.txt"))


def test_the_handle_reads_only_the_index_it_checked(skill: ResolvedSkill) -> None:
    """Built again after the check (another reader, another build): a read through the
    handle is E002 (the retry's cue), never the rows of the other sources at the path."""
    from skillc_index import find_headings
    from skillc_index.index.freshness import read_digests

    compile_skill(skill)
    index = require_index(skill, "ascii")
    assert find_headings(index, "usage") and read_digests(index)
    skill_md = skill.source / "SKILL.md"
    skill_md.write_text(skill_md.read_text("utf-8").replace("Usage", "Use"), "utf-8")
    age(skill.source)
    compile_skill(skill)
    with pytest.raises(IndexUnusable, match="built again since it was checked"):
        find_headings(index, "usage")
    with pytest.raises(ValueError, match="built again since it was checked"):
        read_digests(index)
    assert read_digests(index.path)  # by its path: whatever index is there now


@pytest.mark.parametrize("ahead", ["mtime", "clock set back", "past 2262"])
@pytest.mark.parametrize("reader", [False, True])
def test_a_file_dated_in_the_future_is_not_waited_for_but_hashed(
    skill: ResolvedSkill, monkeypatch: pytest.MonkeyPatch, ahead: str, reader: bool
) -> None:
    """A source dated an hour ahead (unpacked from a machine whose clock is ahead; or, once
    the clock is set back, every file's change time): the build, and a reader's index made
    on demand, slept until that date. They wait :data:`RACY_WINDOW_NS` at most; the file
    stays too recent to trust, so an edit keeping its size and times is still seen. One dated
    past SQLite's INTEGER (2300, ``touch -d``) failed with E999 OverflowError: its time is
    recorded at the bound, in the future as well."""
    from skillc_index import find_headings
    from skillc_index.index.cache import ensure_index
    from skillc_index.index.schema import RACY_WINDOW_NS

    slept: list[float] = []
    monkeypatch.setattr(time, "sleep", slept.append)
    skill_md = skill.source / "SKILL.md"
    if ahead == "mtime":
        later = time.time() + 3600
        os.utime(skill_md, (later, later))
    elif ahead == "past 2262":
        os.utime(skill_md, ns=(10_413_792_000 * 10**9,) * 2)  # 2300-01-01
    else:
        real = time.time_ns
        monkeypatch.setattr(time, "time_ns", lambda: real() - 3600 * 10**9)
    if reader:
        ensure_index(skill, "ascii")
    else:
        compile_skill(skill)
    assert max(slept, default=0) <= RACY_WINDOW_NS / 1e9
    times = skill_md.stat()
    skill_md.write_text(skill_md.read_text("utf-8").replace("Usage", "Usagf"), "utf-8")
    os.utime(skill_md, ns=(times.st_atime_ns, times.st_mtime_ns))
    assert [h.text for h in find_headings(ensure_index(skill, "ascii"), "usagf")] == ["Usagf"]


def test_inode_numbers_past_sqlites_integer_are_stored_and_tell_files_apart(
    skill: ResolvedSkill, replace_os: Callable[[str, Callable[..., Any]], None]
) -> None:
    """Some FUSE file systems give inode numbers of 2**63 or more, which an SQLite INTEGER
    (signed 64-bit) cannot hold: the build failed with E999 OverflowError, as a file dated
    past 2262 did. Such a number is stored as the signed integer of its 64 bits, one to one
    (not clamped, which would make every such file the same inode): the index is fresh by
    its stats, and a file replaced by one of the same size and modification time is looked
    at again. Near miss: an inode below 2**63 is stored as it is."""
    from skillc_index import find_headings
    from skillc_index.index.cache import ensure_index

    real_stat = os.stat
    inodes: dict[int, int] = {}  # the fake inode of each real one, under the skill only
    source = str(skill.source)

    def fuse_stat(path: object, *args: object, **kwargs: object) -> os.stat_result:
        st = real_stat(path, *args, **kwargs)  # type: ignore[arg-type]
        if not os.fspath(path).startswith(source):  # type: ignore[call-overload]
            return st
        fields = list(st)
        fields[1] = inodes.setdefault(st.st_ino, 2**64 - 1 - len(inodes))
        extra = {
            name: getattr(st, name)
            for name in dir(st)
            if name.startswith("st_") and name not in os.stat_result.__match_args__
        }
        return os.stat_result(fields, extra)

    replace_os("stat", fuse_stat)  # Path.stat's too (Python 3.10's holds its own)
    skill_md = skill.source / "SKILL.md"
    assert skill_md.stat().st_ino >= 2**63
    compile_skill(skill)
    index = require_index(skill, "ascii")
    recorded = rows(index.path, "SELECT ino FROM files WHERE path = 'SKILL.md'")[0][0]
    assert recorded == skill_md.stat().st_ino - 2**64
    assert rows(index.path, "SELECT COUNT(DISTINCT ino), COUNT(*) FROM files") == [(2, 2)]
    assert index.describes(file_stat(skill_md, "SKILL.md"))
    times = real_stat(skill_md)
    replaced = skill.source / "SKILL.new"
    replaced.write_text(skill_md.read_text("utf-8").replace("Usage", "Usagf"), "utf-8")
    os.utime(replaced, ns=(times.st_atime_ns, times.st_mtime_ns))
    replaced.replace(skill_md)  # same size and times, another (fake) inode
    assert not index.describes(file_stat(skill_md, "SKILL.md"))
    assert [h.text for h in find_headings(ensure_index(skill, "ascii"), "usagf")] == ["Usagf"]
    assert file_stat(skill.source / "notes.txt", "notes.txt").ino < 0
    replace_os("stat", real_stat)
    assert file_stat(skill_md, "SKILL.md").ino == real_stat(skill_md).st_ino


def test_files_touched_just_before_the_check_are_not_described(skill: ResolvedSkill) -> None:
    """A file changed within the timestamp granularity of the check could change again
    without its stats showing it: its stats describe nothing."""
    compile_skill(skill)
    notes = skill.source / "notes.txt"
    os.utime(notes)
    index = require_index(skill, "ascii")  # hashed: current
    assert not index.describes(file_stat(notes, "notes.txt"))
    assert index.describes(file_stat(skill.source / "SKILL.md", "SKILL.md"))


# -- search: snippets of long sections, repeated words ------------------------------------------


def test_long_sections_get_a_snippet_from_the_window_holding_the_words(
    skill: ResolvedSkill,
) -> None:
    from skillc_index import fts_query, search_sections
    from skillc_index.index.queries import SNIPPET_WINDOW

    filler = "lorem ipsum dolor sit amet\n" * (3 * SNIPPET_WINDOW // 27)
    body = f"# Long\n\n{filler}first rare marker\n\n{filler}second rare marker zebra\n"
    (skill.source / "long.md").write_text(body, encoding="utf-8")
    age(skill.source)
    compile_skill(skill)
    index = require_index(skill, "ascii")

    def snippet(query: str) -> str:
        (hit,) = search_sections(index, fts_query(query, "porter"), 10)
        return hit.snippet

    assert "[MATCH]zebra[/MATCH]" in snippet("zebra")
    both = snippet("marker zebra")  # the window holding both words, not the first marker
    assert both.startswith("...") and "[MATCH]zebra[/MATCH]" in both
    assert "[MATCH]marker[/MATCH]" in both
    assert snippet("Zebra zebra! (zebra) ZEBRA") == snippet("zebra")


def test_long_sections_go_through_the_window(
    skill: ResolvedSkill, monkeypatch: pytest.MonkeyPatch
) -> None:
    from skillc_index import fts_query, search_sections
    from skillc_index.index import queries

    calls: list[int] = []
    original = queries.written_snippet

    def spy(content: str, *rest: Any) -> str:
        calls.append(len(content))
        return original(content, *rest)

    monkeypatch.setattr(queries, "written_snippet", spy)
    monkeypatch.setattr(queries, "SNIPPET_WINDOW", 17)
    age(skill.source)
    compile_skill(skill)
    index = require_index(skill, "ascii")
    (hit,) = search_sections(index, fts_query("plain", "porter"), 10)
    assert calls == [] and "[MATCH]plain[/MATCH]" in hit.snippet  # 17 characters: FTS5's own
    hits = search_sections(index, fts_query("Run", "porter"), 10)
    assert len(calls) == len(hits) and min(calls) > 17  # the SKILL.md sections are longer
    assert all("[MATCH]Run[/MATCH]" in hit.snippet for hit in hits)


def test_a_hit_names_its_file_as_it_is_on_disk(skill: ResolvedSkill) -> None:
    """``search`` named each hit's file in the index's folded spelling (composed, its accents
    apart, composed again): ``références/résumé.md`` written decomposed (as macOS writes it)
    came back composed, a name no file has, and ``é.md`` in NFD as its NFC twin, another file
    (the one outline and sources name apart). The name on disk is stored beside the folded one
    (schema 13) and reported; matching stays folded (either spelling of a word finds both).
    The installed ``skc search`` of the same: skillc's ``test_across_packages.py``."""
    from unicodedata import normalize

    from skillc_index import fts_query, search_sections

    nfc, nfd = "\u00e9.md", "e\u0301.md"
    (skill.source / nfc).write_text("# One\n\nnfc okapi\n", encoding="utf-8")
    (skill.source / nfd).write_text("# Two\n\nnfd okapi\n", encoding="utf-8")
    folder = normalize("NFD", "références")
    (skill.source / folder).mkdir()
    (skill.source / folder / nfd).write_text("# Résumé\n\nzebra\n", encoding="utf-8")
    age(skill.source)
    compile_skill(skill)
    index = require_index(skill, "ascii")
    hits = search_sections(index, fts_query("okapi", "porter"), 10)
    assert sorted((hit.file, hit.snippet.split()[2]) for hit in hits) == [
        (nfd, "nfd"),
        (nfc, "nfc"),
    ]
    for word in ("zebra", "r\u00e9sum\u00e9", "resume"):
        (hit,) = search_sections(index, fts_query(word, "porter"), 10)
        assert hit.file == f"{folder}/{nfd}"


def test_rows_the_folding_changed_keep_their_text_as_written(skill: ResolvedSkill) -> None:
    """The index matches folded text (Arabic without its harakat) and ``originals`` keeps,
    of each row the folding changed, the columns it changed as written: ``search`` shows
    them. Rows replaced on demand (one file changed) take their originals with them."""
    from skillc_index import ensure_index, fts_query, search_sections

    (skill.source / "ar.md").write_text("# تَرْجَمَةُ\n\nنَصٌّ قَصِيرٌ.\n", encoding="utf-8")
    age(skill.source)
    db = compile_skill(skill).index.path
    assert rows(db, "SELECT section, content FROM originals") == [
        ("تَرْجَمَةُ", "# تَرْجَمَةُ\n\nنَصٌّ قَصِيرٌ.\n")  # the ASCII rows have none
    ]
    index = require_index(skill, "ascii")
    (hit,) = search_sections(index, fts_query("ترجمة", "porter"), 10)
    assert (hit.file, hit.section) == ("ar.md", "تَرْجَمَةُ")
    assert hit.snippet == "# [MATCH]تَرْجَمَةُ[/MATCH]\n\nنَصٌّ قَصِيرٌ.\n"
    (skill.source / "ar.md").write_text("# Translation\n\nShort text.\n", encoding="utf-8")
    age(skill.source)
    index = ensure_index(skill, "ascii")  # one file of three changed: its rows replaced
    assert rows(index.path, "SELECT * FROM originals") == []
    (hit,) = search_sections(index, fts_query("translation", "porter"), 10)
    assert (hit.section, hit.snippet) == (
        "Translation",
        "# [MATCH]Translation[/MATCH]\n\nShort text.\n",
    )


def test_a_long_section_not_in_ascii_gets_its_snippet_as_written(skill: ResolvedSkill) -> None:
    from skillc_index import fts_query, search_sections
    from skillc_index.index.queries import SNIPPET_WINDOW

    filler = "نَصٌّ عَرَبِيٌّ طَوِيلٌ جِدًّا\n" * (3 * SNIPPET_WINDOW // 30)
    body = f"# Long\n\n{filler}الكَلِمَةُ النَّادِرَةُ\n\n{filler}"
    (skill.source / "long.md").write_text(body, encoding="utf-8")
    age(skill.source)
    compile_skill(skill)
    (hit,) = search_sections(require_index(skill, "ascii"), fts_query("النادرة", "porter"), 10)
    assert hit.snippet.startswith("...") and hit.snippet.endswith("...")
    assert "الكَلِمَةُ [MATCH]النَّادِرَةُ[/MATCH]" in hit.snippet


@pytest.mark.parametrize(
    ("tokenize", "kept"),
    [
        ("porter unicode61", ['"Zebra"', '"other"']),  # porter: zebras is zebra
        ("unicode61", ['"Zebra"', '"zebras"', '"other"']),
    ],
)
def test_phrases_giving_the_same_tokens_are_asked_once(tokenize: str, kept: list[str]) -> None:
    from skillc_index.index.queries import _distinct_phrases

    phrases = ['"Zebra"', '"zebra!"', '"(ZEBRA)"', '"zebras"', '"other"', '"..zebra,"']
    assert _distinct_phrases(phrases, tokenize) == kept
    assert _distinct_phrases(['"a b"', '"b a"', '"a-b"'], tokenize) == ['"a b"', '"b a"']


def test_section_queries_try_the_whole_text_then_before_the_em_dash() -> None:
    from skillc_index import normalized_query
    from skillc_index.index.queries import section_queries

    assert section_queries("  ## Usage ") == ["Usage", "## Usage"]  # as typed last
    assert section_queries("Step 1 — Checks") == ["Step 1 — Checks", "Step 1"]
    assert section_queries("A — B — c") == ["A — B — c", "A — B", "A"]
    assert section_queries("Pre—post") == ["Pre—post"]  # no spaces around it: kept
    assert normalized_query("  ## Usage ") == "Usage"
    assert normalized_query("## Step 1 — Checks") == "Step 1"


# -- what outline and the stub read of an index ---------------------------------------------


def test_fresh_index_is_the_handle_or_none(skill: ResolvedSkill) -> None:
    from skillc_index import fresh_index

    assert fresh_index(skill) is None  # missing
    compile_skill(skill, tokenizer_setting="cjk")
    handle = fresh_index(skill)  # any tokenizer
    assert handle is not None and handle.meta.tokenizer == "cjk"
    assert fresh_index(skill, "ascii") is None  # another tokenizer asked for
    assert fresh_index(skill, "cjk") is not None
    (skill.source / "SKILL.md").write_text(
        "---\nname: demo\ndescription: Changed.\n---\n", encoding="utf-8"
    )
    assert fresh_index(skill) is None  # stale
    compile_skill(skill)
    set_meta(index_path(skill.runtime, skill.source), "skill_path", "/somewhere/else")
    assert fresh_index(skill) is None  # collision


def test_read_outline_gives_headings_in_build_order_and_the_limited_files(
    layout: Layout, project: Path, write_skill: WriteSkill
) -> None:
    from skillc_index import read_outline

    folder = write_skill(project / ".skillc" / "skills" / "demo", body="## Usage\n")
    (folder / "b").mkdir()
    (folder / "b" / "x.md").write_text("# X\n", encoding="utf-8")
    (folder / "b-c.md").write_text("# BC\n", encoding="utf-8")  # '-' sorts before '/'
    (folder / "big.md").write_text("# Big\n" + "x\n" * 20_005 + "# Lost\n", encoding="utf-8")
    skill = resolve_skill("demo", layout)
    compile_skill(skill)
    found = read_outline(require_index(skill, "ascii"))
    assert [(h.file, h.text) for h in found.headings] == [
        ("SKILL.md", "demo"),
        ("SKILL.md", "Usage"),
        ("b-c.md", "BC"),
        ("b/x.md", "X"),
        ("big.md", "Big"),
    ]
    assert found.parse_limited == [("big.md", 20_000)]


STUB_PROBE = """
import json, sys
from skillc_index import Layout, resolve_skill
from skillc_index.build.compiler import compile_skill
layout = Layout.discover(sys.argv[1], {"SKILLC_HOME": sys.argv[2]})
result = compile_skill(resolve_skill("demo", layout))
print(json.dumps({
    "stub": result.stub.read_text(encoding="utf-8"),
    "notices": [n.text for n in result.notices],
    "index": result.index.action,
    "markdown_it": "markdown_it" in sys.modules,
}))
"""


def test_an_up_to_date_index_gives_the_stub_without_parsing(
    layout: Layout, project: Path, home: Path, write_skill: WriteSkill
) -> None:
    """When only the stub is rewritten (the index is current), what it lists comes from the
    index: the same stub and warnings as a build that parses, and markdown-it never loads."""
    import subprocess
    import sys

    body = "## Usage\n\n### Deep\n" + "x\n" * 20_005 + "## Lost\n"
    folder = write_skill(project / ".skillc" / "skills" / "demo", body=body)
    refs = folder / "references"
    refs.mkdir()
    (refs / "api.md").write_text(
        # the HTML block makes the headings scanner load markdown-it (its table of HTML block
        # kinds): a build that parses loads it
        "---\ndescription: >\n  The API,\n  folded.\n---\n\n## Intro\n\n# API\n\n# Second\n"
        "\n<div>html</div>\n",
        encoding="utf-8",
    )
    (refs / "untitled.md").write_text("## Only a subsection\n", encoding="utf-8")
    (refs / "big.md").write_text("# Big\n" + "x\n" * 30_000, encoding="utf-8")
    (refs / "notes.txt").write_text("# not a heading\n", encoding="utf-8")
    age(folder)

    def build() -> dict[str, object]:
        run = subprocess.run(
            [sys.executable, "-c", STUB_PROBE, str(project), str(home)],
            capture_output=True,
            text=True,
            timeout=120,
            check=True,
        )
        result: dict[str, object] = json.loads(run.stdout)
        return result

    first = build()
    assert first["index"] == "created" and first["markdown_it"]
    assert len(first["notices"]) == 2  # type: ignore[arg-type]
    assert "API" in str(first["stub"]) and "The API, folded." in str(first["stub"])
    stub = resolve_skill("demo", layout).runtime / "SKILL.md"
    stub.unlink()
    again = build()
    assert again == {**first, "index": "up-to-date", "markdown_it": False}
    assert stub.read_text(encoding="utf-8") == first["stub"]


def test_a_stub_rewritten_over_an_unreadable_index_parses(
    layout: Layout, project: Path, write_skill: WriteSkill
) -> None:
    """The index passes the check but what the stub needs cannot be read from it (and no
    manifest records the index file, so it is kept): the stub is made from the sources."""
    from skillc_index import manifest_path

    folder = write_skill(project / ".skillc" / "skills" / "demo", body="## Usage\n")
    age(folder)
    skill = resolve_skill("demo", layout)
    first = compile_skill(skill)
    stub = first.stub.read_text(encoding="utf-8")
    connection = sqlite3.connect(index_path(skill.runtime, skill.source))
    connection.execute("ALTER TABLE files DROP COLUMN parsed_lines")
    connection.commit()
    connection.close()
    first.stub.unlink()
    manifest_path(skill.runtime).unlink()
    again = compile_skill(skill)
    assert again.index.action == "up-to-date"  # kept: only the stub and manifest were made
    assert again.stub.read_text(encoding="utf-8") == stub and "Usage" in stub


def test_indexes_in_memory_are_kept_for_the_skills_read_last(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The long-lived MCP server in a read-only sandbox kept every skill's index in memory,
    for ever. At most ``KEPT_MAX`` are kept: the one read longest ago is let go (its holder
    closed: the database is gone once its last reader is), and built again when read."""
    import sqlite3

    from skillc_index.index import memory

    monkeypatch.setattr(memory, "_kept", memory.OrderedDict())
    monkeypatch.setattr(memory, "KEPT_MAX", 3)

    def fill(connection: sqlite3.Connection) -> None:
        connection.execute("CREATE TABLE t (x)")
        connection.execute("INSERT INTO t VALUES (1)")

    paths = [tmp_path / f"s{n}" / "index.db" for n in range(5)]
    for path in paths[:3]:
        memory.keep(path, fill, "why")
    holders = {path: memory._kept[path][1] for path in paths[:3]}
    reader = memory.connect(paths[0], 0)  # read last: s1 is now the one read longest ago
    memory.keep(paths[3], fill, "why")
    assert [memory.number(path) is None for path in paths[:4]] == [False, True, False, False]
    with pytest.raises(sqlite3.ProgrammingError):  # its holder closed
        holders[paths[1]].execute("SELECT 1")
    with pytest.raises(sqlite3.OperationalError):
        memory.connect(paths[1], 0)
    memory.connect(paths[2], 0).close()
    memory.keep(paths[4], fill, "why")  # s0 goes now: its reader still open reads on
    assert memory.number(paths[0]) is None and len(memory._kept) == 3
    assert reader.execute("SELECT x FROM t").fetchall() == [(1,)]
    reader.close()
    _let_go_of_the_indexes_in_memory()


def _let_go_of_the_indexes_in_memory() -> None:
    """The holders of the indexes kept in memory (``memory._kept``) closed, as a process's
    end does: a test that gives the module a ``_kept`` of its own drops it with the test,
    and Python 3.13 warns of a connection the collector closes (an error here)."""
    from skillc_index.index import memory

    while memory._kept:
        memory._kept.popitem()[1][1].close()


def test_an_index_the_runtime_cannot_take_leaves_nothing_made_for_it_there(
    skill: ResolvedSkill, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A full disk (the index's write fails, ENOSPC; the lock file, empty, could be made):
    a read of a skill never built got its index from the private runtime, and left
    ``.skillc/runtime/demo/.skillc-meta/search-<hash16>.lock`` and the folders made for it.
    What the read made there goes, nothing else: a lock file and folders there before stay."""
    import errno

    from skillc_index import find_headings
    from skillc_index.index import cache, writer
    from skillc_index.index.cache import ensure_index

    real = writer.write_index
    runtime = project / ".skillc" / "runtime"

    def full(path: Path, **kwargs: Any) -> None:
        if runtime in path.parents:
            raise OSError(errno.ENOSPC, "No space left on device", str(path))
        real(path, **kwargs)

    monkeypatch.setattr(writer, "write_index", full)
    monkeypatch.setattr(cache, "_private", None)  # this process's, as a new one's
    assert [h.text for h in find_headings(ensure_index(skill, "ascii"), "usage")] == ["Usage"]
    assert not runtime.exists()
    lock = runtime / "demo" / ".skillc-meta" / f"search-{hash16(skill.source)}.lock"
    lock.parent.mkdir(parents=True)
    lock.write_bytes(b"")  # made before: not this read's to remove
    monkeypatch.setattr(cache, "_private", None)
    assert [h.text for h in find_headings(ensure_index(skill, "ascii"), "usage")] == ["Usage"]
    assert sorted(runtime.rglob("*")) == [lock.parent.parent, lock.parent, lock]


def test_a_lock_file_removed_by_its_maker_is_never_held_twice(
    skill: ResolvedSkill, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A full disk: reader A made the lock file and removes it (its index went to the private
    runtime) while reader B waits on it, and reader C comes after. B got the lock on the
    removed file while C made and locked a new one: both built at once. B now opens the path
    again and C waits for it: one build at a time in the runtime, and no lock file left.
    The folders may stay, empty: when C makes its lock file in them between B's removal of
    its own and of the folders B made, they are no longer empty for B, and C did not make
    them (a run removes only what it made; CI met that order once under load)."""
    import errno
    import threading

    from skillc_index import find_headings
    from skillc_index.index import cache, writer
    from skillc_index.index.cache import ensure_index

    real = writer.write_index
    runtime = project / ".skillc" / "runtime"
    a_in, a_go, c_in = threading.Event(), threading.Event(), threading.Event()
    inside: list[str] = []
    most = [0]
    guard = threading.Lock()

    def full(path: Path, **kwargs: Any) -> None:
        if runtime not in path.parents:
            return real(path, **kwargs)
        me = threading.current_thread().name
        with guard:
            inside.append(me)
            most[0] = max(most[0], len(inside))
        try:
            if me == "A":
                a_in.set()
                a_go.wait(10)
            elif me == "B":
                c_in.wait(1.5)  # C comes in now if it can
            else:
                c_in.set()
                time.sleep(0.5)  # and B, if it can
        finally:
            with guard:
                inside.remove(me)
        raise OSError(errno.ENOSPC, "No space left on device", str(path))

    monkeypatch.setattr(writer, "write_index", full)
    monkeypatch.setattr(cache, "_private", None)
    found: dict[str, object] = {}

    def read(name: str) -> threading.Thread:
        def run() -> None:
            found[name] = [h.text for h in find_headings(ensure_index(skill, "ascii"), "usage")]

        thread = threading.Thread(target=run, name=name)
        thread.start()
        return thread

    a = read("A")
    assert a_in.wait(10)
    b = read("B")
    time.sleep(0.3)  # B waits on A's lock file
    a_go.set()
    a.join(10)
    monkeypatch.setattr(cache, "_private", None)  # C another process: none built in private
    c = read("C")
    for thread in (b, c):
        thread.join(20)
    assert found == {"A": ["Usage"], "B": ["Usage"], "C": ["Usage"]}
    assert most[0] == 1  # never two builds in the runtime at once
    left = [p for p in runtime.rglob("*") if not p.is_dir()] if runtime.exists() else []
    assert left == []  # each lock file made there went again


def test_with_no_folder_to_write_in_the_index_is_kept_in_memory(
    skill: ResolvedSkill,
    project: Path,
    monkeypatch: pytest.MonkeyPatch,
    forbid_changes: Callable[[Path], Callable[[], object]],
) -> None:
    """Everything read-only (Codex's read-only mode): the skill's runtime cannot be made, nor
    a temporary directory (``tempfile.mkdtemp``: "No usable temporary directory"). Reading
    a skill was E002 ``cannot write its index`` for ``show`` and ``search``; the index is
    built in this process's memory (SQLite's memdb), checked as a file is (an edit builds it
    again), and its readers warn once a process, saying what to do."""
    import errno
    import sys
    import tempfile

    import skillc_index.index
    from skillc_index import find_headings, search_sections
    from skillc_index.index import cache
    from skillc_index.index.cache import ensure_index

    def no_temporary_directory(*_args: object, **_kwargs: object) -> str:
        raise FileNotFoundError(errno.ENOENT, "No usable temporary directory found in [...]")

    monkeypatch.setattr(tempfile, "mkdtemp", no_temporary_directory)
    monkeypatch.setattr(cache, "_private", None)  # this process's, as a new one's
    # the indexes in memory, and whether that was said: a new process's (imported again)
    monkeypatch.delitem(sys.modules, "skillc_index.index.memory", raising=False)
    monkeypatch.delattr(skillc_index.index, "memory", raising=False)
    undo = forbid_changes(project / ".skillc")  # no runtime folder can be made
    try:
        index = ensure_index(skill, "ascii")  # E002 "cannot write its index"
        assert [h.text for h in find_headings(index, "usage")] == ["Usage"]
        assert [hit.section for hit in search_sections(index, '"run"', 1)] == ["Usage"]
        from skillc_index.index.freshness import kept_in_memory

        [warning] = kept_in_memory(index)
        assert warning.text == (  # the cause, not tempfile's list of folders
            "cannot write the index of a skill in its runtime, and no temporary directory can "
            "be written: indexes are built in memory, by each process again; set TMPDIR to a "
            "writable folder"
        )
        again = ensure_index(skill, "ascii")  # checked, not built again
        assert again.snapshot is index.snapshot and kept_in_memory(again) == ()
        skill_md = skill.source / "SKILL.md"
        later = skill_md.stat().st_mtime_ns + 2_000_000_000
        skill_md.write_text(skill_md.read_text("utf-8").replace("Usage", "Usagf"), "utf-8")
        os.utime(skill_md, ns=(later, later))
        edited = ensure_index(skill, "ascii")
        assert [h.text for h in find_headings(edited, "usagf")] == ["Usagf"]
        assert kept_in_memory(edited) == ()  # said once a process
    finally:
        undo()
        _let_go_of_the_indexes_in_memory()  # (this module's copy goes with the test)
    assert not (project / ".skillc" / "runtime").exists()
