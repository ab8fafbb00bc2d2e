"""Misbehaving clients on a raw pipe (issue 13): a request line has a size limit, a client
that writes without reading cannot grow the server (the server stops reading: backpressure),
and SIGTERM or SIGINT end the server cleanly after it writes the queued access-log rows."""

from __future__ import annotations

import json
import os
import select
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from contextlib import closing, suppress
from pathlib import Path

import pytest

from skillc_gateway.catalog.database import CATALOG_FILE
from skillc_index.bounded_json import MAX_INT_DIGITS
from skillc_mcp_testing import LINUX_PROC, MODERN_META, TIMEOUT, WireClient, peak_rss_mb

# -- the wire: line size and backpressure ----------------------------------------------------


def test_an_oversized_line_is_refused_and_the_server_goes_on(wire: WireClient) -> None:
    padding = "x" * (2 * 1024 * 1024)
    big = {"jsonrpc": "2.0", "id": 1, "method": "ping", "params": {"pad": padding}}
    wire.send(big)
    error = wire.receive()
    assert error["id"] is None
    assert error["error"]["code"] == -32600
    assert "longer than" in error["error"]["message"]
    wire.send_raw(b"[" * (3 * 1024 * 1024) + b"\n")  # and no -32700 for its pieces
    assert wire.receive()["error"]["code"] == -32600
    assert wire.request("ping")["result"] == {}
    assert wire.nothing_within(0.2)


def test_the_line_limit_leaves_out_the_line_ending(wire: WireClient) -> None:
    """1 MiB is the longest line read, its LF or CRLF not counted; the refusal of a longer
    one gives its size without the line ending."""
    limit = 1 << 20

    def line(size: int, n: int) -> bytes:
        head = b'{"jsonrpc":"2.0","id":%d,"method":"ping","params":{"pad":"' % n
        return head + b"x" * (size - len(head) - 3) + b'"}}'

    for n, (size, ending) in enumerate(
        [(limit - 1, b"\r\n"), (limit, b"\n"), (limit, b"\r\n"), (10, b"\r\n")]
    ):
        wire.send_raw(line(max(size, 60), n) + ending)
        assert wire.receive() == {"jsonrpc": "2.0", "id": n, "result": {}}
    for ending in (b"\n", b"\r\n"):
        wire.send_raw(line(limit + 1, 9) + ending)
        error = wire.receive()["error"]
        assert error["code"] == -32600
        assert f"line of {limit + 1} bytes, longer than {limit}" in error["message"]
    assert wire.request("ping")["result"] == {}


@pytest.mark.skipif(not LINUX_PROC, reason="reads /proc/<pid>/status")
def test_a_huge_line_is_never_held_whole(wire: WireClient) -> None:
    chunk = b"x" * (1024 * 1024)
    wire.send_raw(b'{"jsonrpc": "2.0", "id": 1, "method": "ping", "params": {"pad": "')
    for _ in range(200):  # 200 MB on one line
        wire.send_raw(chunk)
    wire.send_raw(b'"}}\n')
    assert wire.receive()["error"]["code"] == -32600
    assert wire.request("ping")["result"] == {}
    assert peak_rss_mb(wire.process.pid) < 150


@pytest.mark.skipif(not LINUX_PROC, reason="reads /proc/<pid>/status")
def test_a_client_that_never_reads_cannot_grow_the_server(
    server_command: list[str], project: Path, env: dict[str, str], tmp_path: Path
) -> None:
    """20,000 requests of 10 KB (200 MB) written without reading: the server stops reading
    once its queue and the pipe are full; when the client reads, every request is answered."""
    count = 20_000
    padding = "x" * 10_000
    process = _start(server_command, project, env, tmp_path / "server.log")
    assert process.stdin is not None
    assert process.stdout is not None
    fd = process.stdin.fileno()
    os.set_blocking(fd, False)

    def line(n: int) -> bytes:
        message = {"jsonrpc": "2.0", "id": n, "method": "ping", "params": {"pad": padding}}
        return json.dumps(message).encode() + b"\n"

    sent, pending = 0, b""
    while sent < count or pending:  # phase 1: write until the server stops taking input
        if not pending:
            pending = line(sent)
            sent += 1
        _, writable, _ = select.select([], [fd], [], 2.0)
        if not writable:
            break  # blocked for 2 s: the server stopped reading
        try:
            pending = pending[os.write(fd, pending) :]
        except BlockingIOError:
            continue
    peak = peak_rss_mb(process.pid)
    accepted = sent
    answered: list[int] = []

    def drain() -> None:
        assert process.stdout is not None
        for raw in process.stdout:
            answered.append(json.loads(raw)["id"])

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    os.set_blocking(fd, True)
    try:  # phase 2: read, and write the rest
        process.stdin.write(pending)
        for n in range(sent, count):
            process.stdin.write(line(n))
        process.stdin.close()
        assert process.wait(timeout=TIMEOUT * 5) == 0
    finally:
        if process.poll() is None:
            process.kill()
    reader.join(TIMEOUT)
    process.stdout.close()
    assert accepted < count, "the server read everything without the client reading"
    assert peak < 120, f"peak RSS {peak:.0f} MB"
    assert answered == list(range(count))


# -- SIGTERM and SIGINT ------------------------------------------------------------------------


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_ends_the_server_after_it_writes_the_queued_rows(
    wire: WireClient, project: Path, signum: signal.Signals
) -> None:
    wire.initialize()
    assert not wire.call("skc_build", {"skill": "demo"})["isError"]
    calls = 300
    message = {"name": "skc_outline", "arguments": {"skill": "demo"}, "_meta": MODERN_META}
    wire.send_raw(
        b"".join(
            json.dumps(
                {"jsonrpc": "2.0", "id": n, "method": "tools/call", "params": message}
            ).encode()
            + b"\n"
            for n in range(calls)
        )
    )
    for n in range(calls):
        assert wire.receive()["id"] == n
    wire.process.send_signal(signum)
    assert wire.close() == 128 + signum
    log = wire.stderr()
    assert "Traceback" not in log, log
    db = project / ".skillc" / "runtime" / "demo" / ".skillc-meta" / "logs.db"
    with closing(sqlite3.connect(db)) as connection:
        rows = connection.execute(
            "SELECT command, COUNT(*) FROM access_log GROUP BY command ORDER BY command"
        ).fetchall()
    assert rows == [("build", 1), ("outline", calls)]


def test_a_signal_interrupts_a_blocked_reply_and_still_writes_the_rows(
    server_command: list[str], project: Path, env: dict[str, str], tmp_path: Path
) -> None:
    """A client that stops reading: the server is stuck writing a reply when SIGTERM comes."""
    process = _start(server_command, project, env, tmp_path / "server.log")
    assert process.stdin is not None
    big = project / ".skillc" / "skills" / "demo" / "references" / "big.txt"
    big.write_text("y" * 90 + "\n" * 1, encoding="utf-8")
    message = {
        "name": "skc_open",
        "arguments": {"skill": "demo", "path": "references/big.txt"},
        "_meta": MODERN_META,
    }
    requests = b"".join(
        json.dumps({"jsonrpc": "2.0", "id": n, "method": "tools/call", "params": message}).encode()
        + b"\n"
        for n in range(2_000)  # about 500 KB of replies: far more than a pipe holds
    )
    writer = threading.Thread(target=_write_quietly, args=(process, requests), daemon=True)
    writer.start()
    writer.join(timeout=5)  # the server fills stdout, then stops reading
    time.sleep(0.5)
    process.send_signal(signal.SIGTERM)
    try:
        code = process.wait(timeout=TIMEOUT)
    finally:
        if process.poll() is None:
            process.kill()
        writer.join(TIMEOUT)
        for stream in (process.stdin, process.stdout):
            if stream is not None:
                with suppress(OSError):  # unwritten input of a server that is gone
                    stream.close()
    assert code == 128 + signal.SIGTERM
    text = (tmp_path / "server.log").read_text(encoding="utf-8")
    assert "Traceback" not in text, text
    db = project / ".skillc" / "runtime" / "demo" / ".skillc-meta" / "logs.db"
    with closing(sqlite3.connect(db)) as connection:
        (rows,) = connection.execute("SELECT COUNT(*) FROM access_log").fetchone()
    assert rows > 0


def test_a_signal_that_cuts_a_reply_writes_no_more_even_with_a_listen_open(
    server_command: list[str], project: Path, env: dict[str, str], tmp_path: Path
) -> None:
    """A listen stream is open and the server is stuck writing a reply the client does not
    read when SIGTERM comes: the server exits at once, without the listen's response (it would
    block, and be glued to the cut line), and writes the queued access-log rows."""
    process = _start(server_command, project, env, tmp_path / "server.log")
    assert process.stdin is not None and process.stdout is not None
    big = project / ".skillc" / "skills" / "demo" / "references" / "big.txt"
    big.write_text(("y" * 90 + "\n") * 1_000, encoding="utf-8")
    listen = {
        "jsonrpc": "2.0",
        "id": "l1",
        "method": "subscriptions/listen",
        "params": {"_meta": MODERN_META, "notifications": {"resourcesListChanged": True}},
    }
    message = {
        "name": "skc_open",
        "arguments": {"skill": "demo", "path": "references/big.txt"},
        "_meta": MODERN_META,
    }
    requests = json.dumps(listen).encode() + b"\n"
    requests += b"".join(
        json.dumps({"jsonrpc": "2.0", "id": n, "method": "tools/call", "params": message}).encode()
        + b"\n"
        for n in range(20)  # replies of 90 KB: more than a pipe holds, so one is cut
    )
    writer = threading.Thread(target=_write_quietly, args=(process, requests), daemon=True)
    writer.start()
    writer.join(timeout=5)
    _wait_until_stdout_is_full(process)  # the server then waits for the client to read
    process.send_signal(signal.SIGTERM)
    try:
        code = process.wait(timeout=20)  # the client has read nothing yet
        output = process.stdout.read()
    finally:
        if process.poll() is None:
            process.kill()
        writer.join(TIMEOUT)
        for stream in (process.stdin, process.stdout):
            if stream is not None:
                with suppress(OSError):  # unwritten input of a server that is gone
                    stream.close()
    assert code == 128 + signal.SIGTERM
    *lines, cut = output.split(b"\n")
    assert cut, "the reply the signal gave up is cut, not ended"
    messages = [json.loads(line) for line in lines]  # every whole line is JSON
    assert messages[0]["method"] == "notifications/subscriptions/acknowledged"
    assert all(m.get("id") != "l1" for m in messages)
    assert b'"id":"l1"' not in cut
    text = (tmp_path / "server.log").read_text(encoding="utf-8")
    assert "Traceback" not in text, text
    db = project / ".skillc" / "runtime" / "demo" / ".skillc-meta" / "logs.db"
    with closing(sqlite3.connect(db)) as connection:
        (rows,) = connection.execute("SELECT COUNT(*) FROM access_log").fetchone()
    assert rows > 0


def _wait_until_stdout_is_full(process: subprocess.Popen[bytes]) -> None:
    """Wait (a bound, not a timing: at most 60 s) until the server's unread output fills the
    pipe (64 KiB on Linux): from then on it is blocked writing a reply."""
    import fcntl
    import termios

    assert process.stdout is not None
    waiting = bytearray(4)
    for _ in range(1_200):
        fcntl.ioctl(process.stdout.fileno(), termios.FIONREAD, waiting)
        if int.from_bytes(waiting, sys.byteorder) >= 60_000:
            return
        time.sleep(0.05)
    pytest.fail("the server's output never filled the pipe")


def _start(
    command: list[str], project: Path, env: dict[str, str], log: Path
) -> subprocess.Popen[bytes]:
    """The server on raw pipes (a client that may stop reading), its stderr in ``log``."""
    with log.open("wb") as stderr:
        return subprocess.Popen(
            command,
            cwd=project,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=stderr,
        )


def _write_quietly(process: subprocess.Popen[bytes], data: bytes) -> None:
    assert process.stdin is not None
    try:
        process.stdin.write(data)
        process.stdin.flush()
    except (BrokenPipeError, ValueError, OSError):
        pass


def test_a_surrogate_that_stands_for_no_byte_is_no_internal_error(wire: WireClient) -> None:
    """JSON may hold ``\\ud800``, which no path can be encoded with: it reads as U+FFFD, so the
    answer is the usual one for a file, folder or store that is not there, never E999."""
    wire.initialize()
    assert not wire.call("skc_build", {"skill": "demo"})["isError"]
    for name, arguments, code in [
        ("skc_open", {"skill": "demo", "path": "\ud800"}, "E021"),
        ("skc_show", {"skill": "demo", "section": "x", "file": "\ud800"}, "E021"),
        ("skc_sources", {"skill": "demo", "dir": "\ud800"}, "E022"),
        ("skc_outline", {"skill": "\ud800x"}, "E001"),
        ("skc_stats", {"skill": "demo", "project": ["\ud800"]}, ""),
        ("skc_find", {"query": "paint", "path": ["\ud800"]}, "E022"),
    ]:
        result = wire.call(name, arguments)
        text = result["content"][0]["text"]
        assert "E999" not in text and "UnicodeEncodeError" not in text, (name, text)
        if code:
            assert result["isError"] and text.startswith(f"error[{code}]"), (name, text)


def test_an_empty_string_gets_the_command_lines_code(wire: WireClient) -> None:
    """An empty skill, section, path or project was E100 ``must not be empty`` (the schema's
    ``minLength``), where the command line answers the RFC's code for what is not there (an
    empty ``open`` path or ``sources`` dir has no such code: E100 on both)."""
    wire.initialize()
    for name, arguments, code in [
        *[(tool, {"skill": ""}, "E001") for tool in ("skc_outline", "skc_sources", "skc_lint")],
        ("skc_show", {"skill": "", "section": "s"}, "E001"),
        ("skc_show", {"skill": "demo", "section": ""}, "E020"),
        ("skc_open", {"skill": "demo", "path": ""}, "E100"),  # as `skc open demo ''`
        ("skc_sources", {"skill": "demo", "dir": ""}, "E100"),
        ("skc_search", {"skill": "", "query": "q"}, "E001"),
        ("skc_stats", {"skill": ""}, "E001"),
        ("skc_stats", {"skill": "demo", "project": [""]}, "E031"),
        ("skc_build", {"skill": ""}, "E001"),
        ("skc_eval", {"path": [""]}, "E022"),
        ("skc_find", {"query": "q", "path": [""]}, "E022"),
    ]:
        result = wire.call(name, arguments)
        text = result["content"][0]["text"]
        assert result["isError"] and text.startswith(f"error[{code}]"), (name, text)


def test_a_nul_byte_in_a_path_is_no_internal_error(wire: WireClient) -> None:
    """A NUL byte in a skill or a path was E999 ``embedded null byte`` (a traceback in the log)
    from the check that a model's paths lie in the folders it may read: no file can have such a
    path, so the answer is the usual one for what is not there (a deploy target: a folder
    the server may not deploy to, as ``./x``)."""
    wire.initialize()
    for name, arguments, code in [
        *[(tool, {"skill": "x\0"}, "E001") for tool in ("skc_outline", "skc_sources", "skc_lint")],
        ("skc_show", {"skill": "x\0", "section": "s"}, "E001"),
        ("skc_open", {"skill": "x\0", "path": "SKILL.md"}, "E001"),
        ("skc_search", {"skill": "x\0", "query": "q"}, "E001"),
        ("skc_stats", {"skill": "x\0"}, "E001"),
        ("skc_build", {"skill": "x\0"}, "E001"),
        ("skc_eval", {"skills": ["x\0"]}, "E001"),
        ("skc_eval", {"path": ["x\0"]}, "E022"),
        ("skc_lint", {"skill": "demo", "baseline": "x\0"}, "E100"),
        ("skc_build", {"skill": "demo", "target": ["./x\0"]}, "E100]: invalid option: 'target"),
    ]:
        result = wire.call(name, arguments)
        text = result["content"][0]["text"]
        assert result["isError"] and text.startswith(f"error[{code}"), (name, text)
        assert "embedded null byte" not in text, (name, text)
    for name, arguments in [  # quoted as \0 with the reason, as skc_sources always did
        ("skc_find", {"query": "q", "path": ["a\0"]}),
        ("skc_eval", {"path": ["a\0"]}),
        ("skc_sources", {"skill": "demo", "dir": "a\0"}),
        ("skc_build", {"skill": "demo", "target": ["./x\0"]}),
        ("skc_build", {"skill": "demo", "target": ["x\0y"]}),
    ]:
        text = wire.call(name, arguments)["content"][0]["text"]
        assert "\0" not in text and "\\0" in text, (name, text)
        assert text.endswith("\nhint: a path cannot hold a NUL byte"), (name, text)
    assert "Traceback" not in wire.stderr()


def test_a_model_searches_no_folder_outside_the_project_and_the_home(
    wire: WireClient,
    project: Path,
    home: Path,
    tmp_path: Path,
    server_command: list[str],
    env: dict[str, str],
) -> None:
    """``skc_find`` with ``path: ["/"]`` walked the disk and kept every SKILL.md on it in the
    user's catalog (25-55 MB a call, 13-20 s holding the server). A model's ``path`` lies in
    the project, the home folder or a folder of installed skills: any other, also through a
    symlink in the project, is E100 before any walk, and nothing of it enters the catalog."""
    outside = tmp_path / "elsewhere"
    inside = home / "library"
    for folder, name in ((outside, "outer-widgets"), (inside, "inner-widgets")):
        (folder / name).mkdir(parents=True)
        (folder / name / "SKILL.md").write_text(
            f"---\nname: {name}\ndescription: Paint widgets blue.\n---\n\n# Paint\n",
            encoding="utf-8",
        )
    (project / "linked").symlink_to(outside)
    wire.initialize()
    for path in ("/", str(outside), "linked", "linked/outer-widgets"):
        result = wire.call("skc_find", {"query": "paint widgets", "path": [path]})
        text = result["content"][0]["text"]
        assert result["isError"], text
        assert text.startswith(f"error[E100]: invalid option: 'path '{path}' "), text
        assert "outside the project, the working folder, the home folder and the" in text
    asked = {"query": "paint widgets", "path": [str(inside)]}
    found = wire.call("skc_find", asked)["structuredContent"]
    assert [Path(skill["name"]).name for skill in found["skills"]] == ["inner-widgets"]
    # a link of a folder searched is not walked out of the folders a model may read (the
    # project's `linked`): skipped, counted and said
    found = wire.call("skc_find", {"query": "paint widgets", "path": [str(project)]})
    hits = [Path(skill["name"]).name for skill in found["structuredContent"]["skills"]]
    assert "outer-widgets" not in hits and found["structuredContent"]["skipped"] == 1, hits
    said = f"warning: skipping 'linked' ({project}/linked): a link out of the folders this "
    assert found["structuredContent"]["warnings"] == [f"{said}server reads, to {outside}"]
    with closing(sqlite3.connect(home / ".skillc" / CATALOG_FILE)) as db:
        indexed = {name for (name,) in db.execute("SELECT name FROM skills")}
    assert "outer-widgets" not in indexed and "inner-widgets" in indexed
    # the folder the user started the server in is theirs, a project or not
    server = WireClient(server_command, outside, env, tmp_path / "outside.log")
    try:
        server.initialize()
        found = server.call("skc_find", {"query": "paint widgets", "path": ["."]})
        assert [s["name"] for s in found["structuredContent"]["skills"]] == ["outer-widgets"]
    finally:
        assert server.close() == 0, server.stderr()


def test_a_model_scores_no_library_outside_the_project_and_the_home(
    wire: WireClient, project: Path, tmp_path: Path
) -> None:
    """``skc_eval``'s ``path`` (the library) is confined as ``skc_find``'s: with ``path:
    ["/"]`` it walked the disk, holding the server. A folder outside the project, the home
    folder and the folders of installed skills, also through a symlink in the project, is
    E100 before any walk; one in the project is scored against."""
    outside = tmp_path / "elsewhere"
    inside = project / "library"
    for folder in (outside, inside):
        (folder / "widgets").mkdir(parents=True)
        (folder / "widgets" / "SKILL.md").write_text(
            "---\nname: widgets\ndescription: Paint widgets blue.\n---\n\n# Paint\n",
            encoding="utf-8",
        )
    (project / "linked").symlink_to(outside)
    wire.initialize()
    for path in ("/", str(outside), "linked", "linked/widgets"):
        result = wire.call("skc_eval", {"path": [path]})
        text = result["content"][0]["text"]
        assert result["isError"], text
        assert text.startswith(f"error[E100]: invalid option: 'path '{path}' "), text
        assert "outside the project, the working folder, the home folder and the" in text
        assert "'skc eval --path DIR'" in text
    for path in ("library", str(inside)):
        result = wire.call("skc_eval", {"path": [path]})
        assert not result["isError"], result["content"][0]["text"]
        assert result["structuredContent"]["library"] == 1
    # a folder's linked skill leading out of it is left out, with a warning
    (project / "library" / "outer").symlink_to(outside / "widgets")
    result = wire.call("skc_eval", {"path": ["library"]})["structuredContent"]
    said = "a link out of the folders this server reads, to "
    assert result["library"] == 1 and said in result["warnings"][0], result["warnings"]


def test_a_model_finds_a_projects_deployed_skills_through_path(
    wire: WireClient, project: Path, home: Path
) -> None:
    """A model's ``path`` root keeps its linked entries that lie in the folders it may read,
    not only in the folder given: the project's ``.claude/skills/demo``, skc-deployed as a
    link into ``.skillc/runtime``, is found (it was skipped as a link out of
    ``.claude/skills``, and so every skill ``skc build`` deploys); the same folder through
    a symlinked alias too (matched by its real path). Near miss: a link out of the project
    and the home is skipped (the test above)."""
    wire.initialize()
    assert not wire.call("skc_build", {"skill": "demo"})["isError"]
    deployed = project / ".claude/skills/demo"
    assert deployed.is_symlink() and ".skillc/runtime" in str(deployed.readlink())
    (project / "cs").symlink_to(project / ".claude/skills")
    for path in (".claude/skills", "cs"):
        found = wire.call("skc_find", {"query": "demo", "path": [path]})["structuredContent"]
        assert [s["name"] for s in found["skills"]] == ["demo"], (path, found)
        assert (found["skipped"], found["warnings"]) == (0, []), (path, found)
    result = wire.call("skc_eval", {"path": [".claude/skills"]})["structuredContent"]
    assert (result["library"], result.get("warnings")) == (1, None), result


def test_a_projects_library_leads_a_model_nowhere_outside(
    wire: WireClient, project: Path, tmp_path: Path
) -> None:
    """``skc_eval``'s ``library`` names folders of the configuration's ``[libraries]``; a
    project's config (a checkout's choice) named one outside the project, or ``/``, and the
    server read its skills and cases, or walked the disk, where the same folder as ``path``
    was E100. A project's folder not inside the project is left out (``Config.library``),
    an entry with none left is E100; the rest are confined as ``path`` is, before any walk."""
    outside = tmp_path / "elsewhere"
    for folder in (outside, project / "library"):
        (folder / "widgets").mkdir(parents=True)
        (folder / "widgets" / "SKILL.md").write_text(
            "---\nname: widgets\ndescription: Paint widgets blue.\n---\n\n# Paint\n",
            encoding="utf-8",
        )
    (project / "linked").symlink_to(outside)
    (project / ".skillc" / "config.toml").write_text(
        f'[libraries]\nout = ["{outside}"]\nroot = ["/"]\nlinked = ["linked"]\n'
        'inner = ["library"]\n',
        encoding="utf-8",
    )
    wire.initialize()
    for name, path in (("out", str(outside)), ("root", "/"), ("linked", "linked")):
        result = wire.call("skc_eval", {"library": name})
        text = result["content"][0]["text"]
        assert result["isError"], text
        assert text.startswith(
            f"error[E100]: invalid option: 'library '{name}' of the project's config has no "
            f"folder inside the project ('{path}': "
        ), text
    result = wire.call("skc_eval", {"library": "inner"})
    assert not result["isError"], result["content"][0]["text"]
    assert result["structuredContent"]["library"] == 1


def test_skc_eval_takes_as_many_folders_as_skc_find(wire: WireClient) -> None:
    """``skc_eval``'s ``path`` is bounded as ``skc_find``'s (16, the schemas' ``maxItems``),
    before any folder is looked at: 20,000 were each confined and walked, 106 s of a held
    server (the outside ``/`` here would be refused one by one)."""
    wire.initialize()
    tools = {tool["name"]: tool for tool in wire.request("tools/list")["result"]["tools"]}
    for name in ("skc_find", "skc_eval"):
        assert tools[name]["inputSchema"]["properties"]["path"]["maxItems"] == 16
        given: dict[str, object] = {"query": "x"} if name == "skc_find" else {}
        for count in (17, 150_000):
            result = wire.call(name, {**given, "path": ["/"] * count})
            text = result["content"][0]["text"]
            assert result["isError"], text
            assert text == (
                f"error[E100]: invalid option: 'path holds {count:,} values; at most 16 are "
                "allowed'"
            )


def test_skc_eval_takes_at_most_1000_skills(wire: WireClient, tmp_path: Path) -> None:
    """``skc_eval``'s ``skills`` is bounded (1,000, its schema's ``maxItems``) before any is
    resolved: 20,000 names of one skill held the server 18 s."""
    wire.initialize()
    tools = {tool["name"]: tool for tool in wire.request("tools/list")["result"]["tools"]}
    assert tools["skc_eval"]["inputSchema"]["properties"]["skills"]["maxItems"] == 1000
    result = wire.call("skc_eval", {"skills": ["notes"] * 20_000})
    text = result["content"][0]["text"]
    assert result["isError"], text
    assert text == (
        "error[E100]: invalid option: 'skills holds 20,000 values; at most 1,000 are allowed'"
    )


def test_a_glob_pattern_is_bounded_and_read_in_one_pass(wire: WireClient) -> None:
    """``skc_list``'s and ``skc_sources``' ``pattern`` had no ``maxLength``, and each
    unclosed ``[`` was read to the pattern's end: 100,000 gave no answer in 5 minutes, every
    later call waiting. Over 512 characters is E100 now; 512 ``[`` answer (nothing matches)."""
    wire.initialize()
    tools = {tool["name"]: tool for tool in wire.request("tools/list")["result"]["tools"]}
    for tool in ("skc_list", "skc_sources"):
        assert tools[tool]["inputSchema"]["properties"]["pattern"]["maxLength"] == 512
    for tool, arguments in (("skc_list", {}), ("skc_sources", {"skill": "demo"})):
        result = wire.call(tool, {**arguments, "pattern": "[" * 100_000})
        text = result["content"][0]["text"]
        assert result["isError"], text
        assert text == (
            "error[E100]: invalid option: 'the pattern has 100,000 characters; at most 512 "
            "are allowed'"
        )
        result = wire.call(tool, {**arguments, "pattern": "[" * 512})
        assert not result["isError"], result
    listed = wire.call("skc_list", {"pattern": "[" * 512})["structuredContent"]
    assert listed["skills"] == []
    tree = wire.call("skc_sources", {"skill": "demo", "pattern": "[" * 512})["structuredContent"]
    assert tree["tree"]["children"] == []


def test_skc_stats_takes_at_most_64_projects_users_and_machines(wire: WireClient) -> None:
    """``skc_stats``'s ``project`` (and ``user``, ``machine``) had no ``maxItems``: 20,000
    folders, each made canonical and de-duplicated against a list, held the server 20 s.
    They are bounded (64) before any is looked at."""
    wire.initialize()
    tools = {tool["name"]: tool for tool in wire.request("tools/list")["result"]["tools"]}
    for name in ("project", "user", "machine"):
        assert tools["skc_stats"]["inputSchema"]["properties"][name]["maxItems"] == 64
    result = wire.call("skc_stats", {"project": [f"/p{n}" for n in range(20_000)]})
    text = result["content"][0]["text"]
    assert result["isError"], text
    assert text == (
        "error[E100]: invalid option: 'project holds 20,000 values; at most 64 are allowed'"
    )


def test_skc_lint_s_rules_and_targets_and_skc_build_s_targets_are_bounded(
    wire: WireClient, project: Path
) -> None:
    """``skc_lint``'s ``select``, ``ignore``, ``profile``, ``target`` and ``skc_build``'s
    ``target`` had no ``maxItems``: 200,000 ``select`` values held the server 4 s, 90,000
    targets built and deployed the skill. They are bounded (256 rules, 64 names), the names
    of a comma-separated item counted too (one item of 200,000 held it 7 s), before any is
    looked at; nothing is built."""
    wire.initialize()
    tools = {tool["name"]: tool for tool in wire.request("tools/list")["result"]["tools"]}
    bounds = {"select": 256, "ignore": 256, "profile": 64, "target": 64}
    for name, most in bounds.items():
        assert tools["skc_lint"]["inputSchema"]["properties"][name]["maxItems"] == most
    assert tools["skc_build"]["inputSchema"]["properties"]["target"]["maxItems"] == 64
    calls = [
        ("skc_lint", "select", ["S"] * 20_000, 20_000, 256),
        ("skc_lint", "select", [",".join(["S"] * 20_000)], 20_000, 256),
        ("skc_lint", "ignore", ["S"] * 257, 257, 256),
        ("skc_lint", "profile", ["claude-code"] * 65, 65, 64),
        ("skc_lint", "target", ["claude,codex", *["claude"] * 63], 65, 64),
        ("skc_build", "target", ["claude"] * 20_000, 20_000, 64),
    ]
    for tool, name, values, count, most in calls:
        result = wire.call(tool, {"skill": "demo", name: values})
        text = result["content"][0]["text"]
        assert result["isError"], text
        assert text == (
            f"error[E100]: invalid option: '{name} holds {count:,} values; at most {most} are "
            "allowed'"
        )
    assert not (project / ".claude").exists()
    assert not wire.call("skc_lint", {"skill": "demo", "select": ["S"] * 256})["isError"]


def test_a_model_reads_no_skill_folder_outside_the_project_and_the_home(
    wire: WireClient, project: Path, tmp_path: Path, write_skill: Callable[..., Path]
) -> None:
    """A skill's path (every tool's ``skill``, ``skc_eval``'s ``skills``) and ``skc_lint``'s
    ``baseline`` are confined as ``skc_find``'s ``path``: ``skc_open`` of a folder holding a
    SKILL.md anywhere on the disk read its ``.env``, and ``skc_build`` of one imported it
    into the user's store and deployed it. Outside the project, the home folder and the
    folders of installed skills, also through a symlink in the project, a path is E100
    before anything is read; a store skill by name and a folder in the project still are."""
    outside = write_skill(tmp_path / "elsewhere" / "notes", files={".env": "SECRET=1\n"})
    (outside.parent / "baseline.json").write_text("{}", encoding="utf-8")
    inside = write_skill(project / "drafts" / "notes")
    (project / "linked").symlink_to(outside.parent)
    wire.initialize()
    for path in (str(outside), "linked/notes", "../elsewhere/notes"):
        for name, arguments in [
            ("skc_open", {"path": ".env", "hidden": True}),
            ("skc_open", {"path": "SKILL.md"}),
            ("skc_show", {"section": "notes"}),
            ("skc_outline", {}),
            ("skc_sources", {}),
            ("skc_search", {"query": "notes"}),
            ("skc_lint", {}),
            ("skc_stats", {}),
            ("skc_build", {"force": True}),
        ]:
            result = wire.call(name, {"skill": path, **arguments})
            text = result["content"][0]["text"]
            assert result["isError"], (name, text)
            assert text.startswith(f"error[E100]: invalid option: 'path '{path}' "), text
            assert "'skc " + name[4:] + " PATH'" in text, text
        result = wire.call("skc_eval", {"skills": [path]})
        assert result["content"][0]["text"].startswith("error[E100]"), result
    baseline = str(outside.parent / "baseline.json")
    result = wire.call("skc_lint", {"skill": "demo", "baseline": baseline})
    assert "'skc lint --baseline FILE'" in result["content"][0]["text"], result
    assert not (project / ".skillc" / "skills" / "notes").exists()
    for skill in ("demo", str(inside), "drafts/notes"):
        result = wire.call("skc_open", {"skill": skill, "path": "SKILL.md"})
        assert not result["isError"], result["content"][0]["text"]


def test_an_integer_of_more_than_4300_digits_is_no_parse_error(wire: WireClient) -> None:
    """Python converts no integer of more than 4,300 digits: the server answered such a
    request -32700 ``Parse error: Exceeds the limit (4300 digits)... use
    sys.set_int_max_str_digits()``, though its JSON is valid. An argument that long is E100
    as any integer past its bound, an id that long -32600 with id null."""
    wire.initialize()
    for digits in (4300, 4301, 100_000):
        arguments = '{"skill": "demo", "path": "SKILL.md", "max_lines": ' + "9" * digits + "}"
        params = '{"name": "skc_open", "arguments": ' + arguments + "}"
        wire.send_raw(
            b'{"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": %s}\n' % params.encode()
        )
        response = wire.receive()
        assert response["id"] == 7, response
        text = response["result"]["content"][0]["text"]
        assert text.startswith("error[E100]: invalid option: 'max_lines must be at most"), text
    wire.send_raw(b'{"jsonrpc": "2.0", "id": %s, "method": "ping"}\n' % (b"9" * 5000))
    response = wire.receive()
    assert response["id"] is None and response["error"]["code"] == -32600, response
    assert response["error"]["message"].endswith(f"at most {MAX_INT_DIGITS:,} digits"), response
    # the most the message allows: 4,300 nines (the value past-the-bound ids read as), signed
    # or not, is an id (it was -32600: the id was compared with that value)
    for huge in ("9" * MAX_INT_DIGITS, "-" + "9" * MAX_INT_DIGITS):
        wire.send_raw(b'{"jsonrpc": "2.0", "id": %s, "method": "ping"}\n' % huge.encode())
        response = wire.receive()
        assert response == {"jsonrpc": "2.0", "id": int(huge), "result": {}}, response
    assert wire.request("ping")["result"] == {}


def test_a_request_nested_too_deep_is_answered_with_its_id(wire: WireClient) -> None:
    """A valid line nested deeper than 64 levels (a ``path`` of 62 nested arrays) was
    -32700 with id null, though it is JSON: the client's call waited forever. It is read
    with what lies past the bound cut: the request is -32602 with its id (-32600 when the
    deep value is outside ``params``), in both eras; a notification gets no answer; what is
    no JSON is still -32700 with id null."""
    wire.initialize()

    def nested(depth: int) -> str:
        return "[" * depth + '"x"' + "]" * depth

    def call(request_id: str, arguments: str, meta: str = "") -> bytes:
        params = f'{{"name": "skc_open", "arguments": {arguments}{meta}}}'
        line = (
            f'{{"jsonrpc": "2.0", "id": {request_id}, "method": "tools/call", "params": {params}}}'
        )
        return line.encode() + b"\n"

    modern = ', "_meta": ' + json.dumps(MODERN_META)
    for depth in (62, 100_000):
        for request_id, meta in (("77", ""), ('"m"', modern)):
            wire.send_raw(call(request_id, f'{{"skill": "demo", "path": {nested(depth)}}}', meta))
            assert wire.receive() == {
                "jsonrpc": "2.0",
                "id": json.loads(request_id),
                "error": {
                    "code": -32602,
                    "message": "Invalid params: nested deeper than 64 levels",
                },
            }
    result = wire.call("skc_open", {"skill": "demo", "path": json.loads(nested(61))})
    assert result["content"][0]["text"] == (
        "error[E100]: invalid option: 'path must be a string, not an array'"
    )  # the near miss: within the bound, the tool's own answer
    deep = nested(70)
    wire.send_raw(f'{{"jsonrpc": "2.0", "id": 5, "method": "ping", "x": {deep}}}\n'.encode())
    assert wire.receive()["error"] == {
        "code": -32600,
        "message": "Invalid Request: nested deeper than 64 levels",
    }
    wire.send_raw(f'{{"jsonrpc": "2.0", "method": "notifications/x", "params": {deep}}}\n'.encode())
    wire.send_raw(call("9", f'{{"path": {deep[:-1]}}}'))  # one ']' short: no JSON
    response = wire.receive()
    assert response["id"] is None and response["error"]["code"] == -32700, response
    assert wire.request("ping")["result"] == {}
    assert wire.nothing_within(0.2)


def test_a_cancellation_nested_too_deep_cancels_nothing(
    server_command: list[str], project: Path, env: dict[str, str], tmp_path: Path
) -> None:
    """A ``notifications/cancelled`` nested deeper than 64 levels was acted on (the request
    it named got no answer) while any other message so deep is refused: it is dropped, no
    answer, nothing cancelled, and ``--log-requests`` says it was refused."""
    client = WireClient([*server_command, "--log-requests"], project, env, tmp_path / "log")
    client.initialize()
    deep = json.loads("[" * 70 + '"x"' + "]" * 70)
    # The first tool call loads the libraries: the reader reads the cancellation of
    # request 2 while request 1 runs (as test_wire's cancelled request, which it cancels).
    lines = [
        {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
         "params": {"name": "skc_outline", "arguments": {"skill": "demo"}}},
        {"jsonrpc": "2.0", "id": 2, "method": "ping"},
        {"jsonrpc": "2.0", "method": "notifications/cancelled",
         "params": {"requestId": 2, "reason": deep}},
        {"jsonrpc": "2.0", "id": 3, "method": "ping"},
    ]  # fmt: skip
    client.send_raw(b"".join(json.dumps(line).encode() + b"\n" for line in lines))
    assert [client.receive()["id"] for _ in range(3)] == [1, 2, 3]
    assert client.nothing_within(0.2)
    assert client.close() == 0
    assert "notifications/cancelled [-] error -32602" in client.stderr(), client.stderr()
    assert "ping [2] ok" in client.stderr()


def test_a_models_eval_reads_an_agent_folder_as_its_find_does(
    wire: WireClient, home: Path, tmp_path: Path
) -> None:
    """``~/.claude/skills/zebra -> /elsewhere/zebra`` (a skill installed as a link): a model's
    ``skc_find`` with that agent folder as ``path`` finds zebra (a known folder is searched
    as the inventory's root: its links are followed), while ``skc_eval`` with the same
    ``path`` scored against no skill and said "a link out of the folders this server reads".
    Both take the folder as the known root it is."""
    outside = tmp_path / "elsewhere" / "zebra"
    outside.mkdir(parents=True)
    (outside / "SKILL.md").write_text(
        "---\nname: zebra\ndescription: Zebra quantum flamingo stripes.\n---\n\n# Zebra\n",
        encoding="utf-8",
    )
    agent = home / ".claude" / "skills"
    agent.mkdir(parents=True, exist_ok=True)
    (agent / "zebra").symlink_to(outside)
    wire.initialize()
    found = wire.call("skc_find", {"query": "zebra quantum", "path": [str(agent)]})
    assert [s["name"] for s in found["structuredContent"]["skills"]] == ["zebra"], found
    result = wire.call("skc_eval", {"path": [str(agent)]})
    assert not result["isError"], result["content"][0]["text"]
    data = result["structuredContent"]
    assert (data["library"], data.get("warnings")) == (1, None), data
