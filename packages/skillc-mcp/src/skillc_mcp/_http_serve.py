"""Running the MCP Streamable HTTP transport (``skc mcp --http HOST:PORT``):
:func:`serve_http` checks the address and the tokens, binds the socket and serves
:class:`skillc_mcp._http.App` behind uvicorn (the ``http`` extra, imported here only when it
starts) until SIGINT or SIGTERM.
"""

from __future__ import annotations

import asyncio
import os
import sys
import threading
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from skillc_mcp._http import ENDPOINT, App
from skillc_mcp._http_guard import TOKENS_ENV, is_loopback, load_tokens, parse_address, problem
from skillc_mcp._http_stop import close_connections

if TYPE_CHECKING:
    from typing import TextIO

__all__ = ["serve_http"]


def serve_http(
    address: str,
    *,
    tokens_file: str | None = None,
    allowed_origins: Sequence[str] = (),
    allowed_hosts: Sequence[str] = (),
    allowed_targets: Sequence[str] = (),
    allow_writes: bool = False,
    log_requests: bool = False,
    refusals_log: TextIO | None = None,
    env: Mapping[str, str] | None = None,
    proxies: Sequence[str] = (),
) -> int:
    """Serve MCP over HTTP on ``address`` (``HOST:PORT``) until SIGINT or SIGTERM; the exit
    status (128 + the signal number). E061 when it cannot start. ``refusals_log``: where
    the skills left out are said (``-v``: :class:`~skillc_mcp._skills.SkillsMethods`).
    ``proxies``: the reverse proxies' addresses (``--proxy``), whose connections hold no
    peer's share (:mod:`skillc_mcp._http_conn`)."""
    import signal
    import socket
    from contextlib import contextmanager

    host, port = parse_address(address)
    tokens = load_tokens(tokens_file, env)
    if not tokens and not is_loopback(host):
        raise problem(
            f"'{host}' is not a loopback address: give tokens (--tokens FILE or "
            f"${TOKENS_ENV}) to serve it"
        )
    try:
        import uvicorn
    except ImportError:
        raise problem(
            "the HTTP transport needs the http extra: pip install 'skillc-mcp[http]'"
        ) from None
    from skillc_mcp._http_conn import accept_backlog, proxy_networks

    networks = proxy_networks(proxies)
    if networks and not tokens:
        raise problem(
            "--proxy goes with tokens: without them only this server's user is answered, "
            "and each of its connections holds that user's share",
            f"give tokens (--tokens FILE or ${TOKENS_ENV}) to serve behind a proxy",
        )

    app = App(  # an --allow-host that is no host name is E061 here, before binding
        tokens=tokens,
        allowed_origins=allowed_origins,
        allowed_hosts=allowed_hosts,
        loopback=is_loopback(host),
        allowed_targets=allowed_targets,
        allow_writes=allow_writes,
        log_requests=log_requests,
        refusals_log=refusals_log,
    )
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(accept_backlog())
    except OSError as exc:
        sock.close()
        app.close()
        raise problem(f"cannot listen on {address}: {exc.strerror or exc}") from None
    sock.set_inheritable(True)
    stopped: list[int] = []

    class _Server(uvicorn.Server):
        @contextmanager
        def capture_signals(self) -> Any:
            # as uvicorn's, without raising the signal again once stopped: the exit
            # status says which one it was
            if threading.current_thread() is not threading.main_thread():
                yield
                return
            signals = (signal.SIGINT, signal.SIGTERM)
            previous = {s: signal.signal(s, self.handle_exit) for s in signals}
            try:
                yield
            finally:
                for s, handler in previous.items():
                    signal.signal(s, handler)

        def handle_exit(self, sig: int, frame: Any) -> None:
            stopped.append(sig)
            app.stopping()  # open event streams end, so the connections can close
            super().handle_exit(sig, frame)

        async def shutdown(self, sockets: Any = None) -> None:
            close_connections(self.server_state.connections, asyncio.get_running_loop())
            await super().shutdown(sockets)

    from skillc_mcp._http_conn import uvicorn_config

    # a request head's deadline, a cap on connections, without tokens who connects
    config = uvicorn_config(app, peers=not tokens, proxies=networks)
    where = sock.getsockname()
    shown = f"[{where[0]}]" if family == socket.AF_INET6 else where[0]
    auth = f"{len(tokens)} token(s)" if tokens else "no authentication (loopback)"
    if networks:
        auth += ", behind the proxy " + ", ".join(str(network) for network in networks)
    from skillc_mcp import __version__

    print(
        f"skillc-mcp {__version__}: serving MCP on http://{shown}:{where[1]}{ENDPOINT} "
        f"({auth}) in {os.getcwd()}",  # noqa: PTH109
        file=sys.stderr,
        flush=True,
    )
    try:
        _Server(config).run(sockets=[sock])
    finally:
        finished = app.close()
        sock.close()
    status = 128 + stopped[0] if stopped else 0
    if not finished:  # a call runs on past the stop's deadline: its thread is not waited for
        print("skillc-mcp: stopped with a call still running", file=sys.stderr, flush=True)
        sys.stdout.flush()
        # the exit handlers skillc registers, which os._exit skips: the access-log writers
        # were closed (app.close); the private index runtime, if one was made, goes here
        cache = sys.modules.get("skillc_index.index.cache")
        if cache is not None:
            cache.remove_private_runtime()
        os._exit(status)
    return status
