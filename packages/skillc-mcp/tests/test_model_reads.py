"""A project's agent folder linked out of the project (a checkout's ``.gemini/skills -> /tmp``)
widens no read of a model: it counts for the skills its agent loads from it, not as a folder
whose every descendant a model may walk or read. The installed ``skillc-mcp`` server, over its
real stdin and stdout."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from skillc_mcp_testing import WireClient

REFUSED = "outside the project, the working folder, the home folder and the folders of"


def _refused(result: dict[str, object], given: str) -> None:
    text = result["content"][0]["text"]  # type: ignore[index]
    assert result["isError"], text
    assert text.startswith(f"error[E100]: invalid option: 'path '{given}' "), text
    assert REFUSED in text, text


def test_a_checkouts_linked_agent_folder_lets_a_model_read_only_its_skills(
    wire: WireClient, project: Path, tmp_path: Path, write_skill: Callable[..., Path]
) -> None:
    """With ``.gemini/skills -> /tmp`` in the project, ``skc_find`` with ``path: ["/tmp"]``
    walked all of /tmp (32 s) and ``skc_open`` read another user's skill below it, both E100
    without the link. The linked folder's skills (its entries, as the agent loads them) and
    their files stay readable, by name and by path; the folder itself, its parent, what lies
    deeper than its entries and its other files are E100 before anything is read."""
    shared = tmp_path / "shared"
    loaded = write_skill(shared / "loaded", description="Paint zebra stripes.")
    (loaded / "notes.md").write_text("zebra notes\n", encoding="utf-8")
    deep = write_skill(shared / "people" / "skills" / "evil", description="Paint zebra spots.")
    (shared / "secret.txt").write_text("SECRET=1\n", encoding="utf-8")
    (project / ".gemini").mkdir()
    (project / ".gemini" / "skills").symlink_to(shared)
    wire.initialize()
    for given in (str(shared), str(tmp_path), ".gemini/skills", str(deep.parent), "/"):
        _refused(wire.call("skc_find", {"query": "paint zebra", "path": [given]}), given)
    for given in (str(deep), ".gemini/skills/people/skills/evil", str(shared)):
        _refused(wire.call("skc_open", {"skill": given, "path": "SKILL.md"}), given)
        _refused(wire.call("skc_eval", {"skills": [given]}), given)
    _refused(wire.call("skc_lint", {"skill": "demo", "baseline": str(shared / "secret.txt")}),
             str(shared / "secret.txt"))  # fmt: skip
    for given in (str(loaded), ".gemini/skills/loaded", "loaded"):
        result = wire.call("skc_open", {"skill": given, "path": "notes.md"})
        assert not result["isError"], (given, result["content"][0]["text"])
        assert result["structuredContent"]["content"] == "zebra notes\n"
    found = wire.call("skc_find", {"query": "paint zebra", "path": [str(loaded)]})
    assert [s["name"] for s in found["structuredContent"]["skills"]] == ["loaded"], found
    # what the agent loads is found without a path; what lies deeper is no skill of it
    found = wire.call("skc_find", {"query": "paint zebra"})["structuredContent"]
    assert [s["name"] for s in found["skills"]] == ["loaded"], found
    assert "Traceback" not in wire.stderr()


def test_a_home_agent_folder_linked_elsewhere_stays_the_users(
    wire: WireClient, home: Path, tmp_path: Path, write_skill: Callable[..., Path]
) -> None:
    """A dotfile manager's ``~/.gemini/skills -> ~/dotfiles/...`` is the user's own link: the
    folder it names stays one a model may read whole (its skills, its other files, a folder
    below an entry), as before; only a project's link out is narrowed."""
    dotfiles = tmp_path / "dotfiles" / "gemini" / "skills"
    mine = write_skill(dotfiles / "mine", description="Paint zebra stripes.")
    write_skill(dotfiles / "library" / "deeper", description="Paint zebra spots.")
    (home / ".gemini").mkdir()
    (home / ".gemini" / "skills").symlink_to(dotfiles)
    wire.initialize()
    found = wire.call("skc_find", {"query": "paint zebra", "path": [str(dotfiles)]})
    assert not found["isError"], found["content"][0]["text"]
    names = sorted(s["name"] for s in found["structuredContent"]["skills"])
    assert names == ["mine"], found  # a known folder: searched as the agent reads it
    found = wire.call("skc_find", {"query": "paint zebra", "path": [str(dotfiles / "library")]})
    names = [Path(s["name"]).name for s in found["structuredContent"]["skills"]]
    assert names == ["deeper"], found
    result = wire.call("skc_open", {"skill": str(mine), "path": "SKILL.md"})
    assert not result["isError"], result["content"][0]["text"]


def test_a_repositorys_own_agent_folder_above_the_working_folder_stays_readable(
    server_command: list[str],
    env: dict[str, str],
    tmp_path: Path,
    write_skill: Callable[..., Path],
) -> None:
    """Started in a repository's subfolder (no skillc project), the agent folders Claude Code
    and Codex read up to the repository's root are the project's: a real one there stays a
    folder a model may search whole; one linked out of the repository counts for its skills."""
    repo = (tmp_path / "repo").resolve()
    (repo / ".git").mkdir(parents=True)
    (repo / "sub").mkdir()
    write_skill(repo / ".claude" / "skills" / "guide", description="Paint zebra stripes.")
    outside = tmp_path / "outside"
    write_skill(outside / "kept", description="Paint zebra spots.")
    write_skill(outside / "deeper" / "hidden", description="Paint zebra dots.")
    (repo / ".agents").mkdir()
    (repo / ".agents" / "skills").symlink_to(outside)
    server = WireClient(server_command, repo / "sub", env, tmp_path / "repo.log")
    try:
        server.initialize()
        asked = {"query": "paint zebra", "path": [str(repo / ".claude" / "skills")]}
        found = server.call("skc_find", asked)
        assert [s["name"] for s in found["structuredContent"]["skills"]] == ["guide"], found
        for given in (str(outside), str(outside / "deeper")):
            _refused(server.call("skc_find", {"query": "paint zebra", "path": [given]}), given)
        found = server.call("skc_find", {"query": "paint zebra", "path": [str(outside / "kept")]})
        assert [s["name"] for s in found["structuredContent"]["skills"]] == ["kept"], found
    finally:
        assert server.close() == 0, server.stderr()


def _route_out(project: Path, other: Path, write_skill: Callable[..., Path]) -> None:
    """A route manifest a checkout ships whose parked deployment leads to ``other``'s skill
    ``s`` (built: its runtime folder is there), with private trigger cases."""
    skill = write_skill(other / ".skillc" / "skills" / "s", description="Run the payroll.")
    (skill / "evals").mkdir()
    (skill / "evals" / "triggers.yaml").write_text(
        'should_trigger:\n  - "private payroll query"\n', encoding="utf-8"
    )
    (other / ".skillc" / "runtime" / "s").mkdir(parents=True)
    (project / ".claude" / "skills").mkdir(parents=True)
    parked = project / ".skillc" / "router" / "claude" / "s"
    parked.parent.mkdir(parents=True)
    parked.symlink_to(other / ".skillc" / "runtime" / "s")
    info = parked.lstat()
    entry = {"name": "s", "kind": "deployment", "dev": info.st_dev, "ino": info.st_ino,
             "content": f"link:{other}/.skillc/runtime/s"}  # fmt: skip
    manifest = {"version": 1, "agent": "claude", "folder": ".claude/skills",
                "state": "installed", "router_sha256": "0" * 64, "entries": [entry],
                "runtimes": [], "runtimes_held": {}, "made": [], "gitignore": [],
                "gitignore_newline": False}  # fmt: skip
    (parked.parent.parent / "claude.json").write_text(json.dumps(manifest), encoding="utf-8")


def test_a_route_manifest_leading_out_of_its_project_scores_nothing_there(
    wire: WireClient, project: Path, tmp_path: Path, write_skill: Callable[..., Path]
) -> None:
    """A checkout's ``.skillc/router/claude.json`` whose parked deployment is a link to another
    project's runtime: ``skc_eval`` with ``path: [".claude/skills"]`` returned that project's
    skill (its SKILL.md path, description and private cases), which ``skc_open`` refuses
    (E100). A route's entry leading out of its base is none of its skills."""
    other = tmp_path / "other"
    _route_out(project, other, write_skill)
    wire.initialize()
    result = wire.call("skc_eval", {"path": [".claude/skills"]})
    text = json.dumps(result)
    assert "payroll" not in text and str(other) not in text, text
    theirs = str(other / ".skillc" / "skills" / "s")
    _refused(wire.call("skc_open", {"skill": theirs, "path": "SKILL.md"}), theirs)


def test_a_server_started_in_the_root_folder_reads_no_folder_as_its_project(
    server_command: list[str],
    env: dict[str, str],
    tmp_path: Path,
    write_skill: Callable[..., Path],
) -> None:
    """Claude Desktop and other clients start a stdio server in ``/``: the working folder
    counted as the project, so a model's ``skc_find`` with any ``path`` walked it and
    ``skc_open`` read any skill on the disk. ``/`` and a folder holding the home folder
    (``/home``) are no project: E100 there, the home's skills still read."""
    elsewhere = write_skill(tmp_path / "elsewhere" / "theirs", description="Paint zebra spots.")
    (elsewhere / "notes.md").write_text("SECRET=1\n", encoding="utf-8")
    user = tmp_path / "users" / "me"
    user.mkdir(parents=True)  # (the skillc home, $SKILLC_HOME, is the home a model reads)
    mine = write_skill(Path(env["SKILLC_HOME"]) / "notes" / "mine", description="Paint zebra.")
    for cwd in (Path("/"), tmp_path / "users"):
        server = WireClient(server_command, cwd, {**env, "HOME": str(user)}, tmp_path / "s.log")
        try:
            server.initialize()
            for given in (str(elsewhere.parent), str(tmp_path)):
                _refused(server.call("skc_find", {"query": "paint zebra", "path": [given]}), given)
            _refused(server.call("skc_open", {"skill": str(elsewhere), "path": "notes.md"}),
                     str(elsewhere))  # fmt: skip
            found = server.call("skc_find", {"query": "paint zebra", "path": [str(mine.parent)]})
            names = [Path(s["name"]).name for s in found["structuredContent"]["skills"]]
            assert names == ["mine"], found
        finally:
            assert server.close() == 0, server.stderr()
