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
BOOLEAN = {"type": "boolean"}
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
        "name": "skc_init",
        "title": "Create a skill (or a skillc project)",
        "description": "Create a new Agent Skill from the minimal SKILL.md template in the "
        "project store (.skillc/skills/NAME/, or with `global` in ~/.skillc/skills/NAME/); "
        "without `name`, make the server's working directory a skillc project (safe to "
        "repeat). Use when the user wants to write a new skill. Names use lowercase letters, "
        "digits and single hyphens (at most 64 characters). Never overwrites: an existing "
        "skill is error E050.",
        "inputSchema": _object(
            {
                "name": {
                    "type": "string",
                    "minLength": 1,
                    "description": "Name of the skill to create; omit to initialize the "
                    "project only.",
                },
                "global": {
                    "type": "boolean",
                    "default": False,
                    "description": "Create the skill in the global store (needs `name`).",
                },
            }
        ),
        "outputSchema": _output(
            {
                "kind": {"enum": ["project", "skill"]},
                "name": NULLABLE_STRING,
                "scope": {"enum": ["project", "global", None]},
                "path": {
                    "type": "string",
                    "description": "The project's .skillc/skills folder, or the new skill's "
                    "folder (its SKILL.md is inside).",
                },
                "created": {
                    "type": "boolean",
                    "description": "False when the project already existed.",
                },
            }
        ),
        "annotations": {
            "readOnlyHint": False,
            "destructiveHint": False,
            "idempotentHint": True,
            "openWorldHint": False,
        },
    },
    {
        "name": "skc_list",
        "title": "List skills",
        "description": "List the skills skillc manages, project store first (found by walking "
        "up from the working directory), then the global store, each with its build status: "
        "normal (built), not-built, or with `check_obsolete` obsolete (changed since the last "
        "build). Use it to learn the names of the available skills before the other tools, "
        "or to find skills that need skc_build.",
        "inputSchema": _object(
            {
                "scope": {
                    "enum": ["project", "global", "all"],
                    "default": "all",
                    "description": "Which store to list.",
                },
                "status": {
                    "enum": ["normal", "not-built", "obsolete", "all"],
                    "default": "all",
                    "description": "Only skills with this status (obsolete implies "
                    "check_obsolete).",
                },
                "limit": {
                    "type": "integer",
                    "minimum": 0,
                    "description": "Return at most this many skills (default: all).",
                },
                "pattern": {
                    "type": "string",
                    "description": "Only skills whose name matches this glob ('py*').",
                },
                "check_obsolete": {
                    "type": "boolean",
                    "default": False,
                    "description": "Compare source hashes with the last build (slower).",
                },
            }
        ),
        "outputSchema": _output(
            {
                "skills": {
                    "type": "array",
                    "items": _output(
                        {
                            "name": STRING,
                            "scope": {"enum": ["project", "global"]},
                            "status": {"enum": ["normal", "not-built", "obsolete"]},
                            "source_path": STRING,
                            "runtime_path": STRING,
                        }
                    ),
                },
                "total": {"type": "integer", "description": "Skills found in the stores."},
                "filtered": {"type": "integer", "description": "Skills matching the filters."},
                "warnings": WARNINGS,
            },
            optional=("warnings",),
        ),
        "annotations": READ_ONLY,
    },
    {
        "name": "skc_build",
        "title": "Build and deploy a skill",
        "description": "Compile a skill into its runtime (a short stub SKILL.md that points "
        "agents to these tools, a manifest and the search index) and deploy it to agent "
        "folders (default: claude, as a symlink). Run it after creating or editing a skill, "
        "and when skc_show or skc_search fail with E002 (index missing or stale). A path "
        "outside the stores is first imported (copied) into the project store. Rebuilding an "
        "unchanged skill only re-checks it. Without `force` it never replaces a different "
        "skill in the store nor a folder skillc did not create.",
        "inputSchema": _object(
            {
                "skill": SKILL,
                "global": {
                    "type": "boolean",
                    "default": False,
                    "description": "Compile to the global runtime (~/.skillc/runtime/) and "
                    "deploy to the home agent folders, whatever the source.",
                },
                "target": {
                    "type": "array",
                    "items": {"type": "string", "minLength": 1},
                    "description": "Agents to deploy to (default ['claude']). Known: claude, "
                    "codex, copilot, cursor, gemini, kiro, opencode, trae, and [targets] "
                    "from config; a value with a '/' is a folder, which must be one of "
                    "these agents' folders (or one the user allowed when starting the server).",
                },
                "copy": {
                    "type": "boolean",
                    "default": False,
                    "description": "Copy the stub into agent folders instead of symlinking.",
                },
                "force": {
                    "type": "boolean",
                    "default": False,
                    "description": "Replace a different skill of the same name in the store, "
                    "and move a folder skillc did not make at a deployment destination aside "
                    "(to a hidden backup beside it, named in `backup`); nothing is deleted.",
                },
            },
            required=("skill",),
        ),
        "outputSchema": _output(
            {
                "skill": STRING,
                "scope": {"enum": ["project", "global"]},
                "source": STRING,
                "imported_from": NULLABLE_STRING,
                "import": {"enum": ["copy", "replace", "unchanged", None]},
                "runtime": STRING,
                "up_to_date": {
                    "type": "boolean",
                    "description": "Nothing needed rebuilding.",
                },
                "source_hash": STRING,
                "files": INTEGER,
                "stub": STRING,
                "manifest": _output(
                    {
                        "skill": STRING,
                        "version": INTEGER,
                        "built_at": STRING,
                        "source_hash": STRING,
                    }
                ),
                "index": _output(
                    {
                        "path": STRING,
                        "action": {"enum": ["created", "rebuilt", "up-to-date"]},
                        "reason": NULLABLE_STRING,
                        "tokenizer": STRING,
                        "sections": NULLABLE_INTEGER,
                        "headings": NULLABLE_INTEGER,
                    }
                ),
                "deployments": {
                    "type": "array",
                    "items": _output(
                        {
                            "target": STRING,
                            "path": STRING,
                            "method": {"enum": ["symlink", "copy"]},
                            "action": {"enum": ["created", "replaced", "unchanged"]},
                            "backup": NULLABLE_STRING,
                        }
                    ),
                },
                "warnings": {"type": "array", "items": STRING},
            }
        ),
        "annotations": {
            "readOnlyHint": False,
            "destructiveHint": True,
            "idempotentHint": True,
            "openWorldHint": False,
        },
    },
)

#: The packages whose operations (``OPERATIONS`` of each module) are tools.
OPERATION_MODULES = (
    "skillc_gateway.operations",
    "skillc_lint.operations",
    "skillc_stats.operations",
)

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
        tool["outputSchema"] = {
            **tool["outputSchema"],
            "properties": {**tool["outputSchema"]["properties"], "warnings": WARNINGS},
        }
        tools[name] = tool
    return tuple(tools[f"skc_{command}"] for command in ORDER)


TOOLS = _tools()
