"""The commands of skillc-index as operations (:mod:`skillc_index.operation`): ``init``
(RFC-0006), ``list`` (RFC-0007:C-LIST) and ``build`` (RFC-0001, RFC-0007).

Each has its parameters record, its function and its result; the ``skc`` commands render
the result as text or JSON, the MCP server returns ``to_dict()``. ``init`` and ``list``
resolve no skill and log nothing; ``build`` logs after the build, or with its error when
the skill resolves. Only the standard library and :mod:`skillc_index.operation` are
imported here: the library loads when an operation runs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal, NamedTuple

from skillc_index.operation import (
    BOOLEAN,
    INTEGER,
    NULLABLE_INTEGER,
    NULLABLE_STRING,
    SKILL_DESCRIPTION,
    STRING,
    Operation,
    Param,
    Session,
    output_schema,
)

if TYPE_CHECKING:
    from skillc_index.build.scaffold import InitResult
    from skillc_index.build.skill import BuildResult
    from skillc_index.layout import Scope
    from skillc_index.listing.skills import SkillList

__all__ = [
    "BUILD",
    "INIT",
    "LIST",
    "OPERATIONS",
    "BuildParams",
    "InitParams",
    "ListParams",
]


# -- init (RFC-0006) ----------------------------------------------------------------------


class InitParams(NamedTuple):
    name: Annotated[
        str | None,
        Param("Name of the skill to create; omit to initialize the project only.", min_length=1),
    ] = None
    global_: Annotated[bool, Param("Create the skill in the global store (needs `name`).")] = False


def init(session: Session, params: InitParams) -> InitResult:
    """Not logged: it resolves no skill."""
    from skillc_index.build.scaffold import NameNeeded, init_project, init_skill

    if params.name is None:
        if params.global_:
            raise NameNeeded
        return init_project(session.layout)
    return init_skill(params.name, session.layout, global_store=params.global_)


INIT: Operation[InitParams, InitResult] = Operation(
    name="init",
    title="Create a skill (or a skillc project)",
    description="Create a new Agent Skill from the minimal SKILL.md template in the project "
    "store (.skillc/skills/NAME/, or with `global` in ~/.skillc/skills/NAME/); without "
    "`name`, make the server's working directory a skillc project (safe to repeat; adds "
    "what skillc generates to its .gitignore). Use when "
    "the user wants to write a new skill. Names use lowercase letters, digits and single "
    "hyphens (at most 64 characters). Never overwrites: an existing skill is error E050.",
    params=InitParams,
    run=init,
    output=output_schema(
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
            "gitignore": {
                "type": "array",
                "items": STRING,
                "description": "Lines added to the project's .gitignore: .skillc/runtime/, "
                ".skillc/logs/ and the default agent folder (.claude/skills/), each only where "
                "git tracks nothing in it.",
            },
        }
    ),
    annotations={
        "readOnlyHint": False,
        "destructiveHint": False,
        "idempotentHint": True,
        "openWorldHint": False,
    },
)


# -- list (RFC-0007:C-LIST) ---------------------------------------------------------------


class ListParams(NamedTuple):
    scope: Annotated[Literal["project", "global", "all"], Param("Which store to list.")] = "all"
    status: Annotated[
        Literal["normal", "not-built", "obsolete", "all"],
        Param("Only skills with this status (obsolete implies check_obsolete)."),
    ] = "all"
    limit: Annotated[
        int | None, Param("Return at most this many skills (default: all).", minimum=0)
    ] = None
    pattern: Annotated[str | None, Param("Only skills whose name matches this glob ('py*').")] = (
        None
    )
    check_obsolete: Annotated[
        bool, Param("Compare source hashes with the last build (slower).")
    ] = False
    budget: Annotated[
        bool,
        Param(
            "Also report, per existing agent skills folder of the scope (.claude/skills, "
            ".agents/skills, ...; project and home), the skill listing the agent pays for: "
            "estimated tokens of the skills' names and descriptions against the budget "
            "(default: Claude Code's 1% of a 200,000-token context) and which descriptions "
            "would be dropped."
        ),
    ] = False


def list_(session: Session, params: ListParams) -> SkillList:
    """Not logged: it resolves no skill."""
    from skillc_index.listing.skills import list_skills

    listed = list_skills(
        session.layout,
        scope=params.scope,
        status=params.status,
        pattern=params.pattern,
        limit=params.limit,
        check_obsolete=params.check_obsolete,
    )
    from dataclasses import replace

    from skillc_index.diagnostics import Notice

    kept = session.fitting([entry.to_dict() for entry in listed.skills])
    if kept < len(listed.skills):
        cut = Notice(
            f"list cut at {kept:,} of {listed.filtered:,} skills (the reply's limit of "
            f"{session.reply_chars:,} characters): narrow it with `pattern`, `scope` or `status`"
        )
        listed = replace(listed, skills=listed.skills[:kept], notices=(*listed.notices, cut))
    if not params.budget:
        return listed

    from skillc_index.listing.budget import listing_budgets

    scopes: tuple[Scope, ...] = ("project", "global") if params.scope == "all" else (params.scope,)
    budgets = listing_budgets(session.layout, session.config, scopes)
    notices = listed.notices + tuple(notice for folder in budgets for notice in folder.notices)
    return replace(listed, budget=budgets, notices=notices)


LIST: Operation[ListParams, SkillList] = Operation(
    name="list",
    title="List skills",
    description="List the skills skillc manages, project store first (found by walking up "
    "from the working directory), then the global store, each with its build status: normal "
    "(built), not-built, or with `check_obsolete` obsolete (changed since the last build). "
    "Use it to learn the names of the available skills before the other tools, or to find "
    "skills that need skc_build. With `budget`, it also says what each agent skills folder "
    "costs the agent's skill listing, against its budget.",
    params=ListParams,
    run=list_,
    output=output_schema(
        {
            "skills": {
                "type": "array",
                "items": output_schema(
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
            "budget": {
                "type": "array",
                "description": "With `budget`: one object per existing agent skills folder.",
                "items": output_schema(
                    {
                        "agent": STRING,
                        "scope": {"enum": ["project", "global"]},
                        "path": STRING,
                        "skills": {
                            "type": "integer",
                            "description": "Skills in the agent's listing.",
                        },
                        "tokens": {
                            "type": "integer",
                            "description": "Estimated tokens of the full listing (names and "
                            "descriptions, 4 characters a token).",
                        },
                        "names_tokens": {
                            "type": "integer",
                            "description": "Estimated tokens of the names alone (every "
                            "description dropped).",
                        },
                        "budget_tokens": INTEGER,
                        "over_budget": BOOLEAN,
                        "dropped": {
                            "type": "array",
                            "items": STRING,
                            "description": "Skills whose description the agent would leave "
                            "out, the first dropped first.",
                        },
                        "not_listed": {
                            "type": "integer",
                            "description": "Skills kept out of the listing "
                            "(disable-model-invocation).",
                        },
                        "entries": {
                            "type": "array",
                            "items": output_schema(
                                {
                                    "name": STRING,
                                    "folder": STRING,
                                    "kind": {"enum": ["folder", "symlink", "skillc"]},
                                    "tokens": INTEGER,
                                }
                            ),
                        },
                        "unreadable": {
                            "type": "array",
                            "description": "Entries skipped because they cannot be read "
                            "(their SKILL.md or folder): not counted in the listing.",
                            "items": output_schema({"folder": STRING, "reason": STRING}),
                        },
                        "error": {
                            **NULLABLE_STRING,
                            "description": "Why the folder cannot be listed (nothing of it is "
                            "counted), or null.",
                        },
                    }
                ),
            },
        },
        optional=("budget",),
    ),
)


# -- build (RFC-0001, RFC-0007) -----------------------------------------------------------


class BuildParams(NamedTuple):
    skill: Annotated[str, Param(SKILL_DESCRIPTION, min_length=1)]
    global_: Annotated[
        bool,
        Param(
            "Compile to the global runtime (~/.skillc/runtime/) and deploy to the home agent "
            "folders, whatever the source."
        ),
    ] = False
    target: Annotated[
        tuple[str, ...],
        Param(
            "Agents to deploy to (default ['claude']). Known: agents (.agents/skills), claude, "
            "codex, copilot, cursor, gemini, kiro, opencode, trae, and [targets] from config; "
            "a value with a '/' is a folder, which must be one of these agents' folders (or "
            "one the user allowed when starting the server).",
            item_min_length=1,
        ),
    ] = ()
    copy: Annotated[bool, Param("Copy the stub into agent folders instead of symlinking.")] = False
    force: Annotated[
        bool,
        Param(
            "Replace a different skill of the same name in the store, and move a folder "
            "skillc did not make at a deployment destination aside (to a hidden backup beside "
            "it, named in `backup`); nothing is deleted."
        ),
    ] = False

    def log_args(self) -> dict[str, Any]:
        return {
            "global": self.global_,
            "target": list(self.target),
            "copy": self.copy,
            "force": self.force,
        }


def build(session: Session, params: BuildParams) -> BuildResult:
    """Build and deploy; logged after the build, or with its error when the skill resolves.
    The session's ``check_targets`` sees the targets before anything is written."""
    from skillc_index.build.skill import build_skill

    layout = session.layout
    if session.check_targets is not None:
        session.check_targets(layout, params.target)
    config = session.config
    args = params.log_args()
    try:
        built = build_skill(
            params.skill,
            layout,
            targets=params.target,
            copy=params.copy,
            force=params.force,
            force_global=params.global_,
            config=config,
            progress=session.progress,
        )
    except Exception as exc:
        session.log.record_failure(
            layout, "build", params.skill, args, exc, force_global=params.global_
        )
        raise
    session.log.record(layout, built.skill, "build", args)
    return built


BUILD: Operation[BuildParams, BuildResult] = Operation(
    name="build",
    title="Build and deploy a skill",
    description="Compile a skill into its runtime (a short stub SKILL.md that points agents "
    "to these tools, a manifest and the search index) and deploy it to agent folders "
    "(default: claude, as a symlink). Run it after creating or editing a skill, and when "
    "skc_show or skc_search fail with E002 (index missing or stale). A path outside the "
    "stores is first imported (copied) into the project store. Rebuilding an unchanged skill "
    "only re-checks it. Without `force` it never replaces a different skill in the store nor "
    "a folder skillc did not create.",
    params=BuildParams,
    run=build,
    output=output_schema(
        {
            "skill": STRING,
            "scope": {"enum": ["project", "global"]},
            "source_path": STRING,
            "imported_from": NULLABLE_STRING,
            "import": {"enum": ["copy", "replace", "unchanged", None]},
            "runtime_path": STRING,
            "up_to_date": {"type": "boolean", "description": "Nothing needed rebuilding."},
            "source_hash": STRING,
            "files": INTEGER,
            "stub": STRING,
            "manifest": output_schema(
                {"skill": STRING, "version": INTEGER, "built_at": STRING, "source_hash": STRING}
            ),
            "index": output_schema(
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
                "items": output_schema(
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
    annotations={
        "readOnlyHint": False,
        "destructiveHint": True,
        "idempotentHint": True,
        "openWorldHint": False,
    },
    cli_only={
        "skills": "the command line builds several skills, or folders of skills, in one "
        "parallel run; the tool builds one (skill), and an agent calls it once per skill",
        "all_": "the command line rebuilds every skill of the stores at once, a long batch "
        "for a person or a script; the tool builds the one skill an agent works on",
    },
    mcp_only={"skill": "the command line takes any number of skills (skills)"},
)

OPERATIONS: tuple[Operation[Any, Any], ...] = (INIT, LIST, BUILD)
"""The operations of this package, in the order ``skc`` and the MCP server list them."""
