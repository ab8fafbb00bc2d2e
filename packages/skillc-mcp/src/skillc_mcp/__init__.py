"""skillc-mcp: the MCP server that exposes skillc's commands as tools for agents.

``skc mcp`` (or ``skillc-mcp``) serves the ten tools of RFC-0007:C-COMMANDS and ``skc_find``
over stdio (or Streamable HTTP, ``--http``, with the ``http`` extra), to clients of both MCP
protocol eras: the ``initialize`` handshake (2024-11-05 to 2025-11-25) and
the stateless 2026-07-28 revision. The server is written on the standard library; the tools
call skillc's libraries directly. To embed it, feed parsed JSON-RPC messages to a
:class:`Server`, or run :func:`serve_stdio`::

    from skillc_mcp import Server

    server = Server()
    server.handle({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                   "params": {"protocolVersion": "2025-11-25", "capabilities": {}}})

Importing this package is cheap: names load on first use (PEP 562).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from skillc_index import lazy_exports

__version__ = "0.2.0.dev0"

_EXPORTS: dict[str, str] = {
    "Server": "_protocol",
    "ProtocolError": "_protocol",
    "SUPPORTED_VERSIONS": "_protocol",
    "MODERN_VERSIONS": "_protocol",
    "LEGACY_VERSIONS": "_protocol",
    "Connection": "_stdio",
    "serve_stdio": "_stdio",
    "ToolRunner": "_tools",
    "TOOLS": "_catalog",
}

__all__ = ["__version__", *_EXPORTS]


__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, globals())


if TYPE_CHECKING:
    from skillc_mcp._catalog import TOOLS as TOOLS
    from skillc_mcp._protocol import LEGACY_VERSIONS as LEGACY_VERSIONS
    from skillc_mcp._protocol import MODERN_VERSIONS as MODERN_VERSIONS
    from skillc_mcp._protocol import SUPPORTED_VERSIONS as SUPPORTED_VERSIONS
    from skillc_mcp._protocol import ProtocolError as ProtocolError
    from skillc_mcp._protocol import Server as Server
    from skillc_mcp._stdio import Connection as Connection
    from skillc_mcp._stdio import serve_stdio as serve_stdio
    from skillc_mcp._tools import ToolRunner as ToolRunner
