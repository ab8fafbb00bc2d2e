"""``skc package`` (audit s36): what goes into a package, and what is said of it. On real
folders."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from skillc_index import Layout
from skillc_index.package.make import package_skills


def test_paths_one_file_on_macos_or_windows_are_warned_naming_both(
    layout: Layout, project: Path, write_skill: Callable[..., Path], tmp_path: Path
) -> None:
    """``README.md`` and ``readme.md``, ``Refs/api.md`` and ``refs/api.md``, ``café.md`` in
    NFC and NFD were packaged without a word: extracted on macOS or Windows, one replaces
    the other. Each pair is a warning naming both (the NFD one escaped), and packaged."""
    nfc, nfd = "caf\u00e9.md", "cafe\u0301.md"
    files = {"README.md": "a", "readme.md": "b", "Refs/api.md": "c", "refs/api.md": "d"}
    folder = write_skill(project / "guide", files={**files, nfc: "e", nfd: "f"})
    result = package_skills([str(folder)], layout, fmt="upload", output=tmp_path / "out")
    said = "differ only in case or Unicode normalisation: one file on macOS and Windows"
    assert [n.text.split(" differ")[0] for n in result.warnings if said in n.text] == [
        "guide: 'cafe\\u0301.md' and 'café.md'",
        "guide: 'README.md' and 'readme.md'",
        "guide: 'Refs/api.md' and 'refs/api.md'",
    ]
    assert result.to_dict()["warnings"][0].startswith("guide: 'cafe\\u0301.md' and 'café.md'")


@pytest.mark.parametrize(
    ("fmt", "said"),
    [
        ("upload", "rewritten, each byte UTF-8 cannot read as U+FFFD"),  # x-extra dropped
        ("claude-plugin", "kept as it is"),  # the frontmatter as written
    ],
)
def test_a_skill_md_that_is_not_utf8_is_a_warning(
    layout: Layout, project: Path, tmp_path: Path, fmt: str, said: str
) -> None:
    """A Latin-1 SKILL.md went out with each ``é`` made U+FFFD when the format rewrote its
    frontmatter, and unchanged when not, without a word either way."""
    folder = project / "latin"
    folder.mkdir()
    (folder / "SKILL.md").write_bytes(
        b"---\nname: latin\ndescription: Caf\xe9 menu. Use when asked.\nx-extra: 2\n---\n# L\n"
    )
    result = package_skills([str(folder)], layout, fmt=fmt, output=tmp_path / "out")
    assert f"latin: SKILL.md is not UTF-8 ({said}): save it as UTF-8" in [
        notice.text for notice in result.warnings
    ]
