"""MCP ``skc_build`` deploys only to known agent folders (issue 13): the built-in targets and the
``[targets]`` of the home config, by name or as a folder path; any other folder the model sends
is E100, unless the server was started with ``--allow-target`` for it (or a folder above it)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mcp import Client

from skillc_mcp_testing import WireClient, call, sdk_session


def builds(
    command: list[str], project: Path, env: dict[str, str], *calls: dict[str, Any]
) -> list[tuple[bool, Any]]:
    """``skc_build`` of the demo skill with each of ``calls`` as further arguments, in one
    session of the server started with ``command``."""

    async def body(client: Client) -> list[tuple[bool, Any]]:
        return [await call(client, "skc_build", {"skill": "demo", **extra}) for extra in calls]

    return sdk_session(command, project, env, body)


def test_build_refuses_a_folder_target_outside_the_agent_folders(
    server_command: list[str], project: Path, env: dict[str, str], tmp_path: Path
) -> None:
    foreign = tmp_path / "precious"
    (foreign / "demo").mkdir(parents=True)
    (foreign / "demo" / "data.txt").write_text("keep me\n", encoding="utf-8")
    fresh = tmp_path / "fresh-folder"

    results = builds(
        server_command,
        project,
        env,
        {"target": [str(foreign)], "force": True},
        {"target": [f"claude,{fresh}"]},  # one call, two targets
        {"target": ["../elsewhere/x"]},
        {"target": ["~/somewhere/skills"]},
    )
    for is_error, text in results:
        assert is_error, text
        assert text.startswith("error[E100]: invalid option: 'target '"), text
        assert "not an agent folder" in text
    assert (foreign / "demo" / "data.txt").read_text(encoding="utf-8") == "keep me\n"
    assert not fresh.exists()
    assert not (tmp_path / "elsewhere").exists()
    assert not (project / ".claude").exists()  # nothing deployed, not even the allowed 'claude'


def test_a_checkouts_agent_folder_link_makes_no_outside_folder_an_agent_folder(
    server_command: list[str], project: Path, env: dict[str, str], tmp_path: Path
) -> None:
    """A checkout's ``.gemini/skills -> /elsewhere``: deploying to ``gemini`` is refused (the
    folder leads outside the project), and so is ``/elsewhere`` given as a path."""
    victim = tmp_path / "victim"
    victim.mkdir()
    (project / ".gemini").mkdir()
    (project / ".gemini" / "skills").symlink_to(victim)
    results = builds(
        server_command,
        project,
        env,
        {"target": ["gemini"]},
        {"target": [str(victim)], "copy": True},
        {"target": [str(victim)]},
    )
    for is_error, text in results:
        assert is_error, text
        assert text.startswith("error[E100]: invalid option: 'target '"), text
    assert "not an agent folder" in results[1][1] and "not an agent folder" in results[2][1]
    assert list(victim.iterdir()) == []


def test_a_target_led_outside_the_project_names_the_servers_option(
    server_command: list[str], project: Path, env: dict[str, str], tmp_path: Path, cli: Any
) -> None:
    """E100 for a target the project sends outside itself (``.claude -> /elsewhere``, a project
    ``[targets]`` folder) tells the model what makes the folder deployable here: the user
    starting the server with ``--allow-target`` for it (giving the folder alone is refused);
    the command line's remedy stays giving that folder."""
    linked = tmp_path / "linked"
    (linked / "skills").mkdir(parents=True)
    (project / ".claude").symlink_to(linked)
    evil = tmp_path / "evil folder"
    (project / ".skillc" / "config.toml").write_text(
        f'[targets]\nevil = "{evil}"\n', encoding="utf-8"
    )
    real = linked.resolve() / "skills"
    wire = WireClient(server_command, project, env, tmp_path / "server.log")
    wire.initialize()
    for target, folder in (("claude", str(real)), ("evil", f"'{evil.resolve()}'")):
        result = wire.call("skc_build", {"skill": "demo", "target": [target]})
        assert result["isError"], result
        text = result["content"][0]["text"]
        assert f"target '{target}' " in text and "leads outside the project" in text, text
        assert f"the user must start the server with `skc mcp --allow-target {folder}`" in text
    assert wire.close() == 0
    built = cli("skillc_index")("build", "demo")
    assert "give that folder itself as the target to deploy there" in built.stderr, built.stderr
    assert "allow-target" not in built.stderr

    allowed = [*server_command, "--allow-target", str(real)]
    wire = WireClient(allowed, project, env, tmp_path / "allowed.log")
    wire.initialize()
    result = wire.call("skc_build", {"skill": "demo", "target": [str(real)]})
    assert not result["isError"], result
    assert wire.close() == 0
    assert (real / "demo").is_symlink()
    assert not evil.exists()


def test_build_deploys_to_known_agent_folders_by_name_or_path(
    server_command: list[str], project: Path, env: dict[str, str], home: Path, tmp_path: Path
) -> None:
    shared = tmp_path / "shared-agents"
    (home / ".skillc").mkdir()
    (home / ".skillc" / "config.toml").write_text(
        f'[targets]\nteam = "{shared}"\n', encoding="utf-8"
    )

    results = builds(
        server_command,
        project,
        env,
        {"target": ["cursor", ".claude/skills"]},
        {"target": [str(project / ".agents" / "skills")]},
        {"target": ["team", str(shared)]},
    )
    for is_error, data in results:
        assert not is_error, data
    assert (project / ".cursor" / "skills" / "demo").is_symlink()
    assert (project / ".claude" / "skills" / "demo").is_symlink()
    assert (project / ".agents" / "skills" / "demo").is_symlink()
    assert (shared / "demo").is_symlink()


def test_allow_target_lets_the_server_deploy_under_a_chosen_folder(
    server_command: list[str], project: Path, env: dict[str, str], tmp_path: Path
) -> None:
    allowed = tmp_path / "allowed"
    allowed.mkdir()
    other = tmp_path / "other"
    command = [*server_command, "--allow-target", str(allowed)]

    first, nested, escaped = builds(
        command,
        project,
        env,
        {"target": [str(allowed)]},
        {"target": [str(allowed / "sub" / "skills")]},
        {"target": [str(allowed / ".." / "other")]},
    )
    assert not first[0], first
    assert not nested[0], nested
    assert (allowed / "demo").is_symlink()
    assert (allowed / "sub" / "skills" / "demo").is_symlink()
    assert escaped[0]
    assert escaped[1].startswith("error[E100]: "), escaped
    assert not other.exists()


def test_force_moves_a_foreign_folder_aside_and_names_the_backup(
    server_command: list[str], project: Path, env: dict[str, str]
) -> None:
    """``force`` at a known agent folder never deletes what skillc did not make: the folder is
    moved aside, and the result's deployment names the backup (declared in the schema)."""
    foreign = project / ".claude" / "skills" / "demo"
    foreign.mkdir(parents=True)
    (foreign / ".env").write_text("TOKEN=1\n", encoding="utf-8")

    [(refused, text), (is_error, data)] = builds(
        server_command, project, env, {"target": ["claude"]}, {"target": ["claude"], "force": True}
    )
    assert refused and text.startswith("error[E050]"), text
    # the hint names the tool's argument, not the command line's option
    assert text.endswith("use force to move it aside and deploy") and "--force" not in text, text
    assert not is_error, data
    [deployment] = data["deployments"]
    backup = Path(deployment["backup"])
    assert backup.parent == foreign.parent and backup.name.startswith(".demo.skillc-backup-")
    assert (backup / ".env").read_text(encoding="utf-8") == "TOKEN=1\n"
    assert foreign.is_symlink()


def test_build_of_a_folder_skc_package_wrote_says_so(
    server_command: list[str], project: Path, env: dict[str, str], tmp_path: Path, cli: Any
) -> None:
    """``skc_build`` given the folder ``skc package`` wrote into (``dist``) gave the plain E010
    where ``skc build dist`` says what the folder is: the same hint, the package command
    named as the tool's errors name commands; nothing built."""
    made = cli("skillc_index")("package", "demo", "--to", "plugin", "--name", "office")
    assert made.returncode == 0, made.stderr
    assert (project / "dist" / ".skillc-package.json").is_file()
    wire = WireClient(server_command, project, env, tmp_path / "server.log")
    wire.initialize()
    result = wire.call("skc_build", {"skill": "dist"})
    assert wire.close() == 0
    assert result["isError"], result
    assert result["content"][0]["text"] == (
        "error[E010]: not a valid skill: 'dist' (missing SKILL.md)\n"
        "hint: ./dist holds what 'package' wrote (its .skillc-package.json lists it), not"
        " built: build the skills' sources, or a copy's folder"
    )
    assert not (project / ".claude").exists()
