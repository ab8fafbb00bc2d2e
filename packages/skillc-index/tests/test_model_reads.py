"""Where a model may read (:mod:`skillc_index.inventory.reads`): a project's folder of
installed skills linked out of the project counts for its skills alone; the home's links
and the project's own folders count whole."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from skillc_index import Layout
from skillc_index.files import within
from skillc_index.inventory.folders import in_project, search_roots
from skillc_index.inventory.reads import PathNotSearched, confine, model_folders, readable


def _readable(layout: Layout, path: Path) -> bool:
    allowed = model_folders(layout, search_roots(layout))
    return any(within(path, folder) for folder in allowed)


def test_a_projects_agent_folder_linked_out_gives_its_skills_only(
    layout: Layout, project: Path, tmp_path: Path, write_skill: Callable[..., Path]
) -> None:
    """``.gemini/skills -> /shared``: /shared itself, what lies deeper than its entries and
    its files are no folder a model may read (E100); its skills (the entries holding a
    SKILL.md), and below them, are. The store linked out likewise."""
    shared = tmp_path / "shared"
    loaded = write_skill(shared / "loaded")
    deep = write_skill(shared / "people" / "skills" / "evil")
    (shared / "secret.txt").write_text("x\n", encoding="utf-8")
    (project / ".gemini").mkdir()
    (project / ".gemini" / "skills").symlink_to(shared)
    assert not in_project(project / ".gemini" / "skills", layout)
    assert in_project(project / ".claude" / "skills", layout)  # not there: as written
    for path in (shared, deep, shared / "secret.txt", tmp_path):
        assert not _readable(layout, path), path
        with pytest.raises(PathNotSearched):
            confine(str(path), path, model_folders(layout, search_roots(layout)))
    for path in (loaded, loaded / "SKILL.md", project / ".gemini" / "skills" / "loaded"):
        assert _readable(layout, path), path
    store = write_skill(tmp_path / "store" / "kept")
    (project / ".skillc" / "skills").rmdir()
    (project / ".skillc" / "skills").symlink_to(store.parent)
    assert _readable(layout, store) and not _readable(layout, store.parent)


def test_the_homes_links_and_the_repositorys_folders_stay_whole(
    home: Path, tmp_path: Path, write_skill: Callable[..., Path]
) -> None:
    """A home agent folder linked to dotfiles is the user's: readable whole. Started in a
    repository's subfolder (no skillc project), the repository root's own ``.claude/skills``
    is the project's; started in ``/`` (a client's stdio server: Claude Desktop's) or in a
    folder holding the home (``/home``), no folder is the project's: each held every path,
    and a model read the whole disk."""
    dotfiles = tmp_path / "dotfiles"
    write_skill(dotfiles / "deeper" / "mine")
    (home / ".claude").mkdir()
    (home / ".claude" / "skills").symlink_to(dotfiles)
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / "sub").mkdir()
    (repo / ".claude" / "skills" / "README.md").parent.mkdir(parents=True)
    layout = Layout.discover(repo / "sub", {"SKILLC_HOME": str(home)})
    assert layout.project_root is None
    assert in_project(repo / ".claude" / "skills", layout)
    assert _readable(layout, dotfiles / "deeper")
    assert _readable(layout, repo / ".claude" / "skills" / "README.md")
    env = {"SKILLC_HOME": str(home), "HOME": str(tmp_path / "users" / "me")}
    for cwd in (Path("/"), tmp_path / "users"):
        (tmp_path / "users" / "me").mkdir(parents=True, exist_ok=True)
        started = Layout.discover(cwd, env)
        assert not in_project(tmp_path / "users" / "x", started)
        assert not _readable(started, tmp_path / "users" / "x")
        assert _readable(started, home / "x")


@pytest.mark.parametrize("variable", ["HOME", "SKILLC_HOME"])
def test_a_home_that_is_the_root_counts_for_skillc_and_agent_folders_only(
    project: Path, tmp_path: Path, variable: str
) -> None:
    """``HOME=/`` (a container user with no home entry, a service manager's) or
    ``SKILLC_HOME=/``: the home counted whole, so a model read the whole disk
    (``/etc/passwd``). Such a home counts only for its ``.skillc`` and its agent folders."""
    env = {"HOME": str(tmp_path / "me"), variable: "/"}
    started = Layout.discover(project, env) if os.geteuid() == 0 else None
    if started is None:  # (another user's `/` is a foreign skillc home: E999 before this)
        from dataclasses import replace

        started = replace(
            Layout.discover(project, {"SKILLC_HOME": str(tmp_path / "h")}), home=Path("/")
        )
    assert started.home == Path("/")
    allowed = model_folders(started, search_roots(started))
    assert Path("/") not in allowed
    for path in (Path("/etc/passwd"), Path("/"), tmp_path / "elsewhere"):
        assert not readable(path, allowed), path
    for path in (Path("/.skillc/skills/x/SKILL.md"), Path("/.claude/skills/x"), project / "x"):
        assert readable(path, allowed), path


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="chown needs root")
def test_a_git_folder_of_another_user_above_makes_no_project(
    home: Path, tmp_path: Path, write_skill: Callable[..., Path]
) -> None:
    """With no skillc project, the ``.git`` found walking up made its folder the project: one
    another local user made (``/tmp/.git``) made all of ``/tmp`` a folder a model may read.
    The repository's top counts only when its ``.git`` is the user's own."""
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / "sub").mkdir()
    (repo / ".claude" / "skills").mkdir(parents=True)
    layout = Layout.discover(repo / "sub", {"SKILLC_HOME": str(home)})
    assert in_project(repo / ".claude" / "skills", layout)
    os.chown(repo / ".git", os.getuid() + 4242, -1)
    assert not in_project(repo / ".claude" / "skills", layout)
    assert not _readable(layout, repo / ".claude" / "skills")
