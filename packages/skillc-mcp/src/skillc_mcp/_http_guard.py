"""Who may talk to the HTTP transport (:mod:`skillc_mcp._http`): the address it binds, the
bearer tokens, the ``Origin`` and ``Host`` headers it accepts.

- The address is loopback by default; any other address needs tokens (E061 otherwise).
- Tokens: the SHA-256 of the presented token is compared with that of every token
  (:func:`hmac.compare_digest`, all of them, whatever matches), so the time taken does not
  depend on which token matched or how much of one. No token is ever logged or sent back.
- Origin: a request with an ``Origin`` header that is not a loopback origin or one given with
  ``--allow-origin`` is refused (DNS rebinding). Requests without one (clients that are not
  browsers) are let through, to the token check.
- The peer's user: without tokens (a loopback server), a connection is answered only when
  the process at its other end is of this server's user (:func:`peer_refusal`: its socket's
  owner in the kernel's table of TCP sockets, as the find server checks its Unix socket's
  peers), else 403; where that user cannot be told (not Linux, no ``/proc``) every
  connection is answered.
- Host: on a loopback address, a request whose ``Host`` is not a loopback name (or one given
  with ``--allow-host``) is refused, so a page whose name was rebound to 127.0.0.1 cannot
  reach the server even from a browser that sends no ``Origin``. On any other address the
  ``Host`` is checked only when ``--allow-host`` names the accepted ones (behind a reverse
  proxy the name is the proxy's).
- Browsers: a request from an origin given with ``--allow-origin`` (not a loopback one) gets
  the CORS headers (not on a refusal of its ``Host`` or of the peer's user: another local
  user's page is not told that its origin is allowed), and its preflight (``OPTIONS``) is
  answered before the token check (:func:`preflight`: a browser sends no ``Authorization``
  on it), after the peer's user's (another local user's preflight is refused 403, as its
  other requests are).
- :class:`Gate` makes these checks of each request, in order.
- Shares (:class:`Shares`): one peer holds at most a share of the connections, one user
  (token) a share of the request places and of the event streams.
- Request headers: a 2026-07-28 request must mirror its version, method and name in
  ``MCP-Protocol-Version``, ``Mcp-Method`` and ``Mcp-Name``, each equal to the body's
  (:func:`header_refusal`), so a proxy that routes or allows by a header cannot be
  bypassed by a body that says otherwise.

Standard library only (and :func:`skillc_gateway.find_socket.tcp_peer_uid`, to tell who
connected).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import ipaddress
import os
import sys
from collections.abc import Iterable, Mapping
from typing import Any

from skillc_mcp._protocol import (
    HEADER_MISMATCH,
    MODERN_VERSIONS,
    SUPPORTED_VERSIONS,
    UNSUPPORTED_PROTOCOL_VERSION,
    VERSION_KEY,
    ProtocolError,
)

MAX_TOKENS_FILE = 64 * 1024
"""The largest token file (or ``$SKILLC_MCP_TOKENS``) read, in bytes."""
MIN_TOKEN_CHARS = 16
MAX_TOKEN_CHARS = 512
TOKENS_ENV = "SKILLC_MCP_TOKENS"
_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._@-")


def problem(message: str, hint: str = "") -> Exception:
    from skillc_index import HttpServerError

    return HttpServerError(message, hint)


# -- the address --------------------------------------------------------------------------


def parse_address(text: str) -> tuple[str, int]:
    """``(host, port)`` of ``HOST:PORT`` (``[::1]:8000`` for IPv6); E061 when malformed."""
    host, colon, port = text.rpartition(":")
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    if not colon or not host or not port.isdigit() or int(port) > 65535:
        raise problem(f"--http takes HOST:PORT, such as 127.0.0.1:8765 (got {text!r})")
    return host, int(port)


def is_loopback(host: str) -> bool:
    """Whether every address ``host`` names is a loopback address."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        pass
    import socket

    try:
        infos = socket.getaddrinfo(host, None)
    except OSError:
        return False
    return bool(infos) and all(ipaddress.ip_address(i[4][0]).is_loopback for i in infos)


# -- tokens -------------------------------------------------------------------------------


def parse_tokens(text: str, source: str) -> dict[str, bytes]:
    """``name -> token`` of ``name:token`` entries (one per line or separated by white
    space; ``#`` starts a comment line). E061 names the entry by its number, never its token."""
    tokens: dict[str, bytes] = {}
    entries = (
        word
        for line in text.splitlines()
        if not line.lstrip().startswith("#")
        for word in line.split()
    )
    for number, entry in enumerate(entries, 1):
        name, colon, token = entry.partition(":")
        where = f"{source}, entry {number}"
        if not colon or not name or len(name) > 64 or not set(name) <= _NAME_CHARS:
            raise problem(f"{where}: expected name:token (a name of letters, digits, ._@-)")
        if not MIN_TOKEN_CHARS <= len(token) <= MAX_TOKEN_CHARS or not token.isascii():
            raise problem(
                f"{where}: the token of '{name}' must be {MIN_TOKEN_CHARS} to "
                f"{MAX_TOKEN_CHARS} ASCII characters"
            )
        if name in tokens:
            raise problem(f"{where}: '{name}' is given twice")
        tokens[name] = token.encode("ascii")
    return tokens


def load_tokens(path: str | None, env: Mapping[str, str] | None = None) -> dict[str, bytes]:
    """The tokens of ``path`` (``--tokens``), else of ``$SKILLC_MCP_TOKENS``, else none; a
    token file that group or others may write is E061 (anyone could add a token); one they
    may read is taken with a warning on stderr (``chmod 600``: Kubernetes' secret volumes
    are 0644 by default, Docker's secrets 0444, and a refusal stopped such servers)."""
    env = os.environ if env is None else env
    if path is not None:
        try:
            with open(path, "rb") as file:
                mode = os.fstat(file.fileno()).st_mode
                data = file.read(MAX_TOKENS_FILE + 1)
        except OSError as exc:
            raise problem(f"cannot read the token file '{path}': {exc.strerror}") from None
        if os.name == "posix" and mode & 0o022:
            raise problem(
                f"the token file '{path}' is writable by other users "
                f"(mode {mode & 0o777:04o}): any of them could add a token",
                f"make it private: chmod 600 '{path}'",
            )
        if os.name == "posix" and mode & 0o044:
            print(
                f"warning: token file '{path}' is readable by other users "
                f"(mode {mode & 0o777:04o}): chmod 600 '{path}'",
                file=sys.stderr,
                flush=True,
            )
        source = f"token file '{path}'"
    elif env.get(TOKENS_ENV):
        data = env[TOKENS_ENV].encode("utf-8", "surrogateescape")
        source = f"${TOKENS_ENV}"
    else:
        return {}
    if len(data) > MAX_TOKENS_FILE:
        raise problem(f"{source} is larger than {MAX_TOKENS_FILE} bytes")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise problem(f"{source} is not UTF-8") from None
    tokens = parse_tokens(text, source)
    if not tokens:
        raise problem(f"{source} holds no name:token entry")
    return tokens


def _token_digest(token: bytes) -> bytes:
    """The SHA-256 of ``token`` (its length, then its bytes padded with NULs to the longest a
    token may be): the same work whatever was presented, so not even a token's length shows
    in the time a check takes. A presented token longer than any token is hashed as
    padding alone, with its own length, and matches none."""
    size = MAX_TOKEN_CHARS
    body = token[:size] if len(token) <= size else b""
    return hashlib.sha256(len(token).to_bytes(8, "big") + body.ljust(size, b"\0")).digest()


class Tokens:
    """Bearer-token checks: :meth:`user` compares the presented token with every token."""

    def __init__(self, tokens: Mapping[str, bytes]) -> None:
        self._digests = [(name, _token_digest(token)) for name, token in tokens.items()]

    def __bool__(self) -> bool:
        return bool(self._digests)

    def user(self, authorization: str | None) -> str | None:
        """The name of the token in an ``Authorization: Bearer`` header value, else None."""
        presented = b""
        if authorization is not None and authorization[:7].lower() == "bearer ":
            presented = authorization[7:].strip().encode("utf-8", "replace")
        digest = _token_digest(presented)
        user = None
        for name, known in self._digests:  # every one, whatever matched
            if hmac.compare_digest(digest, known) and user is None:
                user = name
        return user


# -- the peer's user (no tokens) ----------------------------------------------------------

PEER_UID = "skillc.peer_uid"
"""The key, in a request's ASGI ``state``, of the user id at the other end of its connection
(:class:`skillc_mcp._http_conn.GuardedProtocol` looks it up once per connection)."""


def connection_uid(scope: Mapping[str, Any]) -> int | None:
    """The user id at the other end of a request's connection (-1: none found; None: it
    cannot be told): from the scope's ``state`` (once per connection), else looked up from
    its ``server`` and ``client`` addresses (an ASGI server other than ours; a scope
    without them cannot be told)."""
    state = scope.get("state")
    if isinstance(state, Mapping) and PEER_UID in state:
        return state[PEER_UID]  # type: ignore[no-any-return]
    local, remote = scope.get("server"), scope.get("client")
    if not local or not remote:
        return None
    from skillc_gateway.find_socket import tcp_peer_uid

    return tcp_peer_uid(tuple(local), tuple(remote))


def peer_refusal(uid: int | None) -> bytes | None:
    """The 403 body refusing a connection from user ``uid`` to a server without tokens, or
    None when it is served: ``uid`` is this server's own user, or cannot be told (None).
    The find server's rule (it answers only peers of its own user), with tokens as the way
    to serve others."""
    if uid is None or uid == os.getuid():
        return None
    who = f"user {uid}" if uid >= 0 else "a user it cannot tell"
    message = (
        f"forbidden: refused a connection from {who}: without tokens this server answers "
        f"only its own user ({os.getuid()}); to serve others, start it with tokens "
        f"(--tokens FILE or ${TOKENS_ENV})"
    )
    import json

    return json.dumps({"error": message}).encode("utf-8")


# -- origins ------------------------------------------------------------------------------


def normal_origin(origin: str) -> str:
    return origin.strip().rstrip("/").lower()


def _host_part(authority: str) -> str | None:
    """The host of ``host[:port]`` (``[v6]:port`` for IPv6), lowercased, or None when it is
    not one (a path, user info, a port that is not a number of ASCII digits: ``str.isdigit``
    takes ``٣``, which no port is)."""
    if not authority or "/" in authority or "@" in authority:
        return None
    if authority.startswith("["):
        host, bracket, port = authority[1:].partition("]")
        if not bracket or (port and not (port.startswith(":") and _ascii_digits(port[1:]))):
            return None
    else:
        host, colon, port = authority.partition(":")
        if colon and not _ascii_digits(port):
            return None
    return host.lower() or None


def _ascii_digits(text: str) -> bool:
    """Whether ``text`` is a number of ASCII digits (a port): not ``٣``, nor ``²``."""
    return text.isascii() and text.isdigit()


def is_loopback_name(host: str) -> bool:
    """Whether ``host`` (no port) is ``localhost`` or a loopback IP address."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def origin_allowed(origin: str, allowed: Iterable[str]) -> bool:
    """Whether ``origin`` (an ``Origin`` header) is a loopback origin or among ``allowed``."""
    origin = normal_origin(origin)
    if origin in allowed:
        return True
    scheme, sep, rest = origin.partition("://")
    if not sep or scheme not in ("http", "https"):
        return False
    host = _host_part(rest)
    return host is not None and is_loopback_name(host)


# -- browsers (CORS) ----------------------------------------------------------------------

CORS_METHODS = b"POST, GET, DELETE"
CORS_HEADERS = (
    b"Content-Type, Authorization, Mcp-Session-Id, MCP-Protocol-Version, Mcp-Method, "
    b"Mcp-Name, Last-Event-ID, Accept"
)
"""The request headers a page may send: a 2026-07-28 request mirrors its method and name in
``Mcp-Method`` and ``Mcp-Name``."""


def _cors_origin(origin: str | None, allowed: frozenset[str]) -> bytes | None:
    """``origin`` (as sent) when it is one of ``allowed`` (``--allow-origin``), else None: a
    loopback origin passes the origin check but gets no CORS headers (any local page would
    read the answers), so it has to be given too."""
    if origin is None or normal_origin(origin) not in allowed:
        return None
    return origin.strip().encode("latin-1")


def preflight(
    method: object, headers: Mapping[str, str], allowed: frozenset[str]
) -> list[tuple[bytes, bytes]] | None:
    """The headers answering a CORS preflight (``OPTIONS`` with
    ``Access-Control-Request-Method``) from an origin among ``allowed``, else None (the
    request goes on, to its 401 or 405)."""
    if method != "OPTIONS" or "access-control-request-method" not in headers:
        return None
    if _cors_origin(headers.get("origin"), allowed) is None:
        return None
    return [
        (b"access-control-allow-methods", CORS_METHODS),
        (b"access-control-allow-headers", CORS_HEADERS),
        (b"access-control-max-age", b"600"),
    ]


# -- the gate -----------------------------------------------------------------------------

UNAUTHORIZED = b'{"error":"unauthorized: send Authorization: Bearer <token>"}'
Refusal = tuple[int, bytes, list[tuple[bytes, bytes]]]
"""A request answered at the gate: its status, body and extra headers."""


class Gate:
    """The checks of this module, in order, for the HTTP server's requests: ``Host`` (421),
    ``Origin`` (403), without tokens the peer's user (403) (:meth:`refuse`: answered with no
    CORS header), a CORS preflight (answered 204, before the token: a browser sends none on
    it), then with tokens the token (401) (:meth:`admit`, whose answers carry them)."""

    def __init__(
        self,
        tokens: Mapping[str, bytes],
        origins: Iterable[str],
        hosts: Iterable[str],
        loopback: bool,
    ) -> None:
        self.tokens = Tokens(tokens)
        self.origins = frozenset(normal_origin(o) for o in origins)
        self.hosts = frozenset(normal_host(h) for h in hosts)
        self.loopback = loopback
        """Bound to a loopback address: the ``Host`` must be a loopback name (or allowed)."""

    def refuse(self, scope: Mapping[str, Any], headers: Mapping[str, str]) -> Refusal | None:
        """The answer to a request refused before its peer is accepted (``Host``, ``Origin``,
        without tokens the peer's user), else None: to be sent without the CORS headers (the
        403 to another local user told its page that its origin is allowed)."""
        if not host_allowed(headers.get("host"), self.hosts, loopback=self.loopback):
            return 421, b'{"error":"misdirected: Host not allowed"}', []
        origin = headers.get("origin")
        if origin is not None and not origin_allowed(origin, self.origins):
            return 403, b'{"error":"forbidden: origin not allowed"}', []
        if not self.tokens:  # another user's preflight too: refused before it is answered
            refused = peer_refusal(connection_uid(scope))
            if refused is not None:
                return 403, refused, []
        return None

    def admit(
        self, scope: Mapping[str, Any], headers: Mapping[str, str]
    ) -> tuple[str | None, Refusal | None]:
        """Who sends a request :meth:`refuse` let through (its token's name; None without
        tokens), and its answer when the gate gives it (a preflight's, a 401)."""
        answer = preflight(scope.get("method"), headers, self.origins)
        if answer is not None:
            return None, (204, b"", answer)
        if not self.tokens:
            return None, None
        user = self.tokens.user(headers.get("authorization"))
        if user is None:
            return None, (401, UNAUTHORIZED, [(b"www-authenticate", b'Bearer realm="skillc"')])
        return user, None

    def cross_origin(self, send: Any, headers: Mapping[str, str]) -> Any:
        """``send`` (an ASGI send), adding to each response's head the CORS headers when the
        request's ``Origin`` is one given with ``--allow-origin``: the page may read the
        response and its ``Mcp-Session-Id``. ``send`` itself for any other origin, or none."""
        value = _cors_origin(headers.get("origin"), self.origins)
        if value is None:
            return send
        added = [
            (b"access-control-allow-origin", value),
            (b"access-control-expose-headers", b"Mcp-Session-Id"),
            (b"vary", b"Origin"),
        ]

        async def sending(message: Any) -> None:
            if message.get("type") == "http.response.start":
                message = {**message, "headers": [*message.get("headers", ()), *added]}
            await send(message)

        return sending


# -- shares -------------------------------------------------------------------------------


MAX_USER_REQUESTS = 16
"""The requests one user (token) has running or waiting at once, at most (of the 4 + 64)."""


class Shares:
    """Places (connections, requests, event streams) of which at most ``total`` are taken at
    once, and at most ``each`` by one holder (a peer, a user): one token holder's 70 slow
    bodies, or one address's 600 partial request heads, held every place and left the
    others none. The holder None takes from ``total`` only (a server without tokens has
    one user; a Unix socket, no peer). Not thread-safe: the caller locks, or stays on the
    event loop."""

    def __init__(self, each: int, total: int) -> None:
        self.each = each
        self.total = total
        self.taken = 0
        self._held: dict[object, int] = {}

    def take(self, holder: object) -> bool:
        """Take a place for ``holder``; False (none taken) when all are taken, or when it
        holds ``each`` already."""
        held = self._held.get(holder, 0)
        if self.taken >= self.total or (holder is not None and held >= self.each):
            return False
        self.taken += 1
        if holder is not None:
            self._held[holder] = held + 1
        return True

    def give_back(self, holder: object) -> None:
        """Give back a place ``holder`` took."""
        self.taken -= 1
        held = self._held.get(holder, 0) - 1
        if held > 0:
            self._held[holder] = held
        else:
            self._held.pop(holder, None)


# -- the Host header ----------------------------------------------------------------------


#: The most characters of a host name (RFC 1035), of one of its labels.
MAX_HOST_CHARS = 253
MAX_LABEL_CHARS = 63
_LABEL_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789-_")


def _is_host_name(host: str) -> bool:
    """Whether ``host`` (lowercased, no port) is a host name (dot-separated labels of letters,
    digits, ``-`` and ``_``, no label starting or ending with ``-``; a final dot allowed), an
    IPv4 address, or an IPv6 address (its brackets already taken off)."""
    try:
        ipaddress.ip_address(host)
    except ValueError:
        pass
    else:
        return True
    labels = host[:-1].split(".") if host.endswith(".") else host.split(".")
    return len(host) <= MAX_HOST_CHARS and all(
        0 < len(label) <= MAX_LABEL_CHARS
        and set(label) <= _LABEL_CHARS
        and not label.startswith("-")
        and not label.endswith("-")
        for label in labels
    )


def _is_ipv6(text: str) -> bool:
    try:
        return ipaddress.ip_address(text).version == 6
    except ValueError:
        return False


def normal_host(name: str) -> str:
    """An ``--allow-host`` value as a ``Host`` header's name is compared: lowercased, its
    port dropped (``skills.example.com:443`` never matched: the header's port is dropped
    too); E061 for one that is no host name or IP address (``a.com,b.com``, ``bad host!``:
    taken, they made every request 421), quoted as a shell word (a newline or an escape from
    a script shows as ``$'a\\x0ab'``, never a line of its own), as its hint's options are."""
    text = name.strip()
    host = _host_part(text)
    bracketed = text.startswith("[")
    if host is not None and bracketed != (":" in host):  # [v6] only, a v6 address bracketed
        host = None
    port = (text.rpartition("]")[2] if bracketed else text.partition(":")[2]).lstrip(":")
    if host is None or not _is_host_name(host) or len(port) > 5 or int(port or 0) > 65535:
        from skillc_index.text import shell_word

        hint = ""
        if "," in text:
            parts = text.split(",")[:3]
            each = " ".join(f"--allow-host {shell_word(part.strip())}" for part in parts)
            hint = f"give one name an option, repeated: {each}"
        elif not bracketed and _is_ipv6(text):  # `::1`: a port would be read in it
            hint = f"an IPv6 address goes in brackets: --allow-host {shell_word(f'[{text}]')}"
        shown = shell_word(name)
        raise problem(
            f"--allow-host {shown} is not a host name (NAME, NAME:PORT, an IP address)", hint
        )
    return host


def host_allowed(header: str | None, allowed: frozenset[str], *, loopback: bool) -> bool:
    """Whether a request's ``Host`` header (None: absent) is accepted by a server bound to a
    loopback address (``loopback``) or not, ``allowed`` being the ``--allow-host`` names
    (lowercased, no port). Absent or malformed is refused wherever the header is checked."""
    if not loopback and not allowed:
        return True  # behind a proxy the name is the proxy's: checked only when told which
    host = None if header is None else _host_part(header.strip())
    if host is None:
        return False
    return host in allowed or (loopback and is_loopback_name(host))


# -- the request headers (2026-07-28's "Server Validation") ------------------------------

NAMED = {"tools/call": "name", "prompts/get": "name", "resources/read": "uri"}
"""The methods whose ``Mcp-Name`` header mirrors a parameter of the body, and which one."""


def message_meta(message: object) -> dict[str, Any]:
    """A JSON-RPC message's ``params._meta`` (empty when it has none, or one not an object)."""
    params = message.get("params") if isinstance(message, dict) else None
    meta = params.get("_meta") if isinstance(params, dict) else None
    return meta if isinstance(meta, dict) else {}


def header_value(value: str | None) -> str | None:
    """An ``Mcp-Name`` header's value: as sent, or decoded from ``=?base64?...?=``; None when
    absent, when it holds characters a header value may not (outside visible ASCII, space
    and tab), or when its base64 form is malformed, so that it matches no body value."""
    if value is None or any(not (" " <= c <= "~" or c == "\t") for c in value):
        return None
    if not (value.startswith("=?base64?") and value.endswith("?=") and len(value) >= 11):
        return value
    payload = value[9:-2]
    try:
        decoded = base64.b64decode(payload, validate=True)
        if base64.b64encode(decoded).decode("ascii") != payload:
            return None  # not canonical: no client writes it
        return decoded.decode("utf-8")
    except (binascii.Error, UnicodeDecodeError):
        return None


def header_refusal(headers: Mapping[str, str], message: object) -> ProtocolError | None:
    """Why a request's headers are refused with 400, if they are (any answer went through
    before):

    - A 2026-07-28 request (one with an id whose ``_meta`` names a version of that era this
      server speaks) must carry ``MCP-Protocol-Version`` equal to that version,
      ``Mcp-Method`` equal to its method and, when it names a tool, resource or prompt,
      ``Mcp-Name`` equal to that name or URI (decoded from ``=?base64?...?=``): -32020
      ``HeaderMismatch`` when one is missing or differs.
    - Any other: an ``MCP-Protocol-Version`` header, when sent, must match a ``_meta``
      version (-32020) and name a version this server speaks (-32022, naming those it
      does). An absent one is fine (the session's version holds), and so is any on
      ``initialize`` (the version is not agreed yet)."""
    meta = message_meta(message)
    header = headers.get("mcp-protocol-version")
    if isinstance(message, dict) and "id" in message and meta.get(VERSION_KEY) in MODERN_VERSIONS:
        method = message.get("method")
        if header != meta[VERSION_KEY]:
            return _mismatch("MCP-Protocol-Version", header, f"params._meta's {VERSION_KEY}")
        if headers.get("mcp-method") != method:
            return _mismatch("Mcp-Method", headers.get("mcp-method"), "the body's method")
        key = NAMED.get(method) if isinstance(method, str) else None
        value = message["params"].get(key) if key is not None else None
        if value is not None and header_value(headers.get("mcp-name")) != value:
            return _mismatch("Mcp-Name", headers.get("mcp-name"), f"params.{key}")
        return None
    if header is None or (isinstance(message, dict) and message.get("method") == "initialize"):
        return None
    if VERSION_KEY in meta and meta[VERSION_KEY] != header:
        return _mismatch("MCP-Protocol-Version", header, f"params._meta's {VERSION_KEY}")
    if header not in SUPPORTED_VERSIONS:
        return ProtocolError(
            UNSUPPORTED_PROTOCOL_VERSION,
            "Bad Request: unsupported MCP-Protocol-Version header",
            {"supported": list(SUPPORTED_VERSIONS), "requested": header[:100]},
        )
    return None


def _mismatch(name: str, header: str | None, body: str) -> ProtocolError:
    """-32020: the ``name`` header is missing, or differs from ``body`` (values not echoed)."""
    if header is None:
        return ProtocolError(HEADER_MISMATCH, f"Header mismatch: the {name} header is missing")
    return ProtocolError(
        HEADER_MISMATCH, f"Header mismatch: the {name} header does not match {body}"
    )
