"""The index made on demand takes its rows from the bytes it hashed (index/cache.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from skillc_index.index import cache
from skillc_index.index.schema import stat_files
from skillc_index.layout import ResolvedSkill


def test_a_file_written_between_its_hash_and_its_parse_is_a_change(tmp_path: Path) -> None:
    # The digest and the rows are two reads of the file. A version written between them with
    # the size and time stamp of the one hashed (one clock tick apart on Linux) gave the index
    # the lines of one version under the digest of the other, and `show` served lines of the
    # other version at the indexed places (tests/stress/test_load.py, seen in CI).
    source = tmp_path / "load"
    source.mkdir()
    (source / "SKILL.md").write_text("---\nname: load\n---\n# Load\n\nmarker v0\n")
    skill = ResolvedSkill("load", source, "project", tmp_path / "runtime", True)
    rows = cache._Rows(skill, ["SKILL.md"])
    rows.digests(stat_files(source, ["SKILL.md"]), None)
    (source / "SKILL.md").write_text("---\nname: load\n---\n# Load\n\nmarker v1\n")
    with pytest.raises(cache.SourcesChanged, match="changed while it was indexed"):
        rows.of(0)
    (source / "SKILL.md").write_text("---\nname: load\n---\n# Load\n\nmarker v0\n")
    assert [heading[1] for heading in rows.of(0).headings] == ["Load"]


def _gone_after_the_walk(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, gone: str
) -> tuple[ResolvedSkill, list[float]]:
    """A skill whose walk lists ``gone`` too, a file removed right after it (an editor's
    quick save removes its temporary), and the waits between attempts, recorded."""
    import time

    from skillc_index import skill_files as walking

    source = tmp_path / "quick"
    (source / "references").mkdir(parents=True)
    (source / "SKILL.md").write_text("---\nname: quick\n---\n# Quick\n\nzebra\n")
    (source / "references" / "guide.md").write_text("# Guide\n")
    real_walk = walking.walk_skill

    def walk(root: Path, *args: object, **kwargs: object) -> walking.SkillFiles:
        found = real_walk(root, *args, **kwargs)  # type: ignore[arg-type]
        return found._replace(files=tuple(sorted((*found.files, gone))))

    waits: list[float] = []
    monkeypatch.setattr(walking, "walk_skill", walk)
    monkeypatch.setattr(time, "sleep", waits.append)
    return ResolvedSkill("quick", source, "project", tmp_path / "runtime", True), waits


def test_a_file_no_index_reads_vanishing_under_the_build_is_no_change(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # `skc show`/`search` during an editor's quick saves: E002 "the sources kept changing
    # ('SKILL.md.tmp' vanished)", for a file the index never reads
    skill, _waits = _gone_after_the_walk(monkeypatch, tmp_path, "data.json")
    handle = cache.ensure_index(skill, "porter")
    assert "data.json" not in handle.files


def test_an_indexed_file_vanishing_is_a_change_tried_again_after_a_wait(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    skill, waits = _gone_after_the_walk(monkeypatch, tmp_path, "references/gone.md")
    with pytest.raises(cache.IndexUnusable, match=r"kept changing.*gone\.md' vanished"):
        cache.ensure_index(skill, "porter")
    assert len(waits) == cache.ATTEMPTS - 1 and min(waits, default=0) > 0  # not back to back


def test_sources_saved_whenever_the_build_waits_for_them_are_indexed_on_the_next_attempt(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # `skc show` while an editor saved SKILL.md every 100 ms: E002 "the sources kept changing"
    # (3 of 30 in the editors' audit, and half under load). Each attempt waited for the
    # sources to be 100 ms old (schema.settle), about the time until the next save, which
    # then landed under the build. An attempt after one they changed under does not wait.
    from skillc_index.index import schema
    from skillc_index.index.freshness import index_is_fresh

    source = tmp_path / "saved"
    source.mkdir()
    path = source / "SKILL.md"

    def save(number: int) -> None:  # an editor's atomic save
        temporary = source / "SKILL.md.tmp"
        temporary.write_text(f"---\nname: saved\n---\n# Saved\n\nversion {number}\n")
        temporary.replace(path)

    save(0)
    saves: list[int] = []

    def settle(_stats: object) -> bool:  # the next save lands while the build waits
        saves.append(len(saves) + 1)
        save(saves[-1])
        return False

    monkeypatch.setattr(schema, "settle", settle)
    skill = ResolvedSkill("saved", source, "project", tmp_path / "runtime", True)
    handle = cache.ensure_index(skill, "porter")
    assert saves == [1]  # the first attempt waited, the second did not
    assert index_is_fresh(skill.runtime, source, "porter")
    with handle.connect() as connection:
        (text,) = connection.execute("SELECT group_concat(content) FROM sections").fetchone()
    assert "version 1" in text


def test_a_save_between_the_build_and_the_check_after_it_is_answered_from_that_build(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # `skc show` while an editor saved every 100 ms: about 2 in 150 failed with E002 "the
    # sources kept changing (sources changed)": a save landed after the build proved the
    # sources unchanged and before the check that the index is current. The index just
    # written was current then, a version that existed during the call: it is the answer,
    # and the file saved since is not one its stats prove (a reader hashes it).
    import sqlite3
    from collections.abc import Mapping
    from contextlib import closing

    from skillc_index.index.freshness import written_index
    from skillc_index.index.schema import RACY_WINDOW_NS, FileStat, file_stat

    source = tmp_path / "saving"
    (source / "references").mkdir(parents=True)
    (source / "SKILL.md").write_text("---\nname: saving\n---\n# Saving\n\n## Usage\n\nokapi\n")
    guide = source / "references" / "guide.md"
    guide.write_text("# Guide\n")
    real = cache._indexed_changed
    builds: list[bool] = []

    def saved_after(*args: Any) -> bool:  # the save lands after each build's last check
        builds.append(real(*args))
        guide.write_text(guide.read_text() + f"saved {len(builds)}\n")
        return builds[-1]

    monkeypatch.setattr(cache, "_indexed_changed", saved_after)
    skill = ResolvedSkill("saving", source, "project", tmp_path / "runtime", True)
    handle = cache.ensure_index(skill, "porter")
    assert builds == [False]  # built once, then answered from
    with handle.connect() as connection:
        (text,) = connection.execute("SELECT group_concat(content) FROM sections").fetchone()
    assert "okapi" in text and "saved" not in text  # the version it indexed
    assert not handle.describes(file_stat("references/guide.md", guide.stat()))
    # Its stats prove only files recorded more than RACY_WINDOW_NS before them: one changed
    # within it may have been saved again since with the same stats (a reader hashes it).
    recorded = handle.snapshot.files["references/guide.md"]

    def verified_at(stats_at_ns: int) -> Mapping[str, FileStat]:  # recorded at that time
        with closing(sqlite3.connect(handle.path)) as db, db:
            db.execute("UPDATE index_meta SET value = ? WHERE key = 'stats_at_ns'", (stats_at_ns,))
        again = written_index(skill, "porter", skill.runtime, handle.snapshot.meta.source_hash)
        assert again is not None
        return again.verified

    assert "references/guide.md" not in verified_at(recorded.changed_ns + RACY_WINDOW_NS)
    assert verified_at(recorded.changed_ns + RACY_WINDOW_NS + 1)["references/guide.md"] == recorded


def test_an_index_a_newer_skillc_wrote_is_read_from_memory_said_once_a_process(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # A long-running reader (an MCP server of the old code) after an upgrade: its reads of an
    # index the new code wrote rebuilt it in the old schema, each time the new code had
    # rebuilt it back. Now the file is left alone, the reads use an index in memory, built
    # once, and the warning is said once a process, after another reason to keep indexes in
    # memory was said (it was kept only when it was the first).
    import sqlite3
    from collections import OrderedDict
    from contextlib import closing

    from skillc_index.index import memory
    from skillc_index.index.freshness import MEMORY_RUNTIME, kept_in_memory
    from skillc_index.index.schema import SCHEMA_VERSION

    monkeypatch.setattr(memory, "_kept", OrderedDict())
    monkeypatch.setattr(memory, "_why", {"cannot write the index of a skill...": True})
    source = tmp_path / "newer"
    source.mkdir()
    (source / "SKILL.md").write_text("---\nname: newer\n---\n# Newer\n\n## Usage\n\nokapi\n")
    skill = ResolvedSkill("newer", source, "project", tmp_path / "runtime", True)
    index = cache.ensure_index(skill, "porter").path
    with closing(sqlite3.connect(index)) as db, db:
        db.execute("UPDATE index_meta SET value = ? WHERE key = 'schema_version'", (99,))
    before, inode = index.read_bytes(), index.stat().st_ino

    first = cache.ensure_index(skill, "porter")
    assert first.path.parent.parent == MEMORY_RUNTIME
    assert [notice.text for notice in kept_in_memory(first)] == [
        f"the index of a skill was written by a newer skillc (index schema 99; this skillc "
        f"reads {SCHEMA_VERSION}): upgrade skillc; this process leaves that index as it is "
        "and reads one it builds in memory"
    ]
    second = cache.ensure_index(skill, "porter")
    assert second.snapshot is first.snapshot and kept_in_memory(second) == ()
    from skillc_index.index.queries import find_headings

    assert [h.text for h in find_headings(second, "Usage")] == ["Usage"]
    assert (index.read_bytes(), index.stat().st_ino) == (before, inode)
