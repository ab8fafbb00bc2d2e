"""The ten tools of RFC-0007:C-COMMANDS as MCP tool definitions.

The tools of the commands that are operations (:mod:`skillc_index.operation`) are generated
from them; the others are written here. Each definition is what ``tools/list`` returns for
the tool: ``name``, ``title``, a ``description`` that tells an agent when to reach for it, an
exact ``inputSchema`` (``additionalProperties: false``, enums, minimums, defaults), an
``outputSchema`` (the object the tool's ``--format json`` prints, which is also the result's
``structuredContent``) and ``annotations``. Schemas use JSON Schema 2020-12, MCP's default
dialect. Output schemas list the keys every result has and allow more, so a later release may
add keys without breaking a client that validates.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from skillc_index.operation import WARNINGS as _WARNINGS

if TYPE_CHECKING:
    from skillc_index.operation import Operation

SKILL = {
    "type": "string",
    "minLength": 1,
    "description": "Skill name (looked up in the project store .skillc/skills/, then the "
    "global store ~/.skillc/skills/) or a path to a folder holding SKILL.md, relative to the "
    "server's working directory or absolute. skc_list shows the names.",
}

WARNINGS: dict[str, Any] = dict(_WARNINGS)

STRING = {"type": "string"}
INTEGER = {"type": "integer"}
# anyOf rather than a type array: clients that map schemas onto a single-type dialect (the
# OpenAPI subset of some model providers) accept it (the MCP Inspector's --strict check).
NULLABLE_STRING = {"anyOf": [{"type": "string"}, {"type": "null"}]}
NULLABLE_INTEGER = {"anyOf": [{"type": "integer"}, {"type": "null"}]}

READ_ONLY = {"readOnlyHint": True, "openWorldHint": False}


def _object(properties: dict[str, Any], required: tuple[str, ...] = ()) -> dict[str, Any]:
    """An input schema: exactly these properties, nothing else."""
    schema: dict[str, Any] = {
        "type": "object",
        "properties": properties,
        "additionalProperties": False,
    }
    if required:
        schema["required"] = list(required)
    return schema


def _output(properties: dict[str, Any], optional: tuple[str, ...] = ()) -> dict[str, Any]:
    """An output schema: these properties, all required but ``optional``, more allowed."""
    return {
        "type": "object",
        "properties": properties,
        "required": [name for name in properties if name not in optional],
    }


HAND_WRITTEN: tuple[dict[str, Any], ...] = (
    {
        "name": "skc_lint",
        "title": "Lint a skill",
        "description": "Check a skill against the authoring standard (RFC-0008 rules SKL001 "
        "to SKL401: frontmatter, structure, links, files) and return every problem with its "
        "rule, severity, file and line. Use after writing or editing a skill, before building "
        "or publishing it; fix the errors first. A compiled skill (one holding "
        ".skillc-meta/manifest.json) is skipped unless `force`.",
        "inputSchema": _object(
            {
                "skill": SKILL,
                "force": {
                    "type": "boolean",
                    "default": False,
                    "description": "Lint even if the skill is compiled.",
                },
            },
            required=("skill",),
        ),
        "outputSchema": _output(
            {
                "skill": STRING,
                "path": STRING,
                "diagnostics": {
                    "type": "array",
                    "items": _output(
                        {
                            "rule": {"type": "string", "description": "SKLxxx"},
                            "severity": {"enum": ["error", "warning"]},
                            "file": {"type": "string", "description": "Relative to the skill."},
                            "line": NULLABLE_INTEGER,
                            "message": STRING,
                        }
                    ),
                },
                "skipped": {"type": "string", "description": "'compiled' when not linted."},
                "error_count": INTEGER,
                "warning_count": INTEGER,
                "warnings": WARNINGS,
            },
            optional=("skipped", "warnings"),
        ),
        "annotations": READ_ONLY,
    },
    {
        "name": "skc_stats",
        "title": "Usage analytics of a skill",
        "description": "Report how agents used a skill, from its access log: a summary, or "
        "accesses grouped by section, file, command, project, error (failed lookups) or search "
        "query. Use it when improving a skill, to see which parts agents read, what they "
        "searched for and what they could not find.",
        "inputSchema": _object(
            {
                "skill": SKILL,
                "group_by": {
                    "enum": [
                        "summary",
                        "files",
                        "sections",
                        "commands",
                        "projects",
                        "errors",
                        "search",
                    ],
                    "default": "summary",
                    "description": "Aggregation dimension.",
                },
                "since": {
                    "type": "string",
                    "description": "Only accesses at or after this time: "
                    "2026-01-30T10:00:00Z, 2026-01-30 (start of that day, UTC) or 7d (seven "
                    "days ago).",
                },
                "until": {
                    "type": "string",
                    "description": "Only accesses at or before this time (the same forms).",
                },
                "project": {
                    "type": "array",
                    "items": {"type": "string", "minLength": 1},
                    "description": "Only accesses made from these project folders (or below).",
                },
            },
            required=("skill",),
        ),
        "outputSchema": _output(
            {
                "skill": STRING,
                "skill_path": STRING,
                "query": STRING,
                "filters": _output(
                    {
                        "since": NULLABLE_STRING,
                        "until": NULLABLE_STRING,
                        "projects": {"type": "array", "items": STRING},
                    }
                ),
                "period": _output({"start": NULLABLE_STRING, "end": NULLABLE_STRING}),
                "data": {
                    "anyOf": [{"type": "object"}, {"type": "array"}],
                    "description": "An object for summary and commands, else an array.",
                },
            }
        ),
        "annotations": READ_ONLY,
    },
)

#: The packages whose operations (``OPERATIONS`` of each module) are tools.
OPERATION_MODULES = ("skillc_gateway.operations", "skillc_index.operations")

#: RFC-0007:C-COMMANDS: the tools in the registry's order.
ORDER = ("init", "list", "build", "lint", "outline", "show", "open", "sources", "search", "stats")


def operations() -> dict[str, Operation[Any, Any]]:
    """Tool name -> the operation it runs."""
    from importlib import import_module

    found: dict[str, Operation[Any, Any]] = {}
    for module in OPERATION_MODULES:
        for operation in import_module(module).OPERATIONS:
            found[operation.tool_name] = operation
    return found


def _tools() -> tuple[dict[str, Any], ...]:
    tools = {tool["name"]: tool for tool in HAND_WRITTEN}
    for name, operation in operations().items():
        tool = operation.tool()
        properties = tool["outputSchema"]["properties"]
        tool["outputSchema"] = {
            **tool["outputSchema"],
            # a result whose JSON has its own warnings (build's) keeps them
            "properties": {**properties, "warnings": properties.get("warnings", WARNINGS)},
        }
        tools[name] = tool
    return tuple(tools[f"skc_{command}"] for command in ORDER)


TOOLS = _tools()
