"""The errors of a skill's tools (``skc tools``, ``skc run``): E100 for a tool none or broken."""

from __future__ import annotations

from skillc_index.command_errors import _Worded
from skillc_index.option_errors import InvalidOption
from skillc_index.spelling import PARAMETER_NAMES, Spelling

__all__ = ["BrokenTool", "ToolArgumentError", "UnknownSkillTool", "UnsupportedPlatform"]


class UnknownSkillTool(InvalidOption):
    """E100: the skill defines no tool ``tool`` (``known``: the tools it has)."""

    def __init__(self, skill: str, tool: str, known: tuple[str, ...]) -> None:
        super().__init__(
            f"skill '{skill}' has no tool '{tool}' (tools: {', '.join(known) or 'none'})"
        )
        self.skill = skill
        self.tool = tool
        self.known = known


class BrokenTool(_Worded, InvalidOption):
    """E100: a tool whose definition has an error (``problem`` on SKILL.md ``line``, as the
    gibberish lint profile reports it) or no command: nothing half-defined ever runs."""

    def __init__(self, tool: str, problem: str = "", line: int = 0) -> None:
        self.tool = tool
        self.problem = problem
        self.line = line
        super().__init__(self.worded(PARAMETER_NAMES))

    def worded(self, spelling: Spelling) -> str:
        where = f"{self.problem} (SKILL.md:{self.line}; " if self.problem else "no command ("
        lint = spelling.command("lint", "profile", "gibberish")
        return f"tool '{self.tool}' cannot run: {where}see {lint})"


class ToolArgumentError(InvalidOption):
    """E100: an argument a tool's ``parameter`` cannot take: an unknown parameter, a value
    of the wrong type, several values for one, a required one missing, a NUL character.
    ``logged``: the message without the value it quotes (the access log's)."""

    def __init__(self, message: str, *, parameter: str, tool: str = "", logged: str = "") -> None:
        super().__init__(message, logged=logged)
        self.parameter = parameter
        self.tool = tool


class UnsupportedPlatform(InvalidOption):
    """E100: what was asked needs what this system lacks (running tools: POSIX process
    groups)."""
