"""How each front end words a parameter or another command inside an error: one light module
(no other of the kit's), so that the MCP server names its spelling when it starts without
loading the diagnostics (its first answers import no library)."""

from __future__ import annotations

from skillc_index.record import Record

__all__ = ["CLI_SPELLING", "MCP_SPELLING", "PARAMETER_NAMES", "Spelling"]


class Spelling(Record):
    """How a front end writes, inside an error, a parameter of the command (``force``) and
    another command to run (``sources`` with its ``dir``); ``allow_target``: how the user
    lets a build deploy to a folder the caller names (the MCP server's start-up option, which
    the model cannot give; empty: the caller names any folder itself)."""

    option_prefix: str
    program: str
    allow_target: str = ""

    def option(self, name: str) -> str:
        """``force`` as the front end names it: ``--force`` on the command line."""
        return f"{self.option_prefix}{name.replace('_', '-')}" if self.option_prefix else name

    def command(self, name: str, option: str = "", value: str = "") -> str:
        """Another command with one option: ``'skc sources --dir'``, ``'sources' (dir)``;
        without ``option``, the command alone: ``'skc init'``, ``'init'``."""
        if self.program:
            words = (self.program, name, self.option(option) if option else "", value)
            return "'" + " ".join(word for word in words if word) + "'"
        if not option:
            return f"'{name}'"
        return f"'{name}' ({option}{f' {value!r}' if value else ''})"


#: The parameters' own names (``force``, ``since``): the Python API's and MCP's.
PARAMETER_NAMES = Spelling("", "")
#: The command line's options and commands: ``--force``, ``'skc sources --dir'``.
CLI_SPELLING = Spelling("--", "skc")
#: The MCP server's: the parameters' own names, and a folder to deploy to allowed by the user
#: when the server starts (``skc mcp --allow-target DIR``).
MCP_SPELLING = Spelling("", "", "skc mcp --allow-target")
