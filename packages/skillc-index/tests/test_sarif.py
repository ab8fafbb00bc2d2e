"""Where the kit's GitHub annotations and SARIF logs say a file is (``skillc_index.sarif``):
from GitHub Actions' workspace, the repository's checkout, whatever the working folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from skillc_index.sarif import annotation_path, artifact_location, source_root


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    folder = (tmp_path / "checkout").resolve()
    (folder / "docs" / "skills").mkdir(parents=True)
    return folder


def test_an_annotation_names_its_file_from_the_workspace(
    checkout: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The runner takes a relative ``file=`` from the repository's root: a path relative to
    a step's ``working-directory`` named another file. Relative to the workspace below it;
    absolute outside it, or with no workspace (or one that is no absolute path)."""
    docs = checkout / "docs"
    monkeypatch.setenv("GITHUB_WORKSPACE", str(checkout))
    assert annotation_path(Path("skills/x/SKILL.md"), docs) == "docs/skills/x/SKILL.md"
    assert annotation_path(Path("../../elsewhere/SKILL.md"), docs) == (
        (checkout.parent / "elsewhere" / "SKILL.md").as_posix()
    )
    for unusable in ("", "checkout"):
        monkeypatch.setenv("GITHUB_WORKSPACE", unusable)
        assert annotation_path(Path("skills/x/SKILL.md"), docs) == (
            (docs / "skills" / "x" / "SKILL.md").as_posix()
        )
    monkeypatch.delenv("GITHUB_WORKSPACE")
    assert annotation_path(Path("skills/x/SKILL.md"), docs) == (
        (docs / "skills" / "x" / "SKILL.md").as_posix()
    )


def test_a_workspace_named_through_a_symlink_holds_the_working_folder(
    checkout: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The working folder is a real path; ``$GITHUB_WORKSPACE`` may reach the checkout
    through a symlink (a runner's work folder linked elsewhere)."""
    link = tmp_path / "work"
    link.symlink_to(checkout, target_is_directory=True)
    monkeypatch.setenv("GITHUB_WORKSPACE", str(link))
    assert source_root(checkout / "docs") == checkout
    assert annotation_path(Path("skills/x/SKILL.md"), checkout / "docs") == (
        "docs/skills/x/SKILL.md"
    )


def test_sarif_is_rooted_at_the_workspace_or_the_working_folder(
    checkout: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    docs = checkout / "docs"
    monkeypatch.delenv("GITHUB_WORKSPACE", raising=False)
    assert source_root(docs) == docs
    monkeypatch.setenv("GITHUB_WORKSPACE", str(checkout))
    root = source_root(docs)
    assert root == checkout
    assert artifact_location(docs / "skills" / "a b" / "SKILL.md", root) == {
        "uri": "docs/skills/a%20b/SKILL.md",
        "uriBaseId": "%SRCROOT%",
    }
