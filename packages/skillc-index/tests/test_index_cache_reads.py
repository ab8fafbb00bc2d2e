"""The index made on demand takes its rows from the bytes it hashed (index/cache.py)."""

from __future__ import annotations

from pathlib import Path

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
