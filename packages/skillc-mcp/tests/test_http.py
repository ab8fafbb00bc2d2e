"""``skc mcp --http``: the real server process on a free port, real clients (the official
``mcp`` SDK's streamable HTTP client, FastMCP's, httpx for the raw requests)."""

from __future__ import annotations

import json
import os
import random
import re
import signal
import sqlite3
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from contextlib import closing
from pathlib import Path
from typing import Any

import anyio
import pytest

from skillc_mcp._http_guard import Tokens
from skillc_mcp_testing import MODERN_META, HttpServer, mirrored

httpx = pytest.importorskip("httpx")
pytest.importorskip("uvicorn", reason="the http extra (tox.ini's mcp env installs it)")

TOKEN = "s3cret-token-of-alice-0123456789"
HEADERS = {"content-type": "application/json", "accept": "application/json, text/event-stream"}
INIT = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-11-25", "capabilities": {}},
}


def test_sdk_client_calls_tools_and_skills_methods_in_both_eras(
    start: Callable[..., HttpServer],
) -> None:
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client

    server = start()

    async def run(mode: str) -> tuple[list[str], Any, Any]:
        async with Client(streamable_http_client(server.url), mode=mode) as client:
            tools = await client.list_tools()
            shown = await client.call_tool("skc_show", {"skill": "demo", "section": "Usage"})
            read = await client.read_resource("skill://demo/SKILL.md")
            return [t.name for t in tools.tools], shown, read

    for mode in ("legacy", "2026-07-28", "auto"):
        names, shown, read = anyio.run(run, mode)
        assert "skc_show" in names and "skc_find" in names
        assert not shown.is_error
        assert "Use the widgets daily." in shown.content[0].text
        assert read.contents[0].text.startswith("---\nname: demo\n")
    listing = {"jsonrpc": "2.0", "id": 7, "method": "skills/list", "params": {"_meta": MODERN_META}}
    raw = httpx.post(server.url, headers={**HEADERS, **mirrored(listing)}, json=listing).json()
    assert [s["uri"] for s in raw["result"]["skills"]] == ["skill://demo/SKILL.md"]
    assert server.stop() == 128 + signal.SIGTERM


def test_fastmcp_client_over_http(start: Callable[..., HttpServer]) -> None:
    pytest.importorskip("fastmcp")
    from fastmcp import Client
    from fastmcp.skills.client import SkillsClientExtension

    server = start()

    async def run() -> tuple[list[str], Any]:
        client = Client(server.url, mode="auto", extensions=[SkillsClientExtension()])
        async with client:
            listed = await client.list_skills()
            read = await client.read_skill("skill://demo/SKILL.md")  # digests checked
            return [skill.uri for skill in listed], read

    uris, read = anyio.run(run)
    assert uris == ["skill://demo/SKILL.md"]
    assert read.files["references/notes.txt"] == b"one\ntwo\nthree\n"


def test_the_stdio_server_does_not_import_the_http_transport(
    project: Path, env: dict[str, str]
) -> None:
    """The stdio path (``python -m skillc_mcp``, as ``skillc-mcp`` with no arguments) serves
    a session without importing uvicorn, asyncio or the HTTP module."""
    import json
    import sys

    lines = [
        INIT,
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
    ]
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "skillc_mcp"],
        input="".join(json.dumps(line) + "\n" for line in lines),
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert '"id":2' in done.stdout
    imported = {line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines() if "|" in line}
    assert "skillc_mcp._stdio" in imported
    assert not imported & {"uvicorn", "asyncio", "skillc_mcp._http"}


def test_a_non_loopback_bind_without_tokens_is_refused(
    script_path: Callable[[str], Path], project: Path, env: dict[str, str]
) -> None:
    done = subprocess.run(
        [str(script_path("skillc-mcp")), "--http", "0.0.0.0:0"],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1
    assert done.stderr.startswith("error[E061]: MCP HTTP server: '0.0.0.0' is not a loopback")
    assert "Traceback" not in done.stderr


REPEATED = "--allow-host a.com --allow-host b.com"


@pytest.mark.parametrize(
    ("value", "shown", "hint"),
    [
        ("a.com,b.com", "a.com,b.com", f"hint: give one name an option, repeated: {REPEATED}\n"),
        ("bad host!", "'bad host!'", ""),
        ("a.example:70000", "a.example:70000", ""),
        # an IPv6 address unbracketed: the hint brackets it (quoted: a glob unquoted); a port
        # of non-ASCII digits
        ("::1", "::1", "hint: an IPv6 address goes in brackets: --allow-host '[::1]'\n"),
        ("a.com:\u0663", "'a.com:\u0663'", ""),
        ("[::1]:\u0663", "'[::1]:\u0663'", ""),
        # from a script: a control character, a newline, a quote; never raw, one line each
        ("bad\x1b[31mhost\nx", "$'bad\\x1b[31mhost\\x0ax'", ""),
        ("a.com,b\nc", "$'a.com,b\\x0ac'",
         "hint: give one name an option, repeated: --allow-host a.com --allow-host $'b\\x0ac'\n"),
        ("it's", "'it'\"'\"'s'", ""),
    ],
)  # fmt: skip
def test_an_allow_host_that_is_no_host_name_is_e061(
    script_path: Callable[[str], Path],
    project: Path,
    env: dict[str, str],
    value: str,
    shown: str,
    hint: str,
) -> None:
    """``--allow-host 'a.com,b.com'`` (or ``'bad host!'``) was taken, and the server then
    refused every request with 421: a value that is no host name or IP address (with a port
    or not) is E061 before the server starts; a comma list is told to repeat the option.
    (Taken, the server starts and serves until the timeout.) The value is quoted as a shell
    word (it was quoted as typed: a newline in it from a script broke the hint's line, a
    quote its quotes)."""
    done = subprocess.run(
        [str(script_path("skillc-mcp")), "--http", "127.0.0.1:0", "--allow-host", value],
        cwd=project, env=env, capture_output=True, text=True, timeout=30,
    )  # fmt: skip
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == (
        f"error[E061]: MCP HTTP server: --allow-host {shown} is not a host name (NAME, "
        f"NAME:PORT, an IP address)\n{hint}"
    )


@pytest.mark.parametrize(
    ("option", "value"), [("--allow-host", "a{}.example"), ("--allow-origin", "http://a{}.example")]
)
def test_allow_host_and_allow_origin_are_bounded_as_allow_target(
    script_path: Callable[[str], Path], project: Path, env: dict[str, str], option: str, value: str
) -> None:
    """``--allow-host`` and ``--allow-origin`` took any number of values (5,000 started the
    server, which then served until the timeout): at most 64 each, as ``--allow-target``
    (``MAX_TARGETS``); more is E100 and the server does not start."""
    args = [part for n in range(65) for part in (option, value.format(n))]
    done = subprocess.run(
        [str(script_path("skillc-mcp")), "--http", "127.0.0.1:0", *args],
        cwd=project, env=env, capture_output=True, text=True, timeout=30,
    )  # fmt: skip
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == (
        f"error[E100]: invalid option: '{option} holds 65 values; at most 64 are allowed'\n"
    )


def test_tokens_origin_and_body_bounds(
    start: Callable[..., HttpServer], tmp_path: Path, project: Path
) -> None:
    tokens = tmp_path / "tokens"
    tokens.write_text(f"# team\nalice:{TOKEN}\nbob:{'b' * 20}\n", encoding="utf-8")
    tokens.chmod(0o600)  # a token file others may read is warned of
    server = start("--tokens", str(tokens), "--log-requests")
    for auth in (None, "Bearer wrong-token-000000000000", f"Bearer {TOKEN}x", TOKEN):
        headers = dict(HEADERS) if auth is None else {**HEADERS, "authorization": auth}
        reply = httpx.post(server.url, headers=headers, json=INIT)
        assert reply.status_code == 401
        assert reply.headers["www-authenticate"].startswith("Bearer")
        assert TOKEN not in reply.text and "mcp-session-id" not in reply.headers
    good = {**HEADERS, "authorization": f"Bearer {TOKEN}"}
    assert httpx.post(server.url, headers=good, json=INIT).status_code == 200
    evil = httpx.post(server.url, headers={**good, "origin": "http://evil.example"}, json=INIT)
    assert evil.status_code == 403
    local = httpx.post(server.url, headers={**good, "origin": "http://localhost:3000"}, json=INIT)
    assert local.status_code == 200
    big = httpx.post(server.url, headers=good, content=b"[" * (2 << 20))
    assert big.status_code == 413
    # a session is its user's: bob cannot use alice's
    sid = httpx.post(server.url, headers=good, json=INIT).headers["mcp-session-id"]
    bob = {**HEADERS, "authorization": f"Bearer {'b' * 20}", "mcp-session-id": sid}
    ping = {"jsonrpc": "2.0", "id": 2, "method": "ping"}
    assert httpx.post(server.url, headers=bob, json=ping).status_code == 404
    # alice's read is logged under her name (run id @alice: hers in the team store)
    show = {"name": "skc_show", "arguments": {"skill": "demo", "section": "Usage"}}
    call = {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": show}
    reply = httpx.post(server.url, headers={**good, "mcp-session-id": sid}, json=call)
    assert reply.json()["result"]["isError"] is False
    # and so is her loading the skill through the Skills extension (the methods are shared)
    load = {"jsonrpc": "2.0", "id": 4, "method": "resources/read"}
    load["params"] = {"uri": "skill://demo/SKILL.md"}
    reply = httpx.post(server.url, headers={**good, "mcp-session-id": sid}, json=load)
    assert reply.json()["result"]["contents"]
    assert server.stop() == 128 + signal.SIGTERM
    logs = project / ".skillc" / "runtime" / "demo" / ".skillc-meta" / "logs.db"
    with closing(sqlite3.connect(logs)) as db, db:
        rows = db.execute("SELECT command, run_id FROM access_log").fetchall()
    assert [(command, run_id.rpartition("@")[2]) for command, run_id in rows] == [
        ("show", "alice"),
        ("activate", "alice"),
    ]
    text = "".join(server.log)
    assert TOKEN not in text and "b" * 20 not in text
    assert "alice POST initialize 200" in text


def _call(server: HttpServer, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """A stateless (2026-07-28) ``tools/call``; its result."""
    params = {"name": name, "arguments": arguments, "_meta": MODERN_META}
    call = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params}
    headers = {**HEADERS, **mirrored(call)}
    result: dict[str, Any] = httpx.post(server.url, headers=headers, json=call).json()["result"]
    return result


def test_a_stateless_clients_notification_needs_no_session(
    start: Callable[..., HttpServer],
) -> None:
    """A 2026-07-28 client's notification (``notifications/cancelled``) carries no ``_meta``;
    its ``MCP-Protocol-Version`` header says the revision. It was 400 'Mcp-Session-Id header
    required', as a legacy client's request without a session still is."""
    server = start()
    cancel = {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 7}}
    modern = {**HEADERS, "mcp-protocol-version": "2026-07-28"}
    assert httpx.post(server.url, headers=modern, json=cancel).status_code == 202
    legacy = {**HEADERS, "mcp-protocol-version": "2025-06-18"}
    assert httpx.post(server.url, headers=legacy, json=cancel).status_code == 400


def test_a_2026_request_s_headers_must_mirror_its_body(start: Callable[..., HttpServer]) -> None:
    """A 2026-07-28 request was served whatever its ``MCP-Protocol-Version``, ``Mcp-Method``
    and ``Mcp-Name`` said, or without them: a proxy allowing a tool or skill by its header
    was bypassed by a body naming another. Each is required and must match the body (the
    name decoded from ``=?base64?...?=``), else 400 -32020; a legacy request is unchanged."""
    import base64

    server = start()
    show = {"name": "skc_show", "arguments": {"skill": "demo", "section": "Usage"}}
    call = {"jsonrpc": "2.0", "id": 1, "method": "tools/call"}
    call["params"] = {**show, "_meta": MODERN_META}
    read = {"jsonrpc": "2.0", "id": 2, "method": "resources/read"}
    read["params"] = {"uri": "skill://demo/SKILL.md", "_meta": MODERN_META}
    encoded = "=?base64?" + base64.b64encode(b"skc_show").decode() + "?="
    for body, headers, code in [
        (call, mirrored(call), None),
        (call, {**mirrored(call), "mcp-name": encoded}, None),
        (read, mirrored(read), None),
        (call, {}, -32020),
        (call, {**mirrored(call), "mcp-protocol-version": "2025-11-25"}, -32020),
        (call, {k: v for k, v in mirrored(call).items() if k != "mcp-method"}, -32020),
        (call, {**mirrored(call), "mcp-method": "tools/list"}, -32020),
        (call, {k: v for k, v in mirrored(call).items() if k != "mcp-name"}, -32020),
        (call, {**mirrored(call), "mcp-name": "skc_list"}, -32020),
        (call, {**mirrored(call), "mcp-name": "=?base64?c2tjX2xpc3Q=?="}, -32020),  # skc_list
        (call, {**mirrored(call), "mcp-name": "=?base64?not base64?="}, -32020),
        (read, {**mirrored(read), "mcp-name": "skill://pdf/SKILL.md"}, -32020),
    ]:
        reply = httpx.post(server.url, headers={**HEADERS, **headers}, json=body)
        answer = reply.json()
        assert answer["id"] == body["id"]
        if code is None:
            assert reply.status_code == 200 and "result" in answer, (headers, answer)
        else:
            assert (reply.status_code, answer["error"]["code"]) == (400, code), headers
            assert "result" not in answer
    # the legacy era needs none of them
    sid = httpx.post(server.url, headers=HEADERS, json=INIT).headers["mcp-session-id"]
    legacy = {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": show}
    reply = httpx.post(server.url, headers={**HEADERS, "mcp-session-id": sid}, json=legacy)
    assert reply.status_code == 200 and reply.json()["result"]["isError"] is False
    server.stop()


def test_a_2026_request_s_protocol_errors_have_their_http_status(
    start: Callable[..., HttpServer],
) -> None:
    """The transport specification gives two 2026-07-28 errors a status (clients tell the
    eras apart by them): an unknown method is 404 with -32601, a version the server does not
    speak 400 with -32022. Both came with 200. Other errors, and a legacy session's unknown
    method, stay 200."""
    server = start()
    unknown = {"jsonrpc": "2.0", "id": 1, "method": "foo/bar", "params": {"_meta": MODERN_META}}
    newer = {**MODERN_META, "io.modelcontextprotocol/protocolVersion": "2027-01-01"}
    listing = {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {"_meta": newer}}
    tool = {"name": "skc_nope", "arguments": {}, "_meta": MODERN_META}
    no_tool = {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": tool}
    for body, headers, status, code in [
        (unknown, mirrored(unknown), 404, -32601),
        (listing, {"mcp-method": "tools/list"}, 400, -32022),
        (no_tool, mirrored(no_tool), 200, -32602),
    ]:
        reply = httpx.post(server.url, headers={**HEADERS, **headers}, json=body)
        assert (reply.status_code, reply.json()["error"]["code"]) == (status, code), body
    sid = httpx.post(server.url, headers=HEADERS, json=INIT).headers["mcp-session-id"]
    legacy = {"jsonrpc": "2.0", "id": 4, "method": "foo/bar"}
    reply = httpx.post(server.url, headers={**HEADERS, "mcp-session-id": sid}, json=legacy)
    assert (reply.status_code, reply.json()["error"]["code"]) == (200, -32601)
    server.stop()


def test_over_http_the_tools_read_unless_the_operator_allows_writes(
    start: Callable[..., HttpServer], project: Path, script_path: Callable[[str], Path]
) -> None:
    """A user of the HTTP server imported any SKILL.md folder into the operator's store and
    deployed it to the operator's agents (``skc_build`` with ``force`` replaced the
    operator's own skill), and read hidden files (``.env``, ``.git/config``) with ``hidden:
    true``. Over HTTP the writing tools need ``--allow-writes`` and ``hidden`` is refused."""
    (project / ".skillc" / "skills" / "demo" / ".env").write_text("SECRET=1\n", "utf-8")
    server = start()
    for name, arguments in [("skc_build", {"skill": "demo"}), ("skc_init", {"name": "new"})]:
        result = _call(server, name, arguments)
        assert result["isError"], result
        assert result["content"][0]["text"].startswith("error[E100]"), result
        assert "--allow-writes" in result["content"][0]["text"], result
    assert not (project / ".claude").exists()
    assert not (project / ".skillc" / "skills" / "new").exists()
    hidden = _call(server, "skc_open", {"skill": "demo", "path": ".env", "hidden": True})
    assert hidden["isError"] and "SECRET" not in hidden["content"][0]["text"], hidden
    assert not _call(server, "skc_open", {"skill": "demo", "path": "SKILL.md"})["isError"]
    server.stop()
    server = start("--allow-writes")
    assert not _call(server, "skc_build", {"skill": "demo"})["isError"]
    assert (project / ".claude" / "skills" / "demo" / "SKILL.md").is_file()
    hidden = _call(server, "skc_open", {"skill": "demo", "path": ".env", "hidden": True})
    assert hidden["isError"] and "SECRET" not in hidden["content"][0]["text"], hidden
    alone = [str(script_path("skillc-mcp")), "--allow-writes"]
    done = subprocess.run(alone, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 1 and "go with --http" in done.stderr, done.stderr


def test_a_request_log_line_cannot_be_forged(start: Callable[..., HttpServer]) -> None:
    """``--log-requests`` printed a tool name or method as it came: one holding a newline
    (or an escape sequence) made up a line of its own, a request by another user. Control
    characters are escaped: one request, one line."""
    server = start("--log-requests")
    forged = "skc_list 200 1.0 ms\nskillc-mcp: alice POST tools/call skc_open\x1b[2J"
    params = {"name": forged, "arguments": {}, "_meta": MODERN_META}
    for method, params_ in [("tools/call", params), ("ping\r\nskillc-mcp: alice POST ping", {})]:
        call = {"jsonrpc": "2.0", "id": 2, "method": method, "params": params_}
        assert "error" in httpx.post(server.url, headers=HEADERS, json=call).json()
    server.stop()
    lines = "".join(server.log).splitlines()
    assert not [line for line in lines if "alice" in line and line.startswith("skillc-mcp: alice")]
    assert not any("\x1b" in line for line in lines)
    assert any("skc_list 200 1.0 ms\\nskillc-mcp: alice" in line for line in lines), lines


def _load(server: HttpServer, clients: int, seconds: float) -> tuple[int, int, list[int]]:
    """``clients`` threads call skc_show and resources/read until ``seconds`` pass; (sent,
    answered right, the server's RSS in KiB sampled along the way)."""
    pid = server.process.pid
    counts = [0, 0]
    lock = threading.Lock()
    stop = time.monotonic() + seconds
    meta = {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
    }

    def client() -> None:
        with httpx.Client(timeout=60) as http:
            n = 0
            while time.monotonic() < stop:
                n += 1
                if n % 2:
                    params: dict[str, Any] = {
                        "name": "skc_show",
                        "arguments": {"skill": "demo", "section": "Install"},
                    }
                    body = {"jsonrpc": "2.0", "id": n, "method": "tools/call", "params": params}
                else:
                    params = {"uri": "skill://demo/SKILL.md"}
                    body = {"jsonrpc": "2.0", "id": n, "method": "resources/read", "params": params}
                body["params"]["_meta"] = meta
                headers = {**HEADERS, **mirrored(body)}
                reply = http.post(server.url, headers=headers, json=body).json()
                ok = reply.get("id") == n and "result" in reply
                with lock:
                    counts[0] += 1
                    counts[1] += ok

    rss: list[int] = []
    threads = [threading.Thread(target=client) for _ in range(clients)]
    for thread in threads:
        thread.start()
    while any(thread.is_alive() for thread in threads):
        status = Path(f"/proc/{pid}/status").read_text(encoding="utf-8")
        rss.append(int(re.search(r"VmRSS:\s+(\d+)", status).group(1)))  # type: ignore[union-attr]
        time.sleep(0.5)
    for thread in threads:
        thread.join()
    return counts[0], counts[1], rss


def _check_load(start: Callable[..., HttpServer], clients: int, seconds: float) -> None:
    server = start()
    sent, answered, rss = _load(server, clients, seconds)
    assert sent > clients and answered == sent
    middle, end = rss[len(rss) // 2], rss[-1]
    assert end < middle * 1.5 + 20_000, rss  # flat: generous bound (KiB)
    assert server.stop() == 128 + signal.SIGTERM


def test_load_loses_no_reply(start: Callable[..., HttpServer]) -> None:
    _check_load(start, clients=20, seconds=10)


@pytest.mark.long
def test_load_loses_no_reply_long(start: Callable[..., HttpServer]) -> None:
    _check_load(start, clients=50, seconds=60)


def test_origins_and_token_files() -> None:
    from skillc_index import HttpServerError
    from skillc_mcp._http_guard import Tokens, origin_allowed, parse_tokens

    extra = frozenset({"https://team.example.com"})
    for origin in ("http://localhost:3000", "https://127.0.0.1", "http://[::1]:8080"):
        assert origin_allowed(origin, frozenset())
    assert origin_allowed("https://team.example.com/", extra)
    for origin in (
        "null",
        "http://evil.example",
        "http://localhost.evil.example",
        "http://127.0.0.1.evil.example",
        "http://localhost@evil.example",
        "file://localhost",
        "http://localhost:x",
    ):
        assert not origin_allowed(origin, extra), origin
    tokens = parse_tokens(f"# comment\nalice:{TOKEN}  bob:{'b' * 16}\n", "test")
    assert list(tokens) == ["alice", "bob"]
    check = Tokens(tokens)
    assert check.user(f"Bearer {TOKEN}") == "alice"
    assert check.user(f"bearer  {'b' * 16} ") == "bob"
    for wrong in (None, "", TOKEN, f"Basic {TOKEN}", f"Bearer {TOKEN[:-1]}"):
        assert check.user(wrong) is None
    for text in ("alice", f"al ice:{TOKEN}", "alice:short", f"a:{TOKEN} a:{TOKEN}x"):
        with pytest.raises(HttpServerError) as raised:
            parse_tokens(text, "test")
        assert TOKEN not in str(raised.value.diagnostic.message)


def test_http_options_need_http() -> None:
    from skillc_mcp.cli import main

    assert main(["--tokens", "tokens.txt"]) == 1
    assert main(["--http", "nonsense"]) == 1


# -- a wrong token is refused alike ---------------------------------------------------------
#
# A wrong bearer token is refused in a time that does not depend on how much of a real token
# it matches, nor on its length: the server hashes the presented token and compares the
# digest with every token's (hmac.compare_digest). Checked statistically, not as a speed:
# many interleaved samples of each kind of wrong token, the medians compared with a tolerance
# made of their spread (the interquartile range), so a loaded machine widens the tolerance
# instead of failing the test. A control shows the same statistic does tell apart a
# comparison that stops at the first differing character.

REAL = "k" * 40 + "-real-token-of-the-team-0123456789abcdef"  # 80 characters
VARIANTS = {
    "prefix": REAL[:-1] + "X",  # all but the last character of a real token
    "nothing": "z" * len(REAL),  # same length, nothing in common
    "length": "z" * 24,  # another length
}


def _iqr(samples: Sequence[float]) -> float:
    quartiles = statistics.quantiles(samples, n=4)
    return quartiles[2] - quartiles[0]


def distinguishable(samples: dict[str, list[float]], floor: float) -> list[str]:
    """The pairs of variants whose medians differ by more than the larger interquartile
    range of the two (and ``floor``): distinguishable ones. Empty: none is faster."""
    found = []
    names = sorted(samples)
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            gap = abs(statistics.median(samples[a]) - statistics.median(samples[b]))
            spread = max(_iqr(samples[a]), _iqr(samples[b]), floor)
            if gap > spread:
                found.append(f"{a}/{b}: medians {gap:.3g} apart, spread {spread:.3g}")
    return found


def interleaved(measure: Callable[[str], float], rounds: int) -> dict[str, list[float]]:
    """``rounds`` samples of each variant, the variants in a new random order each round (a
    burst of load hits all of them alike)."""
    samples: dict[str, list[float]] = {name: [] for name in VARIANTS}
    order = list(VARIANTS)
    shuffle = random.Random(36).shuffle
    for _ in range(rounds):
        shuffle(order)
        for name in order:
            samples[name].append(measure(VARIANTS[name]))
    return samples


def told_apart(measure: Callable[[str], float], rounds: int) -> list[str]:
    """The variants :func:`distinguishable` in each of three sittings of ``rounds``, or []
    at the first sitting that tells none apart: a burst of load over part of one sitting
    told two wrong tokens apart by 5 ns a call (three workers on two cores), while a leak
    the statistic sees (the control's) shows in every sitting."""
    found: list[str] = []
    for _ in range(3):
        found = distinguishable(interleaved(measure, rounds), floor=0.0)
        if not found:
            return []
    return found


#: Calls per sample of the control: long enough that ``_naive``'s leak (80 character
#: comparisons of some cost against one) stands far above a loaded machine's preemptions, so
#: the control tells it apart on a busy CI runner too.
BATCH = 1000


def _batch(check: Callable[[str], object], calls: int) -> Callable[[str], float]:
    def measure(token: str) -> float:
        header = f"Bearer {token}"
        start = time.perf_counter_ns()
        for _ in range(calls):
            check(header)
        return float(time.perf_counter_ns() - start)

    return measure


def _naive(header: str) -> bool:
    """A comparison that leaks: it stops at the first character that differs."""
    presented = header[7:]
    if len(presented) != len(REAL):
        return False
    index = 0
    while index < len(REAL):
        if presented[index] != REAL[index]:
            return False
        sum(range(20))  # a comparison of some cost per character, as a slower leak would have
        index += 1
    return True


def test_the_token_check_takes_the_same_time_for_every_wrong_token() -> None:
    tokens = Tokens({"alice": REAL.encode(), "bob": ("b" * 30).encode()})
    assert tokens.user(f"Bearer {REAL}") == "alice"
    assert all(tokens.user(f"Bearer {token}") is None for token in VARIANTS.values())
    assert told_apart(_batch(tokens.user, 200), 200) == []


def test_the_statistic_tells_a_leaking_comparison_apart() -> None:
    # The control shows the statistic has the power to see a leak. A burst of load over a
    # quarter of one sitting's samples widens their spread past the leak (seen on a shared
    # 2-core machine in a full suite), so it gets three sittings; a statistic that cannot
    # see the leak fails all three.
    found: list[str] = []
    for _ in range(3):
        found = distinguishable(interleaved(_batch(_naive, BATCH), 60), floor=0.0)
        if any(pair.startswith("nothing/prefix") for pair in found):
            return
    raise AssertionError(found)


def test_over_http_a_wrong_token_is_refused_alike(
    start: Callable[..., HttpServer], tmp_path: Path
) -> None:
    tokens = tmp_path / "tokens"
    tokens.write_text(f"alice:{REAL}\n", encoding="utf-8")
    tokens.chmod(0o600)  # a token file others may read is warned of
    server = start("--tokens", str(tokens))
    url = server.url
    body = b'{"jsonrpc":"2.0","id":1,"method":"ping"}'
    with httpx.Client() as client:
        headers = {"content-type": "application/json", "accept": "application/json"}

        def measure(token: str) -> float:
            begin = time.perf_counter_ns()
            reply = client.post(
                url, content=body, headers={**headers, "authorization": f"Bearer {token}"}
            )
            elapsed = float(time.perf_counter_ns() - begin)
            assert reply.status_code == 401
            return elapsed

        for token in VARIANTS.values():  # warm the connection and the server's paths
            measure(token)
        assert told_apart(measure, 200) == []


def test_an_allowed_ipv6_host_with_a_port_starts_and_matches(
    start: Callable[..., HttpServer],
) -> None:
    """``--allow-host [2001:db8::1]:8765`` was normalised twice (by ``serve_http``, then by
    ``App``): the second pass read ``2001:db8::1`` as a name with the port ``db8::1`` and the
    server did not start (E061). Normalised once, it starts and lets that ``Host`` in."""
    import httpx

    server = start("--allow-host", "[2001:db8::1]:8765")
    body = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
    headers = {"Host": "[2001:db8::1]:8765", "Accept": "application/json, text/event-stream"}
    assert httpx.post(server.url, json=body, headers=headers).status_code != 421
    headers["Host"] = "[2001:db8::2]:8765"
    assert httpx.post(server.url, json=body, headers=headers).status_code == 421


_POST_AS_CLIENT = """\
import json, socket, sys
host, port = sys.argv[1].rsplit(":", 1)
body = sys.argv[2].encode()
head = (f"{sys.argv[4]} /mcp HTTP/1.1\\r\\nHost: {sys.argv[1]}\\r\\n"
        "Content-Type: application/json\\r\\n"
        "Accept: application/json, text/event-stream\\r\\n" + sys.argv[3] +
        f"Content-Length: {len(body)}\\r\\nConnection: close\\r\\n\\r\\n")
s = socket.create_connection((host, int(port)), timeout=30)
s.sendall(head.encode() + body)
data = b""
while chunk := s.recv(65536):
    data += chunk
head, _, body = data.partition(b"\\r\\n\\r\\n")
status = head.split(b"\\r\\n", 1)[0].split()[1].decode()
print(json.dumps([int(status), body.decode(), head.decode("latin-1")]))
"""


def _post_as(
    uid: int,
    server: HttpServer,
    body: dict[str, Any],
    auth: str = "",
    *,
    origin: str = "",
    method: str = "POST",
) -> Any:
    """``body`` POSTed (or sent by ``method``) to ``server`` by a process of user ``uid``
    (the system's python3, one that user can run), from a page of ``origin`` when given (a
    preflight: ``method`` ``OPTIONS``); (status, body text, the response's head)."""
    import shutil

    python = shutil.which("python3", path="/usr/bin:/bin")
    if python is None:
        pytest.skip("no system python3")
    header = f"Authorization: Bearer {auth}\r\n" if auth else ""
    if origin:
        header += f"Origin: {origin}\r\n"
    if method == "OPTIONS":
        header += "Access-Control-Request-Method: POST\r\n"
    address = server.url.removeprefix("http://").removesuffix("/mcp")
    done = subprocess.run(
        [python, "-c", _POST_AS_CLIENT, address, json.dumps(body), header, method],
        user=uid,
        capture_output=True,
        text=True,
        env={"PATH": os.environ.get("PATH", "")},
        cwd="/",
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.skipif(
    not sys.platform.startswith("linux") or os.geteuid() != 0,
    reason="connecting as another user needs root (and Linux's /proc/net/tcp)",
)
def test_without_tokens_only_the_server_s_own_user_is_served(
    start: Callable[..., HttpServer], tmp_path: Path
) -> None:
    """A loopback server without tokens answered every local user: another uid listed the
    operator's skills, read them and their usage (logged as the operator's). Now a
    connection whose peer socket (``/proc/net/tcp``) is another user's is 403 with a JSON
    error saying why; near misses: the server's own user is served, and with tokens the other
    user is served on a token (and refused without one, 401, as anyone)."""
    server = start("--log-requests")
    status, text, _ = _post_as(65534, server, INIT)
    assert status == 403
    error = json.loads(text)["error"]
    assert error.startswith("forbidden: refused a connection from user 65534: without tokens")
    assert f"only its own user ({os.getuid()})" in error and "--tokens FILE" in error
    listing = {"jsonrpc": "2.0", "id": 2, "method": "tools/call"}
    listing["params"] = {"name": "skc_list", "arguments": {}, "_meta": MODERN_META}
    assert _post_as(65534, server, listing)[0] == 403  # stateless: refused as well
    assert httpx.post(server.url, headers=HEADERS, json=INIT).status_code == 200  # ours
    assert server.stop() == 128 + signal.SIGTERM
    assert "- POST - 403" in "".join(server.log)
    tokens = tmp_path / "tokens"
    tokens.write_text(f"nobody:{TOKEN}\n", encoding="utf-8")
    tokens.chmod(0o600)  # a token file others may read is warned of
    server = start("--tokens", str(tokens))
    assert _post_as(65534, server, INIT, auth=TOKEN)[0] == 200
    assert _post_as(65534, server, INIT)[0] == 401


@pytest.mark.skipif(
    not sys.platform.startswith("linux") or os.geteuid() != 0,
    reason="connecting as another user needs root (and Linux's /proc/net/tcp)",
)
def test_another_user_s_refusal_grants_no_origin(start: Callable[..., HttpServer]) -> None:
    """Without tokens, the 403 refusing another local user's request (a POST, a preflight)
    from a page of an ``--allow-origin`` origin said ``Access-Control-Allow-Origin``: it told
    that user's page its origin is allowed, and let it read the refusal. A refusal before the
    peer is accepted carries no CORS header; near miss: the server's own user's answers from
    that page carry them."""
    page = "https://app.example.com"
    server = start("--allow-origin", page)
    for method in ("POST", "OPTIONS"):
        status, text, head = _post_as(65534, server, INIT, origin=page, method=method)
        assert status == 403 and "refused a connection from user 65534" in text, method
        assert "access-control-" not in head.lower(), head
    own = httpx.post(server.url, headers={**HEADERS, "origin": page}, json=INIT)
    assert own.status_code == 200 and own.headers["access-control-allow-origin"] == page
    asked = {"origin": page, "access-control-request-method": "POST"}
    preflight = httpx.options(server.url, headers=asked)
    assert preflight.status_code == 204
    assert preflight.headers["access-control-allow-origin"] == page


def test_another_user_s_cors_preflight_is_refused_before_it_is_answered() -> None:
    """Without tokens, another local user's CORS preflight (``OPTIONS`` from an
    ``--allow-origin`` page) was answered 204 with the CORS headers: the preflight came before
    the peer's user was checked. It is refused 403 as that user's other requests are; near
    misses: the server's own user's preflight is answered, and with tokens any user's is (a
    browser sends no token on it)."""
    from skillc_mcp._http_guard import PEER_UID, Gate

    page = "https://app.example.com"
    headers = {"host": "localhost", "origin": page, "access-control-request-method": "POST"}
    other = os.getuid() + 1

    def answer(tokens: dict[str, bytes], uid: int) -> int | None:
        gate = Gate(tokens, [page], [], loopback=True)
        scope = {"method": "OPTIONS", "state": {PEER_UID: uid}}
        refused = gate.refuse(scope, headers) or gate.admit(scope, headers)[1]
        return None if refused is None else refused[0]

    assert answer({}, other) == 403
    assert answer({}, os.getuid()) == 204
    assert answer({"alice": TOKEN.encode()}, other) == 204
