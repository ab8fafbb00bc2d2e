"""The ten tools of RFC-0007:C-COMMANDS as MCP tool definitions: plain data, no imports.

Each definition is what ``tools/list`` returns for the tool: ``name``, ``title``, a
``description`` that tells an agent when to reach for it, an exact ``inputSchema`` (the
registry's parameters, ``additionalProperties: false``, enums, minimums, defaults), an
``outputSchema`` (the object the tool's ``--format json`` prints, which is also the result's
``structuredContent``) and ``annotations``. Schemas use JSON Schema 2020-12, MCP's default
dialect. Output schemas list the keys every result has and allow more, so a later release may
add keys without breaking a client that validates.
"""

from __future__ import annotations

from typing import Any

SKILL = {
    "type": "string",
    "minLength": 1,
    "description": "Skill name (looked up in the project store .skillc/skills/, then the "
    "global store ~/.skillc/skills/) or a path to a folder holding SKILL.md, relative to the "
    "server's working directory or absolute. skc_list shows the names.",
}

MAX_LINES = {
    "type": "integer",
    "minimum": 0,
    "default": 500,
    "description": "Return at most this many lines (and at most 100,000 characters: whole "
    "lines, a longer single line is cut); `truncated` tells whether something was left out, "
    "`next_offset` where to read on.",
}

OFFSET = {
    "type": "integer",
    "minimum": 0,
    "default": 0,
    "description": "Skip this many lines first: pass the `next_offset` of the previous reply "
    "to read on.",
}

PAGE = {
    "offset": {"type": "integer", "description": "Lines skipped before `content`."},
    "next_offset": {
        "type": "integer",
        "description": "Present when lines are left: the `offset` that reads on.",
    },
}

WARNINGS = {
    "type": "array",
    "items": {"type": "string"},
    "description": "Warnings (warning[WXXX]: ... lines), present only when there are some.",
}

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


TREE_NODE = {
    "type": "object",
    "properties": {
        "name": STRING,
        "path": {"type": "string", "description": "Relative to the skill root ('' for it)."},
        "type": {"enum": ["directory", "file"]},
        "file_count": {"type": "integer", "description": "Files under a directory."},
        "children": {
            "type": "array",
            "items": {"$ref": "#/$defs/node"},
            "description": "Absent on a directory shown collapsed (depth reached).",
        },
    },
    "required": ["name", "path", "type"],
}

TOOLS: tuple[dict[str, Any], ...] = (
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
        "name": "skc_outline",
        "title": "Outline a skill",
        "description": "List the headings of every Markdown file of a skill (file, level, "
        "text, line), files in path order. Use it first to see what a skill covers without "
        "reading it, then read the section you need with skc_show.",
        "inputSchema": _object(
            {
                "skill": SKILL,
                "level": {
                    "type": "integer",
                    "minimum": 1,
                    "maximum": 6,
                    "description": "Only headings of this level or higher (1-6; default: all).",
                },
            },
            required=("skill",),
        ),
        "outputSchema": _output(
            {
                "skill": STRING,
                "headings": {
                    "type": "array",
                    "items": _output(
                        {
                            "file": STRING,
                            "level": {"type": "integer", "minimum": 1, "maximum": 6},
                            "text": STRING,
                            "line": INTEGER,
                        }
                    ),
                },
                "warnings": WARNINGS,
            },
            optional=("warnings",),
        ),
        "annotations": READ_ONLY,
    },
    {
        "name": "skc_show",
        "title": "Read a section of a skill",
        "description": "Read one section of a skill: the text under a heading down to the "
        "next heading of the same or a higher level. Use it after skc_outline or skc_search to "
        "read just the part you need instead of whole files. Matching ignores case, and a line "
        "copied from the skill's stub ('Heading — description') works. Needs a built index: "
        "on E002 run skc_build. On E020 the error lists similar headings to retry with.",
        "inputSchema": _object(
            {
                "skill": SKILL,
                "section": {
                    "type": "string",
                    "minLength": 1,
                    "description": "The heading text, without the leading #s.",
                },
                "file": {
                    "type": "string",
                    "description": "Only look in this file (relative to the skill root).",
                },
                "max_lines": MAX_LINES,
                "offset": OFFSET,
            },
            required=("skill", "section"),
        ),
        "outputSchema": _output(
            {
                "skill": STRING,
                "file": STRING,
                "section": {"type": "string", "description": "The heading found."},
                "level": INTEGER,
                "start_line": INTEGER,
                "end_line": {
                    "type": "integer",
                    "description": "The line after the section (the next heading, or EOF+1).",
                },
                "content": STRING,
                "total_lines": INTEGER,
                "shown_lines": INTEGER,
                "truncated": BOOLEAN,
                "matches": {
                    "type": "integer",
                    "description": "Headings that matched; the first is shown.",
                },
                **PAGE,
                "warnings": WARNINGS,
            },
            optional=("warnings", "next_offset"),
        ),
        "annotations": READ_ONLY,
    },
    {
        "name": "skc_open",
        "title": "Read a file of a skill",
        "description": "Read a file of a skill verbatim: references, scripts, data, any text "
        "file. Use it when one section is not enough, or for files that are not Markdown "
        "(listed by skc_sources, found by skc_search). `path` is relative to the skill root; a "
        "path leading outside the skill is refused (E012).",
        "inputSchema": _object(
            {
                "skill": SKILL,
                "path": {
                    "type": "string",
                    "minLength": 1,
                    "description": "File path relative to the skill root ('references/api.md').",
                },
                "max_lines": MAX_LINES,
                "offset": OFFSET,
                "hidden": {
                    "type": "boolean",
                    "default": False,
                    "description": "Also read a hidden file (a dot-file or dot-folder such as "
                    "'.env' or '.git/config'), which skc_sources does not list.",
                },
            },
            required=("skill", "path"),
        ),
        "outputSchema": _output(
            {
                "skill": STRING,
                "path": STRING,
                "content": STRING,
                "total_lines": INTEGER,
                "shown_lines": INTEGER,
                "truncated": BOOLEAN,
                **PAGE,
            },
            optional=("next_offset",),
        ),
        "annotations": READ_ONLY,
    },
    {
        "name": "skc_sources",
        "title": "List the files of a skill",
        "description": "List a skill's files as a tree, folders first (hidden files are not "
        "sources). Use it to see which files a skill has before reading one with skc_open.",
        "inputSchema": _object(
            {
                "skill": SKILL,
                "depth": {
                    "type": "integer",
                    "minimum": 1,
                    "description": "Show this many levels; deeper folders are collapsed with "
                    "their file count (default: all).",
                },
                "dir": {
                    "type": "string",
                    "description": "Only the tree under this folder (relative to the skill).",
                },
                "limit": {
                    "type": "integer",
                    "minimum": 0,
                    "default": 100,
                    "description": "Show at most this many entries.",
                },
                "pattern": {
                    "type": "string",
                    "description": "Only files matching this glob ('*.md', 'references/**').",
                },
            },
            required=("skill",),
        ),
        "outputSchema": {
            **_output(
                {
                    "skill": STRING,
                    "tree": {
                        "allOf": [{"$ref": "#/$defs/node"}],
                        "properties": {
                            "truncated": {
                                "type": "integer",
                                "description": "Entries left out by `limit`.",
                            }
                        },
                        "required": ["truncated"],
                    },
                }
            ),
            "$defs": {"node": TREE_NODE},
        },
        "annotations": READ_ONLY,
    },
    {
        "name": "skc_search",
        "title": "Search a skill",
        "description": "Full-text search (BM25) over the sections of a skill's .md and .txt "
        "files; every word of the query must appear, in any order. Returns the best sections "
        "first, each with its file, heading and a snippet marking hits as [MATCH]...[/MATCH]. "
        "Use it when you do not know which section holds the answer, then read it with "
        "skc_show (section and file from the result). Needs a built index: on E002 run "
        "skc_build.",
        "inputSchema": _object(
            {
                "skill": SKILL,
                "query": {"type": "string", "description": "Words to look for."},
                "limit": {
                    "type": "integer",
                    "minimum": 1,
                    "default": 10,
                    "description": "Return at most this many results.",
                },
            },
            required=("skill", "query"),
        ),
        "outputSchema": _output(
            {
                "query": STRING,
                "results": {
                    "type": "array",
                    "items": _output(
                        {
                            "file": STRING,
                            "section": STRING,
                            "snippet": STRING,
                            "score": {"type": "number", "description": "Higher is better."},
                        }
                    ),
                },
            }
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

#: Tool name -> the CLI command it mirrors (the ``command`` of its access-log rows).
COMMANDS: dict[str, str] = {tool["name"]: tool["name"].removeprefix("skc_") for tool in TOOLS}
