"""skillc-mcp: the MCP server that exposes skillc's commands as tools for agents.

The server arrives with its own issue; this release ships the package and its console script.
"""

from __future__ import annotations

__version__ = "0.1.0"

__all__ = ["__version__"]
