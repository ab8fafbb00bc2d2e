"""``tools``: the tools a gibb.eri.sh skill defines (spec/003 §3), as MCP-style descriptions.

Listing reads SKILL.md and runs nothing. Each tool comes with its ``inputSchema`` (a JSON Schema
object of its parameters) and ``annotations`` from the skill's frontmatter, the shape an MCP
``tools/list`` result has, so an agent can call it with ``skc run``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from skillc_index import ResolvedSkill, ToolIssue, ToolSkill, read_tool_skill

if TYPE_CHECKING:
    from skillc_gateway.shapes import ToolAnnotations, ToolsShape
    from skillc_index import Notice

__all__ = ["ToolList", "list_tools"]


class ToolList(NamedTuple):
    """A skill's tools and what is wrong with their definitions; ``called``: the name that
    reads the skill again when it is not its own (``devkit:pdf-tools``, a plugin's)."""

    skill: ToolSkill
    called: str | None = None

    @property
    def name(self) -> str:
        """The skill's name in the reply: ``called``, else the skill's own."""
        return self.called or self.skill.name

    @property
    def issues(self) -> tuple[ToolIssue, ...]:
        return self.skill.issues

    @property
    def warnings(self) -> tuple[Notice, ...]:
        """The errors in the tools' definitions (a skill without tools is none), and a
        default that is not of its parameter's type (left out), each ``SKILL.md:<line>:
        <message>``: listing goes on; ``run`` refuses a tool with an error."""
        from skillc_index import Notice

        return tuple(
            Notice(f"SKILL.md:{issue.line}: {issue.message}")
            for issue in self.issues
            if (issue.severity == "error" and issue.kind != "no-tools")
            or issue.kind == "parameter-type"
        )

    def runnable(self, tool: str) -> bool:
        """Whether ``skc run`` accepts the tool (no error in its definition)."""
        found = self.skill.tool(tool)
        return found is not None and found.command is not None and not self.skill.problems(tool)

    def to_dict(self) -> ToolsShape:
        skill = self.skill
        annotations: ToolAnnotations = {
            "readOnlyHint": skill.read_only,
            "openWorldHint": skill.network,
        }
        return {
            "skill": self.name,
            "version": skill.version,
            "modes": list(skill.modes),
            "timeout": skill.timeout,
            "tools": [
                {
                    "name": tool.name,
                    "description": tool.description,
                    "inputSchema": tool.input_schema(),
                    "annotations": annotations,
                    "command": tool.command.source if tool.command else None,
                    "runnable": self.runnable(tool.name),
                }
                for tool in skill.tools
            ],
        }


def list_tools(skill: ResolvedSkill) -> ToolList:
    """The tools of ``skill`` (none for a skill that is not a tool-defining one)."""
    return ToolList(read_tool_skill(skill.source), skill.called)
