"""A build writes again the router an older skillc wrote (only ``route install`` and
``uninstall`` did: an agent read the old router's text until the next route command). Real
files; the build as ``python -m skillc_index`` in a subprocess."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from skillc_index.inventory.deployed import ROUTER_MARK
from skillc_index.route.router_skill import ROUTER_NAME, router_text

Run = Callable[..., subprocess.CompletedProcess[str]]
OLD = "Finds the skill for the task (an older skillc's router)."


@pytest.fixture
def routed(cli: Callable[..., Run], project: Path, write_skill: Any) -> Path:
    """A project whose ``.claude/skills`` (two skills) is routed: the router's folder."""
    for name in ("alpha", "beta"):
        write_skill(project / ".claude" / "skills" / name, description=f"About {name}.")
    done = cli("skillc_index")("route", "install")
    assert done.returncode == 0, done.stderr
    return project / ".claude" / "skills" / ROUTER_NAME


def _manifest(project: Path) -> Path:
    return project / ".skillc" / "router" / "claude.json"


def _older(router: Path, project: Path) -> bytes:
    """The router as an older skillc wrote it: another text, recorded as skillc's."""
    text = router_text(2, "claude", "project")
    old = text.replace(text.split("\n")[2], f"description: {OLD}").encode("utf-8")
    (router / "SKILL.md").write_bytes(old)
    manifest = json.loads(_manifest(project).read_text(encoding="utf-8"))
    manifest["router_sha256"] = hashlib.sha256(old).hexdigest()
    _manifest(project).write_text(json.dumps(manifest), encoding="utf-8")
    return old


def test_a_build_writes_again_a_router_an_older_skillc_wrote(
    cli: Callable[..., Run], project: Path, routed: Path
) -> None:
    """The router skillc wrote with an older text is rewritten by the next build (one
    skill's, or ``--all``) as ``route install`` writes it, its digest recorded: route status
    then calls it skillc's, not edited. Nothing else is left in the agent folder."""
    build = cli("skillc_index", process=True)
    for args in (("alpha",), ("--all",)):
        _older(routed, project)
        done = build("build", *args)
        assert done.returncode == 0, done.stderr
        data = (routed / "SKILL.md").read_bytes()
        assert data == router_text(2, "claude", "project").encode("utf-8")
        recorded = json.loads(_manifest(project).read_text(encoding="utf-8"))["router_sha256"]
        assert recorded == hashlib.sha256(data).hexdigest()
        assert sorted(path.name for path in routed.iterdir()) == sorted([ROUTER_MARK, "SKILL.md"])
        assert [path.name for path in routed.parent.iterdir()] == [ROUTER_NAME]
    status = cli("skillc_index")("route", "status")
    assert status.returncode == 0, status.stderr
    assert "was edited" not in status.stdout + status.stderr, status.stderr


def test_a_router_edited_or_not_skillc_s_is_never_written_by_a_build(
    cli: Callable[..., Run], project: Path, routed: Path
) -> None:
    """A router edited since skillc wrote it (not the digest recorded), and a route command at
    work (its lock held: a warning), leave the router as it is."""
    fcntl = pytest.importorskip("fcntl")
    build = cli("skillc_index", process=True)
    _older(routed, project)
    edited = b"---\nname: skill-router\ndescription: Mine now.\n---\n"
    (routed / "SKILL.md").write_bytes(edited)
    assert build("build", "alpha").returncode == 0
    assert (routed / "SKILL.md").read_bytes() == edited

    old = _older(routed, project)
    fd = os.open(_manifest(project).parent, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        done = build("build", "alpha")
    finally:
        os.close(fd)
    assert done.returncode == 0
    assert (
        "warning: the router .claude/skills/skill-router not refreshed: another route command "
        "is changing '.skillc/router'; try again when it is done"
    ) in done.stderr.splitlines(), done.stderr  # a held lock: no error[...] inside a warning
    assert "error[" not in done.stderr
    assert (routed / "SKILL.md").read_bytes() == old
