"""``route`` where agents share skills: a folder one agent links to another's, skills another
agent's folder (or parking folder) links to, what route leaves in a git work tree and in
``.skillc/``, user-only skills. Real files; the command line in-process."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

from .test_route import Run, agent_skill, names, route, snapshot, unchanged


def test_an_agent_folder_linked_to_a_routed_one_is_the_same_folder(
    cli: Callable[..., Run], project: Path
) -> None:
    """``.claude/skills`` a symlink to ``.agents/skills``: routed as ``claude``, ``codex``
    moved Claude's router into the store as a skill (folders were compared as text)."""
    folder = project / ".agents" / "skills"
    agent_skill(folder, "one")
    agent_skill(folder, "two")
    (project / ".claude").mkdir()
    (project / ".claude" / "skills").symlink_to("../.agents/skills")
    before = snapshot(folder)
    assert route(cli, "install").returncode == 0
    with unchanged(project):
        refused = route(cli, "install", "-t", "codex")
    assert refused.returncode == 1
    assert "'.agents/skills' is routed already, as 'claude'" in refused.stderr, refused.stderr
    assert names(project / ".skillc" / "skills") == ["one", "two"]
    assert route(cli, "uninstall").returncode == 0
    assert snapshot(folder) == before


def test_two_routes_of_one_folder_are_undone_one_by_one(
    cli: Callable[..., Run], project: Path
) -> None:
    """A folder routed under two names before the check compared real paths: each route's
    own uninstall still runs (else neither could)."""
    folder = project / ".agents" / "skills"
    agent_skill(folder, "one")
    (project / ".claude").mkdir()
    (project / ".claude" / "skills").symlink_to("../.agents/skills")
    before = snapshot(folder)
    assert route(cli, "install").returncode == 0
    routes = project / ".skillc" / "router"
    shutil.move(routes / "claude.json", project / "claude.json")  # as if not routed
    assert route(cli, "install", "-t", "codex").returncode == 0  # routes claude's router
    shutil.move(project / "claude.json", routes / "claude.json")
    assert route(cli, "uninstall", "-t", "codex").returncode == 0
    assert route(cli, "uninstall").returncode == 0
    assert snapshot(folder) == before
