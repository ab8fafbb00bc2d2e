"""The HTTP transport's connections (:mod:`skillc_mcp._http`): what one may hold before its
request reaches the application, which bounds only bodies and requests.

uvicorn bounds a connection's idle time between requests (keep-alive) but not the time its
request head takes: 300 connections each sending part of a head (no token needed) used up
the file descriptors, and one sending a byte a second stayed open for good. Here:

- a request's head (its line and headers) must all come within :data:`HEAD_SECONDS` of the
  connection opening or of the previous response, else the connection is closed;
- at most :func:`max_connections` are open at once (a quarter of the process's file
  descriptors, at most :data:`MAX_CONNECTIONS`); one more is closed as it opens. asyncio
  accepts up to the listening socket's backlog of connections before any is seen to open,
  so the backlog is an eighth (:func:`accept_backlog`): a flood's peak stays under the
  limit (with half for the connections and uvicorn's backlog of 2048, 300 connections under
  ``ulimit -n 200`` still ran accept out of descriptors, 9,969 logged errors);
- one peer holds at most an eighth of them (:func:`peer_share`, at least 4): a peer is the
  user at the other end on a server without tokens (where that user can be told), else the
  remote address (an IPv6 one's /64, which one host is given; every loopback address is one
  peer, this host: a process spread over 127.0.0.1 to .8 held all 64 places). Beyond, its
  connection is closed as it opens: 600 partial heads from one address, each reopened as its
  deadline closed it, held every place and other users' ``initialize`` went through 1 in 55.
  A reverse proxy named with ``--proxy`` (:func:`proxy_networks`) carries every client's
  connections from its one address: its connections hold no peer's share, only places of
  the total (the tokens still tell its users apart, and the proxy bounds each client).

Imported by :func:`skillc_mcp._http_serve.serve_http` only (it imports uvicorn).
"""

from __future__ import annotations

import asyncio
import ipaddress
from collections.abc import Sequence
from typing import Any

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from skillc_mcp._http_guard import Shares
from skillc_mcp._http_stop import STOP_SECONDS

HEAD_SECONDS = 10.0
"""A request's head must all come within this long (the connection is closed otherwise)."""
MAX_CONNECTIONS = 512


def _descriptors() -> int | None:
    """The file descriptors this process may open (its soft limit); None when unbounded or
    unknown."""
    try:
        import resource

        soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    except (ImportError, OSError, ValueError):
        return None
    return None if soft == resource.RLIM_INFINITY else soft


def max_connections() -> int:
    """Connections open at once: a quarter of the file descriptors this process may open (an
    eighth for a burst of accepts, :func:`accept_backlog`; the rest for the skills' files,
    the logs and the worker threads), at most :data:`MAX_CONNECTIONS`."""
    soft = _descriptors()
    return MAX_CONNECTIONS if soft is None else max(1, min(MAX_CONNECTIONS, soft // 4))


def peer_share(limit: int) -> int:
    """The connections one peer may hold of ``limit``: an eighth, at least 4 (a client's
    requests and its event stream), at most ``limit``."""
    return min(limit, max(4, limit // 8))


LOOPBACK = ("address", "loopback")
"""The peer of every loopback address whose user is not known (:func:`peer_of`)."""


Network = ipaddress.IPv4Network | ipaddress.IPv6Network
"""An address or a network of ``--proxy``."""


def _address(client: tuple[Any, ...]) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """A connection's remote address (an IPv4-mapped one as IPv4, an IPv6 one's zone left
    out); None when it is no IP address."""
    try:
        address = ipaddress.ip_address(str(client[0]).partition("%")[0])
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


SHORTEST_PREFIX = {4: 8, 6: 32}
"""The widest network ``--proxy`` takes, by IP version: a shorter prefix (``0.0.0.0/0``, a typo
of ``10.0.0.5/0``) would take every client out of its share."""


def proxy_networks(values: Sequence[str]) -> tuple[Network, ...]:
    """The addresses of ``--proxy`` (an IP address, or a network as ``10.0.0.0/24``): E061
    naming a value that is neither, a network written with host bits (``10.0.0.5/8``: which
    was meant?), or one wider than :data:`SHORTEST_PREFIX` allows."""
    from skillc_index.text import shell_word
    from skillc_mcp._http_guard import problem

    networks = []
    for value in values:
        shown = f"--proxy {shell_word(value)}"
        try:
            network = ipaddress.ip_network(value.strip())
        except ValueError:
            try:
                meant = ipaddress.ip_network(value.strip(), strict=False)
            except ValueError:
                parts = value.split(",")[:3]
                hint = (
                    "give one address an option, repeated: "
                    + " ".join(f"--proxy {shell_word(part.strip())}" for part in parts)
                    if len(parts) > 1
                    else "give the address the proxy connects from, e.g. --proxy 127.0.0.1"
                )
                raise problem(f"{shown} is not an IP address or network", hint) from None
            raise problem(
                f"{shown} is an address with a prefix, not a network",
                f"give the proxy's address, or its network: --proxy {meant}",
            ) from None
        if isinstance(network, ipaddress.IPv6Network) and network.network_address.ipv4_mapped:
            mapped = network.network_address.ipv4_mapped
            network = ipaddress.ip_network(f"{mapped}/{max(0, network.prefixlen - 96)}")
        if network.prefixlen < SHORTEST_PREFIX[network.version]:
            raise problem(
                f"{shown} takes in {network} ({network.num_addresses:,} addresses): every "
                "client there would hold no share of the connections",
                f"give the proxy's address, or a network of /{SHORTEST_PREFIX[network.version]} "
                "or narrower",
            )
        networks.append(network)
    return tuple(networks)


def from_proxy(client: tuple[Any, ...] | None, proxies: Sequence[Network]) -> bool:
    """Whether a connection comes from one of ``proxies`` (:func:`proxy_networks`)."""
    address = _address(client) if client and proxies else None
    return address is not None and any(address in network for network in proxies)


def peer_of(client: tuple[Any, ...] | None, uid: int | None) -> object:
    """Who holds a connection, for :func:`peer_share`: its peer's user ``uid`` when known (a
    server without tokens), else its remote address (``client``), an IPv6 one's /64 (an
    IPv4-mapped one as IPv4), every loopback address (``127.0.0.0/8``, ``::1``, their
    IPv4-mapped forms) one peer, :data:`LOOPBACK`: each of them is this host, which would
    otherwise hold a share per address; None when it has neither (a Unix socket)."""
    if uid is not None and uid >= 0:
        return ("uid", uid)
    if not client:
        return None
    address = _address(client)
    if address is None:
        return ("address", client[0])
    if address.is_loopback:
        return LOOPBACK
    if isinstance(address, ipaddress.IPv6Address):
        return ("address", str(ipaddress.ip_network(f"{address}/64", strict=False)))
    return ("address", str(address))


def accept_backlog() -> int:
    """The listening socket's backlog, which is also how many connections asyncio accepts in
    one go: an eighth of the file descriptors, 8 to 128."""
    soft = _descriptors()
    return 128 if soft is None else max(8, min(128, soft // 8))


class GuardedProtocol(H11Protocol):
    """uvicorn's h11 protocol with the module's deadline for a request head, its cap on
    connections and each peer's share of them; when :attr:`peers`, it looks up the user at
    the other end of each connection once, for its requests' ``state``
    (:data:`~skillc_mcp._http_guard.PEER_UID`) and its share."""

    shares = Shares(peer_share(MAX_CONNECTIONS), MAX_CONNECTIONS)
    """The connections open (at most its ``total``) and each peer holds (:func:`peer_of`):
    one for each server, set on the subclass :func:`uvicorn_config` makes for it."""
    peers = False
    """Look up each connection's peer's user (a server without tokens)."""
    proxies: tuple[Network, ...] = ()
    """The reverse proxies' addresses (``--proxy``): their connections hold no peer's share."""
    _head_timer: asyncio.TimerHandle | None = None
    _peer: object = None
    _counted = False
    """Whether this connection took a place of :attr:`shares` (its peer's, when known)."""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        uid = None
        if self.peers:  # uvicorn copies app_state into each request's scope["state"]
            from skillc_mcp._http_guard import PEER_UID, connection_uid

            uid = connection_uid({"server": self.server, "client": self.client})
            self.app_state = {**self.app_state, PEER_UID: uid}
        peer = None if from_proxy(self.client, self.proxies) else peer_of(self.client, uid)
        if not self.shares.take(peer):
            transport.close()
            return
        self._peer, self._counted = peer, True
        self._await_head()

    def on_response_complete(self) -> None:
        self._await_head()  # the next request's head (keep-alive), which may be here already
        super().on_response_complete()

    def handle_events(self) -> None:
        super().handle_events()
        if self.conn.their_state is not h11.IDLE:  # the head came: the application bounds on
            self._stop_waiting()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_waiting()
        if self._counted:
            self._counted = False
            self.shares.give_back(self._peer)
        super().connection_lost(exc)

    def _await_head(self) -> None:
        self._stop_waiting()
        self._head_timer = self.loop.call_later(HEAD_SECONDS, self._head_late)

    def _stop_waiting(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_late(self) -> None:
        self._head_timer = None
        if not self.transport.is_closing():
            self.transport.close()


def uvicorn_config(
    app: Any, *, peers: bool = False, proxies: tuple[Network, ...] = ()
) -> uvicorn.Config:
    """The server's uvicorn configuration: a subclass of :class:`GuardedProtocol` of its
    own (its shares, not another server's of the process: the cap from
    :func:`max_connections`, a peer's share from :func:`peer_share`, none for ``proxies``;
    each connection's peer's user looked up when ``peers``), no access
    log (``--log-requests`` is the application's), no WebSocket protocol (MCP has none;
    uvicorn 0.30's default imported websockets' deprecated ``legacy`` module when
    websockets 14 or later is installed)."""
    limit = max_connections()
    protocol = type(
        "GuardedProtocol",
        (GuardedProtocol,),
        {"shares": Shares(peer_share(limit), limit), "peers": peers, "proxies": proxies},
    )
    return uvicorn.Config(
        app,
        http=protocol,
        ws="none",
        backlog=accept_backlog(),
        log_level="warning",
        access_log=False,
        lifespan="on",
        server_header=False,
        timeout_graceful_shutdown=int(STOP_SECONDS),  # the stop's one deadline
    )
