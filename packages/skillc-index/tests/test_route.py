"""``route install|uninstall|status``: an agent folder's skills behind one router skill, and
back (issue 15). Real files; the command line in-process (``cli("skillc_index")``)."""

from __future__ import annotations

import errno
import hashlib
import json
import os
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Any

import pytest

import skillc_index.route.commands as router_module
import skillc_index.route.uninstall as uninstall_module
from skillc_index import Layout, parse_frontmatter
from skillc_index.accesslog import AccessLog
from skillc_index.build.manifest import read_manifest
from skillc_index.build.skill import build_skill
from skillc_index.inventory.deployed import ROUTER_MARK
from skillc_index.operation import Session
from skillc_index.route.commands import route_install, route_status
from skillc_index.route.router_skill import ROUTER_NAME
from skillc_index.route.uninstall import route_uninstall

WriteSkill = Callable[..., Path]
Run = Callable[..., subprocess.CompletedProcess[str]]


def names(folder: Path) -> list[str]:
    return sorted(path.name for path in folder.iterdir())


def snapshot(root: Path) -> dict[str, tuple[Any, ...]]:
    """Every path under ``root`` (not following symlinks): a folder, a file's bytes' SHA-256
    and mode, a symlink's target."""
    found: dict[str, tuple[Any, ...]] = {}
    for folder, folders, files in os.walk(root):
        for name in folders + files:
            path = Path(folder) / name
            rel = path.relative_to(root).as_posix()
            if path.is_symlink():
                found[rel] = ("link", str(path.readlink()))
            elif path.is_dir():
                found[rel] = ("dir", path.stat().st_mode)
            else:
                found[rel] = (
                    "file",
                    hashlib.sha256(path.read_bytes()).hexdigest(),
                    path.stat().st_mode,
                )
    return found


def agent_skill(folder: Path, name: str, description: str | None = None) -> Path:
    path = folder / name
    (path / "references").mkdir(parents=True)
    about = (
        "" if description == "" else f"description: {json.dumps(description or f'About {name}.')}\n"
    )
    (path / "SKILL.md").write_text(
        f"---\nname: {name}\n{about}---\n\n# {name}\n\n## Usage\n\nUse {name}.\n", encoding="utf-8"
    )
    (path / "references" / "guide.md").write_text(f"# Guide to {name}\n", encoding="utf-8")
    (path / "references" / "alias.md").symlink_to("guide.md")  # a link inside the skill
    (path / "run.sh").write_text("#!/bin/sh\necho hi\n", encoding="utf-8")
    (path / "run.sh").chmod(0o755)
    return path


@pytest.fixture
def claude(project: Path, layout: Layout, write_skill: WriteSkill) -> Path:
    """``.claude/skills``: two skill folders, a store skill deployed by skillc as a symlink
    and one deployed as a copy, and a hidden file skillc leaves alone."""
    folder = project / ".claude" / "skills"
    agent_skill(folder, "alpha")
    agent_skill(folder, "beta", "Beta: with a colon, and 'quotes'.")
    write_skill(layout.store("project") / "linked")
    build_skill("linked", layout)
    write_skill(layout.store("project") / "copied")
    build_skill("copied", layout, copy=True)
    (folder / ".DS_Store").write_bytes(b"\0")
    return folder


def session(layout: Layout) -> Session:
    return Session(layout, AccessLog(lambda _: None))


def route(
    cli: Callable[..., Run], *args: str, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    return cli("skillc_index")("route", *args, cwd=cwd)


def route_json(cli: Callable[..., Run], *args: str, status: int = 0) -> dict[str, Any]:
    result = route(cli, *args, "--format", "json")
    assert result.returncode == status, result.stderr
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def test_install_leaves_only_the_router(
    cli: Callable[..., Run], layout: Layout, claude: Path, project: Path
) -> None:
    data = route_json(cli, "install")
    assert names(claude) == [".DS_Store", ROUTER_NAME]
    assert data["routed"] == 4 and data["left"] == [] and data["dry_run"] is False
    actions = {skill["name"]: (skill["kind"], skill["action"]) for skill in data["skills"]}
    assert actions == {
        "alpha": ("folder", "moved"),
        "beta": ("folder", "moved"),
        "copied": ("deployment", "parked"),
        "linked": ("deployment", "parked"),
    }
    store = layout.store("project")
    for name in ("alpha", "beta"):  # moved as they are, then built
        assert (store / name / "references" / "alias.md").is_symlink()
        manifest = read_manifest(layout.runtime_store("project") / name)
        assert manifest is not None and manifest.skill == name
    parked = project / ".skillc" / "router" / "claude"
    # parked as it is: the relative link build made, which leads to the runtime again once
    # uninstall puts it back in the agent folder
    assert str((parked / "linked").readlink()) == "../../.skillc/runtime/linked"
    assert (parked / "copied" / ".skillc-meta" / "manifest.json").is_file()
    assert data["router"] == str(claude / ROUTER_NAME)
    assert data["manifest"] == str(project / ".skillc" / "router" / "claude.json")

    text = (claude / ROUTER_NAME / "SKILL.md").read_text(encoding="utf-8")
    front = parse_frontmatter(text).data
    assert front is not None and front["name"] == ROUTER_NAME
    assert "among 4 skills" in front["description"] and len(front["description"]) <= 1024
    assert "skc_find" in front["description"] and "skc find 'the task" in front["description"]
    assert "skc show" in front["description"]
    # placeholders quoted as the stubs quote them: single quotes, nothing pasted is expanded
    assert "`skc show <skill> --section '<heading>'`" in text and '"<' not in text
    assert names(claude / ROUTER_NAME) == [ROUTER_MARK, "SKILL.md"]

    listed = cli("skillc_index")("list", "--format", "json")
    store_names = [skill["name"] for skill in json.loads(listed.stdout)["skills"]]
    assert store_names == [
        "alpha",
        "beta",
        "copied",
        "linked",
    ]  # every routed skill is in the store
    budget = cli("skillc_index")("list", "--budget", "--scope", "project", "--format", "json")
    (folder,) = json.loads(budget.stdout)["budget"]
    assert [entry["name"] for entry in folder["entries"]] == [ROUTER_NAME]


def test_each_moved_skill_is_built_and_the_build_logged(
    cli: Callable[..., Run], layout: Layout, claude: Path
) -> None:
    route_json(cli, "install")
    runtime = layout.runtime_store("project") / "alpha"
    with closing(sqlite3.connect(runtime / ".skillc-meta" / "logs.db")) as db:
        rows = db.execute("SELECT command, skill, args FROM access_log").fetchall()
    assert [(command, skill) for command, skill, _ in rows] == [("build", "alpha")]
    assert json.loads(rows[0][2]) == {"global": False, "target": [], "copy": False, "force": False}


def test_uninstall_is_a_byte_identical_round_trip(
    cli: Callable[..., Run], layout: Layout, claude: Path, project: Path
) -> None:
    before = snapshot(claude)
    store_before = names(layout.store("project"))
    route_json(cli, "install")
    assert snapshot(claude) != before
    data = route_json(cli, "uninstall")
    assert snapshot(claude) == before
    assert names(layout.store("project")) == store_before
    assert not (project / ".skillc" / "router").exists()  # manifest and parking gone
    assert data["router"] is None and data["routed"] == 0 and data["left"] == []
    assert sorted((s["name"], s["action"]) for s in data["skills"]) == [
        ("alpha", "restored"),
        ("beta", "restored"),
        ("copied", "restored"),
        ("linked", "restored"),
    ]
    again = route(cli, "uninstall")
    assert (again.returncode, again.stdout) == (
        0,
        "claude (project) .claude/skills: no router to remove, nothing is routed\n",
    )


def test_uninstall_puts_back_into_the_agent_folder_it_checked_when_it_is_swapped_meanwhile(
    layout: Layout, claude: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``.claude/skills`` swapped for a symlink to a folder outside the project once the first
    skill is back (uninstall checked the folder once, then moved each skill back by path):
    the other skills went outside. Every move, removal and the router's happen in the
    folder checked, opened once: the outside folder gets nothing."""
    before = snapshot(claude)
    route_install(session(layout))
    outside, real = tmp_path / "outside", claude.parent / "skills.real"
    outside.mkdir()
    log_move = router_module._log_move
    moves: list[str] = []

    def swapped(*args: Any) -> None:
        moves.append(args[2])
        if len(moves) == 1:  # the first skill is back: the folder is swapped
            claude.rename(real)
            claude.symlink_to(outside, target_is_directory=True)
        log_move(*args)

    monkeypatch.setattr(uninstall_module, "_log_move", swapped)
    done = route_uninstall(session(layout))
    assert moves == ["alpha", "beta"]
    assert list(outside.iterdir()) == []
    assert snapshot(real) == before
    assert sorted((s.name, s.action) for s in done.skills) == [
        ("alpha", "restored"),
        ("beta", "restored"),
        ("copied", "restored"),
        ("linked", "restored"),
    ]


def test_uninstall_refuses_an_agent_folder_swapped_for_a_symlink_after_its_check(
    cli: Callable[..., Run], claude: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The agent folder swapped for a symlink out of the project right after uninstall's
    check: the folder is opened by the path checked, so the swap is E100 and nothing is
    moved (every skill stays behind the router, the outside folder gets nothing)."""
    route_json(cli, "install")
    outside = tmp_path / "outside"
    outside.mkdir()
    check = router_module.check_agent_folder

    def swapped(*args: Any) -> str:
        real = check(*args)
        if not claude.is_symlink():
            claude.rename(claude.parent / "skills.real")
            claude.symlink_to(outside, target_is_directory=True)
        return real

    monkeypatch.setattr(uninstall_module, "check_agent_folder", swapped)
    result = route(cli, "uninstall")
    assert result.returncode == 1
    assert result.stderr.startswith("error[E100]: invalid option: 'agent folder '.claude/skills'")
    assert list(outside.iterdir()) == []
    monkeypatch.undo()
    claude.unlink()
    (claude.parent / "skills.real").rename(claude)
    assert route_json(cli, "status")["routed"] == 4


def test_a_copied_project_s_skills_are_known_by_what_they_hold(
    cli: Callable[..., Run], claude: Path, project: Path, tmp_path: Path
) -> None:
    """A copy of a routed project (``cp -a``; a move to another file system is one) gives
    every entry a new inode: what each holds (a skill folder's source hash, a parked link's
    text, a parked copy's skill) tells it is the one route moved, so status counts it behind
    the router and uninstall puts it back (every skill was "forgotten" and the router removed:
    an empty agent folder). A manifest of an earlier skillc records no content: when nothing
    at the recorded places is known again, uninstall and install refuse, changing nothing."""
    before = snapshot(claude)
    route_json(cli, "install")
    copy = tmp_path / "copy"
    shutil.copytree(project, copy, symlinks=True)
    shutil.rmtree(project)
    manifest = copy / ".skillc" / "router" / "claude.json"
    recorded = manifest.read_text(encoding="utf-8")

    data = json.loads(recorded)  # written by an earlier skillc: no content recorded
    for entry in data["entries"]:
        del entry["content"]
    manifest.write_text(json.dumps(data), encoding="utf-8")
    routed = snapshot(copy)
    for command in ("uninstall", "install"):
        refused = route(cli, command, cwd=copy)
        assert refused.returncode == 1 and refused.stdout == ""
        assert refused.stderr.startswith(
            "error[E100]: invalid option: 'none of the 4 skills recorded in "
            "'.skillc/router/claude.json' is what the route moved: "
        )
        assert snapshot(copy) == routed  # manifest, router and skills as they were

    manifest.write_text(recorded, encoding="utf-8")
    status = json.loads(route(cli, "status", "--format", "json", cwd=copy).stdout)
    assert status["routed"] == 4
    assert {skill["action"] for skill in status["skills"]} == {"routed"}
    undone = route(cli, "uninstall", "--format", "json", cwd=copy)
    assert undone.returncode == 0, undone.stderr
    assert json.loads(undone.stdout)["left"] == []
    assert snapshot(copy / ".claude" / "skills") == before
    assert not (copy / ".skillc" / "router").exists()


def test_a_routed_skill_edited_and_built_is_known_in_a_copy_of_the_project(
    cli: Callable[..., Run], claude: Path, project: Path, tmp_path: Path
) -> None:
    """The user edits a routed skill in the store and builds it: the build records what it
    holds now in the route's manifest, as ``route install`` does, so a copy of the project
    (new inodes) still knows it as the one route moved: status counts it, uninstall puts it
    back, edit and all (it was "missing", then "forgotten" and left in the store)."""
    route_json(cli, "install")
    skill = project / ".skillc" / "skills" / "alpha" / "SKILL.md"
    edited = skill.read_text(encoding="utf-8") + "\nEdited after install.\n"
    skill.write_text(edited, encoding="utf-8")
    built = cli("skillc_index", process=True)("build", "alpha")
    assert built.returncode == 0, built.stderr
    said = [line for line in built.stderr.splitlines() if "'skc' is not on PATH" not in line]
    warned = [line for line in said if line.startswith("warning")]
    assert warned == [
        "warning: alpha deployed nowhere: it is behind the router of .claude/skills (skc route)"
    ], built.stderr
    copy = tmp_path / "copy"
    shutil.copytree(project, copy, symlinks=True)
    shutil.rmtree(project)

    status = json.loads(route(cli, "status", "--format", "json", cwd=copy).stdout)
    assert {s["name"]: s["action"] for s in status["skills"]}["alpha"] == "routed"
    undone = route(cli, "uninstall", "--format", "json", cwd=copy)
    assert undone.returncode == 0, undone.stderr
    data = json.loads(undone.stdout)
    assert data["left"] == []
    assert {s["name"]: s["action"] for s in data["skills"]}["alpha"] == "restored"
    back = copy / ".claude" / "skills" / "alpha" / "SKILL.md"
    assert back.read_text(encoding="utf-8") == edited


def test_a_build_while_a_route_command_is_at_work_says_the_record_is_not_refreshed(
    cli: Callable[..., Run], claude: Path, project: Path, layout: Layout
) -> None:
    """The build goes on when the route folder is locked: one warning, the manifest as it
    was; the next build records the edit."""
    fcntl = pytest.importorskip("fcntl")
    route_json(cli, "install")
    manifest = project / ".skillc" / "router" / "claude.json"
    recorded = manifest.read_bytes()
    skill = project / ".skillc" / "skills" / "alpha" / "SKILL.md"
    skill.write_text(skill.read_text(encoding="utf-8") + "\nEdited.\n", encoding="utf-8")
    fd = os.open(manifest.parent, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        notices = [n.text for n in build_skill("alpha", layout).notices]
    finally:
        os.close(fd)
    assert [n for n in notices if "route" in n] == [
        "alpha deployed nowhere: it is behind the router of .claude/skills (skc route)",
        "the route's record of 'alpha' in .skillc/router not refreshed: another "
        "route command is changing '.skillc/router'; try again when it is done",
    ]
    assert manifest.read_bytes() == recorded

    def alpha(data: bytes) -> Any:
        return next(e for e in json.loads(data)["entries"] if e["name"] == "alpha")["content"]

    build_skill("alpha", layout)
    assert alpha(manifest.read_bytes()) != alpha(recorded)


def test_install_says_once_that_skc_is_not_installed(
    cli: Callable[..., Run], claude: Path, path_without_skc: str
) -> None:
    """skillc-index installed alone: the router tells agents to run ``skc find``, which is
    not there; install says so once (a dry run too), on stderr as its other warnings (its
    JSON holds none); uninstall, which leaves no router, does not."""
    alone = {"PATH": path_without_skc}
    warning = (
        "warning: 'skc' is not on PATH, and the router tells agents to run it (when they have "
        "no skillc MCP tools): install the skillc distribution, or put the folder holding skc "
        "on PATH"
    )
    index = cli("skillc_index")
    assert index("route", "install", "-n", env_extra=alone).stderr.splitlines() == [warning]
    done = index("route", "install", "--format", "json", env_extra=alone)
    assert done.returncode == 0 and done.stderr.splitlines() == [warning]
    assert json.loads(done.stdout)["routed"] == 4
    assert index("route", "uninstall", env_extra=alone).stderr == ""


def test_text_output(cli: Callable[..., Run], claude: Path) -> None:
    result = route(cli, "install")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        "moved: .claude/skills/alpha -> .skillc/skills/alpha",
        "moved: .claude/skills/beta -> .skillc/skills/beta",
        "parked: .claude/skills/copied -> .skillc/router/claude/copied",
        "parked: .claude/skills/linked -> .skillc/router/claude/linked",
        "claude (project) .claude/skills lists one skill, skill-router, for 4 skills in "
        ".skillc/skills",
    ]
    status = route(cli, "status")
    assert status.stdout.splitlines()[0] == (
        "claude (project) .claude/skills: router installed, 4 skills behind it"
    )
    assert status.stdout.splitlines()[1].split() == ["SKILL", "KIND", "STATE", "WHERE"]
    undone = route(cli, "uninstall")
    assert undone.stdout.splitlines()[-1] == (
        "claude (project) .claude/skills: 4 skills put back; router removed; 2 runtimes built "
        "by install removed"
    )


def test_dry_runs_change_nothing(
    cli: Callable[..., Run], claude: Path, project: Path, home: Path
) -> None:
    before = snapshot(project), snapshot(home)
    data = route_json(cli, "install", "--dry-run")
    assert data["dry_run"] is True and data["routed"] == 4
    assert {s["action"] for s in data["skills"]} == {"moved", "parked"}
    assert (snapshot(project), snapshot(home)) == before
    text = route(cli, "install", "-n").stdout
    assert text.splitlines()[0] == "would move: .claude/skills/alpha -> .skillc/skills/alpha"
    route_json(cli, "install")
    installed = snapshot(project)
    undo = route_json(cli, "uninstall", "--dry-run")
    assert undo["dry_run"] is True and len(undo["skills"]) == 4
    assert snapshot(project) == installed


def test_a_second_install_changes_nothing_then_routes_what_was_added(
    cli: Callable[..., Run], claude: Path, project: Path
) -> None:
    route_json(cli, "install")
    installed = snapshot(project)
    again = route_json(cli, "install")
    assert snapshot(project) == installed
    assert again["routed"] == 4 and {s["action"] for s in again["skills"]} == {"routed"}
    agent_skill(claude, "gamma")
    third = route_json(cli, "install")
    assert third["routed"] == 5
    assert [s["name"] for s in third["skills"] if s["action"] == "moved"] == ["gamma"]
    assert "among 5 skills" in (claude / ROUTER_NAME / "SKILL.md").read_text(encoding="utf-8")
    assert names(claude) == [".DS_Store", ROUTER_NAME]


def test_a_routed_skill_deployed_again_is_removed_and_restored_once(
    cli: Callable[..., Run], layout: Layout, claude: Path, project: Path
) -> None:
    before = snapshot(claude)
    route_json(cli, "install")
    build_skill("alpha", layout, targets="claude")  # a symlink in the agent folder again
    build_skill("linked", layout, targets="claude")  # the same symlink as the parked one
    data = route_json(cli, "install")
    assert {s["name"]: s["action"] for s in data["skills"] if s["action"] != "routed"} == {
        "alpha": "unlinked",
        "linked": "unlinked",
    }
    # what each duplicates: the store skill (alpha moved there), the parked link (linked)
    behind = {s["name"]: s["to"] for s in data["skills"] if s["action"] == "unlinked"}
    assert behind == {
        "alpha": str(layout.store("project") / "alpha"),
        "linked": str(project / ".skillc" / "router" / "claude" / "linked"),
    }
    assert names(claude) == [".DS_Store", ROUTER_NAME]
    route_json(cli, "uninstall")
    assert snapshot(claude) == before


def test_build_all_builds_a_routed_skill_behind_its_router_not_into_the_agent_folder(
    cli: Callable[..., Run],
    layout: Layout,
    claude: Path,
    project: Path,
    write_skill: WriteSkill,
) -> None:
    """``build --all`` after ``route install`` undid the route: every routed skill was
    deployed to the default ``claude`` again (a symlink for a folder of the user's that skillc
    never deployed), and ``route status`` said them ``routed`` and "not behind the router".
    A routed skill is deployed behind its router: built into the store, deployed nowhere,
    its line saying why; its other deployments (``-t cursor``) are built as before, and a
    skill deployed nowhere and routed nowhere still goes to the default target."""
    skc = cli("skillc-index", script=True)
    assert skc("build", "linked", "-t", "cursor").returncode == 0
    before = snapshot(claude)
    route_json(cli, "install")
    write_skill(layout.store("project") / "fresh")
    done = skc("build", "--all")
    assert done.returncode == 0, done.stderr
    why = "it is behind the router of .claude/skills (skc route)"
    lines = done.stdout.splitlines()
    for name in ("alpha", "beta", "copied", "fresh", "linked"):
        (line,) = [line for line in lines if f" {name} " in line]
        routed = name in ("alpha", "beta", "copied")
        assert line.endswith(f"; deployed nowhere: {why}") is routed, line
    assert names(claude) == [".DS_Store", "fresh", ROUTER_NAME]
    assert (project / ".cursor" / "skills" / "linked").is_symlink()
    status = route_json(cli, "status")
    assert status["routed"] == 4
    assert [skill["name"] for skill in status["left"]] == ["fresh"]
    data = json.loads(skc("build", "--all", "--format", "json").stdout)
    nowhere = {r["skill"]: r["deployed_nowhere"] for r in data["results"]}
    assert nowhere == {"alpha": why, "beta": why, "copied": why, "fresh": None, "linked": None}
    (claude / "fresh").unlink()
    route_json(cli, "uninstall")
    assert snapshot(claude) == before


def test_a_single_build_of_a_routed_skill_leaves_it_behind_its_router(
    cli: Callable[..., Run], layout: Layout, claude: Path, project: Path
) -> None:
    """``skc build copied`` (no ``--target``) after ``route install`` deployed the skill
    into ``.claude/skills`` again (its ``--copy`` deployment back as a symlink), undoing the
    route, as ``build --all`` did: it is built into the store and its parked copy refreshed,
    deployed nowhere, a warning saying why; ``-t claude`` still deploys it there."""
    skc = cli("skillc-index", script=True)
    before = snapshot(claude)
    route_json(cli, "install")
    parked = project / ".skillc" / "router" / "claude" / "copied"
    was = snapshot(parked)
    skill = layout.store("project") / "copied" / "SKILL.md"
    skill.write_text(skill.read_text(encoding="utf-8") + "\nEdited.\n", encoding="utf-8")
    for name in ("copied", "alpha"):
        done = skc("build", name)
        assert done.returncode == 0, done.stderr
        why = "it is behind the router of .claude/skills (skc route)"
        assert f"warning: {name} deployed nowhere: {why}" in done.stderr.splitlines()
    assert names(claude) == [".DS_Store", ROUTER_NAME]
    assert not parked.is_symlink() and snapshot(parked) != was  # the parked copy refreshed
    status = route_json(cli, "status")
    assert (status["routed"], status["left"]) == (4, [])
    done = skc("build", "alpha", "-t", "claude")
    assert done.returncode == 0 and (claude / "alpha").is_symlink(), done.stderr
    route_json(cli, "uninstall")
    after = snapshot(claude)
    assert after["copied"][0] == "dir"  # the copy it was, not a symlink
    assert {k: v for k, v in after.items() if not k.startswith("copied/")} == {
        k: v for k, v in before.items() if not k.startswith("copied/")
    }


def test_build_all_reads_the_route_manifests_once(
    cli: Callable[..., Run], layout: Layout, claude: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``build --all`` read every route manifest again for each skill deployed nowhere
    (``routed_from``): the routed names are read once for the batch (``routed_names``), and
    each routed skill still goes behind its router (a parked copy's refresh not counted)."""
    import skillc_index.route.place as place_module
    from skillc_index.build.batch import build_skills
    from skillc_index.build.jobs import batch_jobs

    route_json(cli, "install")
    reads: list[Path] = []
    real = place_module.read_route_manifest

    def counted(path: Path) -> Any:
        import inspect

        refresh = f"route{os.sep}parked.py"  # the refresh of a parked copy
        if not any(frame.filename.endswith(refresh) for frame in inspect.stack()):
            reads.append(path)
        return real(path)

    monkeypatch.setattr(place_module, "read_route_manifest", counted)
    jobs = batch_jobs([], layout, all_skills=True)
    result = build_skills(jobs, layout, workers=1)
    nowhere = {item.job.name: item.deployed_nowhere for item in result.items}
    why = "it is behind the router of .claude/skills (skc route)"
    assert nowhere == {"alpha": why, "beta": why, "copied": why, "linked": why}
    assert reads == [layout.base("project") / ".skillc" / "router" / "claude.json"]
    assert names(claude) == [".DS_Store", ROUTER_NAME]


def test_uninstall_takes_the_place_of_a_deployment_made_while_routed(
    cli: Callable[..., Run], layout: Layout, claude: Path
) -> None:
    """`skc build` of a routed skill deploys it again where it was; uninstall puts the skill
    back in place of that deployment (skillc's own), not "its place is taken" for ever."""
    before = snapshot(claude)
    route_json(cli, "install")
    build_skill("alpha", layout, targets="claude")  # a symlink where alpha's folder was
    build_skill("copied", layout, targets="claude", copy=True)  # a copy: the parked copy's place
    dry = route_json(cli, "uninstall", "--dry-run")
    assert dry["left"] == [] and names(claude) == [".DS_Store", "alpha", "copied", ROUTER_NAME]
    data = route_json(cli, "uninstall")
    actions = {s["name"]: s["action"] for s in data["skills"]}
    assert (actions["alpha"], actions["copied"], data["left"]) == ("restored", "in-place", [])
    assert snapshot(claude) == before
    assert not (layout.store("project") / "alpha").exists()


def test_uninstall_never_removes_a_folder_put_in_place_of_the_deployment_after_its_look(
    layout: Layout, claude: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The deployment ``skc build`` made at a routed skill's place is looked at (skillc's
    own), then the user puts a folder of theirs there: uninstall removed whatever was at
    that name, the user's folder with all it held. It is moved aside and looked at again:
    the user's folder is put back untouched, the skill stays behind the router."""
    route_install(session(layout))
    build_skill("alpha", layout, targets="claude")  # a symlink where alpha's folder was
    looked: list[Path] = []
    real = router_module.redeployed

    def swapped(origin: Path, *args: Any) -> bool:
        found = real(origin, *args)
        looked.append(origin)
        if origin == claude / "alpha":  # skillc's, by this look: the user's folder since
            origin.unlink()
            (origin / "notes").mkdir(parents=True)
            (origin / "notes" / "mine.md").write_text("the user's own\n", encoding="utf-8")
        return found

    monkeypatch.setattr(router_module, "redeployed", swapped)  # _take_redeployed's look
    monkeypatch.setattr(uninstall_module, "redeployed", swapped)  # uninstall's own
    done = route_uninstall(session(layout))
    assert (claude / "alpha" / "notes" / "mine.md").read_text(encoding="utf-8") == (
        "the user's own\n"
    )
    assert looked[0] == claude / "alpha" and len(looked) == 2  # looked at again, aside
    assert [(s.name, s.reason) for s in done.left] == [
        ("alpha", f"{claude / 'alpha'} is taken; left behind the router")
    ]
    assert (layout.store("project") / "alpha" / "SKILL.md").is_file()  # behind the router
    assert not [p.name for p in claude.iterdir() if "skillc-backup" in p.name]


def test_install_without_the_folders_it_moves_between_is_a_dry_run(
    layout: Layout, claude: Path
) -> None:
    """Whether install changes anything is whether it has the folders it moves between
    (``pins``): a run told it was none without them ended on an ``assert`` (stripped by
    ``python -O``: an AttributeError traceback)."""
    from skillc_index.route.commands import _install
    from skillc_index.route.place import route_place

    before = snapshot(claude.parent.parent)
    run = session(layout)
    result, gone = _install(run, route_place(layout, run.config, "claude", False))
    assert (result.dry_run, gone) == (True, None)
    assert {s.name for s in result.skills} == {"alpha", "beta", "copied", "linked"}
    assert snapshot(claude.parent.parent) == before


def _as_an_older_build(copy: Path) -> None:
    """Make the copy skillc wrote at ``copy`` one an older skillc wrote: another stub text,
    an older stub format and build time, its manifest recording them (still skillc's own)."""
    stub = copy / "SKILL.md"
    text = stub.read_text(encoding="utf-8") + "An older stub.\n"
    stub.write_text(text, encoding="utf-8")
    path = copy / ".skillc-meta" / "manifest.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    data |= {"stub_format": 8, "built_at": "2020-01-01T00:00:00Z"}
    data["stub_sha256"] = hashlib.sha256(text.encode("utf-8")).hexdigest()
    path.write_text(json.dumps(data), encoding="utf-8")


def test_a_copy_parked_behind_the_router_is_refreshed_where_it_is(
    cli: Callable[..., Run], layout: Layout, claude: Path, project: Path
) -> None:
    """A --copy stub parked by route install from an older skillc: list calls the skill
    stale; route install and a build of the skill refresh it in its place (the route's
    record of it holds), so that uninstall puts back the runtime's stub. A parked copy the
    user edited is not skillc's: left as it is."""
    from skillc_index.listing.skills import list_skills

    route_json(cli, "install")
    parked = project / ".skillc" / "router" / "claude" / "copied"
    runtime = layout.runtime_store("project") / "copied"
    inode = parked.stat().st_ino

    def status() -> str:
        return {e.name: e.status for e in list_skills(layout).skills}["copied"]

    # (the build deploys the routed skill again, a link: the next install removes it)
    for refresh in (lambda: build_skill("copied", layout), lambda: route_json(cli, "install")):
        _as_an_older_build(parked)
        assert status() == "stale"
        refresh()
        assert (parked / "SKILL.md").read_bytes() == (runtime / "SKILL.md").read_bytes()
        assert parked.stat().st_ino == inode and status() == "normal"
    (parked / "SKILL.md").write_text("mine\n", encoding="utf-8")  # the user's file now
    route_json(cli, "install")
    assert (parked / "SKILL.md").read_text(encoding="utf-8") == "mine\n"
    (parked / "SKILL.md").write_bytes((runtime / "SKILL.md").read_bytes())  # skillc's again
    data = route_json(cli, "uninstall")
    assert {s["name"]: s["action"] for s in data["skills"]}["copied"] == "restored"
    back = claude / "copied" / "SKILL.md"
    assert back.read_bytes() == (runtime / "SKILL.md").read_bytes()


def test_the_runtime_manifest_is_read_once_for_every_parked_copy(
    cli: Callable[..., Run],
    layout: Layout,
    claude: Path,
    project: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A refresh of the copies parked behind routers read the runtime's manifest once to
    find them stale, then once again for each copy it wrote. It is read once to find them
    (and once more under the routes' lock, to look again), each copy written from that."""
    from skillc_index.build import manifest as manifests
    from skillc_index.build.agent_folders import AgentFolders
    from skillc_index.route.parked import refresh_parked

    route_json(cli, "install")
    router = project / ".skillc" / "router"
    shutil.copytree(router / "claude" / "copied", router / "codex" / "copied", symlinks=True)
    parked = [router / agent / "copied" for agent in ("claude", "codex")]
    folders = AgentFolders.of_roots({agent: router / agent for agent in ("claude", "codex")})
    runtime = layout.runtime_store("project") / "copied"
    load, reads = manifests.load_manifest, []

    def counted(folder: Path) -> Any:
        reads.extend([folder] if folder == runtime else [])
        return load(folder)

    monkeypatch.setattr(manifests, "load_manifest", counted)
    for locked, times in ((False, 2), (True, 1)):
        for copy in parked:
            _as_an_older_build(copy)
        reads.clear()
        notices = refresh_parked("copied", "project", None, runtime, layout, locked=locked,
                                 folders=folders)  # fmt: skip
        assert (notices, len(reads)) == ([], times)
        for copy in parked:
            assert (copy / "SKILL.md").read_bytes() == (runtime / "SKILL.md").read_bytes()
            here, there = read_manifest(copy), read_manifest(runtime)
            assert here is not None and there is not None and here.built_at == there.built_at


def test_a_parked_copy_a_route_command_holds_is_a_warning_saying_so(
    cli: Callable[..., Run], layout: Layout, claude: Path, project: Path
) -> None:
    """A build while a route command holds the route folder's lock leaves a stale parked
    copy as it is, with a warning that says the lock is held: no ``error[E999]`` inside it
    (a lock held is no unexpected error)."""
    fcntl = pytest.importorskip("fcntl")
    route_json(cli, "install")
    parked = project / ".skillc" / "router" / "claude" / "copied"
    _as_an_older_build(parked)
    before = snapshot(parked)
    fd = os.open(parked.parent.parent, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        notices = [n.text for n in build_skill("copied", layout).notices]
    finally:
        os.close(fd)
    busy = "another route command is changing '.skillc/router'; try again when it is done"
    assert f"copy .skillc/router/claude/copied not refreshed: {busy}" in notices, notices
    assert snapshot(parked) == before


def test_a_parked_copy_a_full_disk_stops_refreshing_is_left_as_it_was(
    cli: Callable[..., Run],
    layout: Layout,
    claude: Path,
    project: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A refresh of a parked copy that the disk refused after its stub was written left the
    new stub beside the old manifest: the copy was no longer skillc's (never refreshed again,
    list called the skill normal, uninstall put back a folder a build then refused, E050).
    The stub and the manifest are written together: either both or neither."""
    import errno

    import skillc_index.atomic as atomic

    route_json(cli, "install")
    parked = project / ".skillc" / "router" / "claude" / "copied"
    _as_an_older_build(parked)
    before = snapshot(parked)
    written = atomic._written

    def full(path: Path, data: bytes, mode: int | None, **kwargs: Any) -> Path:
        if path.name == "manifest.json" and path.parent.parent == parked:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return written(path, data, mode, **kwargs)

    monkeypatch.setattr(atomic, "_written", full)
    result = build_skill("copied", layout)
    assert any("not refreshed" in notice.text for notice in result.notices)
    assert snapshot(parked) == before
    monkeypatch.undo()
    build_skill("copied", layout)  # skillc's copy still: refreshed once there is room
    runtime = layout.runtime_store("project") / "copied"
    assert (parked / "SKILL.md").read_bytes() == (runtime / "SKILL.md").read_bytes()


def test_install_on_a_full_disk_says_which_file_it_cannot_create(
    cli: Callable[..., Run], claude: Path, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``route install`` on a full disk said ``error[E999]: OSError: [Errno 28] No space left
    on device``, naming no file (its manifest, written first): it says which, and moves
    nothing."""
    import errno

    import skillc_index.atomic as atomic

    before = snapshot(claude)

    def full(path: Path, data: bytes, mode: int | None, **kwargs: Any) -> Path:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))

    monkeypatch.setattr(atomic, "_written", full)
    result = route(cli, "install")
    manifest = project.resolve() / ".skillc" / "router" / "claude.json"
    assert result.returncode == 1
    assert f"error[E999]: cannot create '{manifest}': No space left on device" in result.stderr
    assert snapshot(claude) == before


def test_a_router_the_disk_refuses_moves_no_skill(
    cli: Callable[..., Run], claude: Path, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``route install`` on a nearly full disk moved the skills into the store and built
    them, then failed writing the router: ``error[E999]: OSError: [Errno 28] No space left
    on device``, naming no file, and the agent had neither its skills nor a router. The
    router is written first, beside its place, and renamed in last: the disk refusing it is
    ``cannot create '<agent folder>/skill-router'``, before anything is moved."""
    import errno

    from skillc_index.pinned import Pinned

    before = snapshot(claude)
    write = Pinned.write

    def full(folder: Pinned, *args: Any) -> None:
        if folder.path.name.startswith(f".{ROUTER_NAME}.route."):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(folder.path / "SKILL.md"))
        return write(folder, *args)

    monkeypatch.setattr(Pinned, "write", full)
    result = route(cli, "install")
    router = claude.resolve() / ROUTER_NAME
    assert result.returncode == 1
    assert result.stderr == f"error[E999]: cannot create '{router}': No space left on device\n"
    assert snapshot(claude) == before
    assert not (project / ".skillc" / "router").exists()
    monkeypatch.undo()
    data = route_json(cli, "install")
    assert names(claude) == [".DS_Store", ROUTER_NAME] and data["routed"] == 4


def test_a_parked_relative_link_is_read_from_the_agent_folder(
    cli: Callable[..., Run], layout: Layout, claude: Path
) -> None:
    """Issue 34: a deployment link is relative, so parked under .skillc/router it leads
    nowhere; what it deploys is read from the agent folder it goes back to. A copy built
    where it was is the same deployment: uninstall keeps it and drops the parked link."""
    before = snapshot(claude)
    route_json(cli, "install")
    parked = claude.parent.parent / ".skillc" / "router" / "claude" / "linked"
    assert not parked.exists()  # relative: not from where it is parked
    build_skill("linked", layout, targets="claude", copy=True)  # a copy where the parked link was
    data = route_json(cli, "uninstall")
    actions = {s["name"]: s["action"] for s in data["skills"]}
    assert (actions["linked"], data["left"]) == ("in-place", [])
    assert not os.path.lexists(parked)
    after = snapshot(claude)
    assert after.pop("linked") == ("dir", (claude / "linked").stat().st_mode)
    assert {k: v for k, v in before.items() if not k.startswith("linked")} == {
        k: v for k, v in after.items() if not k.startswith("linked")
    }


def test_a_link_parked_absolute_and_the_same_one_relative_are_one_deployment(
    cli: Callable[..., Run], layout: Layout, claude: Path
) -> None:
    """A link skillc wrote absolute (before issue 34), parked, and the relative one a build
    makes at its place while routed, lead to one runtime: the new one is a duplicate
    (``unlinked``), not "already parked"."""
    link = claude / "linked"
    runtime = link.resolve()
    link.unlink()
    link.symlink_to(runtime)  # as earlier versions wrote it
    route_json(cli, "install")
    build_skill("linked", layout, targets="claude")
    assert str(Path(link).readlink()) == "../../.skillc/runtime/linked"
    data = route_json(cli, "install")
    assert {s["name"]: s["action"] for s in data["skills"]}["linked"] == "unlinked"
    assert data["left"] == []
    route_json(cli, "uninstall")
    assert str(Path(link).readlink()) == str(runtime) and link.resolve() == runtime


def _runtimes(layout: Layout) -> list[str]:
    store = layout.runtime_store("project")
    return sorted(path.name for path in store.iterdir()) if store.is_dir() else []


def test_uninstall_removes_the_runtimes_install_built_and_only_those(
    cli: Callable[..., Run], layout: Layout, claude: Path, project: Path
) -> None:
    """Issue 34: `route uninstall` left every runtime install built (301 of them, 52 MB).
    It removes those install created where there was none; a runtime that was there before
    (beta's: its reads through the agent folder were logged) stays, with what is in it."""
    from skillc_index.accesslog import AccessRecord, insert, primary_log

    beta_runtime = layout.runtime_store("project") / "beta"
    read = AccessRecord(
        command="show", skill="beta", skill_path=str(claude / "beta"), cwd=str(project), args={}
    )
    insert(primary_log(beta_runtime), [read])
    before = _runtimes(layout)
    assert before == ["beta", "copied", "linked"]
    route_json(cli, "install")
    assert _runtimes(layout) == ["alpha", "beta", "copied", "linked"]
    manifest = json.loads((project / ".skillc" / "router" / "claude.json").read_text())
    assert manifest["runtimes"] == ["alpha"]  # beta's was there: not install's
    dry = route_json(cli, "uninstall", "--dry-run")
    assert dry["runtimes_removed"] == [str(layout.runtime_store("project") / "alpha")]
    assert _runtimes(layout) == ["alpha", "beta", "copied", "linked"]  # a dry run
    data = route_json(cli, "uninstall")
    assert data["runtimes_removed"] == dry["runtimes_removed"]
    assert _runtimes(layout) == before
    with closing(sqlite3.connect(primary_log(beta_runtime))) as db:
        assert db.execute("SELECT command FROM access_log").fetchall()[0] == ("show",)
    assert route_json(cli, "install")["routed"] == 4  # and again: the same
    assert json.loads((project / ".skillc" / "router" / "claude.json").read_text())["runtimes"] == [
        "alpha"
    ]
    route_json(cli, "uninstall")
    assert _runtimes(layout) == before


def test_uninstall_takes_out_what_install_added_to_a_runtime_there_before(
    cli: Callable[..., Run], layout: Layout, claude: Path, project: Path
) -> None:
    """A skill read through the agent folder has a runtime (its access log, its index);
    install compiled the store skill into it, and uninstall left the stub and a manifest
    naming a store skill that is gone, and the store skill's index. Uninstall takes out
    what install added, keeps the log (with what was logged meanwhile) and its own index,
    also when the skill comes back only on a later run."""
    from skillc_index import resolve_skill
    from skillc_index.accesslog import AccessRecord, insert, primary_log
    from skillc_index.index.cache import ensure_index

    def read_beta() -> None:  # what `skc outline beta` does: the index, a row of the log
        ensure_index(resolve_skill("beta", layout), "ascii")
        path = str(claude / "beta")
        record = AccessRecord(command="outline", skill="beta", skill_path=path, cwd="/w", args={})
        insert(primary_log(runtime), [record])

    def held() -> list[str]:  # what the runtime holds (not the log's WAL files)
        found = (path.relative_to(runtime).as_posix() for path in runtime.rglob("*"))
        return sorted(rel for rel in found if not rel.endswith(("-wal", "-shm")))

    runtime = layout.runtime_store("project") / "beta"
    read_beta()
    before = held()
    assert "SKILL.md" not in before and ".skillc-meta/logs.db" in before
    assert any(rel.startswith(".skillc-meta/search-") for rel in before)
    route_json(cli, "install")
    assert (runtime / "SKILL.md").is_file()
    taken = agent_skill(claude, "beta", "Made while routed.")  # beta stays behind the router
    route_json(cli, "uninstall")
    assert (runtime / "SKILL.md").is_file()  # still what the router leads to
    manifest = json.loads((project / ".skillc" / "router" / "claude.json").read_text())
    assert manifest.get("runtimes_held") == {
        "beta": [rel for rel in before if rel != ".skillc-meta"]
    }
    shutil.rmtree(taken)
    data = route_json(cli, "uninstall")
    assert str(runtime) not in data["runtimes_removed"]
    assert held() == before
    with closing(sqlite3.connect(primary_log(runtime))) as db:
        rows = db.execute("SELECT command FROM access_log ORDER BY id").fetchall()
    assert rows == [("outline",), ("build",)]
    read_beta()  # read as before, from its own index
    assert held() == before


def test_uninstall_keeps_a_runtime_another_deployment_links_to(
    cli: Callable[..., Run], layout: Layout, claude: Path, project: Path
) -> None:
    """While the router stood, the user deployed a routed skill to another agent (``skc
    build alpha -t cursor``: a link to the runtime install built). Uninstall removed that
    runtime, and Cursor's entry was left a dangling link, the skill gone with no word."""
    route_json(cli, "install")
    built = cli("skillc_index")("build", "alpha", "--target", "cursor")
    assert built.returncode == 0, built.stderr
    entry = project / ".cursor" / "skills" / "alpha"
    assert entry.is_symlink() and (entry / "SKILL.md").is_file()
    done = route(cli, "uninstall", "--format", "json")
    runtimes = layout.runtime_store("project")
    assert json.loads(done.stdout)["runtimes_removed"] == [str(runtimes / "beta")]  # not alpha's
    assert "kept the runtime of 'alpha': .cursor/skills/alpha links to it" in done.stderr
    assert (entry / "SKILL.md").is_file()  # Cursor still reads it
    assert (claude / "alpha" / "SKILL.md").is_file()  # and alpha is back in place


def test_uninstall_keeps_the_access_log_of_a_runtime_agents_used(
    cli: Callable[..., Run], layout: Layout, claude: Path
) -> None:
    """A routed skill read by agents has uses in its runtime's log, which no team store may
    have yet: that log stays, the rest of the runtime goes."""
    from skillc_index.accesslog import AccessRecord, insert, primary_log

    route_json(cli, "install")
    runtime = layout.runtime_store("project") / "alpha"
    store_alpha = str(layout.store("project") / "alpha")
    read = AccessRecord(command="show", skill="alpha", skill_path=store_alpha, cwd="/w", args={})
    insert(primary_log(runtime), [read])  # what `skc show alpha` logs while it is routed
    data = route(cli, "uninstall", "--format", "json")
    assert json.loads(data.stdout)["runtimes_removed"] == [
        str(runtime),
        str(layout.runtime_store("project") / "beta"),
    ]
    assert data.stderr == (
        f"warning: kept the access log {primary_log(runtime)}: agents used 'alpha' while it "
        "was routed\n"
    )
    assert sorted(p.name for p in runtime.rglob("*") if not p.name.endswith(("-wal", "-shm"))) == [
        ".skillc-meta",
        "logs.db",
    ]
    with closing(sqlite3.connect(primary_log(runtime))) as db:
        rows = db.execute("SELECT command FROM access_log ORDER BY id").fetchall()
    assert rows == [("build",), ("show",)]
    assert not (layout.runtime_store("project") / "beta").exists()


def test_uninstall_removes_what_a_build_killed_during_install_left(
    cli: Callable[..., Run], layout: Layout, claude: Path
) -> None:
    """``route install`` killed while it built left a runtime whose log is a database with
    no table yet, and a build's staging folder of a process gone: uninstall kept the log
    ("agents used 'alpha' while it was routed": nobody had) and never removed the staging
    folder. A database without a table holds no use; the staging folders of a dead build of
    a runtime install built are skillc's own. Near miss: the staging folder of a build that
    still runs stays."""
    from skillc_index.accesslog import primary_log

    route_json(cli, "install")
    store = layout.runtime_store("project")
    log = primary_log(store / "alpha")
    for name in (log.name, f"{log.name}-wal", f"{log.name}-shm"):
        (log.parent / name).unlink(missing_ok=True)
    sqlite3.connect(log).close()  # a database file, no table in it
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    killed = store / f".alpha.build.{dead.pid}-0123abcd"
    running = store / f".alpha.build.{os.getpid()}-89abcdef"
    for staging in (killed, running):
        (staging / ".skillc-meta").mkdir(parents=True)
    data = route(cli, "uninstall", "--format", "json")
    assert data.returncode == 0 and data.stderr == ""
    assert str(store / "alpha") in json.loads(data.stdout)["runtimes_removed"]
    assert not (store / "alpha").exists() and not killed.exists()
    assert running.is_dir()


def test_uninstall_removes_a_router_a_killed_install_staged(
    cli: Callable[..., Run], claude: Path
) -> None:
    """``route install`` killed after its manifest left its staged router,
    ``.skill-router.route.<pid>-<hex>``, in the agent folder: only a run writing a router
    again removed it, not uninstall, and the folder uninstall restored held it for good.
    Uninstall removes it (of a process gone); near miss: one a running install is staging
    stays."""
    route_json(cli, "install")
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    killed = claude / f".{ROUTER_NAME}.route.{dead.pid}-0123abcd"
    running = claude / f".{ROUTER_NAME}.route.{os.getpid()}-89abcdef"
    for staged in (killed, running):
        staged.mkdir()
        (staged / "SKILL.md").write_text("---\nname: skill-router\n---\n", encoding="utf-8")
    route_json(cli, "uninstall")
    assert not killed.exists() and running.is_dir()


def test_a_runtime_whose_skill_stays_behind_the_router_stays(
    cli: Callable[..., Run], layout: Layout, claude: Path, project: Path
) -> None:
    route_json(cli, "install")
    agent_skill(claude, "alpha", "Made while routed.")  # alpha's place is taken
    data = route_json(cli, "uninstall")
    assert data["runtimes_removed"] == [str(layout.runtime_store("project") / "beta")]
    assert (layout.runtime_store("project") / "alpha" / "SKILL.md").is_file()
    manifest = json.loads((project / ".skillc" / "router" / "claude.json").read_text())
    assert manifest["runtimes"] == ["alpha"]
    shutil.rmtree(claude / "alpha")
    assert route_json(cli, "uninstall")["runtimes_removed"] == [
        str(layout.runtime_store("project") / "alpha")
    ]
    assert not (layout.runtime_store("project") / "alpha").exists()


def test_uninstall_never_takes_the_place_of_what_skillc_did_not_make(
    cli: Callable[..., Run], layout: Layout, claude: Path, tmp_path: Path
) -> None:
    route_json(cli, "install")
    other = agent_skill(tmp_path / "elsewhere", "alpha")
    (claude / "alpha").symlink_to(other)  # a link of the user's, to another alpha
    data = route_json(cli, "uninstall")
    assert [(s["name"], s["reason"]) for s in data["left"]] == [
        ("alpha", f"{claude / 'alpha'} is taken; left behind the router")
    ]
    assert (claude / "alpha").readlink() == other


def test_clashes_are_left_in_place_and_reported(
    cli: Callable[..., Run], layout: Layout, claude: Path, write_skill: WriteSkill, tmp_path: Path
) -> None:
    write_skill(layout.store("project") / "alpha", body="A different alpha.")
    elsewhere = agent_skill(tmp_path / "elsewhere", "outside")
    (claude / "outside").symlink_to(elsewhere)
    orphan = write_skill(layout.store("project") / "orphan")
    build_skill("orphan", layout)
    (orphan / "SKILL.md").unlink()
    orphan.rmdir()  # its deployment stays, to a runtime whose source is gone
    data = route_json(cli, "install")
    left = {skill["name"]: skill["reason"] for skill in data["left"]}
    runtime = layout.runtime_store("project") / "orphan"
    assert left == {
        "alpha": "the project store already has a skill named 'alpha'",
        "orphan": f"a deployment skillc made of {runtime}, but its source is in no store",
        "outside": f"a symlink to {elsewhere} that skillc did not make (skillc never moves "
        "what a link points to)",
    }
    assert names(claude) == [".DS_Store", "alpha", "orphan", "outside", ROUTER_NAME]
    assert (
        (layout.store("project") / "alpha" / "SKILL.md").read_text().endswith("A different alpha.")
    )
    assert data["routed"] == 3
    status = route_json(cli, "status")
    assert sorted(skill["name"] for skill in status["left"]) == ["alpha", "orphan", "outside"]


def test_a_skill_that_does_not_build_is_left_and_the_dry_run_says_so(
    cli: Callable[..., Run], layout: Layout, claude: Path, project: Path
) -> None:
    agent_skill(claude, "broken", description="")  # no description: E011
    bad = claude / "bad-yaml"
    bad.mkdir()
    (bad / "SKILL.md").write_text("---\nname: bad-yaml\ndescription: [unclosed\n---\n")
    (claude / "leaks").mkdir()
    (claude / "leaks" / "SKILL.md").write_text("---\nname: leaks\ndescription: d\n---\n")
    (claude / "leaks" / "secret.md").symlink_to(project / "outside.md")  # out of the skill: E012
    before = snapshot(claude)
    dry = route(cli, "install", "--dry-run")
    real = route(cli, "install")  # the others routed: a failure all the same (the ruling)
    assert (dry.returncode, real.returncode) == (1, 1), real.stderr
    lefts = [line for line in real.stdout.splitlines() if line.startswith("left:")]
    assert lefts == [line for line in dry.stdout.splitlines() if line.startswith("left:")]
    assert lefts == [
        "left: .claude/skills/bad-yaml: does not build: error[E011]: missing frontmatter field "
        "'name' in SKILL.md; invalid frontmatter YAML: while parsing a flow sequence (line 3, "
        "column 14): did not find expected ',' or ']' (line 4, column 1)",
        "left: .claude/skills/broken: does not build: error[E011]: missing frontmatter field "
        "'description' in SKILL.md",
        "left: .claude/skills/leaks: does not build: error[E012]: path escapes skill root: "
        "'secret.md'",
    ]
    # what the agent lists: the router and the three skills left
    assert dry.stdout.splitlines()[-1] == (
        "claude (project) .claude/skills would list 4 skills: skill-router, for 4 skills in "
        ".skillc/skills, and 3 skills left in place (does not build: 3)"
    )
    assert real.stdout.splitlines()[-1] == dry.stdout.splitlines()[-1].replace(
        "would list", "lists"
    )
    for name in ("bad-yaml", "broken", "leaks"):
        assert not (layout.store("project") / name).exists()
    after = snapshot(claude)
    assert {k: v for k, v in after.items() if k.startswith(("broken", "bad-yaml", "leaks"))} == {
        k: v for k, v in before.items() if k.startswith(("broken", "bad-yaml", "leaks"))
    }
    budget = json.loads(cli("skillc_index")("list", "--budget", "--format", "json").stdout)
    assert budget["budget"][0]["skills"] == 4
    assert route_json(cli, "status")["routed"] == 4


def test_a_skill_that_fails_to_compile_once_moved_is_put_back(
    cli: Callable[..., Run], layout: Layout, claude: Path, unreadable: Callable[[Path], None]
) -> None:
    """What only the compile finds (a file it cannot read) is put back where it was."""
    broken = agent_skill(claude, "gamma")
    guide = broken / "references" / "guide.md"
    mode = guide.stat().st_mode & 0o7777
    before = snapshot(broken)  # (a user cannot read the file once it is unreadable)
    unreadable(guide)
    data = route_json(cli, "install", status=1)
    (left,) = data["left"]
    assert (left["name"], left["reason"]) == (
        "gamma",
        "put back: cannot be read: Permission denied",
    )
    assert data["routed"] == 4 and not (layout.store("project") / "gamma").exists()
    text = route(cli, "install")
    assert text.stdout.splitlines()[-1].startswith(
        "claude (project) .claude/skills lists 2 skills: skill-router, for 4 skills in "
        ".skillc/skills, and 1 skill left in place (cannot be read: 1)"
    )
    guide.chmod(mode)
    assert snapshot(broken) == before


@pytest.mark.usefixtures("skc_on_path")  # its warning is no error line: PATH decides it
def test_no_router_is_written_when_no_skill_could_be_routed(
    cli: Callable[..., Run], project: Path, unreadable: Callable[[Path], None]
) -> None:
    """Every skill moved was put back: the router "for 0 skills" added a listing entry that
    led nowhere; now nothing of the route is left (manifest, folders, .gitignore lines).
    The install failed, and exited 0 all the same: exit 1, each failure an error line naming
    the skill, in every format (as a build none of whose skills built). Near miss: skills
    left by the rules alone (their names taken in the store) are no failure: exit 0."""
    folder = project / ".claude" / "skills"
    broken = agent_skill(folder, "gamma")
    before = snapshot(project)
    unreadable(broken / "references" / "guide.md")
    data = route_json(cli, "install", status=1)
    assert (data["router"], data["routed"], data["skills"]) == (None, 0, [])
    assert [left["name"] for left in data["left"]] == ["gamma"]
    assert names(folder) == ["gamma"]
    text = route(cli, "install")
    assert text.returncode == 1
    assert text.stdout.splitlines()[-1] == (
        "claude (project) .claude/skills: no skill routed, so no router; 1 skill left in "
        "place (cannot be read: 1)"
    )
    [error] = text.stderr.splitlines()
    assert error.startswith("error[E999]: .claude/skills/gamma: cannot read "), error
    (broken / "references" / "guide.md").chmod(0o644)
    assert snapshot(project) == before
    agent_skill(project / ".skillc" / "skills", "gamma")  # its name taken: left by the rules
    text = route(cli, "install")
    assert (text.returncode, text.stderr) == (0, "")
    # a real run, not a dry one: it said "no skill would be routed", its JSON "dry_run": true
    assert text.stdout.splitlines()[-1] == (
        "claude (project) .claude/skills: no skill routed, so no router; 1 skill left in "
        "place (name taken in the store: 1)"
    )
    assert route_json(cli, "install")["dry_run"] is False
    assert route_json(cli, "install", "--dry-run")["dry_run"] is True


@pytest.mark.usefixtures("skc_on_path")  # no warning that skc is not on PATH
def test_the_installed_command_fails_when_no_skill_builds(
    cli: Callable[..., Run], project: Path
) -> None:
    """The user's case, with the installed command: an agent folder of drafts none of which
    builds (no ``name``). ``route install`` routed nothing and exited 0; it exits 1 with an
    error line per skill (in every format, the dry run too), as ``build`` of skills none of
    which built; once one builds it is routed, and the other, listed, still fails the
    install (the lead's ruling: as a batch ``build`` one of whose skills failed)."""
    folder = project / ".claude" / "skills"
    for name in ("alpha", "beta"):
        (folder / name).mkdir(parents=True)
        (folder / name / "SKILL.md").write_text(
            f"---\ndescription: Draft {name}.\n---\n\n# {name}\n", encoding="utf-8"
        )
    skc = cli("skillc-index", script=True)
    errors = [
        f"error[E011]: .claude/skills/{name}: missing frontmatter field 'name' in SKILL.md"
        for name in ("alpha", "beta")
    ]
    for args in ((), ("--dry-run",), ("--format", "json")):
        done = skc("route", "install", *args)
        assert (done.returncode, done.stderr.splitlines()) == (1, errors), args
        assert "Traceback" not in done.stderr
    assert sorted(p.name for p in folder.iterdir()) == ["alpha", "beta"]
    (folder / "alpha" / "SKILL.md").write_text(
        "---\nname: alpha\ndescription: Draft alpha.\n---\n\n# alpha\n", encoding="utf-8"
    )
    done = skc("route", "install")
    assert (done.returncode, done.stderr.splitlines()) == (1, errors[1:]), done.stderr
    assert "left: .claude/skills/beta: does not build: error[E011]" in done.stdout
    assert sorted(p.name for p in folder.iterdir()) == ["beta", "skill-router"]


@pytest.mark.usefixtures("skc_on_path")  # its warning is no error line: PATH decides it
def test_a_runtime_store_that_is_a_file_is_named_not_a_folder_changed(
    cli: Callable[..., Run], project: Path
) -> None:
    """``.skillc/runtime`` a regular file: the skill was put back with E022 ``directory not
    found ... it changed on disk while it was read; run the command again``, which no run
    again changes. The build names the entry in the way (E999), and changes nothing there."""
    folder = project / ".claude" / "skills"
    agent_skill(folder, "gamma")
    runtime = project / ".skillc" / "runtime"
    if runtime.exists():
        shutil.rmtree(runtime)
    runtime.write_text("not a folder\n", encoding="utf-8")
    shown = os.path.realpath(runtime)
    why = f"the runtime '{shown}' is not a folder; move it away and rebuild"
    text = route(cli, "install")
    assert (text.returncode, text.stderr.splitlines()) == (
        1,
        [f"error[E999]: .claude/skills/gamma: {why}"],
    )
    assert f"left: .claude/skills/gamma: put back: does not build: error[E999]: {why}" in (
        text.stdout.splitlines()
    )
    assert names(folder) == ["gamma"]
    assert runtime.read_text(encoding="utf-8") == "not a folder\n"


def test_a_skill_put_back_because_its_runtime_cannot_be_written_names_the_folder(
    cli: Callable[..., Run], layout: Layout, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A read-only runtime folder: the skill, readable, was said to "cannot be read"."""
    agent_skill(project / ".claude" / "skills", "gamma")
    runtimes = layout.runtime_store("project")
    runtimes.mkdir(parents=True, exist_ok=True)
    real_mkdir = os.mkdir

    def mkdir(path: Any, *args: Any, dir_fd: int | None = None, **kwargs: Any) -> None:
        if dir_fd is None:  # by path, or in a folder's descriptor (the runtime store's)
            denied = Path(path).parent == runtimes
        else:
            denied = os.path.samestat(os.fstat(dir_fd), runtimes.stat())
        if denied:
            raise PermissionError(13, "Permission denied", os.fspath(path))
        real_mkdir(path, *args, dir_fd=dir_fd, **kwargs)

    monkeypatch.setattr(os, "mkdir", mkdir)
    data = route_json(cli, "install", status=1)
    assert [(left["name"], left["reason"]) for left in data["left"]] == [
        ("gamma", "put back: cannot write .skillc/runtime/gamma: Permission denied")
    ]


def test_a_read_only_skill_folder_is_left_by_the_dry_run_and_the_run(
    cli: Callable[..., Run], claude: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A folder moves to another parent only when it is writable (its ``..`` changes); root
    moves it anyway, so the test makes ``os.access`` say what it says to a user."""
    real_access = os.access

    def access(path: Any, mode: int, **kwargs: Any) -> bool:
        if os.fspath(path) == str(claude / "beta") and mode & os.W_OK:
            return False
        return real_access(path, mode, **kwargs)

    monkeypatch.setattr(os, "access", access)
    reasons = {}
    for run in ("--dry-run", None):  # the others routed, the install failed all the same
        data = route_json(cli, "install", *([run] if run else []), status=1)
        assert data["routed"] == 3
        reasons[run] = {skill["name"]: skill["reason"] for skill in data["left"]}
    assert reasons["--dry-run"] == reasons[None] == {"beta": "not moved (Permission denied)"}
    assert (claude / "beta" / "SKILL.md").is_file()
    text = route(cli, "install")
    assert text.returncode == 1
    assert text.stderr.splitlines()[-1] == (
        "error[E999]: cannot move '.claude/skills/beta': Permission denied"
    )


def test_uninstall_fails_when_a_skill_cannot_be_moved_back(
    cli: Callable[..., Run], claude: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A skill whose move back the system refuses stays behind the router, listed: the
    uninstall put the others back and exited 0. It fails, as a batch ``build`` one of whose
    skills failed: an error line naming the skill, exit status 1; run again, it finishes."""
    commands = uninstall_module  # its moves back
    route_json(cli, "install")
    real_move = commands._move

    def move(origin: Any, destination: Any, name: str) -> None:
        if name == "beta":
            raise PermissionError(errno.EACCES, "Permission denied")
        real_move(origin, destination, name)

    monkeypatch.setattr(commands, "_move", move)
    data = route_json(cli, "uninstall", status=1)
    assert [(s["name"], s["reason"]) for s in data["left"]] == [
        ("beta", "not moved back (Permission denied)")
    ]
    assert "beta" not in names(claude) and "alpha" in names(claude)
    monkeypatch.setattr(commands, "_move", real_move)
    again = route(cli, "uninstall")
    assert (again.returncode, again.stderr) == (0, ""), again.stderr
    assert "beta" in names(claude)


def read_only(monkeypatch: pytest.MonkeyPatch, *folders: Path) -> None:
    """``os.access`` says ``folders`` cannot be written, as it says to a user (root writes)."""
    real_access = os.access

    def access(path: Any, mode: int, **kwargs: Any) -> bool:
        if os.fspath(path) in {str(folder) for folder in folders} and mode & os.W_OK:
            return False
        return real_access(path, mode, **kwargs)

    monkeypatch.setattr(os, "access", access)


@pytest.mark.parametrize(
    ("command", "folder", "named"),
    [
        ("install", ".claude/skills", "agent folder '.claude/skills'"),
        ("install", ".skillc", "route folder '.skillc/router'"),
        ("uninstall", ".skillc/router", "route folder '.skillc/router'"),
    ],
)
def test_a_folder_route_cannot_write_is_refused_before_anything_changes(
    cli: Callable[..., Run],
    claude: Path,
    project: Path,
    monkeypatch: pytest.MonkeyPatch,
    command: str,
    folder: str,
    named: str,
) -> None:
    """A read-only agent folder (no skill can move out, nor the router in) or ``.skillc``
    (``.skillc/router``, the manifest and the lock, cannot be made): install said each skill
    would move, then died (E999 PermissionError) with the manifest left "installing"; with
    a read-only ``.skillc/router``, uninstall put every skill back, then died writing the
    manifest, left "installed". Each is refused first, by the dry run too."""
    if command == "uninstall":
        route_json(cli, "install")
    read_only(monkeypatch, project / folder)
    with unchanged(project):
        for run in (["--dry-run"], []):
            result = route(cli, command, *run)
            assert (result.returncode, result.stdout) == (1, "")
            assert result.stderr.splitlines() == [
                f"error[E999]: {named} is not writable (permission denied)"
            ]


def test_uninstall_keeps_the_router_while_a_skill_is_behind_it(
    cli: Callable[..., Run], layout: Layout, claude: Path, project: Path
) -> None:
    before = snapshot(claude)
    route_json(cli, "install")
    agent_skill(claude, "alpha", "Made while routed.")  # alpha's place is taken
    dry = route(cli, "uninstall", "--dry-run")
    assert dry.stdout.splitlines()[-1] == (
        "claude (project) .claude/skills: 3 skills would go back; the router would be kept: "
        "1 skill still behind it: alpha (its place is taken); 1 runtime built by install would "
        "be removed"
    )
    undone = route(cli, "uninstall")
    assert undone.returncode == 0, undone.stderr
    assert undone.stdout.splitlines() == [
        "restored: .skillc/skills/beta -> .claude/skills/beta",
        "restored: .skillc/router/claude/copied -> .claude/skills/copied",
        "restored: .skillc/router/claude/linked -> .claude/skills/linked",
        f"left: .skillc/skills/alpha: {claude / 'alpha'} is taken; left behind the router",
        "claude (project) .claude/skills: 3 skills put back; router kept: 1 skill still behind "
        "it: alpha (its place is taken); 1 runtime built by install removed",
    ]
    # the agent is still pointed to alpha: the router stays, and counts what is behind it
    assert (layout.store("project") / "alpha").is_dir()
    assert "among 1 skill " in (claude / ROUTER_NAME / "SKILL.md").read_text(encoding="utf-8")
    status = route(cli, "status")
    assert status.stdout.splitlines()[0] == (
        "claude (project) .claude/skills: router installed, 1 skill behind it"
    )
    data = route_json(cli, "uninstall")  # nothing changed: the same
    assert data["routed"] == 1 and data["router"] == str(claude / ROUTER_NAME)
    assert data["router_removed"] is False
    assert data["left"] == [
        {
            "name": "alpha",
            "path": str(layout.store("project") / "alpha"),
            "reason": f"{claude / 'alpha'} is taken; left behind the router",
        }
    ]
    assert (project / ".skillc" / "router" / "claude.json").is_file()  # kept for a later run
    shutil.rmtree(claude / "alpha")  # the place is free again: alpha goes back, router goes
    again = route(cli, "uninstall")
    assert again.stdout.splitlines() == [
        "restored: .skillc/skills/alpha -> .claude/skills/alpha",
        "claude (project) .claude/skills: 1 skill put back; router removed; 1 runtime built by "
        "install removed",
    ]
    assert snapshot(claude) == before
    assert route(cli, "uninstall").stdout == (
        "claude (project) .claude/skills: no router to remove, nothing is routed\n"
    )


def test_uninstall_says_when_there_is_no_router_to_remove(
    cli: Callable[..., Run], claude: Path
) -> None:
    route_json(cli, "install")
    shutil.rmtree(claude / ROUTER_NAME)  # removed by hand
    undone = route(cli, "uninstall")
    assert undone.stdout.splitlines()[-1] == (
        "claude (project) .claude/skills: 4 skills put back; no router to remove; 2 runtimes "
        "built by install removed"
    )
    assert route_json(cli, "status")["routed"] == 0


def test_an_interrupted_install_is_finished_or_undone_by_running_again(
    layout: Layout, claude: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = snapshot(claude)
    real_move = router_module._move
    calls: list[str] = []

    def killed_on_the_third_move(origin: Any, destination: Any, name: str) -> None:
        calls.append(name)
        if len(calls) == 3:
            raise KeyboardInterrupt
        real_move(origin, destination, name)

    monkeypatch.setattr(router_module, "_move", killed_on_the_third_move)
    with pytest.raises(KeyboardInterrupt):
        route_install(session(layout))
    monkeypatch.setattr(router_module, "_move", real_move)
    manifest = json.loads((layout.project_root / ".skillc" / "router" / "claude.json").read_text())  # type: ignore[operator]
    assert manifest["state"] == "installing" and len(manifest["entries"]) == 4
    assert names(claude) == [".DS_Store", "copied", "linked"]  # two moved

    status = route_status(session(layout))
    assert sorted((s.name, s.action) for s in status.skills) == [
        ("alpha", "routed"),
        ("beta", "routed"),
        ("copied", "in-place"),
        ("linked", "in-place"),
    ]
    undone = route_uninstall(session(layout))  # undoing the half-done run
    assert snapshot(claude) == before
    assert sorted(s.action for s in undone.skills) == [
        "in-place",
        "in-place",
        "restored",
        "restored",
    ]

    monkeypatch.setattr(router_module, "_move", killed_on_the_third_move)
    calls.clear()
    with pytest.raises(KeyboardInterrupt):
        route_install(session(layout))
    monkeypatch.setattr(router_module, "_move", real_move)
    finished = route_install(session(layout))  # finishing it
    assert finished.routed == 4
    assert names(claude) == [".DS_Store", ROUTER_NAME]
    route_uninstall(session(layout))
    assert snapshot(claude) == before


def test_the_global_folder(cli: Callable[..., Run], home: Path, tmp_path: Path) -> None:
    folder = home / ".agents" / "skills"  # Codex reads the cross-agent folder
    agent_skill(folder, "mine")
    before = snapshot(folder)
    outside = tmp_path / "anywhere"
    outside.mkdir()
    data = route_json_in(cli, outside, "install", "--global", "--target", "codex")
    assert data["scope"] == "global" and data["store"] == str(home / ".skillc" / "skills")
    assert (home / ".skillc" / "skills" / "mine" / "SKILL.md").is_file()
    assert names(folder) == [ROUTER_NAME]
    assert (
        "skc route uninstall --target codex --global"
        in (folder / ROUTER_NAME / "SKILL.md").read_text()
    )
    route_json_in(cli, outside, "uninstall", "-g", "-t", "codex")
    assert snapshot(folder) == before


def test_status_skips_what_cannot_be_read(
    cli: Callable[..., Run], claude: Path, home: Path, unreadable: Callable[[Path], None]
) -> None:
    (claude / "loop").mkdir()
    (claude / "loop" / "SKILL.md").symlink_to("SKILL.md")  # unreadable even for root
    status = route(cli, "status")
    assert status.returncode == 0, status.stderr
    assert status.stderr == (
        f"warning: 1 entry of {claude} skipped, cannot be read: loop (Too many levels of "
        "symbolic links)\n"
    )
    assert status.stdout.splitlines()[-1] == (
        "Not behind the router (4): alpha, beta, copied, linked"
    )
    unreadable(claude / "alpha")
    agent_skill(home / ".claude" / "skills", "mine")
    unreadable(home / ".claude")
    data = route_json(cli, "status")
    assert [skill["name"] for skill in data["left"]] == ["beta", "copied", "linked"]
    glob = route(cli, "status", "--global")
    assert glob.returncode == 0, glob.stderr
    assert glob.stdout == "claude (global) ~/.claude/skills: no router, 0 skills behind it\n"
    assert glob.stderr == (
        f"warning: agent folder {home / '.claude' / 'skills'} cannot be listed (Permission "
        "denied)\n"
    )
    installed = route_json(cli, "install")  # what cannot be read stays where it is
    assert installed["routed"] == 3
    assert (claude / "alpha").is_dir() and (claude / "loop").is_dir()


def test_install_leaves_a_skill_md_that_cannot_be_read(
    cli: Callable[..., Run], claude: Path, unreadable: Callable[[Path], None]
) -> None:
    unreadable(claude / "beta" / "SKILL.md")
    installed = route_json(cli, "install", status=1)
    reasons = {skill["name"]: skill["reason"] for skill in installed["left"]}
    assert reasons == {"beta": "cannot be read: Permission denied"}, reasons
    assert (claude / "beta" / "SKILL.md").exists()


def route_json_in(cli: Callable[..., Run], cwd: Path, *args: str) -> dict[str, Any]:
    result = route(cli, *args, "--format", "json", cwd=cwd)
    assert result.returncode == 0, result.stderr
    data: dict[str, Any] = json.loads(result.stdout)
    return data


@contextmanager
def unchanged(*roots: Path) -> Iterator[None]:
    before = [snapshot(root) for root in roots]
    yield
    assert [snapshot(root) for root in roots] == before


def test_refusals_change_nothing(
    cli: Callable[..., Run], claude: Path, project: Path, home: Path, tmp_path: Path
) -> None:
    outside = tmp_path / "nowhere"
    outside.mkdir()
    with unchanged(project, home):
        result = route(cli, "install", cwd=outside)
        assert result.returncode == 1
        assert result.stderr.splitlines() == [
            "error[E100]: invalid option: 'not inside a skillc project: make this folder one "
            "with 'skc init' first, or route the home folder's skills with --global'"
        ]
        # in the home folder `init` makes the global store, never a project: not advised
        in_home = route(cli, "install", cwd=home)
        assert in_home.stderr.splitlines() == [
            "error[E100]: invalid option: 'the home folder is never a skillc project: route "
            "the home folder's skills with --global'"
        ]
        unknown = route(cli, "install", "--target", "nope")
        assert unknown.stderr.startswith('error[E100]: invalid option: \'unknown target "nope"')
        assert unknown.stderr.endswith("\nTry 'skillc-index route install --help' for help.\n")
        folder = route(cli, "install", "--target", "./x")
        assert folder.returncode == 1 and 'unknown target "./x"' in folder.stderr


def test_a_foreign_router_name_refuses_everything(
    cli: Callable[..., Run], claude: Path, project: Path, tmp_path: Path
) -> None:
    (claude / ROUTER_NAME).symlink_to(agent_skill(tmp_path / "x", ROUTER_NAME))
    with unchanged(project):
        result = route(cli, "install")
    assert result.returncode == 1
    assert result.stderr.startswith(f"error[E050]: skill '{ROUTER_NAME}' already exists")


def test_a_skill_named_like_the_router_is_routed_and_restored(
    cli: Callable[..., Run], claude: Path
) -> None:
    agent_skill(claude, ROUTER_NAME, "My own router.")
    before = snapshot(claude)
    data = route_json(cli, "install")
    assert data["routed"] == 5
    assert (claude / ROUTER_NAME / ROUTER_MARK).is_file()
    agent_skill(claude, "alpha", "Made while routed.")  # keeps the router: so does the user's
    kept = route(cli, "uninstall")
    assert kept.stdout.splitlines()[-1] == (
        "claude (project) .claude/skills: 3 skills put back; router kept: 2 skills still behind "
        "it: alpha (its place is taken), skill-router (its place is the router's); 1 runtime "
        "built by install removed"
    )
    assert (claude / ROUTER_NAME / ROUTER_MARK).is_file()
    shutil.rmtree(claude / "alpha")
    route_json(cli, "uninstall")
    assert snapshot(claude) == before


def test_a_router_skillc_never_wrote_is_routed_as_a_skill(
    cli: Callable[..., Run], claude: Path
) -> None:
    """A folder holding the router's marker, though no route of skillc's is recorded here
    (copied from elsewhere, or made by hand): a skill like any other, routed and restored;
    the router the agent lists is skillc's."""
    folder = agent_skill(claude, ROUTER_NAME, "My own router.")
    (folder / ROUTER_MARK).write_text('{"skillc": "router", "version": 1}\n')
    before = snapshot(claude)
    data = route_json(cli, "install")
    assert data["routed"] == 5
    assert "skc find" in (claude / ROUTER_NAME / "SKILL.md").read_text()
    route_json(cli, "uninstall")
    assert snapshot(claude) == before


def test_a_folder_two_agents_share_is_routed_once(cli: Callable[..., Run], project: Path) -> None:
    """``codex`` and ``agents`` share ``.agents/skills``: routed as one, the other name is
    refused before anything moves, and the first route's round trip stays whole."""
    folder = project / ".agents" / "skills"
    for name in ("b1", "b2"):
        agent_skill(folder, name)
    before = snapshot(folder)
    assert route(cli, "install", "-t", "codex").returncode == 0
    agent_skill(folder, "b4")
    with unchanged(project):
        refused = route(cli, "install", "-t", "agents")
    assert refused.returncode == 1
    assert refused.stderr.startswith(
        "error[E100]: invalid option: 'the folder '.agents/skills' is routed already, as 'codex'"
    )
    # status and uninstall under the other name say so too: status said "0 skills behind
    # it" and that the router was edited, uninstall that nothing was routed
    for command in ("status", "uninstall"):
        with unchanged(project):
            other = route(cli, command, "-t", "agents")
        assert other.returncode == 1
        assert "is routed already, as 'codex'" in other.stderr, other.stderr
    shutil.rmtree(folder / "b4")
    assert route(cli, "uninstall", "-t", "codex").returncode == 0
    assert snapshot(folder) == before


def test_an_agent_folder_leading_outside_the_project_is_refused(
    cli: Callable[..., Run], project: Path, tmp_path: Path
) -> None:
    (project / ".skillc" / "skills").mkdir(parents=True, exist_ok=True)
    elsewhere = tmp_path / "elsewhere"
    agent_skill(elsewhere, "alpha")
    (project / ".claude").mkdir()
    (project / ".claude" / "skills").symlink_to(elsewhere)
    with unchanged(project, elsewhere):
        result = route(cli, "install")
    assert result.returncode == 1
    assert result.stderr.startswith(
        "error[E100]: invalid option: 'agent folder '.claude/skills' leads outside the project"
    )


@pytest.mark.parametrize(
    ("value", "scope"),
    [
        ("~/.ssh", ("--global",)),
        ("../elsewhere", ()),
        ("../elsewhere", ("--global",)),
        ("agents-here", ("--global",)),
    ],
)
def test_a_project_config_s_agent_folder_outside_the_project_is_refused(
    cli: Callable[..., Run], project: Path, home: Path, value: str, scope: tuple[str, ...]
) -> None:
    """A checkout's ``[targets] claude = "~/.ssh"`` never routes a folder of the home (nor any
    outside the project): with ``--global`` the skills of ``~/.ssh`` were moved into the store
    and the router written there; ``build --global`` refuses the same entry (E100). A
    relative entry is the home's folder for ``--global``: refused too."""
    (project / ".skillc" / "skills").mkdir(parents=True, exist_ok=True)
    (project / ".skillc" / "config.toml").write_text(f'[targets]\nclaude = "{value}"\n')
    for folder in (home / ".ssh", project.parent / "elsewhere", home / "agents-here"):
        agent_skill(folder, "decoy")
    with unchanged(home, project.parent / "elsewhere", project):
        for command in ("install", "uninstall"):
            result = route(cli, command, *scope)
            assert result.returncode == 1
            assert result.stderr.startswith("error[E100]: invalid option: 'agent folder '")
            assert "of the project's config leads outside the project, to " in result.stderr


def test_a_parking_folder_leading_outside_is_refused(
    cli: Callable[..., Run], claude: Path, project: Path, tmp_path: Path
) -> None:
    """A checkout's ``.skillc/router/claude`` link never receives the parked deployments."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (project / ".skillc" / "router").mkdir(parents=True, exist_ok=True)
    (project / ".skillc" / "router" / "claude").symlink_to(elsewhere)
    with unchanged(project, elsewhere):
        result = route(cli, "install")
    assert result.returncode == 1
    assert result.stderr.startswith(
        "error[E100]: invalid option: 'parking folder '.skillc/router/claude' leads outside"
    )


def test_a_skill_too_large_to_index_is_left_in_place(
    cli: Callable[..., Run], claude: Path, project: Path
) -> None:
    """An installed skill is a stranger's: one over the bounds of an index (a sparse 40 MiB
    Markdown file here; a 2 GiB one was read whole) is never moved, by the dry run and the
    run alike (its files' stats say so before anything is read; it was moved, compiled and
    put back)."""
    big = agent_skill(claude, "big")
    with (big / "huge.md").open("wb") as handle:
        handle.truncate(40 << 20)
    line = (
        "left: .claude/skills/big: does not build: error[E002]: search index "
        "unusable for 'big': too large to index (40.0 MiB of Markdown and text, "
        "more than 32 MiB)"
    )
    dry = route(cli, "install", "--dry-run")
    assert dry.returncode == 1, dry.stderr
    assert line in dry.stdout.splitlines()
    result = route(cli, "install")
    assert result.returncode == 1, result.stderr
    assert line in result.stdout.splitlines()
    assert (claude / "big" / "SKILL.md").is_file() and (claude / "skill-router").is_dir()
    assert not (project / ".skillc" / "skills" / "big").exists()


def test_a_manifest_naming_a_folder_outside_is_refused(
    cli: Callable[..., Run], claude: Path, project: Path
) -> None:
    route_json(cli, "install")
    manifest = project / ".skillc" / "router" / "claude.json"
    data = json.loads(manifest.read_text())
    data["folder"] = "../.."
    manifest.write_text(json.dumps(data))
    with unchanged(project):
        result = route(cli, "uninstall")
    assert result.returncode == 1
    assert "leads outside the project" in result.stderr


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("folder", None),
        ("folder", 7),
        ("name", None),
        ("name", 12),
        ("dev", 1e400),
        ("ino", "5"),
        ("content", 5),
    ],
)
def test_a_manifest_whose_values_are_not_of_their_type_is_refused_naming_it(
    cli: Callable[..., Run], claude: Path, project: Path, field: str, value: object
) -> None:
    """A manifest that a checkout ships, with ``"folder": null``: ``route uninstall`` put the
    skills back into ``<project>/None/`` (the value read as a string), and a ``dev`` of
    ``1e400`` was an OverflowError that did not name the file. Each value must be of its
    type: E999 naming the manifest, nothing moved."""
    route_json(cli, "install")
    manifest = project / ".skillc" / "router" / "claude.json"
    data = json.loads(manifest.read_text())
    if field == "folder":
        data["folder"] = value
    else:
        data["entries"][0][field] = value
    manifest.write_text(json.dumps(data))
    with unchanged(project):
        result = route(cli, "uninstall")
    assert result.returncode == 1  # (Infinity is no JSON: the file cannot be read as such)
    assert result.stderr.startswith("error[E999]: ") and f"manifest '{manifest}'" in result.stderr


def test_another_route_command_at_work_is_e999(
    cli: Callable[..., Run], claude: Path, project: Path
) -> None:
    fcntl = pytest.importorskip("fcntl")
    routes = project / ".skillc" / "router"
    routes.mkdir()
    fd = os.open(routes, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        with unchanged(claude):
            result = route(cli, "install")
    finally:
        os.close(fd)
    assert result.returncode == 1
    assert result.stderr.startswith("error[E999]: another route command is changing")
    assert route(cli, "install").returncode == 0


#: Tests that run git: skipped where it is not installed.
needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def project_git(project: Path) -> Callable[..., str]:
    """``git(*args)`` in ``project`` with an identity and no signing; its stdout."""

    def git(*args: str) -> str:
        done = subprocess.run(
            ["git", "-C", str(project), "-c", "user.name=t", "-c", "user.email=t@t",
             "-c", "commit.gpgsign=false", *args],
            check=True, capture_output=True, text=True,
        )  # fmt: skip
        return done.stdout

    return git


@needs_git
def test_a_skill_git_tracks_is_left_in_place(
    cli: Callable[..., Run], layout: Layout, claude: Path, project: Path
) -> None:
    """Moving a tracked skill folder would show in ``git status`` as deleted: it stays."""

    git = project_git(project)
    git("init", "-q")
    git("add", "--", ".claude/skills/alpha")
    git("commit", "-q", "-m", "alpha")
    data = route_json(cli, "install")
    assert data["left"] == [
        {"name": "alpha", "path": str(claude / "alpha"), "reason": "tracked by git"}
    ]
    assert {skill["name"] for skill in data["skills"]} == {"beta", "copied", "linked"}
    assert names(claude) == [".DS_Store", "alpha", ROUTER_NAME]
    assert not (layout.store("project") / "alpha").exists()
    assert git("status", "--porcelain", "--", ".claude/skills/alpha") == ""


@needs_git
def test_a_skill_git_tracks_through_a_stow_folded_agent_folder_stays_where_it_is(
    cli: Callable[..., Run], home: Path
) -> None:
    """``~/.claude/skills`` a link into a dotfiles repo (GNU stow): no ``.git`` is above the
    link's own path, only above its real one. Git is asked there: the committed skill stays
    in the repo, on ``route install`` and on ``build --force`` of it alike."""
    dotfiles = home / "dotfiles"
    real = dotfiles / "claude" / ".claude" / "skills"
    agent_skill(real, "tracked")
    git = project_git(dotfiles)
    git("init", "-q")
    git("add", "-A")
    git("commit", "-q", "-m", "dotfiles")
    agent_skill(real, "draft")
    (home / ".claude").mkdir()
    (home / ".claude" / "skills").symlink_to("../dotfiles/claude/.claude/skills")
    data = route_json(cli, "install", "--global")
    claude = home / ".claude" / "skills"
    assert data["left"] == [
        {"name": "tracked", "path": str(claude / "tracked"), "reason": "tracked by git"}
    ]
    assert {skill["name"] for skill in data["skills"]} == {"draft"}
    assert not (home / ".skillc" / "skills" / "tracked").exists()
    assert git("status", "--porcelain", "--", "claude/.claude/skills/tracked") == ""
    forced = cli("skillc_index")("build", str(claude / "tracked"), "--global", "--force")
    assert forced.returncode == 1
    assert forced.stderr.startswith("error[E050]: skill 'tracked' already exists")
    assert "git tracks ~/.claude/skills/tracked" in forced.stderr
    assert sorted(p.name for p in real.iterdir()) == [ROUTER_NAME, "tracked"]
    assert not (real / "tracked").is_symlink()
    assert git("status", "--porcelain", "--", "claude/.claude/skills/tracked") == ""


def test_a_folder_whose_name_fails_the_name_rule_is_left_in_place(
    cli: Callable[..., Run], layout: Layout, claude: Path
) -> None:
    """The rule ``init`` and an import enforce: ``-x`` would become an option in the store,
    a newline a second line of every listing; such a folder stays where it is, reported."""
    for name in ("-dash", "Upper", "new\nline"):
        agent_skill(claude, name)
    before = snapshot(claude)
    data = route_json(cli, "install")
    left = {skill["name"]: skill["reason"] for skill in data["left"]}
    assert set(left) == {"-dash", "Upper", "new\nline"}
    assert all(reason.startswith("invalid skill name ") for reason in left.values())
    assert {skill["name"] for skill in data["skills"]} == {"alpha", "beta", "copied", "linked"}
    store = layout.store("project")
    assert not any((store / name).exists() for name in left)
    assert {k: v for k, v in snapshot(claude).items() if k.startswith(("-", "Upper", "new"))} == {
        k: v for k, v in before.items() if k.startswith(("-", "Upper", "new"))
    }
    text = route(cli, "install")  # a second run leaves them again, one line each
    assert text.returncode == 0, text.stderr
    lefts = [line for line in text.stdout.splitlines() if line.startswith("left:")]
    assert len(lefts) == 3
    assert lefts[0].startswith("left: .claude/skills/-dash: invalid skill name '-dash': ")
    assert "Not behind the router (3): -dash, Upper, new\\nline" in route(cli, "status").stdout


def test_a_project_skill_built_globally_is_left_with_its_source_named(
    cli: Callable[..., Run], layout: Layout, project: Path, write_skill: WriteSkill
) -> None:
    """``route install --global`` left a project skill built with ``--global`` as "its
    source is in no store": the source is the project's store skill (the inventory lists
    it so). The reason names it."""
    write_skill(layout.store("project") / "mine")
    built = cli("skillc_index")("build", "mine", "--global")
    assert built.returncode == 0, built.stderr
    done = route(cli, "install", "--global")
    assert done.returncode == 0, done.stderr
    source = layout.store("project") / "mine"
    assert f"its source is a project's, {source} (built with --global)" in done.stdout


def test_a_router_skill_md_that_is_a_fifo_is_edited_and_never_blocks(
    cli: Callable[..., Any], claude: Path, layout: Layout
) -> None:
    """The router's SKILL.md replaced by a FIFO: ``route status`` and ``route uninstall``
    read it whole, blocking for ever. It is "edited" now, read bounded and without
    blocking; uninstall still puts the skills back and leaves the router as it is."""
    before = names(claude)
    route_install(session(layout))
    stub = claude / ROUTER_NAME / "SKILL.md"
    stub.unlink()
    os.mkfifo(stub)

    skillc_index = cli("skillc_index", process=True)  # a process: a hang fails by timeout

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return skillc_index("route", *args)

    status = run("status")
    assert status.returncode == 0, status.stderr
    assert "was edited since skillc wrote it" in status.stderr
    back = run("uninstall")
    assert back.returncode == 0, back.stderr
    assert "is not the router skillc wrote" in back.stderr
    assert names(claude) == sorted([*before, ROUTER_NAME])  # every skill back, router kept
    assert stub.is_fifo()


@pytest.mark.parametrize(
    ("damage", "reason"),
    [
        (lambda path: path.write_text("[]\n"), "it holds no route record"),
        (lambda path: path.write_text("42\n"), "it holds no route record"),
        (lambda path: path.write_text(""), "it is empty"),
        (lambda path: path.write_text('{"entr'), "it is not JSON"),
        (
            lambda path: path.write_text('{"version": 1, "entries": []}'),
            "its record has no 'folder'",
        ),
        (lambda path: path.write_text('{"folder": "x", "entries": [5]}'), "an entry of it"),
        (lambda path: path.write_bytes(b" " * (17 << 20)), "it is larger than 16 MiB"),
        (lambda path: path.mkdir(), "it is a folder, not a file"),
        (os.mkfifo, "it is a FIFO, not a file"),
    ],
    ids=["list", "number", "empty", "cut", "no-folder", "entry", "huge", "folder", "fifo"],
)
def test_a_route_manifest_of_the_wrong_shape_is_named_with_what_to_do(
    cli: Callable[..., Run], claude: Path, project: Path, damage: Any, reason: str
) -> None:
    """A route manifest that is no record of moves ([], 42, empty, 17 MiB, a folder, a FIFO)
    was E999 with Python's words (``list indices must be integers or slices, not str``) and
    no advice: it names the file, says what is wrong in the user's words and what to do
    (where the skills behind the router are), and leaves the file as it is."""
    route_json(cli, "install")
    manifest = project / ".skillc" / "router" / "claude.json"
    manifest.unlink()
    damage(manifest)
    before = _lstats(project / ".skillc" / "router")
    for command in ("status", "uninstall", "install"):
        done = cli("skillc_index", process=True)("route", command)
        assert (done.returncode, done.stdout) == (1, ""), command
        assert done.stderr.startswith(
            f"error[E999]: the route manifest '{manifest}' cannot be used: {reason}"
        ), done.stderr
        assert "Traceback" not in done.stderr and done.stderr.count("\n") == 1
        assert "Restore it (from git or a backup)" in done.stderr
        assert f"'{project / '.skillc' / 'skills'}'" in done.stderr
        assert f"'{project / '.skillc' / 'router' / 'claude'}'" in done.stderr
    assert _lstats(project / ".skillc" / "router") == before  # never overwritten


def test_a_route_manifest_a_newer_skillc_wrote_says_to_upgrade(
    cli: Callable[..., Run], claude: Path, project: Path
) -> None:
    """A route manifest of a newer version (2, with a field this version does not know) was
    "its record is not valid: unknown version or entry", with advice to restore it from a
    backup or move it aside and undo the route by hand: it says a newer skillc wrote it and
    to upgrade, and leaves it as it is."""
    route_json(cli, "install")
    manifest = project / ".skillc" / "router" / "claude.json"
    data = json.loads(manifest.read_text(encoding="utf-8"))
    manifest.write_text(json.dumps({**data, "version": 2, "future": {"x": 1}}), encoding="utf-8")
    before = _lstats(project / ".skillc" / "router")
    for command in ("status", "uninstall", "install"):
        done = cli("skillc-index", script=True)("route", command)
        assert (done.returncode, done.stdout) == (1, ""), command
        assert done.stderr == (
            f"error[E999]: the route manifest '{manifest}' cannot be used: written by a newer "
            "skillc (route manifest 2; this skillc reads 1): upgrade skillc; it is left as it is\n"
        )
    assert _lstats(project / ".skillc" / "router") == before  # never overwritten


def _lstats(root: Path) -> dict[str, tuple[int, int, int]]:
    """Each path under ``root``: its mode, size and modification time (nothing opened: a
    FIFO among them)."""
    return {
        str(path): (found.st_mode, found.st_size, found.st_mtime_ns)
        for path in root.rglob("*")
        for found in (path.lstat(),)
    }


def test_a_routed_store_entry_linking_to_a_folder_of_another_name_is_compiled_as_the_entry(
    layout: Layout, project: Path, tmp_path: Path, write_skill: WriteSkill
) -> None:
    """Route's compile of the store entry ``alpha-x -> repoA/skill`` named the skill after
    the folder (``skill``) in the runtime ``alpha-x``: its manifest said ``skill``, which no
    build of ``alpha-x`` matches. It is the entry's, as ``runtime_for`` names its runtime."""
    from skillc_index.config import load_config
    from skillc_index.route.place import RoutePlace

    target = write_skill(tmp_path / "repos" / "repoA" / "skill", "alpha-x").resolve()
    store = layout.store("project")
    store.mkdir(parents=True, exist_ok=True)
    (store / "alpha-x").symlink_to(target, target_is_directory=True)
    base = project / ".skillc"
    place = RoutePlace("claude", "project", project, project / ".claude/skills", store, base)
    skill, built, _ = router_module._compile(place, layout, load_config(layout), "alpha-x")
    runtime = layout.runtime_store("project") / "alpha-x"
    assert (skill.name, skill.source, skill.runtime, built) == ("alpha-x", target, runtime, True)
    assert read_manifest(runtime).skill == "alpha-x"


def test_a_batch_of_named_skills_leaves_a_global_route_alone(
    cli: Callable[..., Run], home: Path, project: Path
) -> None:
    """``skc build a b`` in a project, no ``--global``, of two skills a global route moved into
    the global store: each is deployed nowhere, as ``skc build a`` says, never to the home's
    agent folder again (the batch gave each build the project's routes while the skill
    resolved was the global store's: both went back into ``~/.claude/skills``, undoing the
    route). The installed ``skc``."""
    folder = home / ".claude" / "skills"
    for name in ("gone-a", "gone-b"):
        agent_skill(folder, name)
    assert route(cli, "install", "--global").returncode == 0
    assert names(folder) == [ROUTER_NAME]
    skc = cli("skillc-index", script=True)
    one = skc("build", "gone-a")
    assert one.returncode == 0, one.stderr
    why = "it is behind the router of ~/.claude/skills (skc route)"
    assert f"warning: gone-a deployed nowhere: {why}" in one.stderr.splitlines()
    both = skc("build", "gone-a", "gone-b")
    assert both.returncode == 0, both.stderr
    said = both.stderr.splitlines()
    for name in ("gone-a", "gone-b"):
        assert f"warning: {name} deployed nowhere: {why}" in said, both.stderr
    assert names(folder) == [ROUTER_NAME]
    assert "deployed" not in both.stdout, both.stdout


def test_a_parked_deployment_whose_store_skill_is_gone_is_said_and_never_put_back(
    cli: Callable[..., Run], layout: Layout, project: Path, write_skill: WriteSkill
) -> None:
    """alpha and beta built, routed (their links parked), then alpha renamed gamma in the
    store: ``route status`` said ``alpha deployment routed``, "2 skills behind it", ``list``
    said nothing, and ``route uninstall`` put back ``.claude/skills/alpha``, a stub of a
    skill that is no longer there. Status calls it ``gone`` and counts it not, status and
    list warn with how to remove it, and uninstall leaves it where it is, saying why."""
    index = cli("skillc-index", script=True)
    store = layout.store("project")
    for name in ("alpha", "beta"):
        write_skill(store / name)
        assert index("build", name).returncode == 0
    assert index("route", "install").returncode == 0
    (store / "alpha").rename(store / "gamma")
    write_skill(store / "gamma")
    assert index("build", "gamma").returncode == 0
    parked = project / ".skillc" / "router" / "claude" / "alpha"
    warning = (
        f"warning: .skillc/router/claude/alpha (parked) is a deployment of {store / 'alpha'}, "
        f"which is gone (to remove it: rm {parked}, then rm -r "
        f"{project / '.skillc' / 'runtime' / 'alpha'}, its runtime with its usage logs, once "
        "no other agent folder links to it)"
    )
    status = index("route", "status", "--format", "json")
    assert status.returncode == 0, status.stderr
    shown = json.loads(status.stdout)
    assert shown["routed"] == 1
    assert {s["name"]: s["action"] for s in shown["skills"]} == {"alpha": "gone", "beta": "routed"}
    assert warning in status.stderr.splitlines()
    text = index("route", "status")
    assert "router installed, 1 skill behind it" in text.stdout
    listed = index("list")
    assert listed.returncode == 0 and warning in listed.stderr.splitlines(), listed.stderr
    done = index("route", "uninstall")
    assert done.returncode == 0, done.stderr
    assert "restored: .skillc/router/claude/beta -> .claude/skills/beta" in done.stdout
    assert (
        "left: .skillc/router/claude/alpha: a deployment of "
        f"{store / 'alpha'}, which is gone (to remove it: rm {parked}, "
    ) in done.stdout
    assert done.stdout.rstrip().endswith("1 skill put back; router removed")
    assert sorted(names(project / ".claude" / "skills")) == ["beta", "gamma"]
    assert parked.is_symlink()  # left as it is: nothing skillc deletes unasked


def test_a_busy_route_lock_is_said_alone_in_every_warning(
    layout: Layout, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A route command holding the lock is no failure: a parked copy's refresh said its
    message alone, but a build's refresh of other copies and ``.gitignore`` update, and
    route's ``.gitignore`` update, wrapped it as ``error[E999]: ...`` inside a warning. One
    helper says why for all (``diagnostics.warning_reason``)."""
    import skillc_index.build.scaffold as scaffold
    from skillc_index.build import skill as build_module
    from skillc_index.diagnostics import InternalError, Notice, warning_reason
    from skillc_index.route.place import RoutePlace
    from skillc_index.route.result import RouteBusy

    message = "another route command is changing 'x'; try again when it is done"
    assert warning_reason(RouteBusy("x")) == message
    assert warning_reason(InternalError("boom")) == "error[E999]: boom"
    assert warning_reason(OSError(errno.ENOSPC, "No space left on device")) == (
        "No space left on device"
    )

    def busy(*_args: object, **_kwargs: object) -> Any:
        raise RouteBusy("x")

    monkeypatch.setattr(scaffold, "ignore_agent_folders", busy)
    monkeypatch.setattr(scaffold, "ignore_folders", busy)
    notices: list[Any] = []
    assert build_module._ignore_deployments(layout, [], notices) == ((), None)
    copy = project / ".claude/skills/demo"
    build_module._refresh_plans({copy: ["claude"]}, [], busy, layout, notices, {})
    place = RoutePlace("claude", "project", project, project, project, project)
    state = object()
    assert router_module._ignore_route(place, layout, state, notices) is state  # type: ignore[arg-type]
    said = [n.text if isinstance(n, Notice) else str(n) for n in notices]
    assert said[0] == f".gitignore not updated: {message}"
    assert said[1].endswith(f"not refreshed: {message}"), said[1]
    assert said[2] == f".gitignore not updated: {message}"
    assert not any("E999" in text for text in said)
