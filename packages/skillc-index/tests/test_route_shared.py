"""``route`` where agents share skills (a folder one agent links to another's, skills another
agent's folder or parking folder links to), what it leaves in a git work tree and in
``.skillc/``, user-only skills, what a re-run uninstall says. Real files; the command line
in-process."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import skillc_index.route.commands as router_module
import skillc_index.route.uninstall as uninstall_module
from skillc_index import Layout
from skillc_index.route.uninstall import route_uninstall

from .test_route import (
    Run,
    WriteSkill,
    agent_skill,
    names,
    needs_git,
    project_git,
    route,
    route_json,
    session,
    snapshot,
    unchanged,
)


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


def test_an_uninstall_that_only_removes_runtimes_says_so(
    cli: Callable[..., Run], layout: Layout, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An uninstall killed once every skill was back and the router gone, before it removed
    the runtimes: run again, it removed them and said "nothing is routed"."""
    folder = project / ".claude" / "skills"
    agent_skill(folder, "alpha")
    agent_skill(folder, "beta")
    route_json(cli, "install")

    def killed(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(uninstall_module, "remove_built_runtimes", killed)
    with pytest.raises(KeyboardInterrupt):
        route_uninstall(session(layout))
    monkeypatch.undo()
    assert sorted(path.name for path in layout.runtime_store("project").iterdir()) == [
        "alpha",
        "beta",
    ]
    again = route(cli, "uninstall")
    assert again.stdout.splitlines() == [
        "claude (project) .claude/skills: 0 skills put back; no router to remove; 2 runtimes "
        "built by install removed"
    ]
    assert not layout.runtime_store("project").exists()  # install made it: gone with them


def test_a_skill_folder_another_agent_links_to_stays(
    cli: Callable[..., Run], project: Path
) -> None:
    """``npx skills add`` puts a folder in ``.agents/skills`` and a link to it in
    ``.claude/skills``: routing codex moved the folder, Claude's link dangled, no word."""
    agents = project / ".agents" / "skills"
    agent_skill(agents, "ext-one")
    agent_skill(agents, "own")
    link = project / ".claude" / "skills" / "ext-one"
    link.parent.mkdir(parents=True)
    link.symlink_to("../../.agents/skills/ext-one")
    dry = route_json(cli, "install", "-t", "codex", "--dry-run")
    data = route_json(cli, "install", "-t", "codex")
    left = {
        "name": "ext-one",
        "path": str(agents / "ext-one"),
        "reason": ".claude/skills/ext-one links to it (skillc never moves what a link points to)",
    }
    assert dry["left"] == data["left"] == [left]
    assert [skill["name"] for skill in data["skills"]] == ["own"]
    assert (link / "SKILL.md").is_file()  # Claude still reads it
    text = route(cli, "install", "-t", "codex").stdout  # nothing new: the same summary
    assert "(linked from another agent folder: 1)" in text.splitlines()[-1]


def test_uninstall_keeps_a_runtime_another_agent_parked_a_link_to(
    cli: Callable[..., Run], layout: Layout, project: Path
) -> None:
    """Claude's foo routed, built for Codex (a link to the runtime install built), Codex
    routed (that link parked): uninstalling Claude removed the runtime, and Codex's
    uninstall put back a link to nothing. The runtime is kept; Codex's uninstall then
    leaves the link parked (its store skill is gone: Claude's uninstall moved it back)."""
    claude = project / ".claude" / "skills"
    agent_skill(claude, "foo")
    route_json(cli, "install")
    built = cli("skillc_index")("build", "foo", "--target", "codex")
    assert built.returncode == 0, built.stderr
    route_json(cli, "install", "-t", "codex")
    parked = project / ".skillc" / "router" / "codex" / "foo"
    assert parked.is_symlink()
    done = route(cli, "uninstall", "--format", "json")
    assert json.loads(done.stdout)["runtimes_removed"] == []
    assert "kept the runtime of 'foo': .skillc/router/codex/foo links to it" in done.stderr
    assert (project / ".skillc" / "runtime" / "foo" / "SKILL.md").is_file()  # kept
    # Claude's uninstall moved foo out of the store: the parked link stands for a store
    # skill that is gone (skc list called it so once put back), left where it is and said
    undone = route(cli, "uninstall", "-t", "codex", "--format", "json")
    assert undone.returncode == 0, undone.stderr
    (left,) = json.loads(undone.stdout)["left"]
    assert left["name"] == "foo" and left["path"] == str(parked)
    assert left["reason"].startswith(f"a deployment of {layout.store('project') / 'foo'}, ")
    assert left["reason"].endswith("; not put back, left where it is and forgotten")
    assert parked.is_symlink() and not (project / ".agents" / "skills" / "foo").exists()
    assert (claude / "foo" / "SKILL.md").is_file()


def test_a_user_only_skill_stays_in_the_agent_folder(
    cli: Callable[..., Run], layout: Layout, project: Path, write_skill: WriteSkill
) -> None:
    """``disable-model-invocation: true``: the model is never shown it, the user calls it as
    ``/deploy``. Routed, the command was gone and the router steered the model to it. A
    deployment of a user-only store skill (its stub keeps the field) stays as well."""
    folder = project / ".claude" / "skills"
    agent_skill(folder, "alpha")
    write_skill(
        folder / "deploy",
        frontmatter="name: deploy\ndescription: Deploys.\ndisable-model-invocation: true\n",
    )
    write_skill(
        layout.store("project") / "release",
        frontmatter="name: release\ndescription: Releases.\ndisable-model-invocation: true\n",
    )
    assert cli("skillc_index")("build", "release").returncode == 0
    dry = route(cli, "install", "-n")
    done = route(cli, "install")
    assert done.returncode == 0, done.stderr
    would = done.stdout.replace("moved", "would move").replace(" lists ", " would list ")
    assert would == dry.stdout
    assert done.stdout.splitlines() == [
        "moved: .claude/skills/alpha -> .skillc/skills/alpha",
        "left: .claude/skills/deploy: user-only (disable-model-invocation: true): it stays for "
        "the user's /deploy",
        "left: .claude/skills/release: user-only (disable-model-invocation: true): it stays "
        "for the user's /release",
        "claude (project) .claude/skills lists one skill, skill-router, for 1 skill in "
        ".skillc/skills; 2 user-only skills stay",
    ]
    assert names(folder) == ["deploy", "release", "skill-router"]
    assert (folder / "release").is_symlink()


def test_a_skill_claude_code_acts_on_only_from_its_folder_stays_in_it(
    cli: Callable[..., Run], layout: Layout, project: Path, write_skill: WriteSkill
) -> None:
    """A skill with ``hooks`` (a PreToolUse guard running ``${CLAUDE_SKILL_DIR}/...``),
    ``paths``, ``context: fork``, ``model``...: Claude Code acts on them only when it loads the
    skill from its own folder. Routed, it was reached only through ``skc show``: the guard
    never ran. It stays, each said with its fields (a deployment of such a store skill too,
    its stub keeping them); one set to nothing moves as any other."""
    skc = cli("skillc-index", script=True)
    folder = project / ".claude" / "skills"
    agent_skill(folder, "alpha")
    hooks = (
        "hooks:\n  PreToolUse:\n    - matcher: Edit|Write\n      hooks:\n"
        "        - type: command\n          command: ${CLAUDE_SKILL_DIR}/scripts/check.sh\n"
    )
    write_skill(
        folder / "guard",
        frontmatter=f"name: guard\ndescription: Guards deploy/.\n{hooks}",
        files={"scripts/check.sh": "#!/bin/sh\nexit 2\n"},
    )
    write_skill(
        folder / "tsx",
        frontmatter="name: tsx\ndescription: TSX style.\npaths: src/**/*.tsx\ncontext: fork\n",
    )
    write_skill(folder / "plain", frontmatter="name: plain\ndescription: Plain.\nmodel: null\n")
    write_skill(
        layout.store("project") / "heavy",
        frontmatter="name: heavy\ndescription: Heavy work.\nmodel: opus\neffort: high\n",
    )
    assert skc("build", "heavy").returncode == 0
    dry = skc("route", "install", "-n")
    done = skc("route", "install")
    assert done.returncode == 0, done.stderr
    would = done.stdout.replace("moved", "would move").replace(" lists ", " would list ")
    assert would == dry.stdout
    why = "which Claude Code acts on only when it loads the skill from its folder: it stays"
    assert done.stdout.splitlines() == [
        "moved: .claude/skills/alpha -> .skillc/skills/alpha",
        "moved: .claude/skills/plain -> .skillc/skills/plain",
        f"left: .claude/skills/guard: sets hooks, {why}",
        f"left: .claude/skills/heavy: sets model, effort, {why}",
        f"left: .claude/skills/tsx: sets paths, context, {why}",
        "claude (project) .claude/skills lists 4 skills: skill-router, for 2 skills in "
        ".skillc/skills, and 3 skills left in place (needs the agent folder: 3)",
    ]
    assert names(folder) == ["guard", "heavy", "skill-router", "tsx"]
    assert (folder / "guard" / "scripts" / "check.sh").is_file()
    assert (folder / "heavy").is_symlink()


def test_uninstall_removes_the_folders_install_made_and_only_those(
    cli: Callable[..., Run], layout: Layout, project: Path, home: Path, tmp_path: Path
) -> None:
    """A project is just ``.skillc/``: the round trip left ``.skillc/skills`` and
    ``.skillc/runtime`` behind, empty. Those install made go; one there before stays."""
    (project / ".skillc" / "skills").rmdir()
    agent_skill(project / ".claude" / "skills", "bar")
    before = snapshot(project)
    route_json(cli, "install")
    route_json(cli, "uninstall")
    assert snapshot(project) == before
    (project / ".skillc" / "runtime").mkdir()  # there before: stays
    before = snapshot(project)
    route_json(cli, "install")
    route_json(cli, "uninstall")
    assert snapshot(project) == before
    # the home folder without .skillc: the global round trip leaves no ~/.skillc either
    agent_skill(home / ".claude" / "skills", "mine")
    before = snapshot(home)
    outside = tmp_path / "anywhere"
    outside.mkdir()
    assert route(cli, "install", "--global", cwd=outside).returncode == 0
    assert route(cli, "uninstall", "--global", cwd=outside).returncode == 0
    assert snapshot(home) == before


@needs_git
def test_what_route_generates_is_git_ignored_until_uninstall(
    cli: Callable[..., Run], layout: Layout, project: Path, write_skill: WriteSkill
) -> None:
    """The manifest (device and inode numbers), the parked deployments and the router showed
    as untracked files to commit. A line each, as init and build add theirs, taken out again
    by uninstall; a ``.gitignore`` install made goes with them."""

    git = project_git(project)
    folder = project / ".claude" / "skills"
    agent_skill(folder, "team")
    git("init", "-q")
    git("add", "-A")
    git("commit", "-q", "-m", "team")
    write_skill(layout.store("project") / "linked")
    assert cli("skillc_index")("build", "linked", "-t", "claude").returncode == 0
    git("add", "-A")
    git("commit", "-q", "-m", "built")
    gitignore = project / ".gitignore"
    before = gitignore.read_text()
    assert "router" not in before
    route_json(cli, "install")
    assert gitignore.read_text() == before + "/.skillc/router/\n/.claude/skills/skill-router/\n"
    assert git("status", "--porcelain", "-uall") == " M .gitignore\n"
    route_json(cli, "install")  # nothing new: no line twice
    assert gitignore.read_text().count("/.skillc/router/") == 1
    route_json(cli, "uninstall")
    assert gitignore.read_text() == before
    assert git("status", "--porcelain", "-uall") == ""
    gitignore.unlink()  # no .gitignore: install makes it, uninstall removes it
    git("commit", "-q", "-a", "-m", "no .gitignore")
    route_json(cli, "install")
    assert gitignore.is_file()
    route_json(cli, "uninstall")
    assert not gitignore.exists()


@needs_git
def test_a_router_behind_a_linked_agent_folder_is_ignored_where_git_sees_it(
    cli: Callable[..., Run], project: Path
) -> None:
    """``.claude/skills`` a link to ``.agents/skills``: git does not follow the link, and
    ``/.claude/skills/skill-router/`` left the router untracked in ``.agents/skills``."""
    git = project_git(project)
    folder = project / ".agents" / "skills"
    agent_skill(folder, "one")
    (project / ".claude").mkdir()
    (project / ".claude" / "skills").symlink_to("../.agents/skills")
    git("init", "-q")
    git("add", "-A")
    git("commit", "-q", "-m", "one")
    agent_skill(folder, "two")
    route_json(cli, "install")
    assert "/.agents/skills/skill-router/\n" in (project / ".gitignore").read_text()
    untracked = git("status", "--porcelain", "-uall").splitlines()
    assert [line for line in untracked if "skill-router" in line] == []
    route_json(cli, "uninstall")


def test_a_gitignore_without_a_final_newline_comes_back_exactly(
    cli: Callable[..., Run], project: Path
) -> None:
    """Install ends the last line before adding its own; uninstall kept that newline (a
    tracked ``.gitignore`` showed as modified). Lines added after route's keep theirs."""
    agent_skill(project / ".claude" / "skills", "one")
    gitignore = project / ".gitignore"
    gitignore.write_bytes(b"node_modules\n*.log")
    route_json(cli, "install")
    assert gitignore.read_bytes().startswith(b"node_modules\n*.log\n/.skillc/router/\n")
    route_json(cli, "uninstall")
    assert gitignore.read_bytes() == b"node_modules\n*.log"
    route_json(cli, "install")
    with gitignore.open("a") as handle:
        handle.write("dist/\n")  # the user's line after route's: the newline stays
    route_json(cli, "uninstall")
    assert gitignore.read_bytes() == b"node_modules\n*.log\ndist/\n"


def test_an_install_killed_at_its_first_manifest_write_keeps_the_gitignore_record(
    cli: Callable[..., Run], layout: Layout, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A second install killed right after it wrote its "installing" manifest: that manifest
    forgot the lines the first run added to ``.gitignore``, and uninstall left them."""
    folder = project / ".claude" / "skills"
    agent_skill(folder, "one")
    gitignore = project / ".gitignore"
    gitignore.write_text("node_modules\n")
    route_json(cli, "install")
    assert gitignore.read_text() != "node_modules\n"
    agent_skill(folder, "two")
    real = router_module.write_route_manifest

    def killed(*args: Any, **kwargs: Any) -> None:
        real(*args, **kwargs)
        raise KeyboardInterrupt

    monkeypatch.setattr(router_module, "write_route_manifest", killed)
    with pytest.raises(KeyboardInterrupt):
        router_module.route_install(session(layout))
    monkeypatch.undo()
    route_json(cli, "install")  # finishes the killed run
    route_json(cli, "uninstall")
    assert gitignore.read_text() == "node_modules\n"


def test_a_line_another_process_adds_while_install_decides_keeps_its_newline(
    cli: Callable[..., Run], layout: Layout, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Install read ``.gitignore`` (no final newline) and decided to end its last line before
    taking the lock; another build ended it meanwhile, adding its own line, and uninstall
    took that line's newline (the next line appended was glued to it). The file is read once,
    under the lock, which another writer waits for."""
    import skillc_index.build.scaffold as scaffold

    fcntl = pytest.importorskip("fcntl")  # the lock another process waits for

    agent_skill(project / ".claude" / "skills", "one")
    gitignore = project / ".gitignore"
    gitignore.write_bytes(b"node_modules")
    waited: list[bool] = []

    def other_build(block: bool) -> bool:
        """Another process's append of ``dist/``, under the lock; False when it would wait."""
        with gitignore.open("a+b") as handle:
            try:
                fcntl.flock(handle.fileno(), fcntl.LOCK_EX | (0 if block else fcntl.LOCK_NB))
            except BlockingIOError:
                return False
            handle.seek(0)
            text = handle.read()
            handle.write((b"\n" if text and not text.endswith(b"\n") else b"") + b"dist/\n")
        return True

    real = scaffold.maybe_in_work_tree  # the first question asked under the lock

    def in_work_tree(*args: Any, **kwargs: Any) -> Any:
        if not waited:
            waited.append(not other_build(block=False))
        return real(*args, **kwargs)

    monkeypatch.setattr(scaffold, "maybe_in_work_tree", in_work_tree)
    router_module.route_install(session(layout))
    if waited == [True]:
        other_build(block=True)  # its turn once install let go of the file
    monkeypatch.undo()
    route_json(cli, "uninstall")
    assert gitignore.read_bytes() == b"node_modules\ndist/\n"


@pytest.mark.parametrize("global_", [False, True])
def test_an_install_stopped_before_its_manifest_leaves_no_folder_it_made(
    layout: Layout, project: Path, home: Path, monkeypatch: pytest.MonkeyPatch, global_: bool
) -> None:
    """Ctrl-C after the lock made ``.skillc/router/`` (and, with ``--global``, the home's
    ``.skillc/`` itself), before the manifest was written: both stayed, empty, and uninstall
    (nothing routed) never removed them. They go with the install that made them; what was
    there before it stays."""
    from skillc_index.route.commands import route_install

    base = home if global_ else project
    agent_skill(base / ".agents" / "skills", "mine")
    before = sorted(path for path in base.rglob("*"))

    def stopped(*args: Any) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(router_module, "write_route_manifest", stopped)
    with pytest.raises(KeyboardInterrupt):
        route_install(session(layout), "codex", global_=global_)
    assert sorted(path for path in base.rglob("*")) == before
    assert (project / ".skillc" / "skills").is_dir()  # the project's, there before
