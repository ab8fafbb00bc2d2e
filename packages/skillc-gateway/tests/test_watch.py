"""``watch`` (issue 15): the find server, and ``find`` answered through it.

Real processes on real Unix sockets: a server started as ``python -m skillc_gateway watch``
on a private skillc home (short, in /tmp: a socket path holds at most 107 bytes), ``find``
run as a subprocess. That an answer came through the server is proved by the server's own
count of queries (``watch --status``); that it is the right answer, by the same command's
output without a server.
"""

from __future__ import annotations

import errno
import json
import os
import re
import shutil
import signal
import socket
import sqlite3
import stat
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, ExitStack, closing, contextmanager
from pathlib import Path
from typing import Any

import click
import pytest

from skillc_gateway import __version__, find_quick
from skillc_gateway.catalog import FindResult, FoundSkill, SectionHit
from skillc_gateway.catalog.client import (
    ask,
    declined,
    lock_holder,
    other_code,
    refused_as_other_code,
    request,
    usable,
)
from skillc_gateway.catalog.database import CATALOG_FILE
from skillc_gateway.catalog.lifecycle import AUTO_START_SKILLS, start_for_later
from skillc_gateway.catalog.protocol import (
    LOCK_NAME,
    MAX_REQUEST_BYTES,
    PROTOCOL,
    code_id,
    decode_result,
    encode_message,
    encode_result,
    socket_path,
)
from skillc_gateway.cli_find import find_command
from skillc_index import Diagnostic, Layout, Notice
from skillc_index.clock import is_utc_timestamp
from skillc_index.inventory.folders import Root

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux only")

Run = Callable[..., subprocess.CompletedProcess[str]]
WriteSkill = Callable[..., Path]
#: The ``stand_in`` fixture (a find server stand-in: the package's conftest).
StandIn = Callable[..., AbstractContextManager[list[bytes]]]
#: The ``newer_gateway`` fixture (a newer skillc's environment: the package's conftest).
NewerGateway = Callable[..., dict[str, str]]
#: A generous safety net for a server to come up; never a timing assertion.
READY_SECONDS = 60.0


@pytest.fixture
def clean_env(clean_env: dict[str, str]) -> dict[str, str]:
    """The commands' environment, where a find may start a find server (each test stops
    what it started)."""
    return {key: value for key, value in clean_env.items() if key != "SKILLC_FIND_SERVER"}


@pytest.fixture
def home() -> Iterator[Path]:
    """A short private ``$SKILLC_HOME`` (replaces the shared one: the socket lives there)."""
    path = Path(tempfile.mkdtemp(prefix="skw-", dir="/tmp")).resolve()
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture
def library(project: Path, write_skill: WriteSkill) -> Path:
    root = project / "library"
    write_skill(root / "painter", "painter", "Paint fences red.", "## Paint a bicycle\n\nBrush.\n")
    write_skill(root / "baker", "baker", "Bake bread and cakes.", "## Ovens\n\nHot.\n")
    return root


def status(gateway: Run) -> dict[str, Any]:
    done = gateway("watch", "--status", "--format", "json")
    assert done.returncode == 0, done.stderr
    data: dict[str, Any] = json.loads(done.stdout)
    return data


def queries(gateway: Run) -> int:
    data = status(gateway)
    assert data["running"], data
    count: int = data["queries"]
    return count


@contextmanager
def server(
    clean_env: dict[str, str], project: Path, gateway: Run, *args: str, prefix: tuple[str, ...] = ()
) -> Iterator[subprocess.Popen[str]]:
    """``python -m skillc_gateway watch ARGS`` in the foreground (run by ``prefix``), ready;
    SIGTERM at the end."""
    log = project / "watch.log"
    with log.open("a", encoding="utf-8") as output:
        process = subprocess.Popen(
            [*prefix, sys.executable, "-m", "skillc_gateway", "watch", *args],
            cwd=project,
            env=clean_env,
            stdout=output,
            stderr=output,
            text=True,
        )
    try:
        deadline = time.monotonic() + READY_SECONDS
        while status(gateway).get("pid") != process.pid:
            assert process.poll() is None, log.read_text(encoding="utf-8")
            assert time.monotonic() < deadline, "the server did not come up"
            time.sleep(0.05)
        yield process
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
        process.wait(timeout=READY_SECONDS)


#: A ``status`` request.
STATUS = b'{"version": 1, "op": "status"}'


def raw_request(home: Path, data: bytes) -> dict[str, Any]:
    """Send ``data`` as a request on the server's socket; its decoded reply."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(READY_SECONDS)
        sock.connect(str(home / ".skillc" / "find.sock"))
        try:
            sock.sendall(data)
            sock.shutdown(socket.SHUT_WR)
        except BrokenPipeError:  # the server stopped reading: its reply is there
            pass
        reply = b""
        while chunk := sock.recv(1 << 16):
            reply += chunk
    decoded: dict[str, Any] = json.loads(reply)
    return decoded


# -- answers -----------------------------------------------------------------------------------


def test_find_through_the_server_is_the_in_process_answer(
    gateway: Run, gateway_process: Run, clean_env: dict[str, str], project: Path, home: Path,
    library: Path,
) -> None:  # fmt: skip
    # a catalog file that is not ours: every answer carries a warning, both ways
    (home / ".skillc").mkdir()
    (home / ".skillc" / CATALOG_FILE).write_text("not a catalog\n", encoding="utf-8")
    commands = [
        ("find", "paint a bicycle", "--path", "library"),
        ("find", "paint a bicycle", "--path", "library", "--format", "json"),
        ("find", "bread", "--path", "library", "--format", "json", "--limit", "1"),
        ("find", "nothing matches zeppelin", "--path", "library"),
        ("find", "   ", "--path", "library"),  # the error, from the client: no query sent
        ("find", "paint", "--path", "missing"),
        ("find", "x" * 10_001, "--path", "missing"),  # E100 first
        ("find", "x" * 10_001, "--path", "library"),  # from the client too: nothing sent
        ("find", "bread", "--path", "library", "--limit", "101"),
    ]
    alone = [gateway_process(*command) for command in commands]
    assert "not a skillc catalog" in alone[0].stderr
    hint = "skillc-gateway open ./library/painter SKILL.md"  # the script run, not skc
    assert "painter" in alone[0].stdout and hint in alone[0].stdout
    assert [done.returncode for done in alone] == [0, 0, 0, 0, 1, 1, 1, 1, 1]
    assert alone[-3].stderr.startswith("error[E100]: invalid option: 'the query has 10,001")
    assert alone[-2].stderr == alone[-3].stderr
    with server(clean_env, project, gateway):
        before = queries(gateway)
        served = [gateway_process(*command) for command in commands]
        assert queries(gateway) == before + 4
        assert "bad request" not in (project / "watch.log").read_text(encoding="utf-8")
        told = gateway_process("find", "bread", "--path", "library", "--verbose").stderr
    assert "find: answered by the find server (skillc-gateway watch); ranker: lexical" in told
    told = gateway_process("find", "bread", "--path", "library", "--verbose").stderr
    assert "find: answered by this process; ranker: lexical" in told
    for by_itself, through in zip(alone, served, strict=True):
        assert (through.returncode, through.stdout, through.stderr) == (
            by_itself.returncode,
            by_itself.stdout,
            by_itself.stderr,
        )


def test_a_plugin_skill_found_through_the_server_is_named_as_in_process(
    gateway: Run, gateway_process: Run, clean_env: dict[str, str], project: Path, home: Path,
    write_skill: WriteSkill,
) -> None:  # fmt: skip
    """The server names a plugin's skill ``plugin:skill`` (``plugin@marketplace:skill`` when
    a plugin of that name in another marketplace has it too), as ``skc list`` and a find
    without the server do: each root travels with its plugin and marketplace (the server
    named it ``review``, which reads another skill). Near miss: a plain agent folder's skill
    keeps its bare name."""
    cache = home / ".claude" / "plugins" / "cache"
    write_skill(cache / "mk/pl/1.0/skills/review", "review", "Review a pull request.")
    write_skill(cache / "m1/twin/1.0/skills/audit", "audit", "Audit a pull request.")
    write_skill(cache / "m2/twin/2.0/skills/audit", "audit", "Audit a pull request too.")
    write_skill(home / ".claude" / "skills" / "merge", "merge", "Merge a pull request.")
    records = {
        "pl@mk": [{"scope": "user", "installPath": str(cache / "mk/pl/1.0")}],
        "twin@m1": [{"scope": "user", "installPath": str(cache / "m1/twin/1.0")}],
        "twin@m2": [{"scope": "user", "installPath": str(cache / "m2/twin/2.0")}],
    }
    plugins = home / ".claude" / "plugins" / "installed_plugins.json"
    plugins.write_text(json.dumps({"version": 2, "plugins": records}), encoding="utf-8")
    enabled = json.dumps({"enabledPlugins": dict.fromkeys(records, True)})
    (home / ".claude" / "settings.json").write_text(enabled, encoding="utf-8")
    commands = [("find", "pull request", "--format", "json"), ("find", "pull request")]
    alone = [gateway_process(*command) for command in commands]
    names = sorted(skill["name"] for skill in json.loads(alone[0].stdout)["skills"])
    assert names == ["merge", "pl:review", "twin@m1:audit", "twin@m2:audit"]
    with server(clean_env, project, gateway):
        before = queries(gateway)
        served = [gateway_process(*command) for command in commands]
        assert queries(gateway) == before + len(commands)
    for by_itself, through in zip(alone, served, strict=True):
        assert (through.returncode, through.stdout, through.stderr) == (
            by_itself.returncode,
            by_itself.stdout,
            by_itself.stderr,
        )


def test_a_plugin_claude_code_fails_to_load_is_not_found_with_or_without_the_server(
    cli: Callable[..., Callable[..., Run]], gateway: Run, clean_env: dict[str, str],
    project: Path, home: Path, write_skill: WriteSkill,
) -> None:  # fmt: skip
    """A plugin whose ``.claude-plugin/plugin.json`` is not valid JSON, which Claude Code
    fails to load (``skc list`` skips it, ``show pl:review`` says why, the MCP listing leaves
    it out): ``skillc-gateway find`` answered its skill as ``pl:review``, alone and through
    the find server (the client's roots, sent to it, held the plugin's). Near miss: a plugin
    with a valid manifest beside it is found, and this one once its manifest is valid."""
    script = cli("skillc-gateway", script=True)
    cache = home / ".claude" / "plugins" / "cache" / "mk"
    write_skill(cache / "pl/1.0/skills/review", "review", "Review a pull request.")
    write_skill(cache / "ok/1.0/skills/audit", "audit", "Audit a pull request.")
    for plugin, text in (("pl", "{not json"), ("ok", '{"name": "ok"}')):
        (cache / plugin / "1.0/.claude-plugin").mkdir()
        (cache / plugin / "1.0/.claude-plugin/plugin.json").write_text(text, encoding="utf-8")
    records = {
        f"{plugin}@mk": [{"scope": "user", "installPath": str(cache / plugin / "1.0")}]
        for plugin in ("pl", "ok")
    }
    plugins = home / ".claude" / "plugins" / "installed_plugins.json"
    plugins.write_text(json.dumps({"version": 2, "plugins": records}), encoding="utf-8")
    enabled = json.dumps({"enabledPlugins": dict.fromkeys(records, True)})
    (home / ".claude" / "settings.json").write_text(enabled, encoding="utf-8")

    def found(**env: str) -> list[str]:
        done = script("find", "pull request", "--format", "json", env_extra=env)
        assert done.returncode == 0, done.stderr
        return sorted(skill["name"] for skill in json.loads(done.stdout)["skills"])

    assert found(SKILLC_FIND_SERVER="0") == ["ok:audit"]
    with server(clean_env, project, gateway):
        before = queries(gateway)
        assert found() == ["ok:audit"]
        assert queries(gateway) == before + 1  # answered by the server
        (cache / "pl/1.0/.claude-plugin/plugin.json").write_text("{}", encoding="utf-8")
        assert found() == ["ok:audit", "pl:review"]
        assert queries(gateway) == before + 2


def test_the_server_names_a_skill_with_the_clients_agent_folders(
    gateway: Run, gateway_process: Run, clean_env: dict[str, str], project: Path, home: Path,
    write_skill: WriteSkill,
) -> None:  # fmt: skip
    """A client with ``$CLAUDE_CONFIG_DIR`` set, a server started without it: the server
    reads the client's Claude Code folder (the request carries its agent variables), so it
    names a skill of ``$CLAUDE_CONFIG_DIR/skills`` by the bare name the client reads it back
    by, as a find without the server does (it named it by its absolute path)."""
    config = project.parent / "claude-config"
    write_skill(config / "skills" / "planner", "planner", "Write an implementation plan.")
    env = {"CLAUDE_CONFIG_DIR": str(config)}
    command = ("find", "implementation plan", "--format", "json")
    alone = gateway_process(*command, env_extra={**env, "SKILLC_FIND_SERVER": "0"})
    assert [skill["name"] for skill in json.loads(alone.stdout)["skills"]] == ["planner"]
    assert "CLAUDE_CONFIG_DIR" not in clean_env
    with server(clean_env, project, gateway):
        before = queries(gateway)
        through = gateway_process(*command, env_extra=env)
        assert queries(gateway) == before + 1  # the server answered
    assert (through.returncode, through.stdout) == (0, alone.stdout)


def test_the_server_reads_no_agent_folder_of_its_own_for_a_client_without_one(
    gateway: Run, gateway_process: Run, clean_env: dict[str, str], project: Path, home: Path,
    write_skill: WriteSkill,
) -> None:  # fmt: skip
    """The mirror case: a server started with ``$CLAUDE_CONFIG_DIR`` and ``$CODEX_HOME``, a
    client with neither. The client's empty agent variables win over the server's own: the
    skill of the client's ``~/.codex/skills`` is named by the bare name the client reads it
    back by (a request read back as no variables at all would have the server read its own
    ``$CODEX_HOME/skills`` in place of ``~/.codex/skills``, and name the skill by its path;
    ``$CLAUDE_CONFIG_DIR`` alone shows nothing here: ``~/.claude/skills`` is the ``claude``
    target's folder, read with the variable set too)."""
    write_skill(home / ".codex" / "skills" / "planner", "planner", "Write an implementation plan.")
    command = ("find", "implementation plan", "--format", "json")
    assert "CLAUDE_CONFIG_DIR" not in clean_env and "CODEX_HOME" not in clean_env
    alone = gateway_process(*command, env_extra={"SKILLC_FIND_SERVER": "0"})
    assert [skill["name"] for skill in json.loads(alone.stdout)["skills"]] == ["planner"]
    agents = project.parent / "agents"  # the server's own folders: no skill in them
    (agents / "claude" / "skills").mkdir(parents=True)
    (agents / "codex" / "skills").mkdir(parents=True)
    own = {"CLAUDE_CONFIG_DIR": str(agents / "claude"), "CODEX_HOME": str(agents / "codex")}
    with server({**clean_env, **own}, project, gateway):
        before = queries(gateway)
        through = gateway_process(*command)
        assert queries(gateway) == before + 1  # the server answered
    assert (through.returncode, through.stdout) == (0, alone.stdout)


def test_a_request_root_is_read_back_whole(home: Path) -> None:
    """Every field of a root travels in a find request (a plugin's name and marketplace, the
    agent): the server reads back the roots the client computed (a malformed root:
    ``test_bad_requests_are_refused``)."""
    from skillc_gateway.catalog.protocol import find_request, read_find_request

    layout = Layout.discover(home, {"SKILLC_HOME": str(home)})
    roots = (
        Root(home / "p" / "skills", "plugin", "global", "claude", "pl", "mk"),
        Root(home / "q" / "skills", "plugin", "project", "claude", "solo", None),
        Root(home / ".claude" / "skills", "agent", "global", "claude"),
        Root(home / "lib", "path"),
    )
    request = find_request(layout, "review", 10, roots, 5.0)
    assert read_find_request(request, home)[5] == roots
    agents = {"SKILLC_HOME": str(home), "CODEX_HOME": "codex", "CLAUDE_CONFIG_DIR": ""}
    layout = Layout.discover(home, agents)  # the agent variables travel too, as set
    read = read_find_request(find_request(layout, "review", 10, roots, 5.0), home)[0]
    assert dict(read.agent_env or ()) == {"CODEX_HOME": "codex", "CLAUDE_CONFIG_DIR": ""}


def test_changes_are_seen_by_the_next_find(
    gateway: Run,
    gateway_process: Run,
    clean_env: dict[str, str],
    project: Path,
    library: Path,
    write_skill: WriteSkill,
) -> None:
    def found(query: str) -> list[str]:
        done = gateway_process("find", query, "--path", "library", "--format", "json")
        assert done.returncode == 0, done.stderr
        return [Path(skill["name"]).name for skill in json.loads(done.stdout)["skills"]]

    with server(clean_env, project, gateway):
        assert found("zeppelin") == []
        assert found("zeppelin") == []  # the watcher is on from the second pass
        write_skill(library / "pilot", "pilot", "Fly a zeppelin.")
        assert found("zeppelin") == ["pilot"]
        write_skill(library / "pilot", "pilot", "Fly a balloon.")
        assert found("zeppelin") == []
        assert found("balloon") == ["pilot"]
        shutil.rmtree(library / "pilot")
        assert found("balloon") == []
        assert queries(gateway) == 6


def test_an_agent_folder_renamed_away_and_back_is_seen_by_the_server(
    gateway: Run,
    gateway_process: Run,
    clean_env: dict[str, str],
    project: Path,
    write_skill: WriteSkill,
) -> None:
    """``mv .claude .claude.bak`` while a server runs: no event of the folders it watches
    (their watches follow the inodes). It answered the three skills at paths that were gone,
    and once it saw them gone, never saw them come back (``mv`` back). Near miss: each
    answer is the in-process one."""

    def found() -> tuple[int, list[str]]:
        done = gateway_process("find", "zorb", "--format", "json")
        assert done.returncode == 0, done.stderr
        data = json.loads(done.stdout)
        return data["searched"], sorted(skill["name"] for skill in data["skills"])

    for name in ("s1", "s2", "s3"):
        write_skill(project / ".claude" / "skills" / name, name, f"Zorb {name} things.")
    time.sleep(2.1)  # settled (RACY_NS): the server's third answer takes the quiet path
    every = (3, ["s1", "s2", "s3"])
    with server(clean_env, project, gateway):
        assert found() == found() == found() == every
        (project / ".claude").rename(project / ".claude.bak")
        assert found() == found() == (0, [])
        (project / ".claude.bak").rename(project / ".claude")
        assert found() == found() == every
        assert queries(gateway) == 7


def test_a_followed_entrys_target_moved_with_a_folder_above_it_is_seen_by_the_server(
    gateway: Run,
    gateway_process: Run,
    clean_env: dict[str, str],
    project: Path,
    tmp_path: Path,
    write_skill: WriteSkill,
) -> None:
    """``.claude/skills/linked -> repo/skills/linked``, then ``mv repo repo-old`` (a re-clone,
    or the link left dangling): no event of the target's own watch (it follows its inode,
    now under repo-old), nor of the root's. The server answered the old checkout's text at
    the path of the new one, and the dangling link's skill, while a process alone did not."""
    repo = tmp_path / "repo"

    def found(query: str) -> tuple[int, list[tuple[str, str]]]:
        done = gateway_process("find", query, "--format", "json")
        assert done.returncode == 0, done.stderr
        data = json.loads(done.stdout)
        return data["searched"], [(skill["name"], skill["path"]) for skill in data["skills"]]

    write_skill(repo / "skills" / "linked", "linked", "Old checkout oldcloneword.")
    (project / ".claude" / "skills").mkdir(parents=True)
    (project / ".claude" / "skills" / "linked").symlink_to(repo / "skills" / "linked")
    time.sleep(2.1)  # settled (RACY_NS): the server's third answer takes the quiet path
    linked = str(repo / "skills" / "linked")
    with server(clean_env, project, gateway):
        assert found("oldcloneword") == found("oldcloneword") == (1, [("linked", linked)])
        assert found("oldcloneword") == (1, [("linked", linked)])
        repo.rename(tmp_path / "repo-old")  # a re-clone: the old checkout moved aside
        write_skill(repo / "skills" / "linked", "linked", "New checkout newcloneword.")
        assert found("oldcloneword") == (1, [])
        assert found("newcloneword") == (1, [("linked", linked)])
        time.sleep(2.1)
        assert found("newcloneword") == found("newcloneword") == (1, [("linked", linked)])
        repo.rename(tmp_path / "repo-new")  # the link dangles now
        assert found("newcloneword") == (0, [])
        assert queries(gateway) == 8


def test_a_dangling_links_target_back_is_seen_by_the_server(
    gateway: Run,
    gateway_process: Run,
    clean_env: dict[str, str],
    project: Path,
    tmp_path: Path,
    write_skill: WriteSkill,
) -> None:
    """``.claude/skills/linked -> repo/skills/linked``, ``mv repo repo-gone``, a find, then
    ``mv repo-gone repo``; and ``later -> elsewhere/later`` before its target is made. No
    folder the server watches changes as a target comes back: it left the skill out until
    the agent folder changed (a process alone too). Each is found at the next find."""
    repo = tmp_path / "repo"

    def found() -> tuple[int, list[str]]:
        done = gateway_process("find", "comebackword", "--format", "json")
        assert done.returncode == 0, done.stderr
        data = json.loads(done.stdout)
        return data["searched"], sorted(skill["name"] for skill in data["skills"])

    write_skill(repo / "skills" / "linked", "linked", "Linked comebackword.")
    skills = project / ".claude" / "skills"
    skills.mkdir(parents=True)
    (skills / "linked").symlink_to(repo / "skills" / "linked")
    (skills / "later").symlink_to(tmp_path / "elsewhere" / "later")
    time.sleep(2.1)  # settled (RACY_NS): the server's third answer takes the quiet path
    with server(clean_env, project, gateway):
        assert found() == found() == found() == (1, ["linked"])
        repo.rename(tmp_path / "repo-gone")
        assert found() == found() == (0, [])
        (tmp_path / "repo-gone").rename(repo)
        assert found() == (1, ["linked"])
        write_skill(tmp_path / "elsewhere" / "later", "later", "Later comebackword.")
        assert found() == (2, ["later", "linked"])
        assert queries(gateway) == 7


#: Runs a command as root without its override of file permissions (a user's view).
UNPRIVILEGED = (
    "setpriv",
    "--inh-caps=-dac_override,-dac_read_search",
    "--bounding-set=-dac_override,-dac_read_search",
)


def unprivileged(folder: Path) -> tuple[str, ...]:
    """What runs a command to which ``folder`` (made unreadable) is unreadable: nothing for a
    user, :data:`UNPRIVILEGED` for root; the test is skipped where permissions do not apply."""
    prefix = UNPRIVILEGED if os.geteuid() == 0 and shutil.which("setpriv") else ()
    listing = [*prefix, sys.executable, "-c", "import os, sys; os.listdir(sys.argv[1])"]
    if subprocess.run([*listing, str(folder)], capture_output=True).returncode == 0:
        pytest.skip("permissions do not apply here")
    return prefix


def test_a_folder_made_unreadable_loses_its_skills_in_the_servers_answer(
    gateway: Run,
    gateway_process: Run,
    clean_env: dict[str, str],
    project: Path,
    write_skill: WriteSkill,
) -> None:
    """``chmod 000`` on a folder of three skills while a server runs: an attribute event of
    the folder alone, whose listing fails. The folders under it were taken as they were, and
    the three skills answered (searched 4, skipped 1); a new walk lists nothing under an
    unreadable folder, counted skipped. Near miss: readable again, they are back."""
    library = project / "library"
    group = library / "group"
    for name in ("s1", "s2", "s3"):
        write_skill(group / name, name, f"Zorb {name} things.")
    write_skill(library / "top", "top", "Zorb top things.")

    def found() -> tuple[int, int, list[str]]:
        done = gateway_process("find", "zorb", "--path", "library", "--format", "json")
        assert done.returncode == 0, done.stderr
        data = json.loads(done.stdout)
        return (
            data["searched"],
            data["skipped"],
            sorted(Path(s["name"]).name for s in data["skills"]),
        )

    every = (4, 0, ["s1", "s2", "s3", "top"])
    group.chmod(0)
    try:
        prefix = unprivileged(group)
    finally:
        group.chmod(0o755)
    time.sleep(2.1)  # settled (RACY_NS): only the folder with an event is looked at again
    with server(clean_env, project, gateway, prefix=prefix):
        assert found() == found() == every  # the second watches what it walks
        group.chmod(0)
        try:
            assert found() == found() == (1, 1, ["top"])
        finally:
            group.chmod(0o755)
        assert found() == every
        assert queries(gateway) == 5


def test_the_client_does_not_load_the_catalog_machinery(
    gateway: Run, clean_env: dict[str, str], project: Path, library: Path
) -> None:
    argv = [sys.executable, "-X", "importtime", "-m", "skillc_gateway", "find", "paint"]
    argv += ["--path", "library", "--format", "json"]
    with server(clean_env, project, gateway):
        done = subprocess.run(argv, cwd=project, env=clean_env, capture_output=True, text=True)
        assert queries(gateway) == 1
    assert done.returncode == 0 and "painter" in done.stdout
    imported = {line.rpartition("|")[2].strip() for line in done.stderr.splitlines()}
    assert "skillc_gateway.catalog.client" in imported
    heavy = {"sqlite3", "socket", "skillc_gateway.catalog.engine", "skillc_gateway.catalog.rank"}
    heavy |= {"skillc_gateway.catalog.server", "skillc_gateway.catalog.lifecycle"}
    heavy |= {"skillc_gateway.catalog.scan", "skillc_gateway.catalog.database"}
    heavy |= {"skillc_gateway.catalog.tree_state"}
    heavy |= {"skillc_gateway.operations"}  # the request's bounds are in _limits alone
    assert not heavy & imported
    # near miss: without a server the same command imports them
    done = subprocess.run(argv, cwd=project, env=clean_env, capture_output=True, text=True)
    assert "skillc_gateway.catalog.engine" in done.stderr


def test_only_a_one_shot_session_asks_the_find_server(
    gateway: Run, clean_env: dict[str, str], project: Path, home: Path, library: Path
) -> None:
    """The ``find`` operation asks the find server in a one-shot session (the command line's:
    its process would load the catalog for one answer), never in another (the MCP server
    keeps its own catalog warm): the same answer either way."""
    from skillc_gateway.operations import FIND, FindParams
    from skillc_index.accesslog import AccessLog
    from skillc_index.operation import Session

    layout = Layout.discover(project, {"SKILLC_HOME": str(home)})
    params = FindParams("paint a bicycle", path=("library",))
    with server(clean_env, project, gateway):
        resident = FIND.run(Session(layout, AccessLog(lambda _: None)), params)
        assert not resident.served and queries(gateway) == 0
        one_shot = FIND.run(Session(layout, AccessLog(lambda _: None), one_shot=True), params)
        assert one_shot.served and queries(gateway) == 1
    assert one_shot.to_dict() == resident.to_dict()


# -- the quick path: skc find without click ---------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ("paint",),
        ("paint", "--limit", "3"),
        ("--limit=3", "paint"),
        ("paint", "--limit", "05", "--limit", "7"),  # the last one counts
        ("paint", "--path", "a", "--path=b", "--path", "~/c d"),
        ("--format", "json", "paint"),
        ("--format=text", "--", "-fno-strict-aliasing"),
        ("-fno-strict-aliasing",),  # a word that is none of find's options is the query
        ("-save-temps", "--format", "json"),  # not -s -a -v ... (a v was -v, and dropped)
        ("--limit", "2", "-fvisibility=hidden"),
        ("-",),
        ("--", "--limit"),
        ("",),  # click reads it too: find's error (E004) is the click command's
    ],
)
def test_the_quick_path_reads_a_command_line_as_click_does(args: tuple[str, ...]) -> None:
    params = find_command.make_context("find", list(args)).params
    expected = (params["query"], params["limit"], list(params["path"]), params["output_format"])
    assert find_quick._parse(list(args)) == expected


@pytest.mark.parametrize(
    "args",
    [
        (),
        ("--help",),
        ("paint", "-h"),
        ("paint", "-v"),
        ("--verbose", "paint"),
        ("paint", "brush"),
        ("paint", "--limit"),
        ("paint", "--limit", "x"),
        ("paint", "--limit", "+3"),
        ("paint", "--limit", "-3"),
        ("paint", "--limit", "²"),
        ("paint", "--format", "JSON"),
        ("paint", "--format=yaml"),
        ("paint", "--path", "--limit"),
        ("paint", "--bogus", "1"),
    ],
)
def test_the_quick_path_leaves_other_command_lines_to_click(args: tuple[str, ...]) -> None:
    assert find_quick._parse(list(args)) is None


def test_the_quick_path_knows_every_option_of_the_command() -> None:
    """An option of ``skc find`` the quick path does not know would be its query."""
    ctx = find_command.make_context("find", ["paint"])
    options = {
        opt
        for param in find_command.get_params(ctx)
        if isinstance(param, click.Option)
        for opt in (*param.opts, *param.secondary_opts)
    }
    assert options == {*find_quick.QUICK_OPTIONS, *find_quick.CLICK_ONLY}


def test_the_quick_path_prints_what_the_command_prints(
    gateway: Run, clean_env: dict[str, str], project: Path, home: Path, library: Path,
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    monkeypatch.chdir(project)
    monkeypatch.setenv("SKILLC_HOME", str(home))
    monkeypatch.setenv("SKILLC_FIND_SEMANTIC", "0")  # as clean_env's commands rank
    commands = [
        ("paint a bicycle", "--path", "library"),
        ("--format=json", "paint a bicycle", "--path", "library"),
        ("bread", "--path", str(library), "--limit", "1", "--format", "json"),
        ("nothing matches zeppelin", "--path", "library"),
    ]
    with server(clean_env, project, gateway):
        for args in commands:
            assert find_quick.run(list(args), program="skillc-gateway") == 0
            printed = capsys.readouterr()
            clicked = gateway("find", *args, "-v")  # -v: the click command, answered by the server
            assert "answered by the find server" in clicked.stderr
            assert (printed.out, printed.err) == (clicked.stdout, "")
        assert queries(gateway) == 2 * len(commands)
        # it gives way before printing anything: bad input is the click command's error
        assert find_quick.run(["paint", "--path", "missing"]) is None
        assert find_quick.run(["   ", "--path", "library"]) is None
        assert capsys.readouterr() == ("", "")
        assert queries(gateway) == 2 * len(commands)
    assert find_quick.run(["paint", "--path", "library"]) is None  # no server: the command's
    assert capsys.readouterr() == ("", "")


def test_a_server_that_does_not_answer_is_not_asked_again(home: Path, stand_in: StandIn) -> None:
    """A socket whose server accepts and says nothing (stuck, or of a broken build): the
    quick path and then the click command of one ``skc find`` would each wait for it."""
    layout = Layout.discover(home, {"SKILLC_HOME": str(home)})
    path = socket_path(layout)
    path.parent.mkdir(parents=True)
    roots = (Root(home, "path"),)
    with stand_in(path, read=False) as accepted:
        assert usable(layout)
        assert ask(layout, "paint", 10, roots, 1.0) is None
        assert ask(layout, "paint", 10, roots, 1.0) is None
        assert not usable(layout)
        assert len(accepted) == 1
    with stand_in(path, read=False) as accepted:  # a server started since: another socket
        assert usable(layout)
        assert ask(layout, "paint", 10, roots, 1.0) is None
        assert len(accepted) == 1


@pytest.mark.parametrize(
    ("error", "said", "other"),
    [
        ("this server runs skillc-gateway 0.1.0: restart it", other_code(), True),
        ("bad budget", "the find server refused it: bad budget", False),
    ],
)
def test_a_server_that_refuses_a_find_is_not_asked_again(
    home: Path, stand_in: StandIn, error: str, said: str, other: bool
) -> None:
    """A server of other code refuses the find (an old one, in its own words): the process
    answers itself, and its click command after the quick path does not ask that server
    again (nor does it send it another request instead). ``find -v`` says why: "other code"
    only when the server said so (any refusal was called that), and so does
    ``refused_as_other_code`` (then the find builds a share of the catalog: ``can_serve``)."""
    layout = Layout.discover(home, {"SKILLC_HOME": str(home)})
    path = socket_path(layout)
    path.parent.mkdir(parents=True)
    roots = (Root(home, "path"),)
    with stand_in(path, encode_message({"ok": False, "error": error})) as requests:
        assert usable(layout)
        assert not refused_as_other_code(layout)
        assert ask(layout, "paint", 10, roots, 1.0) is None
        assert declined(layout) == said
        assert refused_as_other_code(layout) is other
        assert ask(layout, "paint", 10, roots, 1.0) is None
        assert not usable(layout)
    assert [json.loads(request)["op"] for request in requests] == ["find"]


@pytest.mark.parametrize(
    ("since", "shown"),
    [
        (1796490666.1512017, "2026-12-05T17:11:06Z"),  # an older server's epoch seconds
        ("2026-12-05T18:11:06+01:00", "2026-12-05T17:11:06Z"),
        ("2026-12-05T16:31:06Z", "2026-12-05T16:31:06Z"),
        ("yesterday", None),
    ],
)
def test_an_older_servers_start_time_is_shown_as_rfc_3339_utc(
    gateway: Run, home: Path, stand_in: StandIn, since: object, shown: str | None
) -> None:
    """``--status`` of a find server older code runs (6cfae719's status, which gave its start
    as epoch seconds): the time is RFC 3339 UTC with ``Z`` in text and JSON, as DECISIONS
    says of every time printed ("running since 1796490666.15" before); one that is no time
    is unknown, never printed as it came."""
    layout = Layout.discover(home, {"SKILLC_HOME": str(home)})
    path = socket_path(layout)
    path.parent.mkdir(parents=True, exist_ok=True)
    old = {
        "running": True, "pid": 25010, "version": "0.1.0", "since": since,
        "home": str(home), "socket": str(path), "queries": 3, "find_seconds": 0.1, "idle": 0,
        "roots": [], "watches": None, "watch_budget": None, "ranker": "lexical",
    }  # fmt: skip
    with stand_in(path, encode_message({"ok": True, "status": old})):
        data = status(gateway)
        text = gateway("watch", "--status").stdout
    assert data["since"] == shown
    assert f"pid 25010 (skillc-gateway 0.1.0), running since {shown or 'an unknown time'}\n" in text
    assert "runs other code" in text


def test_a_server_of_other_code_at_the_same_version_answers_no_find(
    gateway: Run, gateway_process: Run, clean_env: dict[str, str], project: Path, home: Path,
    library: Path, tmp_path: Path,
) -> None:  # fmt: skip
    """A server started before an upgrade runs the old code at the same version number (one
    until a release): it answers no find of the code installed since, which answers itself.
    Here the server runs a copy of skillc-gateway's and skillc-index's modules: as they are,
    it answers; one module edited, it refuses."""
    import skillc_gateway
    import skillc_index

    copy = tmp_path / "code"
    for package in (skillc_gateway, skillc_index):
        folder = Path(str(package.__file__)).parent
        ignore = shutil.ignore_patterns("__pycache__")
        shutil.copytree(folder, copy / folder.name, ignore=ignore)  # their times kept
    path = os.pathsep.join(filter(None, [str(copy), clean_env.get("PYTHONPATH")]))
    env = {**clean_env, "PYTHONPATH": path}
    with server(env, project, gateway):
        done = gateway_process("find", "paint", "--path", "library", "-v")
        assert "answered by the find server" in done.stderr
        assert status(gateway)["serves"] is True
        assert "runs other code" not in gateway_process("watch", "--status").stdout
    edited = copy / "skillc_gateway" / "catalog" / "rank.py"
    edited.write_text(edited.read_text(encoding="utf-8") + "# edited\n", encoding="utf-8")
    with server(env, project, gateway) as old:
        done = gateway_process("find", "paint", "--path", "library", "-v")
        assert "answered by this process (the find server runs other code" in done.stderr
        assert "'skillc-gateway watch --detach' replaces it)" in done.stderr  # the script run
        assert "painter" in done.stdout
        assert gateway_process("find", "paint", "--path", "library").returncode == 0  # quick
        assert queries(gateway) == 0
        # --status says so (it said running, same version); --detach replaces it
        data = status(gateway)
        assert data["running"] is True and data["serves"] is False and data["pid"] == old.pid
        text = gateway_process("watch", "--status").stdout
        assert "runs other code (installed or edited since it started)" in text
        replace = "'skillc-gateway watch --detach' replaces it"
        assert f"{replace}, 'skillc-gateway watch --stop' stops it" in text
        started = gateway_process("watch", "--detach")
        assert started.returncode == 0, started.stderr
        assert old.wait(timeout=READY_SECONDS) == 0  # stopped as by --stop
    try:
        data = status(gateway)
        assert data["pid"] == int(started.stdout) and data["serves"] is True
        done = gateway_process("find", "paint", "--path", "library", "-v")
        assert "answered by the find server" in done.stderr
    finally:
        gateway_process("watch", "--stop")
    log = (project / "watch.log").read_text(encoding="utf-8")
    assert log.count("bad request: this server runs other code (skillc-gateway") == 1


def test_a_server_of_a_newer_protocol_is_named_and_stopped_and_replaced(
    gateway: Run, gateway_process: Run, newer_gateway: NewerGateway, project: Path, home: Path,
    library: Path,
) -> None:  # fmt: skip
    """A find server of a newer skillc (protocol 2) answered this one's requests in its own
    version, which the client threw away: --status said it "does not answer" (running false),
    --stop "does not answer: kill it", --detach "already runs", a shell profile's line failed
    at every start. Its reply is read as far as the envelope every version keeps."""
    newer_env = newer_gateway()
    with server(newer_env, project, gateway) as newer:
        # the envelope: a request of another version is answered with the server's own
        reply = raw_request(home, b'{"version": 1, "op": "status"}')
        assert reply["version"] == 2 and reply["ok"] is False
        assert reply["pid"] == newer.pid and reply["skillc_gateway"] == "9.0.0"
        data = status(gateway)
        assert data["running"] is True and data["serves"] is False, data
        assert (data["protocol"], data["version"], data["pid"]) == (2, "9.0.0", newer.pid)
        said = (
            f"another skillc (protocol 2, skillc-gateway 9.0.0) runs as pid {newer.pid}: "
            "upgrade skillc, or stop it ('skillc-gateway watch --stop')"
        )
        text = gateway_process("watch", "--status").stdout
        assert text.startswith(f"A find server of {said}.\n"), text
        done = gateway_process("find", "paint", "--path", "library", "-v")
        assert done.returncode == 0 and "painter" in done.stdout
        assert f"answered by this process (a find server of {said})" in done.stderr
        stopped = gateway_process("watch", "--stop")
        assert stopped.stdout == f"Stopped pid {newer.pid}.\n", stopped.stderr
        assert newer.wait(timeout=READY_SECONDS) == 0  # it honoured the stop
    # the shell profile's line: not "serves", so --detach, which replaces it
    with server(newer_env, project, gateway) as newer:
        started = gateway_process("watch", "--detach")
        assert started.returncode == 0, started.stderr
        assert newer.wait(timeout=READY_SECONDS) == 0
    try:
        data = status(gateway)
        assert data["pid"] == int(started.stdout) and data["serves"] is True
        assert data["protocol"] == 1
    finally:
        gateway_process("watch", "--stop")


def test_a_server_of_another_protocol_that_refuses_the_stop_is_terminated(
    gateway: Run, gateway_process: Run, newer_gateway: NewerGateway, project: Path, home: Path
) -> None:
    """A server of another protocol that does not honour this version's ``stop`` (one older
    than the envelope) is sent SIGTERM, once it is proven this home's server (the socket's
    peer is the process the home's held lock names); a pid the lock does not name is not."""
    from skillc_gateway.catalog.lifecycle import _terminate

    stop = ('message.get("op") == "stop"', "False")
    env = newer_gateway(("catalog/protocol.py", *stop))
    with server(env, project, gateway) as newer:
        sleeper = subprocess.Popen(["sleep", "60"])
        try:  # the lock names the server, not this process
            assert _terminate(home / ".skillc" / "find.lock", sleeper.pid) is None
            assert sleeper.poll() is None
        finally:
            sleeper.kill()
            sleeper.wait()
        assert newer.poll() is None
        stopped = gateway_process("watch", "--stop")
        assert stopped.stdout == f"Stopped pid {newer.pid}.\n", stopped.stderr
        assert newer.wait(timeout=READY_SECONDS) == 128 + signal.SIGTERM
    assert not (home / ".skillc" / "find.sock").exists()


def test_a_server_that_keeps_a_client_waiting_is_not_asked_by_the_others(
    home: Path, monkeypatch: pytest.MonkeyPatch, stand_in: StandIn
) -> None:
    """A server that accepts and never answers (stuck, running: it holds the home's lock)
    keeps one ``skc find`` waiting its whole time; the next processes do not ask it (each
    would wait as long) until the record of it expires."""
    import fcntl

    import skillc_gateway.catalog.client as client_module

    monkeypatch.setattr(client_module, "ANSWER_MARGIN_SECONDS", 0.6)
    layout = Layout.discover(home, {"SKILLC_HOME": str(home)})
    path = socket_path(layout)
    path.parent.mkdir(parents=True)
    roots = (Root(home, "path"),)
    lock = os.open(path.parent / "find.lock", os.O_RDWR | os.O_CREAT, 0o600)
    fcntl.flock(lock, fcntl.LOCK_EX)  # the stuck server's
    try:
        with stand_in(path, hold=True) as held:
            os.umask(old_mask := os.umask(0o022))
            try:
                assert ask(layout, "paint", 10, roots, 0.0) is None  # after its whole time
            finally:
                os.umask(old_mask)
            record = os.lstat(path.parent / "find.sock.silent")
            assert stat.S_ISREG(record.st_mode)
            assert stat.S_IMODE(record.st_mode) == 0o600  # as every file of the home (0644)
            client_module._silent.clear()  # another process
            assert not usable(layout)
            assert ask(layout, "paint", 10, roots, 0.0) is None and len(held) == 1
            monkeypatch.setattr(client_module, "SILENT_SECONDS", 0.0)  # the record expired
            client_module._silent.clear()
            assert usable(layout)
    finally:
        os.close(lock)


def test_a_fifo_at_the_record_of_silence_is_no_record_and_never_blocks(
    home: Path, stand_in: StandIn
) -> None:
    """A FIFO at ``find.sock.silent`` (the record that a server kept a client waiting) was
    opened to be read, blocking every ``skc find`` while a server's socket was there: it is
    no record, never opened."""
    import threading

    layout = Layout.discover(home, {"SKILLC_HOME": str(home)})
    path = socket_path(layout)
    path.parent.mkdir(parents=True)
    record = path.parent / "find.sock.silent"
    os.mkfifo(record)
    answers: list[bool] = []
    with stand_in(path):
        asking = threading.Thread(target=lambda: answers.append(usable(layout)), daemon=True)
        asking.start()
        asking.join(10)
        blocked = asking.is_alive()
        if blocked:  # in the open: a writer lets it go on
            with open(record, "wb"):
                pass
            asking.join(10)
    assert not blocked and answers == [True]
    assert record.is_fifo()


def test_a_server_that_answers_removes_the_record_of_its_silence(
    gateway: Run, gateway_process: Run, clean_env: dict[str, str], project: Path, home: Path,
    library: Path,
) -> None:  # fmt: skip
    """The record is of one socket: a server started since is asked, and answering, it
    removes the record (a client that gave up on a busy server does not keep others off)."""
    record = home / ".skillc" / "find.sock.silent"
    with server(clean_env, project, gateway):
        record.write_text(f"1 2 {int(time.time())}\n", encoding="ascii")  # another socket's
        done = gateway_process("find", "paint", "--path", "library", "-v")
        assert "answered by the find server" in done.stderr
        assert not record.exists()


def test_a_stopped_server_is_not_waited_for(
    gateway: Run, gateway_process: Run, clean_env: dict[str, str], project: Path, home: Path,
    library: Path,
) -> None:  # fmt: skip
    """A server stopped with Ctrl-Z (SIGSTOP) still has its socket, and the kernel accepts
    connections for it: the client sees the process stopped and answers itself at once,
    however long it would wait for a busy server; resumed, the server answers again."""
    layout = Layout.discover(home, {"SKILLC_HOME": str(home)})
    with server(clean_env, project, gateway) as running:
        expected = gateway_process("find", "paint", "--path", "library").stdout
        assert "painter" in expected and queries(gateway) == 1
        running.send_signal(signal.SIGSTOP)
        try:
            replies: list[dict[str, Any] | None] = []
            # an hour to answer: only seeing the process stopped ends the wait
            asking = threading.Thread(
                target=lambda: replies.append(request(layout, {"op": "status"}, 3600.0))
            )
            asking.start()
            asking.join(READY_SECONDS)
            assert not asking.is_alive() and replies == [None]
            done = gateway_process("find", "paint", "--path", "library", "-v")
            assert done.returncode == 0 and done.stdout == expected
            assert "find: answered by this process" in done.stderr
            data = status(gateway)
            assert data == {
                "running": False, "home": str(home),
                "socket": str(home / ".skillc" / "find.sock"), "silent_pid": running.pid,
                "other_listener": False,
                "other_user": None,
                "unreachable": None,
            }  # fmt: skip
            text = gateway_process("watch", "--status").stdout
            assert f"A find server (pid {running.pid}) holds this skillc home" in text
            assert f"'kill -CONT {running.pid}' resumes it" in text
        finally:
            running.send_signal(signal.SIGCONT)
        done = gateway_process("find", "paint", "--path", "library", "-v")
        assert done.stdout == expected and "answered by the find server" in done.stderr
        assert queries(gateway) == 2
        # stopped, asked to stop: it does when resumed (the request waits in its queue)
        running.send_signal(signal.SIGSTOP)
        try:
            stopping = gateway_process("watch", "--stop")
            assert stopping.returncode == 1
            assert f"the find server (pid {running.pid}) is stopped" in stopping.stderr
        finally:
            running.send_signal(signal.SIGCONT)
        assert running.wait(timeout=READY_SECONDS) == 0


# -- started by find ---------------------------------------------------------------------------


@pytest.fixture
def large_library(project: Path, write_skill: WriteSkill) -> Callable[..., Path]:
    """``large_library(count=AUTO_START_SKILLS)``: ``project/library``, ``count`` small
    skills, ``s0000``..., enough for a find to start a find server by default."""

    def make(count: int = AUTO_START_SKILLS) -> Path:
        root = project / "library"
        for n in range(count):
            write_skill(root / f"s{n:04d}", f"s{n:04d}", f"Tend the garden of plot {n}.")
        return root

    return make


def wait_for_server(gateway: Run, pid: int) -> None:
    deadline = time.monotonic() + READY_SECONDS
    while status(gateway).get("pid") != pid:
        assert time.monotonic() < deadline, "the server find started did not come up"
        time.sleep(0.05)


def test_a_find_over_a_large_library_starts_a_server_for_the_next_finds(
    gateway: Run,
    gateway_process: Run,
    home: Path,
    project: Path,
    write_skill: WriteSkill,
    large_library: Callable[..., Path],
) -> None:
    root = large_library(AUTO_START_SKILLS - 1)
    find = ("find", "tend the garden s0007", "--path", "library", "--limit", "3")
    # the words alone: with the semantic extra, a find whose vectors are still to compute
    # starts a server below the threshold too (test_first_find.py)
    lexical = {"SKILLC_FIND_SEMANTIC": "0"}
    # the catalog built first, by a find that starts no server (a first find over this many
    # unknown skills answers from their files and starts one: test_first_answer.py)
    built = gateway_process(*find, env_extra={**lexical, "SKILLC_FIND_SERVER": "0"})
    assert built.returncode == 0 and built.stderr == "", built.stderr
    below = gateway_process(*find, "-v", env_extra=lexical)
    assert below.returncode == 0 and "s0007" in below.stdout
    assert "answered by this process" in below.stderr and "info:" not in below.stderr
    assert not status(gateway)["running"]  # one skill short of the threshold
    write_skill(root / "kite", "kite", "Fly a kite on a windy beach.")
    first = gateway_process(*find, env_extra=lexical)
    assert first.returncode == 0, first.stderr
    started = first.stderr.removeprefix("info: started a find server for the next finds (pid ")
    assert started != first.stderr, first.stderr
    pid = int(started.partition(";")[0])
    assert "SKILLC_FIND_SERVER=0 starts none" in first.stderr
    try:
        wait_for_server(gateway, pid)
        assert status(gateway)["idle"] == 3600
        second = gateway_process(*find, "-v", env_extra=lexical)
        assert second.stdout == first.stdout  # the same answer, served
        assert "answered by the find server" in second.stderr and "info:" not in second.stderr
        assert queries(gateway) == 1
    finally:
        gateway_process("watch", "--stop")
    off = gateway_process(*find, env_extra={**lexical, "SKILLC_FIND_SERVER": "0"})
    assert off.stdout == first.stdout and off.stderr == ""
    assert not status(gateway)["running"]


def test_a_session_of_many_calls_answers_a_new_library_from_its_files_and_starts_a_server(
    gateway: Run,
    gateway_process: Run,
    home: Path,
    project: Path,
    large_library: Callable[..., Path],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The find operation in a session that serves many calls and ``starts_servers`` (the
    MCP server's, not one-shot) over a library its catalog lacks: the answer from the
    skills' files (not the whole catalog built in this process first), and a find server
    started to build it; with ``SKILLC_FIND_SERVER=0``, the catalog built here and no
    server. An embedder's session (``Session(layout, log)``) starts none either: the gateway
    README says it answers in its own process (it started a detached server)."""
    from skillc_gateway.catalog.engine import Catalog
    from skillc_gateway.catalog.first_answer import FIRST_SKILLS
    from skillc_gateway.operations import FIND, FindParams
    from skillc_index import format_diagnostic
    from skillc_index.accesslog import AccessLog
    from skillc_index.operation import Session

    root = large_library(FIRST_SKILLS)
    params = FindParams("tend the garden s0007", 3, (str(root),))
    monkeypatch.setenv("SKILLC_FIND_SEMANTIC", "0")
    for switched_on, starts in ((False, True), (True, False), (True, True)):
        allowed = switched_on and starts
        monkeypatch.setenv("SKILLC_FIND_SERVER", "1" if switched_on else "0")
        shutil.rmtree(home / ".skillc", ignore_errors=True)  # a fresh home each time
        warned: list[str] = []

        def warn(found: Any, warned: list[str] = warned) -> None:
            warned.extend(map(format_diagnostic, found))

        layout = Layout.discover(project, {"SKILLC_HOME": str(home)})
        session = Session(layout, AccessLog(warn), starts_servers=starts or None)
        assert session.starts_servers is starts  # None: not one-shot, so none
        found = FIND.run(session, params)
        Catalog.shared(layout).close()  # this process's catalog of the home, dropped
        started = [text for text in warned if "started a find server" in text]
        if started and not allowed:  # stopped before the test fails: none outlives it
            gateway_process("watch", "--stop")
        assert Path(found.skills[0].name).name == "s0007" and found.searched == FIRST_SKILLS
        assert not (found.served or found.partial) and found.first is allowed
        if not allowed:
            assert started == [] and not status(gateway)["running"]
            continue
        [text] = started
        pid = int(text.partition("(pid ")[2].partition(";")[0])
        try:
            wait_for_server(gateway, pid)
        finally:
            gateway_process("watch", "--stop")
            assert os.waitpid(pid, 0)[0] == pid  # gone (reaped here: our child)


def test_of_concurrent_finds_one_starts_the_server(
    gateway: Run,
    gateway_process: Run,
    clean_env: dict[str, str],
    home: Path,
    project: Path,
    large_library: Callable[..., Path],
) -> None:
    large_library()
    built = gateway_process(
        "find", "garden", "--path", "library", env_extra={"SKILLC_FIND_SERVER": "off"}
    )
    assert built.returncode == 0 and built.stderr == ""  # "off" starts none, as "0" does
    argv = [sys.executable, "-m", "skillc_gateway", "find", "tend the garden s0007"]
    pipes: dict[str, Any] = {"stdout": subprocess.PIPE, "stderr": subprocess.PIPE, "text": True}
    finds = [
        subprocess.Popen([*argv, "--path", "library"], cwd=project, env=clean_env, **pipes)
        for _ in range(6)
    ]
    outputs = [find.communicate(timeout=READY_SECONDS) for find in finds]
    assert all(find.returncode == 0 for find in finds)
    assert all("s0007" in out for out, _ in outputs)
    started = [err for _, err in outputs if err.startswith("info: started a find server")]
    assert len(started) == 1, [err for _, err in outputs]
    pid = int(started[0].partition("(pid ")[2].partition(";")[0])
    try:
        wait_for_server(gateway, pid)
    finally:
        gateway_process("watch", "--stop")
    log = (home / ".skillc" / "find.log").read_text(encoding="utf-8")
    assert "error" not in log, log  # no server lost a race for the lock


def test_find_starts_no_server_where_it_could_not_serve(
    gateway: Run,
    gateway_process: Run,
    home: Path,
    project: Path,
    large_library: Callable[..., Path],
) -> None:
    large_library()
    sock = home / ".skillc" / "find.sock"
    find = ("find", "tend the garden s0007", "--path", "library")
    assert gateway_process(*find, env_extra={"SKILLC_FIND_SERVER": "0"}).returncode == 0
    sock.write_text("not a socket", encoding="utf-8")  # the server would refuse to replace it
    done = gateway_process(*find)
    assert done.returncode == 0 and "s0007" in done.stdout and done.stderr == ""
    sock.unlink()
    if os.getuid() != 0:  # root writes anywhere
        (home / ".skillc").chmod(0o500)  # the catalog file stays writable, not the folder
        try:
            done = gateway_process(*find)
        finally:
            (home / ".skillc").chmod(0o700)
        assert done.returncode == 0 and "s0007" in done.stdout and "info:" not in done.stderr
    assert not (home / ".skillc" / "find.log").exists()  # nothing was started, nothing failed


def test_find_starts_no_server_while_one_holds_the_homes_lock(
    gateway: Run,
    gateway_process: Run,
    home: Path,
    project: Path,
    large_library: Callable[..., Path],
) -> None:
    import fcntl

    large_library()
    (home / ".skillc").mkdir(parents=True, exist_ok=True)
    # a server of another version, say: it holds the lock, and this find cannot use it
    with open(home / ".skillc" / "find.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        done = gateway_process("find", "tend the garden s0007", "--path", "library")
    assert done.returncode == 0 and "s0007" in done.stdout
    assert done.stderr == ""  # nothing started
    assert not status(gateway)["running"]


# -- life cycle --------------------------------------------------------------------------------


def test_a_killed_server_leaves_a_socket_the_next_one_replaces(
    gateway: Run, gateway_process: Run, clean_env: dict[str, str], project: Path, home: Path,
    library: Path,
) -> None:  # fmt: skip
    sock = home / ".skillc" / "find.sock"
    with server(clean_env, project, gateway) as first:
        first.kill()
        first.wait()
    assert stat.S_ISSOCK(sock.lstat().st_mode)  # left behind, nobody answers on it
    assert status(gateway) == {
        "running": False,
        "home": str(home),
        "socket": str(sock),
        "silent_pid": None,
        "other_listener": False,
        "other_user": None,
        "unreachable": None,
    }
    done = gateway_process("find", "paint", "--path", "library")
    assert done.returncode == 0 and "painter" in done.stdout  # answered in process
    with server(clean_env, project, gateway) as second:
        assert gateway_process("find", "paint", "--path", "library").stdout == done.stdout
        assert status(gateway)["pid"] == second.pid and queries(gateway) == 1
    assert not sock.exists()  # SIGTERM: the server removed its socket


def test_a_second_server_is_refused_and_stop_stops_the_first(
    gateway: Run, gateway_process: Run, clean_env: dict[str, str], project: Path, home: Path
) -> None:
    with server(clean_env, project, gateway) as first:
        second = gateway_process("watch")
        assert second.returncode == 1
        assert second.stderr.startswith("error[E060]: find server: a find server already runs")
        # the command to paste is the script's own: skillc-gateway installed alone has no skc
        assert f"pid {first.pid}); 'skillc-gateway watch --stop' stops it" in second.stderr
        detached = gateway_process("watch", "--detach")
        assert detached.returncode == 1 and "already runs" in detached.stderr
        assert "'skillc-gateway watch --stop' stops it" in detached.stderr
        stopped = gateway_process("watch", "--stop", "--format", "json")
        assert json.loads(stopped.stdout) == {"stopped": True, "pid": first.pid}
        assert first.wait(timeout=READY_SECONDS) == 0
    assert not (home / ".skillc" / "find.sock").exists()
    assert gateway_process("watch", "--stop").stdout == "No find server was running.\n"


@pytest.mark.parametrize("number", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_ends_the_foreground_server_with_128_plus_its_number(
    gateway: Run, clean_env: dict[str, str], project: Path, home: Path, number: int
) -> None:
    """Ctrl-C (SIGINT) and SIGTERM: exit 130 and 143, as ``skc mcp`` and any command Ctrl-C
    stops give (it was 0, as after ``--stop``); the socket removed all the same."""
    with server(clean_env, project, gateway) as running:
        running.send_signal(number)
        assert running.wait(timeout=READY_SECONDS) == 128 + number
    assert not (home / ".skillc" / "find.sock").exists()


def test_detach_status_and_stop(
    gateway: Run, gateway_process: Run, home: Path, library: Path
) -> None:
    started = gateway_process("watch", "--detach")
    assert started.returncode == 0, started.stderr
    pid = int(started.stdout)
    try:
        data = status(gateway)
        assert data["pid"] == pid and data["queries"] == 0 and data["idle"] == 3600
        assert data["version"] == __version__
        assert data["home"] == str(home)
        assert data["socket"] == str(home / ".skillc" / "find.sock")
        assert gateway_process("find", "bread", "--path", "library").returncode == 0
        data = status(gateway)
        assert data["queries"] == 1 and data["roots"] == [str(library)]
        assert data["ranker"] in ("lexical", "lexical+semantic")
        # the warm-up and the find: the watcher is on from the second pass, one watch a
        # folder (the library and its skills), well within its budget
        folders = sum(1 for p in library.rglob("*") if p.is_dir()) + 1
        assert data["watches"] >= folders and 0 < data["watches"] <= data["watch_budget"]
        text = gateway_process("watch", "--status", env_extra={"TZ": "Asia/Kolkata"}).stdout
        assert is_utc_timestamp(data["since"])  # RFC 3339 UTC, as every time skillc prints
        assert f"pid {pid} (skillc-gateway {__version__}), running since {data['since']}" in text
        assert "queries answered: 1" in text and str(library) in text
        assert f"folders watched (inotify): {data['watches']:,} of at most " in text
    finally:
        stopped = gateway_process("watch", "--stop")
    assert stopped.stdout == f"Stopped pid {pid}.\n"
    assert not (home / ".skillc" / "find.sock").exists()
    logged = (home / ".skillc" / "find.log").read_text(encoding="utf-8").splitlines()
    assert logged and all(is_utc_timestamp(line.split(" ", 1)[0]) for line in logged), logged
    assert gateway_process("watch", "--status").stdout == (
        f"No find server runs for this skillc home ({home}).\n"
    )
    log = (home / ".skillc" / "find.log").read_text(encoding="utf-8")
    assert f"skc watch[{pid}]: ready; stops after 3600 s without a query" in log


def test_the_log_is_moved_aside_past_its_bound_when_a_server_starts(
    gateway_process: Run, home: Path
) -> None:
    """``find.log`` grew without end (a line each time a client hangs up, the servers of a
    home appending to it for good): past ``MAX_LOG_BYTES`` it is moved to ``find.log.1`` (the
    one before dropped) when the next server starts. Near miss: under it, appended to."""
    from skillc_gateway.catalog.lifecycle import MAX_LOG_BYTES

    log = home / ".skillc" / "find.log"
    log.parent.mkdir(parents=True)
    (home / ".skillc" / "find.log.1").write_text("older\n", encoding="utf-8")
    filler = "2026-01-01T00:00:00Z skc watch[1]: a client (pid 2) went away: timed out\n"
    log.write_text(filler * (MAX_LOG_BYTES // len(filler) + 1), encoding="utf-8")
    for moved in (True, False):
        before = log.read_text(encoding="utf-8")
        started = gateway_process("watch", "--detach")
        assert started.returncode == 0, started.stderr
        stopped = gateway_process("watch", "--stop")
        assert stopped.returncode == 0, stopped.stderr
        now = log.read_text(encoding="utf-8")
        assert now.startswith(before) is not moved
        assert f"skc watch[{int(started.stdout)}]: ready" in now
        if moved:
            assert (home / ".skillc" / "find.log.1").read_text(encoding="utf-8") == before
            assert len(now) < 10_000
    assert stat.S_IMODE(log.stat().st_mode) == 0o600


def test_the_clients_that_went_away_are_logged_up_to_a_bound(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each client that hung up before its reply added a line to the server's log, without
    end (a script connecting on and on); the first ``GONE_LOGGED`` are logged, the last of
    them saying the next are not."""
    from skillc_gateway.catalog import server

    base = Path(tempfile.mkdtemp(prefix="skg-", dir="/tmp")).resolve()  # a short socket path
    monkeypatch.setenv("HOME", str(base))  # no installed skill of this machine's to warm up
    monkeypatch.setattr(server, "GONE_LOGGED", 3)
    layout = Layout.discover(base, {"SKILLC_HOME": str(base / "home")})
    lines: list[str] = []
    try:
        with in_thread(server.FindServer(layout, log=lines.append)):
            for _ in range(6):  # each hangs up at once: the reply finds no reader
                with socket.socket(socket.AF_UNIX) as gone:
                    gone.connect(str(base / "home" / ".skillc" / "find.sock"))
            assert raw_request(base / "home", STATUS)["ok"]  # after them all
    finally:
        shutil.rmtree(base, ignore_errors=True)
    went = [line for line in lines if "went away" in line]
    assert len(went) == 3, lines
    assert went[-1].endswith("; the next are not logged"), went


def test_a_server_find_just_started_is_stopped_and_shown(
    gateway_process: Run, clean_env: dict[str, str], project: Path, home: Path
) -> None:
    """A server that ``skc find`` started a moment before (its lock taken, Python still
    importing, no socket yet) is waited for: ``--stop`` stops it and ``--status`` shows it,
    rather than "pid ?, does not answer" and a server left running for an idle hour."""
    layout = Layout.discover(project, clean_env)
    layout.global_dir.mkdir(parents=True, exist_ok=True)  # a find made it (its catalog)
    for asked in ("--stop", "--status"):
        pid = start_for_later(layout)
        assert pid is not None
        try:
            done = gateway_process("watch", asked, "--format", "json")
            assert done.returncode == 0, done.stderr
            data = json.loads(done.stdout)
            if asked == "--stop":
                assert data == {"stopped": True, "pid": pid}
            else:
                assert data["running"] and data["pid"] == pid
        finally:
            stopped = gateway_process("watch", "--stop")
            assert os.waitpid(pid, 0)[0] == pid  # gone (reaped here: our child)
        assert stopped.returncode == 0, stopped.stderr
    assert not (home / ".skillc" / "find.sock").exists()


def test_an_idle_server_stops_by_itself(gateway: Run, gateway_process: Run, home: Path) -> None:
    foreground = gateway_process("watch", "--idle", "1")
    assert foreground.returncode == 0 and "no query for 1 s: stopping" in foreground.stderr
    started = gateway_process("watch", "--detach", "--idle", "2")
    assert started.returncode == 0, started.stderr
    deadline = time.monotonic() + READY_SECONDS
    while status(gateway)["running"]:
        assert time.monotonic() < deadline, "the idle server did not stop"
        time.sleep(0.2)
    log = (home / ".skillc" / "find.log").read_text(encoding="utf-8")
    assert f"skc watch[{int(started.stdout)}]: no query for 2 s: stopping" in log
    assert not (home / ".skillc" / "find.sock").exists()


def test_a_failed_warm_up_is_logged_and_the_server_serves(
    gateway: Run, gateway_process: Run, clean_env: dict[str, str], project: Path, library: Path
) -> None:
    from skillc_index.inventory.folders import ROUTING_ROOTS_VARIABLE

    env = {**clean_env, ROUTING_ROOTS_VARIABLE: str(project / "missing")}
    with server(env, project, gateway):
        assert "painter" in gateway_process("find", "paint", "--path", "library").stdout
        assert queries(gateway) == 1
    log = (project / "watch.log").read_text(encoding="utf-8")
    assert "warming up failed: SkillDirectoryNotFound" in log and "ready" in log


def test_bad_options(gateway: Run) -> None:
    for args in (("--stop", "--status"), ("--detach", "--stop"), ("--status", "--idle", "3")):
        done = gateway("watch", *args)
        assert done.returncode == 1 and done.stderr.startswith("error[E100]"), args


def test_a_relative_skillc_home_is_warned_about_by_every_mode(gateway: Run, home: Path) -> None:
    """A relative ``$SKILLC_HOME`` is ignored (the home is ``~``): ``--status`` and ``--stop``
    say so, as ``find`` and the foreground server do (they acted on the server of ``~`` in
    silence: a user who meant a scratch home stopped the real one's)."""
    warned = (
        "warning: environment variable SKILLC_HOME='scratch' is not an absolute path; ignored\n"
    )
    for args in (("--status",), ("--stop",)):
        done = gateway("watch", *args, env_extra={"SKILLC_HOME": "scratch", "HOME": str(home)})
        assert (done.returncode, done.stderr) == (0, warned), args
    assert str(home) in gateway("watch", "--status").stdout  # near miss: absolute, no warning
    assert gateway("watch", "--status").stderr == ""


def test_a_socket_path_too_long_is_an_error(
    gateway_process: Run, tmp_path: Path, home: Path
) -> None:
    deep = home / ("x" * 100)
    done = gateway_process("watch", env_extra={"SKILLC_HOME": str(deep)})
    assert done.returncode == 1
    assert done.stderr.startswith("error[E060]: find server: the socket path")
    assert "at most 107" in done.stderr
    detached = gateway_process("watch", "--detach", env_extra={"SKILLC_HOME": str(deep)})
    assert detached.returncode == 1 and "at most 107" in detached.stderr
    assert not (deep / ".skillc" / "find.log").exists()  # refused before any process is made
    # near miss: a home whose socket path fits
    fits = gateway_process("watch", "--idle", "1")
    assert fits.returncode == 0 and "ready" in fits.stderr
    # a short symlink to the long folder does not shorten the path (resolved): said so
    short = tmp_path / "s"
    short.symlink_to(deep, target_is_directory=True)
    linked = gateway_process("watch", env_extra={"SKILLC_HOME": str(short)})
    assert linked.returncode == 1 and f"{deep.resolve()}/.skillc/find.sock" in linked.stderr
    assert "whose real path is shorter (the path is resolved: a short symlink" in linked.stderr


# -- what is not trusted -----------------------------------------------------------------------


def test_a_socket_that_is_not_private_is_not_used(
    gateway: Run, gateway_process: Run, clean_env: dict[str, str], project: Path, home: Path,
    library: Path,
) -> None:  # fmt: skip
    sock = home / ".skillc" / "find.sock"
    with server(clean_env, project, gateway):
        assert stat.S_IMODE(sock.stat().st_mode) == 0o600
        sock.chmod(0o660)
        assert "painter" in gateway_process("find", "paint", "--path", "library").stdout
        sock.chmod(0o600)  # near miss: private again, used again
        assert "painter" in gateway_process("find", "paint", "--path", "library").stdout
        assert queries(gateway) == 1
        if os.getuid() == 0:  # only root can give the socket away
            os.chown(sock, 65534, -1)
            assert "painter" in gateway_process("find", "paint", "--path", "library").stdout
            os.chown(sock, 0, -1)
            assert queries(gateway) == 1


def test_a_detached_server_is_started_holding_the_homes_lock(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``watch --detach`` takes the home's lock and hands it to its server (as ``skc find``
    does): from before the server starts, a client's probe finds it held, never free to be
    held for an instant as the server takes it (the server then said E060 "a find server
    already runs", with the pid an earlier, refused watch left in the file: seen once in
    CI). The server is a stand-in that exits at once: nothing is left running."""
    from skillc_gateway.catalog import lifecycle
    from skillc_index import FindServerError

    layout = Layout.discover(home, {"SKILLC_HOME": str(home)})
    seen: list[str | None] = []
    spawn = lifecycle._spawn

    def probed(*args: Any, **kwargs: Any) -> Any:
        seen.append(lock_holder(layout.global_dir / LOCK_NAME))
        return spawn(*args, **kwargs)

    monkeypatch.setattr(lifecycle, "_spawn", probed)
    monkeypatch.setattr(sys, "executable", "/bin/false")  # the server: exits at once
    with pytest.raises(FindServerError, match="did not start"):
        lifecycle.start_detached(layout, idle=1.0, timeout=30.0)
    assert seen and seen[0] is not None  # held (its content: the pid of the last holder)


def test_a_file_in_the_sockets_place_is_left_alone(
    gateway_process: Run, home: Path, library: Path
) -> None:
    (home / ".skillc").mkdir()
    squatter = home / ".skillc" / "find.sock"
    squatter.write_text("mine\n", encoding="utf-8")
    done = gateway_process("watch")
    assert done.returncode == 1 and "is not a socket" in done.stderr
    detached = gateway_process("watch", "--detach")  # the server's own error, said once
    assert detached.returncode == 1 and "is not a socket" in detached.stderr
    assert detached.stderr.startswith("error[E060]: find server: the find server did not start")
    assert detached.stderr.count("error[") == detached.stderr.count("find server:") == 1
    assert squatter.read_text(encoding="utf-8") == "mine\n"
    assert "painter" in gateway_process("find", "paint", "--path", "library").stdout


@pytest.mark.parametrize("name", ["find.lock", "find.log"])
def test_a_symlink_at_the_lock_or_the_log_is_never_written_through(
    gateway_process: Run, clean_env: dict[str, str], project: Path, home: Path, tmp_path: Path,
    name: str,
) -> None:  # fmt: skip
    """A symlink at the home's ``find.lock`` or ``find.log`` (to a file elsewhere) is E060,
    named; the file it leads to is neither truncated nor written (it held the server's pid
    afterwards, or had the server's log appended), and ``skc find`` starts no server."""
    (home / ".skillc").mkdir()
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n", encoding="utf-8")
    (home / ".skillc" / name).symlink_to(victim)
    refused = (
        f"error[E060]: find server: {home / '.skillc' / name} is a symlink, not a regular "
        "file: remove it first\n"
    )
    detached = gateway_process("watch", "--detach", "--idle", "5")
    assert (detached.returncode, detached.stderr) == (1, refused)
    if name == "find.lock":  # the server in the foreground logs to its stderr
        foreground = gateway_process("watch", "--idle", "1")
        assert (foreground.returncode, foreground.stderr) == (1, refused)
    assert start_for_later(Layout.discover(project, clean_env)) is None  # as skc find does
    assert victim.read_text(encoding="utf-8") == "precious\n"


def test_a_fifo_at_the_lock_is_never_waited_on(gateway_process: Run, home: Path) -> None:
    """A FIFO at the home's ``find.lock``: ``--status``, ``--stop``, ``--detach`` and the
    server itself are E060, named, at once (the first three waited for a writer for good,
    the server failed with E999 ``Invalid argument``); the FIFO is left alone."""
    (home / ".skillc").mkdir()
    fifo = home / ".skillc" / "find.lock"
    os.mkfifo(fifo)
    refused = f"error[E060]: find server: {fifo} is a FIFO, not a regular file: remove it first\n"
    for args in (("--status",), ("--stop",), ("--detach",), ("--idle", "1")):
        done = gateway_process("watch", *args)
        assert (done.returncode, done.stderr) == (1, refused), args
    assert stat.S_ISFIFO(fifo.lstat().st_mode)


#: ``python -m skillc_gateway watch`` whose ``flock`` prints ``tried`` the first time an
#: exclusive lock is refused (then raises as it would), and whose wait for a probe to let the
#: lock go is no shorter than the test's turn to run on a loaded machine.
TELLS_A_REFUSED_LOCK = (
    "import fcntl, runpy, sys\n"
    "import skillc_gateway.catalog.client as client\n"
    "client.PROBE_SECONDS = 600\n"
    "flock = fcntl.flock\n"
    "told = []\n"
    "def flock_told(fd, operation):\n"
    "    try:\n"
    "        return flock(fd, operation)\n"
    "    except BlockingIOError:\n"
    "        if operation & fcntl.LOCK_EX and not told:\n"
    "            told.append(operation)\n"
    "            print('tried', flush=True)\n"
    "        raise\n"
    "fcntl.flock = flock_told\n"
    "sys.argv = ['skillc-gateway', 'watch']\n"
    "runpy.run_module('skillc_gateway', run_name='__main__')\n"
)


#: What the home's lock says as a client looks at it: nobody (a fresh home), the pid a server
#: left there that a process took since (this test's: it holds no exclusive lock), a digit
#: ``int`` refuses (``str.isdigit`` takes it: E999 ``ValueError``).
NAMED_IN_THE_LOCK = {"nobody": b"", "reused pid": b"PID\n", "superscript": "²\n".encode()}


@pytest.mark.parametrize("named", sorted(NAMED_IN_THE_LOCK))
def test_a_server_that_starts_as_a_client_reads_the_lock_takes_it(
    gateway: Run, clean_env: dict[str, str], home: Path, line_within: Callable[..., Any],
    named: str,
) -> None:  # fmt: skip
    """A client's look at the home's lock (``lock_holder``: ``--status``, a find, a catalog's
    open) holds it shared for the time of a read; a server that tried to take it then died
    with E060 "a find server already runs for this skillc home (pid ?)" (the file of a
    fresh home names nobody; a test that polled ``--status`` as its server started failed
    so on a loaded machine). It tries again while the lock is held shared only, whatever
    the file says: a running process named there (a pid a server left, taken since by
    another process) gave E060 "(pid N)" at once, ``²`` E999. Here the look lasts until the
    server was refused once."""
    (home / ".skillc").mkdir()
    probe = os.open(home / ".skillc" / LOCK_NAME, os.O_RDWR | os.O_CREAT, 0o600)
    os.write(probe, NAMED_IN_THE_LOCK[named].replace(b"PID", str(os.getpid()).encode()))
    import fcntl

    fcntl.flock(probe, fcntl.LOCK_SH)  # lock_holder, caught between its flock and its close
    process = subprocess.Popen(
        [sys.executable, "-c", TELLS_A_REFUSED_LOCK],
        cwd=home,
        env=clean_env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,  # the server's log: its "ready"
        text=True,
    )
    try:
        try:
            assert line_within(process) == "tried\n"
        finally:
            os.close(probe)
        said = []
        while not (line := line_within(process)).endswith(": ready\n"):
            assert line, "".join(said)  # it ended (E060) before it was ready
            said.append(line)
        assert status(gateway)["pid"] == process.pid
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
        process.communicate(timeout=READY_SECONDS)


def test_a_find_that_starts_a_server_as_a_client_reads_the_lock_starts_it(
    gateway_process: Run, clean_env: dict[str, str], project: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    """The same for the server a find starts (``start_for_later``, which takes the lock to
    hand it over): a client's look at the lock at that instant left the find with no server
    (and ``--detach`` said E060 "already runs"). The look lasts until the lock was refused
    once."""
    import fcntl

    layout = Layout.discover(project, clean_env)
    layout.global_dir.mkdir(parents=True, exist_ok=True)  # a find made it (its catalog)
    probes = [os.open(layout.global_dir / LOCK_NAME, os.O_RDWR | os.O_CREAT, 0o600)]
    fcntl.flock(probes[0], fcntl.LOCK_SH)
    flock = fcntl.flock

    def refused_once(fd: int, operation: int) -> None:
        try:
            flock(fd, operation)
        except BlockingIOError:
            if operation & fcntl.LOCK_EX and probes:
                os.close(probes.pop())  # the look ends
            raise

    monkeypatch.setattr(fcntl, "flock", refused_once)
    try:
        pid = start_for_later(layout)
    finally:
        for probe in probes:
            os.close(probe)
    assert pid is not None and not probes  # (the lock was refused, then taken)
    try:
        done = gateway_process("watch", "--status", "--format", "json")
        assert json.loads(done.stdout)["pid"] == pid, done.stderr
    finally:
        stopped = gateway_process("watch", "--stop")
        assert os.waitpid(pid, 0)[0] == pid
    assert stopped.returncode == 0, stopped.stderr


def test_a_lock_held_shared_past_the_probe_is_no_server_running(
    cli: Callable[..., Run], home: Path
) -> None:
    """Another program holding the home's lock shared (``flock -s``) for longer than a
    client's look (:data:`.client.PROBE_SECONDS`): a server that starts, in the foreground
    or ``--detach``, said E060 "a find server already runs for this skillc home (pid ?)",
    none running, and a find's own start (``start_for_later``) gave up. It says who holds the
    lock, and leaves the file as it was (the pid an earlier server left)."""
    import fcntl

    (home / ".skillc").mkdir()
    lock = home / ".skillc" / LOCK_NAME
    lock.write_bytes(b"4242\n")
    gateway_script = cli("skillc-gateway", script=True)
    reader = os.open(lock, os.O_RDONLY)
    try:
        fcntl.flock(reader, fcntl.LOCK_SH)  # held for the whole test
        said = (
            f"error[E060]: find server: another process (no find server) has held {lock} "
            "shared for over 2.5 s: start the find server once it lets go\n"
        )
        for args in (("--detach",), ("--idle", "1")):
            done = gateway_script("watch", *args)
            assert (done.returncode, done.stderr) == (1, said), args
            assert "Traceback" not in done.stdout + done.stderr
        assert lock.read_bytes() == b"4242\n"
    finally:
        os.close(reader)


def test_a_client_never_reads_an_earlier_servers_pid_while_one_is_made(
    clean_env: dict[str, str], project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The lock a find takes to start a server holds the pid an earlier server left there
    (a process gone, its pid maybe another's since) until the new server's is written,
    after it is made: a client asking then (``--stop``, ``--status``: ``lock_holder``) read
    that pid ("the find server (pid N) does not answer: kill it" of another process). It
    is emptied as it is taken: a client reads none (``?``) until the new pid is there."""
    from skillc_gateway.catalog import lifecycle

    layout = Layout.discover(project, clean_env)
    layout.global_dir.mkdir(parents=True, exist_ok=True)
    lock = layout.global_dir / LOCK_NAME
    lock.write_bytes(f"{os.getpid()}\n".encode())  # an earlier server's, taken since
    read: list[str | None] = []

    def spawn(*_args: object) -> subprocess.Popen[bytes]:
        read.append(lock_holder(lock))  # a client's look as the process is made
        raise OSError(errno.EAGAIN, "no process made here")

    monkeypatch.setattr(lifecycle, "_spawn", spawn)
    assert start_for_later(layout, serves=True) is None
    assert read == ["?"]


#: What the home's lock says while another holds it exclusively (a server, or one starting),
#: and the pid E060 names: its own (only as information), or ``?`` for none or no pid.
NAMED_BY_A_HOLDER = {
    "its pid": (b"PID\n", "PID"),
    "nobody": (b"", "?"),
    "superscript": ("²\n".encode(), "?"),
    "too long": (b"9" * 32, "?"),
}


@pytest.mark.parametrize("named", sorted(NAMED_BY_A_HOLDER))
def test_a_server_finding_the_lock_held_exclusively_says_so_at_once(
    clean_env: dict[str, str], home: Path, line_within: Callable[..., Any], named: str
) -> None:
    """A lock held exclusively (here by this process) is a server's, or one starting: a new
    server says E060 "already runs" at once, as the lock itself tells (a shared lock
    refused), whatever the file names. It waited its whole probe time (600 s here:
    ``TELLS_A_REFUSED_LOCK``) for a lock that named no running process, and ``²`` was
    E999 ``ValueError``."""
    import fcntl

    raw, pid = NAMED_BY_A_HOLDER[named]
    (home / ".skillc").mkdir()
    lock = os.open(home / ".skillc" / LOCK_NAME, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(lock, fcntl.LOCK_EX)
        os.write(lock, raw.replace(b"PID", str(os.getpid()).encode()))
        process = subprocess.Popen(
            [sys.executable, "-c", TELLS_A_REFUSED_LOCK],
            cwd=home,
            env=clean_env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        try:
            assert line_within(process) == "tried\n"
            told = line_within(process)
            assert line_within(process) == ""  # it ended
        finally:
            if process.poll() is None:
                process.kill()
            process.communicate(timeout=READY_SECONDS)
    finally:
        os.close(lock)
    pid = pid.replace("PID", str(os.getpid()))
    assert told.startswith("error[E060]: find server: a find server already runs"), told
    assert f"for this skillc home (pid {pid});" in told
    assert process.returncode == 1


def test_a_server_clears_its_pid_from_the_lock_as_it_stops(
    gateway: Run, clean_env: dict[str, str], project: Path, home: Path, library: Path
) -> None:
    """The home's lock names the server while it runs, and nobody once it stopped: a pid
    left there may be another process's later, named as the server's by a message."""
    lock = home / ".skillc" / LOCK_NAME
    with server(clean_env, project, gateway) as running:
        assert lock.read_text(encoding="utf-8") == f"{running.pid}\n"
    assert running.returncode == 128 + signal.SIGTERM
    assert lock.read_bytes() == b""
    with server(clean_env, project, gateway) as running:  # --stop: the same
        assert lock.read_text(encoding="utf-8") == f"{running.pid}\n"
        stopped = gateway("watch", "--stop")
        assert stopped.returncode == 0 and stopped.stdout == f"Stopped pid {running.pid}.\n"
    assert lock.read_bytes() == b""


@pytest.mark.parametrize("named", ["superscript", "too long"])
def test_a_lock_held_naming_no_pid_is_told_held_by_pid_unknown(
    gateway: Run, home: Path, monkeypatch: pytest.MonkeyPatch, named: str
) -> None:
    """``--status`` and ``--stop`` while the home's lock is held (a server stuck, or
    starting) and names no pid ``int`` reads as one: ``²`` (a digit to ``str.isdigit``) was
    E999 ``ValueError``, 32 digits a pid of 32 digits. The pid is read as ASCII digits, at
    most 10 (``client.named_pid``)."""
    import fcntl

    from skillc_gateway.catalog import lifecycle

    monkeypatch.setattr(lifecycle, "START_SECONDS", 0.0)  # no server starting is waited for
    raw = NAMED_BY_A_HOLDER[named][0]
    (home / ".skillc").mkdir()
    lock = os.open(home / ".skillc" / LOCK_NAME, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(lock, fcntl.LOCK_EX)
        os.write(lock, raw)
        data = status(gateway)
        stopped = gateway("watch", "--stop")
    finally:
        os.close(lock)
    assert not data["running"] and data["silent_pid"] is None
    assert stopped.returncode == 1
    assert stopped.stderr == (
        "error[E060]: find server: the find server (pid ?) does not answer: kill it\n"
    )


def test_the_pid_in_the_lock_is_ascii_digits_of_a_pid_t() -> None:
    """What a find-server lock names as its holder (``client.named_pid``): ASCII digits, at
    most 10, a ``pid_t`` above 0; nothing else is a pid (``int`` takes ``²`` for none, and
    some more digits than a pid has)."""
    from skillc_gateway.catalog.client import named_pid

    assert [named_pid(text) for text in ("42\n", " 7 ", "2147483647")] == [42, 7, 2**31 - 1]
    odd = [None, "", "?", "0", "-1", "²", "١٢", "4 2", "2147483648", "0" * 11 + "1", "x1"]
    assert [named_pid(text) for text in odd] == [None] * len(odd)


def test_another_programs_socket_is_not_waited_for(
    gateway: Run, home: Path, listening: Callable[[Path], socket.socket]
) -> None:
    """Another program's socket at ``find.sock`` (the user's, 0600, taking connections and
    answering none) while nobody holds the home's lock, so no find server of this home runs:
    ``--status``, ``--stop`` and ``--detach`` say so at once (they waited 35 s each,
    ``--detach`` 70 s, and ``--status`` said no more than that no server runs)."""
    (home / ".skillc").mkdir()
    sock = home / ".skillc" / "find.sock"
    other = listening(sock)
    started = time.monotonic()
    try:
        assert status(gateway) == {
            "running": False, "home": str(home), "socket": str(sock), "silent_pid": None,
            "other_listener": True,
            "other_user": None,
            "unreachable": None,
        }  # fmt: skip
        assert gateway("watch", "--status").stdout == (
            f"No find server runs for this skillc home ({home}): another process answers on "
            f"{sock}, and none can start until it stops.\n"
        )
        assert gateway("watch", "--stop").stdout == "No find server was running.\n"
        detached = gateway("watch", "--detach")
        refused = f"error[E060]: find server: another process answers on {sock}\n"
        assert (detached.returncode, detached.stderr) == (1, refused)
    finally:
        other.close()
    assert time.monotonic() - started < 30  # not one wait of 35 s
    assert not (home / ".skillc" / "find.log").exists()  # no server was started


def test_find_does_not_wait_for_another_programs_socket(
    gateway_process: Run, home: Path, library: Path
) -> None:
    """Another program's socket at ``find.sock`` (the user's, 0600, held by a process of its
    own that listens and never answers) while nobody holds the home's lock: ``skc find``
    answers itself after waiting ``client.POLL_SECONDS`` (0.25 s) for it, as ``watch
    --status`` does (it waited 35 s, the wait for a busy find server of this home)."""
    sock = home / ".skillc" / "find.sock"
    sock.parent.mkdir()
    hold = (
        "import os, socket, sys, time\n"
        "os.umask(0o177)\n"
        "s = socket.socket(socket.AF_UNIX)\n"
        "s.bind(sys.argv[1])\n"
        "s.listen()\n"
        "print('ready', flush=True)\n"
        "time.sleep(120)\n"
    )
    argv = [sys.executable, "-c", hold, str(sock)]
    with subprocess.Popen(argv, stdout=subprocess.PIPE, text=True) as other:
        try:
            assert other.stdout is not None and other.stdout.readline() == "ready\n"
            started = time.monotonic()
            done = gateway_process("find", "paint", "--path", "library", "-v")
            waited = time.monotonic() - started
        finally:
            other.kill()
    assert done.returncode == 0 and "painter" in done.stdout, done.stderr
    assert "answered by this process" in done.stderr
    assert waited < 5  # not the 35 s a busy server of this home is waited for


def test_the_server_removes_only_its_own_socket(
    gateway: Run, clean_env: dict[str, str], project: Path, home: Path
) -> None:
    sock = home / ".skillc" / "find.sock"
    with server(clean_env, project, gateway):
        sock.unlink()
        sock.write_text("someone else's\n", encoding="utf-8")
    assert sock.read_text(encoding="utf-8") == "someone else's\n"


@pytest.mark.skipif(os.getuid() != 0, reason="connecting as another user needs root")
def test_a_peer_of_another_user_gets_no_answer(
    gateway: Run, clean_env: dict[str, str], project: Path, home: Path
) -> None:
    python = shutil.which("python3", path="/usr/bin:/bin")  # one that user can run
    if python is None:
        pytest.skip("no system python3")
    sock = home / ".skillc" / "find.sock"
    with server(clean_env, project, gateway):
        home.chmod(0o755)
        (home / ".skillc").chmod(0o755)
        sock.chmod(0o666)  # as if another user could reach it
        code = (
            "import socket, sys\n"
            "s = socket.socket(socket.AF_UNIX)\n"
            "s.connect(sys.argv[1])\n"
            "try:\n"
            '    s.sendall(b\'{"version": 1, "op": "status"}\')\n'
            "    s.shutdown(socket.SHUT_WR)\n"
            "    sys.stdout.write(repr(s.recv(100)))\n"
            "except (BrokenPipeError, ConnectionResetError):\n"
            "    sys.stdout.write('closed')\n"
        )
        done = subprocess.run(
            [python, "-c", code, str(sock)],
            user=65534,
            capture_output=True,
            text=True,
            env={"PATH": os.environ.get("PATH", "")},
            cwd="/",
        )
        assert done.returncode == 0, done.stderr
        assert done.stdout in ("b''", "closed")  # closed without a word
        assert "refused a connection from user 65534" in (project / "watch.log").read_text()
        sock.chmod(0o600)


def test_bad_requests_are_refused(
    gateway: Run, clean_env: dict[str, str], project: Path, home: Path
) -> None:
    with server(clean_env, project, gateway):
        big = json.dumps({"version": PROTOCOL, "op": "status", "pad": "x" * MAX_REQUEST_BYTES})
        reply = raw_request(home, big.encode())
        assert reply == {
            "version": PROTOCOL,
            "ok": False,
            "error": f"the request is longer than {MAX_REQUEST_BYTES} bytes",
        }
        assert raw_request(home, b"{nope")["error"] == "the request is not JSON"
        assert not raw_request(home, b'{"version": 99, "op": "status"}')["ok"]
        find = {"version": PROTOCOL, "op": "find", "code": code_id()}
        find |= {"home": str(home), "cwd": str(project)}
        find |= {"project_root": None, "query": "paint", "limit": 10, "budget": 1.0}
        find |= {"semantic": False, "agent_env": []}
        reply = raw_request(home, json.dumps({**find, "semantic": "no", "roots": []}).encode())
        assert reply["error"] == "bad semantic"
        none = [None, None, None]  # a root's agent, plugin and marketplace
        for roots in (
            [["relative", "path", None, *none]],
            [["/x", "plugin", "nowhere", *none]],
            [["/x", "plugin", "global", "claude", "", None]],  # a plugin named ""
            [["/x", "plugin", "global", "claude", "pl", 7]],
            [["/x", "path", None]],  # a root of find format 2
            "/x",
        ):
            reply = raw_request(home, json.dumps({**find, "roots": roots}).encode())
            assert reply["error"] == "bad roots"
        for agents in (
            "CLAUDE_CONFIG_DIR=/x",
            [["PATH", "/x"]],  # not an agent variable
            [["CODEX_HOME", "/x"], ["CODEX_HOME", "/y"]],
            [["CODEX_HOME", "/x\0"]],
            [["CODEX_HOME", "x" * 5000]],
        ):
            request = {**find, "roots": [], "agent_env": agents}
            reply = raw_request(home, json.dumps(request).encode())
            assert reply["error"] == "bad agent_env"
        # a client of other code asks on (an older one sends its version alone): logged once
        for other in ({"code": code_id() + "0"}, {"code": None, "skillc_gateway": __version__}):
            reply = raw_request(home, json.dumps({**find, **other}).encode())
            refused = f"this server runs other code (skillc-gateway {__version__}): restart it"
            assert reply["error"] == refused
        log = (project / "watch.log").read_text(encoding="utf-8")
        assert log.count(f"bad request: {refused}") == 1
        reply = raw_request(home, json.dumps({**find, "home": "/elsewhere"}).encode())
        assert reply["error"] == f"this server serves the skillc home {home}"
        # near miss: the same request, well formed, is answered
        roots = [[str(project), "path", None, *none]]
        reply = raw_request(home, json.dumps({**find, "roots": roots}).encode())
        assert reply["ok"] and reply["result"]["skills"] == []
        assert raw_request(home, b'{"version": 1, "op": "status"}')["status"]["queries"] == 1


def test_a_prepare_gets_no_reply_and_is_no_query(
    gateway: Run, gateway_process: Run, clean_env: dict[str, str], project: Path, home: Path,
    library: Path,
) -> None:  # fmt: skip
    """A ``prepare`` (a find's query told ahead) is read and not answered: the server
    closes, logs nothing of a client gone, counts no query; a bad one is logged once."""

    def told(message: dict[str, Any]) -> bytes:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
            sock.settimeout(READY_SECONDS)
            sock.connect(str(home / ".skillc" / "find.sock"))
            sock.sendall(json.dumps({"version": PROTOCOL, **message}).encode())
            sock.shutdown(socket.SHUT_WR)
            return sock.recv(1 << 16)  # b"": closed without a reply

    with server(clean_env, project, gateway):
        assert told({"op": "prepare", "query": "paint a bicycle"}) == b""
        for query in ("", "x" * 10_001, None, "  "):
            assert told({"op": "prepare", "query": query}) == b""
        assert queries(gateway) == 0
        assert "painter" in gateway_process("find", "paint a bicycle", "--path", "library").stdout
        assert queries(gateway) == 1
        # near miss: another op on the same socket, sent the same way, gets its reply
        assert json.loads(told({"op": "nope"}))["error"] == "unknown op 'nope'"
        log = (project / "watch.log").read_text(encoding="utf-8")
    assert log.count("bad request: bad query (said once)") == 1
    assert "went away" not in log and "failed" not in log


def test_a_prepare_starts_nothing_while_the_server_builds(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """While the server builds the catalog's words, a find may be answered from the files
    by its client: a ``prepare`` then starts nothing; once built, it starts the find's work
    (:meth:`Catalog.prepare`, with the step: the client tells only when it wants it)."""
    from skillc_gateway.catalog import server
    from skillc_gateway.catalog.engine import Catalog

    prepared: list[tuple[str, bool | None]] = []
    monkeypatch.setattr(
        Catalog, "prepare", lambda self, query, semantic=None: prepared.append((query, semantic))
    )
    layout = Layout.discover(tmp_path, {"SKILLC_HOME": str(tmp_path / "home")})
    found = server.FindServer(layout)
    found._building.append((Root(tmp_path, "path"),))
    found._prepare({"op": "prepare", "query": "paint a bicycle"})
    assert prepared == []
    found._building.clear()
    found._prepare({"op": "prepare", "query": "paint a bicycle"})
    assert prepared == [("paint a bicycle", True)]


def test_the_answer_crosses_the_wire_unchanged() -> None:
    result = FindResult(
        query="paint",
        skills=(
            FoundSkill(
                name="painter",
                description="Paint — “red”.",
                path="/lib/painter",
                deployed_to=("/p/.claude/skills/painter",),
                score=0.123456789012345,
                sections=(SectionHit("SKILL.md", "Brushes", 7),),
                duplicates=("/other/painter",),
                in_store=True,
            ),
        ),
        searched=3,
        skipped=1,
        partial=True,
        warnings=(Notice("a notice"), Notice("info", "info"), Diagnostic("W003", {"skill": "x"})),
    )
    assert decode_result(json.loads(json.dumps(encode_result(result)))) == result
    broken = encode_result(result)
    broken["searched"] = "3"
    with pytest.raises(TypeError):
        decode_result(broken)


def test_a_failing_fill_is_logged_once_not_at_every_look(monkeypatch: pytest.MonkeyPatch) -> None:
    """With nothing to fill the server looks whether another process wrote the catalog
    (every ``RECHECK_SECONDS``); a fill that fails is logged and not tried again until the
    next request, not logged at every look."""
    from skillc_gateway.catalog import fill, server
    from skillc_gateway.catalog.engine import Catalog

    base = Path(tempfile.mkdtemp(prefix="skf-", dir="/tmp")).resolve()  # a short socket path
    monkeypatch.setenv("HOME", str(base))  # no installed skill of this machine's to warm up
    monkeypatch.setattr(server, "RECHECK_SECONDS", 0.01)
    tries: list[float] = []

    def failing(catalog: Catalog, seconds: float, waiting: Any = None) -> bool:
        tries.append(seconds)
        raise sqlite3.DatabaseError("database disk image is malformed")

    monkeypatch.setattr(fill, "fill_heads", failing)
    lines: list[str] = []
    layout = Layout.discover(base, {"SKILLC_HOME": str(base / "home")})
    try:
        with in_thread(server.FindServer(layout, log=lines.append)):
            deadline = time.monotonic() + READY_SECONDS
            while not tries:
                assert time.monotonic() < deadline
                time.sleep(0.01)
            time.sleep(0.5)  # 50 looks' worth
    finally:
        shutil.rmtree(base, ignore_errors=True)
    assert len(tries) == 1
    assert sum("filling the catalog failed" in line for line in lines) == 1


def test_a_turn_of_the_build_ends_when_a_request_comes(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The find server builds the catalog in turns between requests; a request that comes
    during a turn ends it after the skill in hand and its transaction, not at the turn's
    end: the skills indexed so far are written, the rest left for the next turn. The server's
    look at its listener says whether a connection waits, after the least a turn indexes.
    Near miss: no request, one turn indexes them all."""
    from skillc_gateway.catalog import find_roots, server, server_socket
    from skillc_gateway.catalog.database import open_database
    from skillc_gateway.catalog.engine import Catalog

    lib = tmp_path / "lib"
    for n in range(30):
        folder = lib / f"bed-{n:02d}"
        folder.mkdir(parents=True)
        (folder / "SKILL.md").write_text(
            f"---\nname: bed-{n:02d}\ndescription: Weed bed {n}.\n---\n## Hoe\n\nRows.\n", "utf-8"
        )
    looks: list[int] = []

    def waiting() -> bool:  # a request from the fourth look on
        looks.append(1)
        return len(looks) > 3

    counts = []
    for name, look in (("asked", waiting), ("alone", lambda: False)):
        layout = Layout.discover(tmp_path, {"SKILLC_HOME": str(tmp_path / name)})
        catalog = Catalog(layout, open_database(layout))
        try:
            roots = find_roots(layout, [str(lib)])
            left = catalog.build(roots, 60, look)
            assert left == catalog.left
            (indexed,) = catalog.db.execute("SELECT count(*) FROM skills").fetchone()
            counts.append((indexed, left))
        finally:
            catalog.close()
    assert counts == [(3, 27), (30, 0)]
    assert len(looks) == 5  # before each skill, and once its transaction is written

    # a server whose turns are a minute long, asked how it is before it starts: its first
    # turn (the warm-up's) ends for that request, which finds the build under way (a turn
    # indexes for BUILD_AT_LEAST first: none here)
    base = Path(tempfile.mkdtemp(prefix="skb-", dir="/tmp")).resolve()  # a short socket path
    monkeypatch.setenv("HOME", str(base))  # no installed skill of this machine's to build
    monkeypatch.setattr(server, "BUILD_SECONDS", 60.0)
    monkeypatch.setattr(server, "BUILD_AT_LEAST", 0.0)
    layout = Layout.discover(base, {"SKILLC_HOME": str(base / "home")})
    found = server.FindServer(layout, build=[str(lib)])
    found.open()
    serving = threading.Thread(target=found.serve)
    try:
        assert found._listener is not None
        assert not server_socket.waiting([found._listener.fileno()])()
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as client:
            client.connect(str(found.path))
            assert server_socket.waiting([found._listener.fileno()])()
            assert not server_socket.waiting(
                [found._listener.fileno()], 60
            )()  # not before a minute
            client.sendall(encode_message({"version": PROTOCOL, "op": "status"}))
            client.shutdown(socket.SHUT_WR)
            serving.start()
            client.settimeout(READY_SECONDS)
            reply = json.loads(b"".join(iter(lambda: client.recv(65536), b"")))
        assert reply["status"]["building"] is True
        with closing(sqlite3.connect(base / "home" / ".skillc" / CATALOG_FILE)) as db, db:
            assert db.execute("SELECT count(*) FROM skills").fetchone()[0] < 30
    finally:
        found.stop()
        if serving.is_alive():
            serving.join(READY_SECONDS)
        found.close()
        shutil.rmtree(base, ignore_errors=True)


@pytest.mark.parametrize("read", ["these", "others"])
def test_a_build_that_fails_lets_go_of_the_files_read_for_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, read: str
) -> None:
    """The skills' files read for the finds over folders being built are let go when their
    build fails (logged; those folders stop waiting), as when it ends: the server may read
    others' then. Near miss: the files of other folders stay."""
    from skillc_gateway.catalog import first_answer, server
    from skillc_gateway.catalog.engine import Catalog

    def failing(self: Catalog, roots: Any, seconds: float, waiting: Any = None) -> int:
        raise sqlite3.OperationalError("disk I/O error")

    forgotten: list[int] = []
    monkeypatch.setattr(Catalog, "build", failing)
    monkeypatch.setattr(first_answer, "forget", lambda: forgotten.append(1))
    lines: list[str] = []
    layout = Layout.discover(tmp_path, {"SKILLC_HOME": str(tmp_path / "home")})
    found = server.FindServer(layout, log=lines.append)
    these, others = (Root(tmp_path / "a", "path"),), (Root(tmp_path / "b", "path"),)
    found._building.append(these)
    found._read, found._answers = (these if read == "these" else others), True
    assert found._build(-1) == 0
    assert found._building == []
    assert any("building the catalog failed" in line for line in lines)
    if read == "these":
        assert (found._read, found._answers, forgotten) == (None, False, [1])
    else:
        assert (found._read, found._answers, forgotten) == (others, True, [])


def test_a_stop_gives_up_reading_the_skills_files_between_two_skills(
    monkeypatch: pytest.MonkeyPatch, large_library: Callable[..., Path]
) -> None:
    """Ctrl-C or SIGTERM while the find server read the skills' files for the finds to come
    (2,324 skills, 13 s) was heeded once they were all read: the stop only set a flag that
    nothing looked at meanwhile. The reading now gives up between two skills, keeps nothing
    and logs no reading. Near miss: unstopped, every skill is read."""
    from skillc_gateway.catalog import find_roots, first_answer, server
    from skillc_gateway.catalog.engine import Catalog
    from skillc_gateway.catalog.indexer import Indexer

    lib = large_library(first_answer.FIRST_SKILLS + 10)
    read: list[int] = []
    stop_after: list[server.FindServer] = []
    index = Indexer.index

    def counted(self: Indexer, state: Any, position: int) -> Any:
        read.append(position)
        if stop_after and len(read) == 10:
            stop_after[0].stop()  # as the signal handler does, in the same thread
        return index(self, state, position)

    monkeypatch.setattr(Indexer, "index", counted)
    counts = []
    for stop in (True, False):
        base = Path(tempfile.mkdtemp(prefix="sks-", dir="/tmp")).resolve()
        lines: list[str] = []
        layout = Layout.discover(base, {"SKILLC_HOME": str(base / "home")})
        found = server.FindServer(layout, log=lines.append)
        stop_after[:] = [found] if stop else []
        read.clear()
        try:
            found._reading = find_roots(layout, [str(lib)])
            found._read_files()
            counts.append(len(read))
            kept = first_answer._KEPT is not None
            assert (found._read is not None, found._answers, kept) == (not stop,) * 3
            assert any(line.startswith("read 210 skills' files") for line in lines) is not stop
        finally:
            found._forget_files()
            Catalog.shared(layout).close()
            shutil.rmtree(base, ignore_errors=True)
    assert counts == [10, first_answer.FIRST_SKILLS + 10]


def test_a_server_whose_socket_is_gone_or_another_s_stops(monkeypatch: pytest.MonkeyPatch) -> None:
    """A user who removes the skillc home's ``.skillc`` (its catalog, lock and socket) while
    a find server runs left that server building and filling for nobody: no ``skc find``
    reached it, ``skc watch --stop`` could not stop it, and the next find started a second
    one. The server looks at its socket every ``RECHECK_SECONDS`` and stops when it is gone;
    and when it is another's (a server started since). Near miss: with its socket in place
    it keeps serving."""
    from skillc_gateway.catalog import server

    base = Path(tempfile.mkdtemp(prefix="skf-", dir="/tmp")).resolve()  # a short socket path
    monkeypatch.setenv("HOME", str(base))  # no installed skill of this machine's to warm up
    monkeypatch.setattr(server, "RECHECK_SECONDS", 0.05)
    layout = Layout.discover(base, {"SKILLC_HOME": str(base / "home")})
    try:
        for remove in (lambda: shutil.rmtree(base / "home" / ".skillc"), replace_socket):
            lines: list[str] = []
            found = server.FindServer(layout, log=lines.append)
            with in_thread(found) as serving:
                deadline = time.monotonic() + READY_SECONDS
                while not any(line.startswith("ready") for line in lines):
                    assert time.monotonic() < deadline
                    time.sleep(0.01)
                time.sleep(0.3)  # six looks
                assert serving.is_alive()
                remove()
                serving.join(READY_SECONDS)
                assert not serving.is_alive()
                assert lines[-1] == f"{found.path} is gone or another's: stopping"
    finally:
        shutil.rmtree(base, ignore_errors=True)


def test_a_client_sending_its_request_slowly_is_dropped(monkeypatch: pytest.MonkeyPatch) -> None:
    """A client of the user's that sends its request a byte at a time, each within the read
    timeout, held the server (one request at a time) for as long as it went on: every find
    meanwhile waited its 35 s. The whole request is now read within ``READ_SECONDS``: the
    client is dropped, logged, and the next request answered."""
    from skillc_gateway.catalog import server

    base = Path(tempfile.mkdtemp(prefix="skf-", dir="/tmp")).resolve()  # a short socket path
    monkeypatch.setenv("HOME", str(base))  # no installed skill of this machine's to warm up
    monkeypatch.setattr(server, "READ_SECONDS", 0.5)
    layout = Layout.discover(base, {"SKILLC_HOME": str(base / "home")})
    lines: list[str] = []
    try:
        with in_thread(server.FindServer(layout, log=lines.append)):
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as slow:
                slow.connect(str(base / "home" / ".skillc" / "find.sock"))
                end = time.monotonic() + 10 * 0.5
                with pytest.raises(OSError):  # the server closed it: EPIPE, ECONNRESET
                    while time.monotonic() < end:
                        slow.send(b" ")
                        time.sleep(0.05)
            assert raw_request(base / "home", b'{"version": 1, "op": "status"}')["ok"]
    finally:
        shutil.rmtree(base, ignore_errors=True)
    assert any(line.endswith(") went away: timed out") for line in lines), lines


def test_connections_that_send_nothing_keep_no_request_waiting(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The find server read one accepted connection at a time, each for up to
    ``READ_SECONDS``: eight connections that sent nothing (a hung script) held every find
    35 s. It now waits on all it holds at once and answers whichever sent its whole
    request; each silent one is dropped at its own deadline (an hour here: the requests are
    answered long before). The bound stays: past ``MAX_PENDING`` held, a connection waits
    in the listener's backlog until one is dropped (logged)."""
    from skillc_gateway.catalog import server, server_socket

    base = Path(tempfile.mkdtemp(prefix="skq-", dir="/tmp")).resolve()  # a short socket path
    monkeypatch.setenv("HOME", str(base))  # no installed skill of this machine's to warm up
    layout = Layout.discover(base, {"SKILLC_HOME": str(base / "home")})
    path = str(base / "home" / ".skillc" / "find.sock")
    try:
        for read_seconds, held in ((3600.0, server_socket.MAX_PENDING), (0.5, 2)):
            monkeypatch.setattr(server, "READ_SECONDS", read_seconds)
            monkeypatch.setattr(server_socket, "MAX_PENDING", held)
            lines: list[str] = []
            with in_thread(server.FindServer(layout, log=lines.append)), ExitStack() as stack:
                for _ in range(min(8, held)):
                    silent = stack.enter_context(socket.socket(socket.AF_UNIX))
                    silent.connect(path)
                for _ in range(3):
                    assert raw_request(base / "home", STATUS)["status"]["running"]
                timed_out = [line for line in lines if line.endswith("went away: timed out")]
                if read_seconds > 60:
                    assert timed_out == [], lines
                else:  # held: answered once one was dropped
                    assert timed_out, lines
    finally:
        shutil.rmtree(base, ignore_errors=True)


def test_the_memory_a_build_took_is_given_back_once_it_ends(
    monkeypatch: pytest.MonkeyPatch, large_library: Callable[..., Path]
) -> None:
    """A find server that built its catalog kept the memory the build took for as long as it
    ran (212 MB at 2,324 skills, 35 MB for one started over the built catalog): its page
    cache full and the C heap's freed pages not given back. Once the catalog holds every
    skill it lacked, it gives them back, and logs its resident size before and after. Near
    miss: a server over the built catalog has nothing to give back, and logs nothing. The
    C heap's trim is seen through the C library itself (the resident sizes logged alone
    held with the giving back a no-op)."""
    from skillc_gateway.catalog import server
    from skillc_index.cores import c_library

    libc = c_library()
    assert libc is not None  # Linux, glibc: the CI's
    trim = libc.malloc_trim
    trims: list[int] = []

    def spy(pad: int) -> int:
        trims.append(pad)
        return int(trim(pad))

    monkeypatch.setattr(libc, "malloc_trim", spy)
    lib = large_library(300)
    hour_ago = time.time() - 3600  # no skill changed just now, to read again at the next start
    for skill in lib.glob("*/SKILL.md"):
        os.utime(skill, (hour_ago, hour_ago))
    base = Path(tempfile.mkdtemp(prefix="skm-", dir="/tmp")).resolve()  # a short socket path
    monkeypatch.setenv("HOME", str(base))  # no installed skill of this machine's to build
    layout = Layout.discover(base, {"SKILLC_HOME": str(base / "home")})
    logs: list[list[str]] = []
    try:
        for turn in (0.02, server.BUILD_SECONDS):  # many turns, then one over the built catalog
            monkeypatch.setattr(server, "BUILD_SECONDS", turn)
            assert trims == ([] if turn == 0.02 else [0]), logs
            lines: list[str] = []
            logs.append(lines)
            with in_thread(server.FindServer(layout, log=lines.append, build=[str(lib)])):
                deadline = time.monotonic() + READY_SECONDS
                while raw_request(base / "home", STATUS)["status"]["building"]:
                    assert time.monotonic() < deadline, lines
                    time.sleep(0.05)
                find = {"version": PROTOCOL, "op": "find", "code": code_id()}
                find |= {"home": str(base / "home"), "cwd": str(base), "project_root": None}
                find |= {"query": "tend the garden", "limit": 3, "budget": 1.0}
                find |= {"semantic": False, "agent_env": []}
                find["roots"] = [[str(lib), "path", None, None, None, None]]
                found = raw_request(base / "home", json.dumps(find).encode())
                assert found["ok"] and found["result"]["skills"], found
    finally:
        shutil.rmtree(base, ignore_errors=True)
    given = [line for line in logs[0] if line.startswith("catalog built; memory given back: ")]
    assert len(given) == 1, logs[0]
    before, after = (int(size) for size in re.findall(r"(\d+) MB", given[0]))
    assert after <= before, given
    assert not any("memory given back" in line for line in logs[1]), logs[1]
    assert trims == [0], logs  # given back once: after the build that took it


@contextmanager
def in_thread(found: Any) -> Iterator[threading.Thread]:
    """The find server ``found`` opened and serving in a thread of this process; stopped and
    closed after."""
    found.open()
    serving = threading.Thread(target=found.serve)
    serving.start()
    try:
        yield serving
    finally:
        found.stop()
        serving.join(READY_SECONDS)
        found.close()


def replace_socket() -> None:
    """Another server's socket where this home's was."""
    path = Path(os.environ["HOME"]) / "home" / ".skillc" / "find.sock"
    path.unlink()
    other = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    other.bind(str(path))
    other.close()


@pytest.mark.parametrize("other_holds_the_lock", [True, False])
def test_detach_losing_a_race_says_why(
    monkeypatch: pytest.MonkeyPatch,
    clean_env: dict[str, str],
    project: Path,
    other_holds_the_lock: bool,
) -> None:
    """Another server (one ``skc find`` started) starts between ``--detach``'s check and its
    own: E060 says that one runs, and no server is started (``--detach`` takes the home's lock
    before it starts one). A child failing for a reason of its own is quoted from its own lines
    of the shared log, never another server's (its ``ready`` line)."""
    import fcntl

    from skillc_gateway.catalog import lifecycle
    from skillc_index import FindServerError

    def already_runs(pid: int) -> str:
        home = f"a find server already runs for this skillc home (pid {pid})"
        return f"{home}; 'skc watch --stop' stops it"

    layout = Layout.discover(project, clean_env)
    layout.global_dir.mkdir(parents=True, exist_ok=True)
    log = layout.global_dir / "find.log"
    log.write_text("2026-01-01T00:00:00Z skc watch[1]: stopped\n", encoding="utf-8")
    lock = os.open(layout.global_dir / "find.lock", os.O_RDWR | os.O_CREAT, 0o600)
    other = os.getpid()  # the other server: this process, holding the lock
    if other_holds_the_lock:  # taken after --detach's check found no server
        fcntl.flock(lock, fcntl.LOCK_EX)
        os.write(lock, f"{other}\n".encode())
        monkeypatch.setattr(lifecycle, "server_status", lambda _layout: None)
    spawned: list[object] = []

    def spawn_failing(*args: object) -> subprocess.Popen[bytes]:
        spawned.append(args)
        child = subprocess.Popen([sys.executable, "-c", "raise SystemExit(1)"])
        child.wait()
        ready = f"2026-01-01T00:00:01Z skc watch[{other}]: ready; stops after 3600 s"
        with log.open("a", encoding="utf-8") as handle:
            handle.write(f"error[E999]: find server: cannot listen: boom\n{ready}\n")
        return child

    monkeypatch.setattr(lifecycle, "_spawn", spawn_failing)
    try:
        with pytest.raises(FindServerError) as caught:
            lifecycle.start_detached(layout, 60)
    finally:
        os.close(lock)
    if other_holds_the_lock:
        assert caught.value.diagnostic.message.endswith(already_runs(other))
        assert "did not start" not in str(caught.value) and not spawned
    else:
        assert caught.value.diagnostic.message.endswith(
            "the find server did not start: cannot listen: boom"
        )


_HOLD_FD = (
    "import fcntl, sys\n"
    "fcntl.flock(int(sys.argv[1]), fcntl.LOCK_EX)\n"
    "print('held', flush=True)\n"
    "sys.stdin.read()\n"
)


@pytest.mark.skipif(
    os.geteuid() != 0 or shutil.which("setpriv") is None,
    reason="another user's lock file needs root (chown), a user's view setpriv",
)
def test_a_find_server_of_another_user_is_named_by_status_detach_and_stop(
    clean_env: dict[str, str], project: Path, home: Path, line_within: Callable[..., Any]
) -> None:
    """A skillc home two users share (``SKILLC_HOME`` in a shared folder): the other user's
    find server holds ``find.lock`` (0600, theirs), which this user cannot open.
    ``--status`` said "No find server runs" (the lock taken for nobody's), ``--detach``
    ``E060 ... did not start: Permission denied`` and ``--stop`` "No find server was
    running". Each names the lock and its owner now, and whether a process holds it
    (``/proc/locks``). Near miss: the lock ours again, ``--status`` is as before. Run as a
    user would (root without its override of file permissions, under setpriv); the holder
    is a process of uid 65534 (the system's python3) where there is one."""
    import pwd

    lock = home / ".skillc" / "find.lock"
    lock.parent.mkdir(exist_ok=True)
    lock.write_text("4242\n", encoding="utf-8")
    lock.chmod(0o600)
    os.chown(lock, 65534, 65534)
    nobody = pwd.getpwuid(65534).pw_name

    def watch(*args: str) -> subprocess.CompletedProcess[str]:
        command = [*UNPRIVILEGED, sys.executable, "-m", "skillc_gateway", "watch", *args]
        return subprocess.run(
            command, cwd=project, env=clean_env, capture_output=True, text=True, timeout=60
        )

    fd = os.open(lock, os.O_RDONLY)
    python = shutil.which("python3", path="/usr/bin:/bin")
    try:
        with subprocess.Popen(
            [python or sys.executable, "-c", _HOLD_FD, str(fd)],
            user=65534 if python else None,
            pass_fds=(fd,),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd="/",
        ) as holder:
            assert holder.stdin is not None
            assert line_within(holder) == "held\n"
            status, as_json = watch("--status"), watch("--status", "--format", "json")
            detach, stop = watch("--detach"), watch("--stop")
            holder.stdin.close()
    finally:
        os.close(fd)
    held = f"a find server of another user (uid 65534, {nobody}) holds {lock}"
    assert status.returncode == 0, status.stderr
    assert status.stdout.startswith(f"No find server of yours runs for this skillc home ({home})")
    assert f": {held}; skillc-gateway find answers itself." in status.stdout
    other = {"path": str(lock), "uid": 65534, "user": nobody, "held": True}
    assert json.loads(as_json.stdout)["other_user"] == other
    assert detach.returncode == 1 and detach.stdout == ""
    assert detach.stderr == (
        f"error[E060]: find server: {held}: no find server of yours can start in this skillc "
        "home (set SKILLC_HOME to your own)\n"
    )
    assert stop.returncode == 1
    assert stop.stderr == f"error[E060]: find server: {held}: only that user can stop it\n"
    unheld = f"{lock} belongs to another user (uid 65534, {nobody}), held by no process"
    assert json.loads(watch("--status", "--format", "json").stdout)["other_user"]["held"] is False
    detach = watch("--detach")  # it tries, and cannot open the lock
    assert detach.returncode == 1
    assert detach.stderr == f"error[E060]: find server: the find server did not start: {unheld}\n"
    assert watch("--stop").stdout == "No find server was running.\n"
    os.chown(lock, 0, 0)  # ours: as before
    mine = watch("--status")
    assert mine.stdout == f"No find server runs for this skillc home ({home}).\n"


# -- in a sandbox that refuses Unix sockets ----------------------------------------------------

#: ``sitecustomize`` of a process in a sandbox whose filter refuses Unix sockets with EPERM:
#: ``socket(AF_UNIX)`` (Claude Code's), or ``connect`` and ``bind`` (Codex's); the shim's kind
#: is ``$SANDBOX_REFUSES``. A child the process starts (a find server) is in it too.
_REFUSING = """
import _socket, errno, os

_kind = os.environ.get("SANDBOX_REFUSES", "socket")


def _refuse(*_args):
    raise PermissionError(errno.EPERM, "Operation not permitted")


class socket(_socket.socket):
    __slots__ = ()  # socket.socket, made from it, adds __weakref__

    def __init__(self, family=-1, type=-1, proto=-1, fileno=None):
        if _kind == "socket" and family == _socket.AF_UNIX and fileno is None:
            _refuse()
        super().__init__(family, type, proto, fileno)

    if _kind == "connect":
        connect = connect_ex = bind = _refuse

    if _kind == "files":  # a socket file (Landlock, a read-only mount): the abstract one passes

        def bind(self, address):
            if self.family == _socket.AF_UNIX and address and address[:1] not in ("\\0", b"\\0"):
                raise PermissionError(errno.EACCES, "Permission denied")
            return super().bind(address)


_socket.socket = socket
"""


@pytest.fixture
def sandboxed(tmp_path: Path) -> Callable[[str], dict[str, str]]:
    """``sandboxed(kind)``: the environment (``env_extra``) of a command in a sandbox that
    refuses Unix sockets: ``socket(AF_UNIX)`` (``"socket"``), or ``connect`` and ``bind``
    (``"connect"``), with EPERM (:data:`_REFUSING`, first on the module path)."""
    shim = tmp_path / "sandbox"
    shim.mkdir()
    (shim / "sitecustomize.py").write_text(_REFUSING, encoding="utf-8")
    path = os.pathsep.join(filter(None, [str(shim), os.environ.get("PYTHONPATH")]))
    return lambda kind: {"PYTHONPATH": path, "SANDBOX_REFUSES": kind}


@pytest.mark.parametrize("kind", ["socket", "connect"])
def test_a_sandbox_refusing_unix_sockets_gets_finds_answered_and_told_why(
    gateway: Run,
    clean_env: dict[str, str],
    project: Path,
    library: Path,
    cli: Callable[..., Run],
    sandboxed: Callable[[str], dict[str, str]],
    kind: str,
) -> None:
    """A find server started outside the sandbox, ``skc find`` inside (the quick path, then
    the command): it answered E999 PermissionError, no answer; ``watch --status`` and
    ``--stop`` the same. The find answers itself now, the same answer; ``--status`` says
    it cannot reach the server and why, at once (no wait for a server starting)."""
    skc = cli("skillc-gateway", script=True)
    find = ("find", "bread", "--path", "library", "--format", "json")
    alone = skc(*find, env_extra={"SKILLC_FIND_SERVER": "0"})
    assert alone.returncode == 0, alone.stderr
    inside = sandboxed(kind)
    with server(clean_env, project, gateway) as running:
        found = skc(*find, env_extra=inside)
        verbose = skc("find", "bread", "--path", "library", "-v", env_extra=inside)
        started = time.monotonic()
        text = skc("watch", "--status", env_extra=inside)
        took = time.monotonic() - started
        as_json = skc("watch", "--status", "--format", "json", env_extra=inside)
        stop = skc("watch", "--stop", env_extra=inside)
        assert queries(gateway) == 0  # none reached it, and it still runs
    why = f"this process may not use Unix sockets ({kind}(): Operation not permitted)"
    assert found.returncode == 0 and found.stderr == "", found.stderr
    assert json.loads(found.stdout) == json.loads(alone.stdout)
    assert f"find: answered by this process ({why}" in verbose.stderr
    assert text.returncode == 0, text.stderr
    assert text.stdout.startswith(
        f"Cannot reach the find server of this skillc home ({clean_env['SKILLC_HOME']}) "
        f"(pid {running.pid} holds it): {why}, as in a sandbox that refuses them"
    )
    assert took < 5  # not the 10 s --status waits for a server that is starting
    data = json.loads(as_json.stdout)
    assert not data["running"] and data["silent_pid"] == running.pid
    assert data["unreachable"].startswith(why)
    assert stop.returncode == 1 and "Traceback" not in stop.stderr
    assert stop.stderr.startswith(
        f"error[E060]: find server: cannot reach the find server (pid {running.pid}): {why}"
    )


def test_a_sandbox_refusing_socket_files_in_the_home_starts_no_find_server(
    cli: Callable[..., Run],
    home: Path,
    large_library: Callable[..., Path],
    sandboxed: Callable[[str], dict[str, str]],
) -> None:
    """A sandbox that lets a socket of Linux's abstract namespace be bound but no socket file
    be made in the home (Landlock, a read-only bind mount): the probe bound an abstract
    address, so each first find started a server that died at once. The probe binds a
    socket file where the server's goes: none is started, nothing said, nothing left."""
    from skillc_gateway.catalog.first_answer import FIRST_SKILLS

    large_library(FIRST_SKILLS)
    skc = cli("skillc-gateway", script=True)
    find = ("find", "tend the garden s0007", "--path", "library", "--limit", "3")
    for _ in range(2):
        done = skc(*find, env_extra=sandboxed("files"))
        assert done.returncode == 0 and "s0007" in done.stdout
        assert done.stderr == ""  # no "info: started a find server"
    assert sorted(path.name for path in (home / ".skillc").iterdir()) == [CATALOG_FILE]


@pytest.mark.parametrize("kind", ["socket", "connect"])
def test_a_sandbox_refusing_unix_sockets_starts_no_find_server(
    cli: Callable[..., Run],
    gateway: Run,
    home: Path,
    large_library: Callable[..., Path],
    sandboxed: Callable[[str], dict[str, str]],
    kind: str,
) -> None:
    """A first find over a library the catalog lacks starts a find server to build it; in a
    sandbox that refuses Unix sockets that server died at once (E999 PermissionError, or
    E060 from ``bind``, in ``find.log``), each find saying "started a find server" and
    starting another. None is started there now, nothing said (the answer is whole; the
    find builds a share of the catalog itself); ``watch --detach`` there is E060 saying
    why. Near miss: the same find outside the sandbox starts one."""
    from skillc_gateway.catalog.first_answer import FIRST_SKILLS

    large_library(FIRST_SKILLS)
    skc = cli("skillc-gateway", script=True)
    find = ("find", "tend the garden s0007", "--path", "library", "--limit", "3")
    inside = sandboxed(kind)
    for _ in range(2):
        done = skc(*find, env_extra=inside)
        assert done.returncode == 0 and "s0007" in done.stdout
        assert done.stderr == ""  # no "info: started a find server"
    assert not (home / ".skillc" / "find.log").exists()  # none started, none failed
    assert not (home / ".skillc" / "find.sock").exists()
    detach = skc("watch", "--detach", env_extra=inside)
    assert detach.returncode == 1 and detach.stdout == ""
    assert detach.stderr == (
        "error[E060]: find server: the find server did not start: cannot listen on "
        f"{home / '.skillc' / 'find.sock'}: this process may not use Unix sockets "
        f"({'socket' if kind == 'socket' else 'bind'}(): Operation not permitted), as in a "
        "sandbox that refuses them: allow them there, or run this outside it\n"
    )
    shutil.rmtree(home / ".skillc")  # a first find again, outside the sandbox
    outside = skc(*find)
    assert outside.returncode == 0 and "s0007" in outside.stdout
    assert outside.stderr.startswith("info: started a find server"), outside.stderr
    pid = int(outside.stderr.partition("(pid ")[2].partition(";")[0])
    try:
        wait_for_server(gateway, pid)
    finally:
        skc("watch", "--stop")


def test_detach_in_a_home_that_cannot_be_written_says_what_to_set(
    cli: Callable[..., Run],
    home: Path,
    forbid_changes: Callable[[Path], Callable[[], object]],
) -> None:
    """``watch --detach`` where the skillc home is read-only (a sandbox): E060 named the
    folder and the system's reason (``Read-only file system``), and nothing to do; it says
    to set SKILLC_HOME to a writable folder, as the other errors of the home do."""
    undo = forbid_changes(home)
    try:
        done = cli("skillc-gateway", script=True)("watch", "--detach")
    finally:
        undo()
    assert done.returncode == 1 and done.stdout == "" and "Traceback" not in done.stderr
    assert done.stderr.startswith(
        f"error[E060]: find server: the find server did not start: {home / '.skillc'}: "
    )
    assert done.stderr.endswith(": set SKILLC_HOME to a writable folder\n"), done.stderr
    assert not (home / ".skillc").exists()


def test_a_request_whole_in_time_is_answered_when_the_server_was_busy_past_its_deadline(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The server dropped as "timed out" a held connection whose whole request had come
    before its deadline, when it was busy past that deadline (answering another request;
    reading 2,324 skills' files takes 10 s): the deadlines were looked at before what had
    come was read. Each is now read one last time first. Here B connects, A's request is
    answered until B's deadline is past, and B's whole request came meanwhile."""
    from skillc_gateway.catalog import server

    base = Path(tempfile.mkdtemp(prefix="skx-", dir="/tmp")).resolve()  # a short socket path
    monkeypatch.setenv("HOME", str(base))  # no installed skill of this machine's to warm up
    monkeypatch.setattr(server, "READ_SECONDS", 1.0)
    layout = Layout.discover(base, {"SKILLC_HOME": str(base / "home")})
    path = str(base / "home" / ".skillc" / "find.sock")
    answering, b_sent = threading.Event(), threading.Event()
    reply = server.FindServer._reply

    def busy(self: Any, data: bytes | None, connection: socket.socket) -> Any:
        if not answering.is_set():  # A's: busy until B sent its whole request, and past its
            answering.set()  # deadline (no sleep of a guessed length: its deadline itself)
            assert b_sent.wait(READY_SECONDS)
            while any(r.deadline > time.monotonic() for r in self._pending._held.values()):
                time.sleep(0.05)
        return reply(self, data, connection)

    monkeypatch.setattr(server.FindServer, "_reply", busy)
    lines: list[str] = []
    try:
        found = server.FindServer(layout, log=lines.append)
        with in_thread(found), ExitStack() as stack:
            b = stack.enter_context(socket.socket(socket.AF_UNIX))
            b.connect(path)
            deadline = time.monotonic() + READY_SECONDS
            while len(found._pending) == 0:  # B accepted and held
                assert time.monotonic() < deadline, lines
                time.sleep(0.01)
            a = stack.enter_context(socket.socket(socket.AF_UNIX))
            a.connect(path)
            a.sendall(STATUS)
            a.shutdown(socket.SHUT_WR)
            assert answering.wait(READY_SECONDS), lines
            b.sendall(STATUS)
            b.shutdown(socket.SHUT_WR)
            b_sent.set()
            for client in (a, b):
                client.settimeout(READY_SECONDS)
                data = b"".join(iter(lambda c=client: c.recv(1 << 16), b""))  # type: ignore[misc]
                assert json.loads(data)["status"]["running"], (data, lines)
        assert not any("went away" in line for line in lines), lines
    finally:
        shutil.rmtree(base, ignore_errors=True)


def test_a_full_server_lets_its_turns_run_and_a_stop_ends_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """What ends a turn of the build or of the fill (:func:`.server_socket.waiting`): with
    ``MAX_PENDING`` connections held the server accepts none, yet a connection waiting in the
    listener's backlog ended every turn at once (the server spun at timeout 0); and a stop
    did not end one (Ctrl-C waited for the turn). Now: the listener only while the server
    accepts, a byte on a held connection, and the stop's wake-up."""
    from skillc_gateway.catalog import server_socket

    monkeypatch.setattr(server_socket, "MAX_PENDING", 1)
    base = Path(tempfile.mkdtemp(prefix="skt-", dir="/tmp")).resolve()
    wake_read, wake_write = os.pipe()
    try:
        with ExitStack() as stack:
            listener = stack.enter_context(socket.socket(socket.AF_UNIX))
            listener.bind(str(base / "s.sock"))
            listener.listen(4)
            held = stack.enter_context(socket.socket(socket.AF_UNIX))
            held.connect(str(base / "s.sock"))
            pending = server_socket.Pending(3600.0)
            connection, _ = listener.accept()
            pending.add(connection, 0)
            queued = stack.enter_context(socket.socket(socket.AF_UNIX))
            queued.connect(str(base / "s.sock"))  # in the backlog: the server takes none
            waits = server_socket.waiting(pending.watched(listener.fileno(), wake_read))
            assert not waits()  # full: the queued connection ends no turn
            os.write(wake_write, b"\0")  # a stop (FindServer.stop)
            assert waits()
            os.read(wake_read, 1)
            assert not waits()
            held.sendall(b"{")  # bytes on a connection held: a request comes
            assert waits()
            pending.close()
            assert listener.fileno() in pending.watched(listener.fileno())  # accepting again
    finally:
        os.close(wake_read)
        os.close(wake_write)
        shutil.rmtree(base, ignore_errors=True)


def test_a_stop_during_the_build_ends_its_turn(
    monkeypatch: pytest.MonkeyPatch, large_library: Callable[..., Path]
) -> None:
    """A stop (SIGTERM, Ctrl-C, ``skc watch --stop``) while the server built its catalog
    waited for the turn to end: its wake-up was not among what ends a turn. The turn's
    ``waiting()`` now says so as soon as the server is asked to stop."""
    from skillc_gateway.catalog import server
    from skillc_gateway.catalog.engine import Catalog

    lib = large_library(3)
    base = Path(tempfile.mkdtemp(prefix="sks-", dir="/tmp")).resolve()  # a short socket path
    monkeypatch.setenv("HOME", str(base))  # no installed skill of this machine's to build
    monkeypatch.setattr(server, "BUILD_AT_LEAST", 0.0)
    layout = Layout.discover(base, {"SKILLC_HOME": str(base / "home")})
    build = Catalog.build
    said: list[bool] = []

    def stopped_meanwhile(self: Catalog, roots: Any, seconds: float, waiting: Any) -> int:
        if not said:
            said.append(waiting())  # nothing yet
            found.stop()
            said.append(waiting())
        return build(self, roots, seconds, waiting)

    monkeypatch.setattr(Catalog, "build", stopped_meanwhile)
    lines: list[str] = []
    try:
        found = server.FindServer(layout, log=lines.append, build=[str(lib)])
        with in_thread(found) as serving:
            serving.join(READY_SECONDS)
            assert not serving.is_alive(), lines
        assert said == [False, True], lines
    finally:
        shutil.rmtree(base, ignore_errors=True)


def test_a_catalog_opened_again_keeps_the_reading_s_stop(
    monkeypatch: pytest.MonkeyPatch, large_library: Callable[..., Path]
) -> None:
    """``Catalog.read`` stored its ``stopped`` on the catalog: when the catalog broke during
    the reading and was opened again (a new shared catalog), that one had none, and a
    server asked to stop read every file still (10 s at 2,324 skills). It is passed down
    now: the catalog opened again gives the reading up too."""
    from skillc_gateway.catalog import Stopped, find_roots
    from skillc_gateway.catalog.engine import Catalog

    lib = large_library(3)
    base = Path(tempfile.mkdtemp(prefix="skr-", dir="/tmp")).resolve()
    layout = Layout.discover(base, {"SKILLC_HOME": str(base / "home")})
    inner = Catalog._find
    broke: list[Catalog] = []

    def breaks_once(self: Catalog, *args: Any, **kwargs: Any) -> Any:
        if not broke:
            broke.append(self)
            raise sqlite3.DatabaseError("broke while in use")
        return inner(self, *args, **kwargs)

    monkeypatch.setattr(Catalog, "_find", breaks_once)
    try:
        catalog = Catalog.shared(layout)
        with pytest.raises(Stopped):
            catalog.read(find_roots(layout, [str(lib)]), lambda: True)
        assert broke == [catalog]
        Catalog.shared(layout).close()
    finally:
        shutil.rmtree(base, ignore_errors=True)


def send_only(home: Path, data: bytes) -> bytes:
    """Send ``data`` as a request that has no reply (a ``prepare``); what came back (none)."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(READY_SECONDS)
        sock.connect(str(home / ".skillc" / "find.sock"))
        sock.sendall(data)
        sock.shutdown(socket.SHUT_WR)
        return b"".join(iter(lambda: sock.recv(1 << 16), b""))


def test_what_a_server_logs_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """``find.log`` was bounded only in part: a line for each find that failed, each prepare
    that failed (and each peer of another user refused) came without end. Each of those
    kinds is logged ``GONE_LOGGED`` times at most, as clients that went away are, and a
    server logs ``LOG_LINES`` lines at most, each cut at ``LOG_LINE_CHARS``; a line saying
    why it stops comes past them."""
    from skillc_gateway.catalog import server
    from skillc_gateway.catalog.engine import Catalog

    def fails(*_args: Any, **_kwargs: Any) -> Any:
        raise RuntimeError("x" * 5000)

    monkeypatch.setattr(server.FindServer, "_find", fails)
    monkeypatch.setattr(Catalog, "prepare", fails)
    base = Path(tempfile.mkdtemp(prefix="skl-", dir="/tmp")).resolve()  # a short socket path
    monkeypatch.setenv("HOME", str(base))  # no installed skill of this machine's to warm up
    layout = Layout.discover(base, {"SKILLC_HOME": str(base / "home")})
    find = json.dumps({"version": PROTOCOL, "op": "find"}).encode()
    prepare = json.dumps({"version": PROTOCOL, "op": "prepare", "query": "tend"}).encode()
    try:
        for each, most in ((3, 1000), (1000, 6)):
            monkeypatch.setattr(server, "GONE_LOGGED", each)
            monkeypatch.setattr(server, "LOG_LINES", most, raising=False)  # (reverted: none)
            lines: list[str] = []
            found = server.FindServer(layout, log=lines.append)
            with in_thread(found):
                for _ in range(6):
                    assert not raw_request(base / "home", find)["ok"]
                    assert send_only(base / "home", prepare) == b""
                assert raw_request(base / "home", STATUS)["ok"]  # the prepares answered
                assert raw_request(base / "home", b'{"version": 1, "op": "stop"}')["ok"]
            failed = [line for line in lines if line.startswith("find failed: RuntimeError")]
            prepared = [line for line in lines if line.startswith("preparing a find failed")]
            if each == 3:
                assert len(failed) == len(prepared) == 3, lines
                assert failed[-1].endswith("; the next are not logged"), failed
            else:  # the lines of a server, whatever their kind
                assert len(lines) == most + 1, lines
                assert lines[most - 1].endswith("; the next lines are not logged (LOG_LINES)")
                assert lines[-1] == "stop requested", lines
            assert all(len(line) <= server.LOG_LINE_CHARS for line in lines), lines
    finally:
        shutil.rmtree(base, ignore_errors=True)


def test_a_log_that_cannot_be_moved_aside_says_so(
    gateway_process: Run, home: Path, tmp_path: Path
) -> None:
    """A ``find.log.1`` that is no regular file (a symlink to a file elsewhere) silently
    turned the log's bound off: ``find.log`` was never moved aside again. It is still
    neither followed nor replaced, and the log says why it is not moved aside (once for
    each server started). Near miss: a log under its bound says nothing of it."""
    from skillc_gateway.catalog.lifecycle import MAX_LOG_BYTES

    log = home / ".skillc" / "find.log"
    log.parent.mkdir(parents=True)
    elsewhere = tmp_path / "elsewhere.log"
    elsewhere.write_text("not skillc's\n", encoding="utf-8")
    (home / ".skillc" / "find.log.1").symlink_to(elsewhere)
    filler = "2026-01-01T00:00:00Z skc watch[1]: a client (pid 2) went away: timed out\n"
    for past in (False, True):
        log.write_text(filler * (MAX_LOG_BYTES // len(filler) + (1 if past else -1)))
        started = gateway_process("watch", "--detach")
        assert started.returncode == 0, started.stderr
        stopped = gateway_process("watch", "--stop")
        assert stopped.returncode == 0, stopped.stderr
        said = [line for line in log.read_text().splitlines() if "not moved aside" in line]
        if past:
            assert len(said) == 1, said
            assert said[0].endswith("find.log.1 is no regular file (remove it)"), said
        else:
            assert said == []
        assert (home / ".skillc" / "find.log.1").is_symlink()
        assert elsewhere.read_text(encoding="utf-8") == "not skillc's\n"
