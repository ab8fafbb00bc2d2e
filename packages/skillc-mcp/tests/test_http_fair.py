"""``skc mcp --http``'s fairness between its clients (found by an adversarial sweep; each test
failed before its fix): one peer holds a share of the connections, one token holder a share
of the request places and of the event streams; and a browser page of an ``--allow-origin``
gets its CORS answers. The connections' tests run the real server process on real sockets."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, MutableMapping
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from skillc_mcp._http import App
from skillc_mcp._http_guard import Shares
from skillc_mcp_testing import MODERN_META, HttpServer, mirrored

httpx = pytest.importorskip("httpx")
pytest.importorskip("uvicorn", reason="the http extra (tox.ini's mcp env installs it)")

ALICE, BOB = "alice-token-0123456789abcdef", "bob-token-0123456789abcdefgh"
HEADERS = {"content-type": "application/json", "accept": "application/json, text/event-stream"}
INIT = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-11-25", "capabilities": {}},
}
DESCRIPTORS = 256
"""The server's file descriptors in the connections' tests: 64 connections (a quarter), 8 of
one peer (an eighth of those)."""
HELD = 70
"""Connections a greedy peer opens: more than the server's 64."""
on_linux = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="127.0.0.2 is a loopback address on Linux"
)


@pytest.fixture
def few_descriptors(script_path: Callable[[str], Path]) -> list[str]:
    """``skillc-mcp`` started with :data:`DESCRIPTORS` file descriptors (``ulimit -n``)."""
    code = (
        "import os, resource, sys; hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]; "
        f"resource.setrlimit(resource.RLIMIT_NOFILE, ({DESCRIPTORS}, hard)); "
        "os.execv(sys.argv[1], sys.argv[1:])"
    )
    return [sys.executable, "-c", code, str(script_path("skillc-mcp"))]


def _address(server: HttpServer) -> tuple[str, int]:
    parts = urlsplit(server.url)
    assert parts.hostname is not None and parts.port is not None
    return parts.hostname, parts.port


def _hold(server: HttpServer, count: int, source: str = "127.0.0.1") -> list[socket.socket]:
    """``count`` connections from ``source``, each sending part of a request head."""
    held = []
    for _ in range(count):
        connection = socket.create_connection(
            _address(server), timeout=10, source_address=(source, 0)
        )
        connection.sendall(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        held.append(connection)
    return held


def _open(connections: list[socket.socket]) -> int:
    """How many of ``connections`` the server has not closed (within 2 s of the last one
    opening; its head deadline is 10 s)."""
    deadline = time.monotonic() + 2
    still = 0
    for connection in connections:
        connection.settimeout(max(0.01, deadline - time.monotonic()))
        try:
            still += connection.recv(1) != b""
        except TimeoutError:
            still += 1
        except OSError:
            pass
    return still


def _initialize(server: HttpServer, source: str, token: str | None = None) -> int:
    headers = dict(HEADERS)
    if token is not None:
        headers["authorization"] = f"Bearer {token}"
    transport = httpx.HTTPTransport(local_address=source)
    with httpx.Client(transport=transport, timeout=10) as client:
        return client.post(server.url, headers=headers, json=INIT).status_code


@on_linux
def test_one_address_holds_an_eighth_of_the_connections(
    start: Callable[..., HttpServer], few_descriptors: list[str], tmp_path: Path
) -> None:
    """600 connections from one address, each sending part of a request head (no token
    needed) and reopened as the head deadline closed it, held all 512 places: a token
    holder's ``initialize`` went through 1 in 55. One address holds an eighth of them now,
    and every loopback address is that one peer: a process spread over 127.0.0.1 to .8 held
    all 64 places (8 each). The greedy one is served once it lets go."""
    tokens = tmp_path / "tokens"
    tokens.write_text(f"alice:{ALICE}\n", encoding="utf-8")
    tokens.chmod(0o600)
    server = start("--tokens", str(tokens), script=few_descriptors)
    held = _hold(server, HELD)
    try:
        assert _open(held) == DESCRIPTORS // 4 // 8
        spread = [c for n in range(2, 5) for c in _hold(server, 10, source=f"127.0.0.{n}")]
        held += spread
        assert _open(spread) == 0
    finally:
        for connection in held:
            connection.close()
    time.sleep(0.5)
    spread = [c for n in range(1, 5) for c in _hold(server, 10, source=f"127.0.0.{n}")]
    try:
        assert _open(spread) == DESCRIPTORS // 4 // 8
    finally:
        for connection in spread:
            connection.close()
    time.sleep(0.5)
    assert _initialize(server, "127.0.0.2", ALICE) == 200


def test_a_peer_is_its_user_else_its_address_every_loopback_one_alike() -> None:
    """Where the user at the other end is known, the peer is that user, whatever its
    address; else every loopback address (IPv4, IPv6, IPv4-mapped) is one peer, and any
    other address its own (an IPv6 one's /64)."""
    pytest.importorskip("uvicorn")
    from skillc_mcp._http_conn import peer_of

    loopback = {
        peer_of((host, 5000), None)
        for host in ("127.0.0.1", "127.0.0.2", "127.255.0.9", "::1", "::ffff:127.0.0.3")
    }
    assert len(loopback) == 1
    assert peer_of(("127.0.0.2", 1), 1000) == peer_of(("127.0.0.1", 2), 1000)
    assert peer_of(("127.0.0.2", 1), 1000) != peer_of(("127.0.0.1", 2), 1001)
    assert peer_of(("10.0.0.1", 1), None) not in loopback | {peer_of(("10.0.0.2", 1), None)}
    assert peer_of(("2001:db8::1", 1), None) == peer_of(("2001:db8::2", 1), None)
    assert peer_of(None, None) is None


def test_each_server_has_its_own_shares() -> None:
    """The connections' shares were a class attribute: two servers in one process counted
    each other's connections. Each configuration has its own."""
    pytest.importorskip("uvicorn")
    from skillc_mcp._http_conn import uvicorn_config

    one, two = uvicorn_config(object()), uvicorn_config(object(), peers=True)
    assert one.http.shares is not two.http.shares
    assert (one.http.peers, two.http.peers) == (False, True)


@on_linux
def test_without_tokens_a_share_is_the_peer_s_user_s(
    start: Callable[..., HttpServer], few_descriptors: list[str]
) -> None:
    """Without tokens the server tells the user at the other end of each connection: the
    share is that user's, whatever address it connects from (127.0.0.2 is no way around
    it)."""
    server = start(script=few_descriptors)
    share = DESCRIPTORS // 4 // 8
    held = _hold(server, share)
    try:
        assert _open(held) == share
        held += _hold(server, 1, source="127.0.0.2")
        assert _open(held[-1:]) == 0
    finally:
        for connection in held:
            connection.close()
    time.sleep(0.5)
    assert _initialize(server, "127.0.0.2") == 200


@pytest.mark.skipif(
    not sys.platform.startswith("linux") or os.geteuid() != 0,
    reason="connecting as another user needs root (and Linux's /proc/net/tcp)",
)
def test_another_local_user_cannot_take_every_connection(
    start: Callable[..., HttpServer], few_descriptors: list[str]
) -> None:
    """Without tokens, another local user (refused 403 once a request comes) held every
    connection by opening 600 and sending nothing: the server's own user could not connect.
    That user holds its share; the server's own user is served meanwhile."""
    server = start(script=few_descriptors)
    host, port = _address(server)
    code = (
        "import socket, sys\n"
        f"held = [socket.create_connection(({host!r}, {port})) for _ in range({HELD})]\n"
        "print('held', flush=True)\n"
        "sys.stdin.read()\n"
    )
    python = shutil.which("python3", path="/usr/bin:/bin")  # one that user can run
    if python is None:
        pytest.skip("no system python3")
    other = subprocess.Popen(
        [python, "-c", code],
        user=65534,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env={"PATH": os.environ.get("PATH", "")},
        cwd="/",
    )
    try:
        assert other.stdout is not None and other.stdout.readline() == "held\n"
        time.sleep(1)  # the server has seen them all
        assert _initialize(server, "127.0.0.1") == 200
    finally:
        other.kill()
        other.communicate()


# -- a user's share of the request places and of the event streams (in process) ----------

Message = MutableMapping[str, Any]


class Call:
    """One request to the application; its body comes when :attr:`body` is set, its client
    goes when :attr:`gone` is."""

    def __init__(self, token: str, message: dict[str, Any], accept: str = "") -> None:
        self.message = message
        self.headers = {
            "host": "localhost",
            "authorization": f"Bearer {token}",
            **HEADERS,
            **mirrored(message),
        }
        if accept:
            self.headers["accept"] = accept
        self.body = asyncio.Event()
        self.delivered = False
        self.gone = asyncio.Event()
        self.sent: list[Message] = []
        self.started = asyncio.Event()

    async def receive(self) -> Message:
        if not self.delivered:
            await self.body.wait()
            self.delivered = True
            return {"type": "http.request", "body": json.dumps(self.message).encode()}
        await self.gone.wait()
        return {"type": "http.disconnect"}

    async def send(self, message: Message) -> None:
        self.sent.append(message)
        self.started.set()

    def run(self, app: App) -> asyncio.Future[None]:
        scope = {
            "type": "http",
            "method": "POST",
            "path": "/mcp",
            "headers": [(k.encode(), v.encode()) for k, v in self.headers.items()],
        }
        return asyncio.ensure_future(app(scope, self.receive, self.send))

    @property
    def status(self) -> int:
        return int(self.sent[0]["status"])


LIST = {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {"_meta": MODERN_META}}
LISTEN = {
    "jsonrpc": "2.0",
    "id": 3,
    "method": "subscriptions/listen",
    "params": {"_meta": MODERN_META, "notifications": {"resourcesListChanged": True}},
}


@pytest.fixture
def team(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[App]:
    """A server of two token holders, alice and bob: 1 running request and 5 waiting, 2 of
    one user's."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("SKILLC_HOME", str(tmp_path / "home"))
    made = App(
        tokens={"alice": ALICE.encode(), "bob": BOB.encode()},
        workers=1,
        max_waiting=5,
        max_user_requests=2,
    )
    yield made
    made.close()


def test_one_token_holder_cannot_take_every_request_place(team: App) -> None:
    """70 POSTs of one token holder whose body came a byte every 2 s held the 4 + 64
    places: every other user's request was 503. A user holds at most its share of them
    (503 beyond, with ``Retry-After``); another user is served meanwhile, and the first
    is again once its requests end."""

    async def main() -> None:
        slow = [Call(ALICE, LIST) for _ in range(6)]
        running = [call.run(team) for call in slow]
        await asyncio.wait(running, timeout=1)
        refused = [call for call in slow if call.sent]
        assert len(refused) == 4 and {call.status for call in refused} == {503}
        assert all(dict(c.sent[0]["headers"])[b"retry-after"] == b"1" for c in refused)
        bob = Call(BOB, LIST)
        bob.body.set()
        await asyncio.wait_for(bob.run(team), 30)
        assert bob.status == 200
        for call in slow:
            call.body.set()
        await asyncio.wait_for(asyncio.gather(*running), 30)
        again = Call(ALICE, LIST)
        again.body.set()
        await asyncio.wait_for(again.run(team), 30)
        assert again.status == 200

    asyncio.run(main())


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="streams watch with inotify")
def test_one_token_holder_cannot_take_every_event_stream(team: App) -> None:
    """256 ``subscriptions/listen`` streams of one token holder filled the stream places:
    another user's listen was 503. A user holds at most its share of them; another user's
    opens meanwhile, and the first user's once one of its own has ended."""
    team._hub.shares = Shares(2, 3)  # of 3 streams, 2 of one user

    async def listen(token: str) -> Call:
        call = Call(token, LISTEN, accept="text/event-stream")
        call.body.set()
        call.future = call.run(team)  # type: ignore[attr-defined]
        await asyncio.wait_for(call.started.wait(), 30)
        return call

    async def main() -> None:
        alices = [await listen(ALICE) for _ in range(3)]
        assert [call.status for call in alices] == [200, 200, 503]
        bob = await listen(BOB)
        assert bob.status == 200
        alices[0].gone.set()
        await asyncio.wait_for(alices[0].future, 30)  # type: ignore[attr-defined]
        again = await listen(ALICE)
        assert again.status == 200
        for call in (alices[1], bob, again):
            call.gone.set()
            await asyncio.wait_for(call.future, 30)  # type: ignore[attr-defined]
        assert team._hub.shares.taken == 0 and not team._hub.streams

    asyncio.run(main())


# -- browsers -----------------------------------------------------------------------------

PAGE = "https://app.example.com"


def test_a_page_of_an_allowed_origin_gets_its_cors_answers(
    start: Callable[..., HttpServer], tmp_path: Path
) -> None:
    """``--allow-origin`` could not serve a browser: its preflight (``OPTIONS``) was 405 and
    no response said ``Access-Control-Allow-Origin``, so the page could read none (nor its
    ``Mcp-Session-Id``). The preflight of an allowed origin is answered (before the token:
    a browser sends none on it), and its responses carry the CORS headers, a 401 too. Near
    misses: a refused origin stays 403 without them, a refused ``Host`` is 421 without them
    (an allowed page's too), a loopback origin (allowed, not given) gets none, and an
    ``OPTIONS`` that is no preflight is refused as before."""
    tokens = tmp_path / "tokens"
    tokens.write_text(f"alice:{ALICE}\n", encoding="utf-8")
    tokens.chmod(0o600)
    server = start("--tokens", str(tokens), "--allow-origin", PAGE)
    asked = {"origin": PAGE, "access-control-request-method": "POST"}
    asked["access-control-request-headers"] = "authorization, content-type, mcp-session-id"
    preflight = httpx.options(server.url, headers=asked)
    assert preflight.status_code == 204
    assert preflight.headers["access-control-allow-origin"] == PAGE
    assert preflight.headers["access-control-allow-methods"] == "POST, GET, DELETE"
    allowed = {
        h.strip().lower() for h in preflight.headers["access-control-allow-headers"].split(",")
    }
    wanted = "content-type authorization mcp-session-id mcp-protocol-version last-event-id accept"
    assert set(wanted.split()) | {"mcp-method", "mcp-name"} <= allowed
    auth = {"authorization": f"Bearer {ALICE}"}
    made = httpx.post(server.url, headers={**HEADERS, **auth, "origin": PAGE}, json=INIT)
    assert made.status_code == 200 and made.headers["mcp-session-id"]
    assert made.headers["access-control-allow-origin"] == PAGE
    assert made.headers["access-control-expose-headers"].lower() == "mcp-session-id"
    unauthorized = httpx.post(server.url, headers={**HEADERS, "origin": PAGE}, json=INIT)
    assert unauthorized.status_code == 401
    assert unauthorized.headers["access-control-allow-origin"] == PAGE
    evil = httpx.options(server.url, headers={**asked, "origin": "https://evil.example.com"})
    assert evil.status_code == 403 and "access-control-allow-origin" not in evil.headers
    # refused before its sender is accepted (its Host): no CORS header, the allowed page's too
    rebound = httpx.post(server.url, headers={**HEADERS, **auth, "origin": PAGE, "host": "evil"})
    assert rebound.status_code == 421
    assert not [name for name in rebound.headers if name.startswith("access-control-")]
    local = {**HEADERS, **auth, "origin": "http://localhost:3000"}
    assert (
        "access-control-allow-origin"
        not in httpx.post(server.url, headers=local, json=INIT).headers
    )
    plain = httpx.options(server.url, headers={"origin": PAGE, **auth})
    assert plain.status_code == 405 and "access-control-allow-methods" not in plain.headers


# -- a reverse proxy in front of the server (--proxy) -------------------------------------


def test_a_proxy_is_an_address_or_a_network() -> None:
    """``--proxy`` takes an address or a network (an IPv4-mapped one as IPv4); its
    connections are told by their remote address, whatever its form."""
    pytest.importorskip("uvicorn")
    from skillc_mcp._http_conn import from_proxy, proxy_networks

    proxies = proxy_networks(["127.0.0.1", "10.1.0.0/16", "::ffff:192.168.7.0/120"])
    assert from_proxy(("127.0.0.1", 5000), proxies)
    assert from_proxy(("::ffff:127.0.0.1", 5000), proxies)
    assert from_proxy(("10.1.200.3", 1), proxies)
    assert from_proxy(("192.168.7.9", 1), proxies)
    assert not from_proxy(("127.0.0.2", 5000), proxies)
    assert not from_proxy(("10.2.0.1", 1), proxies)
    assert not from_proxy(None, proxies)
    assert not from_proxy(("127.0.0.1", 5000), ())


@pytest.mark.parametrize(
    ("value", "stderr"),
    [
        ("proxy.example", "--proxy proxy.example is not an IP address or network\n"
         "hint: give the address the proxy connects from, e.g. --proxy 127.0.0.1\n"),
        ("10.0.0.1,10.0.0.2", "--proxy 10.0.0.1,10.0.0.2 is not an IP address or network\n"
         "hint: give one address an option, repeated: --proxy 10.0.0.1 --proxy 10.0.0.2\n"),
        ("a\nb", "--proxy $'a\\x0ab' is not an IP address or network\n"
         "hint: give the address the proxy connects from, e.g. --proxy 127.0.0.1\n"),
        # a network written with host bits (a typo of /0 widened to every address)
        ("10.0.0.5/8", "--proxy 10.0.0.5/8 is an address with a prefix, not a network\n"
         "hint: give the proxy's address, or its network: --proxy 10.0.0.0/8\n"),
        ("10.0.0.5/0", "--proxy 10.0.0.5/0 is an address with a prefix, not a network\n"
         "hint: give the proxy's address, or its network: --proxy 0.0.0.0/0\n"),
        # every client out of its share
        ("0.0.0.0/0", "--proxy 0.0.0.0/0 takes in 0.0.0.0/0 (4,294,967,296 addresses): every "
         "client there would hold no share of the connections\n"
         "hint: give the proxy's address, or a network of /8 or narrower\n"),
        ("::ffff:0:0/96", "--proxy ::ffff:0:0/96 takes in 0.0.0.0/0 (4,294,967,296 addresses): "
         "every client there would hold no share of the connections\n"
         "hint: give the proxy's address, or a network of /8 or narrower\n"),
        ("2001:db8::/16", "--proxy 2001:db8::/16 is an address with a prefix, not a network\n"
         "hint: give the proxy's address, or its network: --proxy 2001::/16\n"),
        ("::/0", "--proxy ::/0 takes in ::/0 (340,282,366,920,938,463,463,374,607,431,768,211,456 "
         "addresses): every client there would hold no share of the connections\n"
         "hint: give the proxy's address, or a network of /32 or narrower\n"),
    ],
)  # fmt: skip
def test_a_proxy_that_is_no_address_is_e061(
    script_path: Callable[[str], Path], project: Path, env: dict[str, str], value: str, stderr: str
) -> None:
    """A ``--proxy`` value that is no address or network is E061 before the server starts
    (quoted as a shell word); without ``--http`` the option is E100."""
    skillc_mcp = str(script_path("skillc-mcp"))
    done = subprocess.run(
        [skillc_mcp, "--http", "127.0.0.1:0", "--proxy", value],
        cwd=project, env=env, capture_output=True, text=True, timeout=30,
    )  # fmt: skip
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == f"error[E061]: MCP HTTP server: {stderr}"
    done = subprocess.run(
        [skillc_mcp, "--proxy", "127.0.0.1"],
        cwd=project, env=env, capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr.startswith("error[E100]: invalid option: ")
    assert "--proxy and --allow-writes go with --http" in done.stderr


def test_a_proxy_without_tokens_is_e061(
    script_path: Callable[[str], Path], project: Path, env: dict[str, str]
) -> None:
    """Without tokens a server answers only its own user, whose connections hold that user's
    share: ``--proxy`` there took every local user's connections out of their share (another
    user's 70 partial heads held all 64 places). It goes with tokens."""
    done = subprocess.run(
        [str(script_path("skillc-mcp")), "--http", "127.0.0.1:0", "--proxy", "127.0.0.1"],
        cwd=project, env={**env, "SKILLC_MCP_TOKENS": ""}, capture_output=True, text=True,
        timeout=30,
    )  # fmt: skip
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr.startswith(
        "error[E061]: MCP HTTP server: --proxy goes with tokens: without them only this "
        "server's user is answered"
    )


@on_linux
def test_a_proxy_s_connections_hold_no_peer_s_share(
    start: Callable[..., HttpServer], few_descriptors: list[str], tmp_path: Path
) -> None:
    """Behind a reverse proxy every client connects from the proxy's address, so the whole
    team held one peer's 8 of the 64 places. A ``--proxy`` address's connections take
    places of the total only; another address (127.0.0.2, the other loopback addresses'
    one peer) keeps its share, and the total still bounds the proxy."""
    tokens = tmp_path / "tokens"
    tokens.write_text(f"alice:{ALICE}\n", encoding="utf-8")
    tokens.chmod(0o600)
    server = start("--tokens", str(tokens), "--proxy", "127.0.0.1", script=few_descriptors)
    assert "(1 token(s), behind the proxy 127.0.0.1/32) in " in server.log[0]
    share, total = DESCRIPTORS // 4 // 8, DESCRIPTORS // 4
    proxied = _hold(server, 3 * share)
    others = _hold(server, share + 2, source="127.0.0.2")
    try:
        assert _open(proxied) == 3 * share
        assert _open(others) == share
        more = _hold(server, total)
        proxied += more
        assert _open(more) == total - 3 * share - share
    finally:
        for connection in proxied + others:
            connection.close()
    time.sleep(0.5)
    assert _initialize(server, "127.0.0.1", ALICE) == 200
