"""The commands of skillc-index as operations (:mod:`skillc_index.operation`): ``init``
(RFC-0006), ``list`` (RFC-0007:C-LIST) and ``build`` (RFC-0001, RFC-0007) here, ``package``
(issue 37) in :mod:`skillc_index.package.operation` and ``route install``, ``route
uninstall``, ``route status`` (issue 15) in :mod:`skillc_index.route.operations`;
:data:`OPERATIONS` lists them all.

Each has its parameters record, its function and its result; the ``skc`` commands are made
from them (:func:`skillc_index.console.command`) and render the result as text or JSON, the
MCP server returns ``to_dict()`` (the route operations are no tools: ``no_tool`` says why).
``init``, ``list`` and ``route`` resolve no skill and log nothing (a skill route builds is
logged as its build); ``build`` logs after the build, or with its error when the skill
resolves. Only the standard library, :mod:`skillc_index.operation`,
:mod:`skillc_index.arguments`, :mod:`skillc_index.record` and the two modules of operations
named above (which import no more) are imported here: the library loads when an operation
runs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal

from skillc_index.arguments import MAX_PATHS, MAX_PATTERN_CHARS, MAX_TARGETS
from skillc_index.operation import Operation, Param, Session
from skillc_index.package.operation import PACKAGE, PackageParams
from skillc_index.record import Record
from skillc_index.route.operations import (
    ROUTE_INSTALL,
    ROUTE_STATUS,
    ROUTE_UNINSTALL,
    RouteParams,
    RouteStatusParams,
)

if TYPE_CHECKING:
    from collections.abc import Mapping
    from pathlib import Path

    from skillc_index.build.batch import BatchResult
    from skillc_index.build.scaffold import InitResult
    from skillc_index.build.skill import BuildResult
    from skillc_index.diagnostics import Notice
    from skillc_index.layout import Scope
    from skillc_index.listing.skills import SkillList

__all__ = [
    "BUILD",
    "INIT",
    "LIST",
    "OPERATIONS",
    "PACKAGE",
    "ROUTE_INSTALL",
    "ROUTE_STATUS",
    "ROUTE_UNINSTALL",
    "BuildParams",
    "InitParams",
    "ListParams",
    "PackageParams",
    "RouteParams",
    "RouteStatusParams",
]


# -- init (RFC-0006) ----------------------------------------------------------------------


class InitParams(Record):
    name: Annotated[
        str | None,
        Param(
            "Name of the skill to create; omit to initialize the project only.",
            min_length=1,
            argument=True,
        ),
    ] = None
    global_: Annotated[
        bool,
        Param(
            "Create the skill in the global store (needs `name`).",
            flags=("-g", "--global"),
            help="Create the skill in the global store.",
        ),
    ] = False


def init(session: Session, params: InitParams) -> InitResult:
    """Not logged: it resolves no skill. ``global_`` without ``name``: NameNeeded (E100)."""
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
    output="skillc_index.build.shapes:InitShape",
    annotations={
        "readOnlyHint": False,
        "destructiveHint": False,
        "idempotentHint": True,
        "openWorldHint": False,
    },
)


# -- list (RFC-0007:C-LIST) ---------------------------------------------------------------


class ListParams(Record):
    scope: Annotated[Literal["project", "global", "all"], Param("Which store to list.")] = "all"
    status: Annotated[
        Literal["normal", "stale", "not-built", "obsolete", "indexed", "not-indexed", "all"],
        Param(
            "Only skills with this status (obsolete: a build out of date, and implies "
            "check_obsolete; stale: those, and a skill skillc does not manage changed since "
            "its index was made; indexed and not-indexed: the skills skillc does not manage).",
            help="Only skills with this status (obsolete: a build out of date, and implies "
            "--check-obsolete; stale: those, and skills skillc does not manage changed since "
            "their index was made; indexed, not-indexed: skills skillc does not manage).",
        ),
    ] = "all"
    limit: Annotated[
        int | None,
        Param(
            "Return at most this many skills (default: all).",
            minimum=0,
            help="Show at most this many skills (default: all).",
        ),
    ] = None
    pattern: Annotated[
        str | None,
        Param(
            "Only skills whose name matches this glob ('py*').",
            min_length=1,
            max_length=MAX_PATTERN_CHARS,
            metavar="GLOB",
            help="Only skills whose name matches this glob.",
        ),
    ] = None
    managed: Annotated[
        bool,
        Param(
            "Only the skills skillc manages (those of the stores, deployed or not).",
            help="Only skillc-managed skills (those of the stores).",
        ),
    ] = False
    agent: Annotated[
        str | None,
        Param(
            "Only the skills this agent sees: claude, agents (.agents/skills), codex, "
            "copilot, cursor, gemini, kiro, opencode, trae, or a [targets] name from config.",
            min_length=1,
            max_length=200,
            metavar="AGENT",
            help="Only the skills this agent sees (claude, cursor, agents, ... or a [targets] "
            "name).",
        ),
    ] = None
    check_obsolete: Annotated[
        bool,
        Param(
            "Hash every source file to compare with the last build, not trusting file stats "
            "(slower); a changed skill is then 'obsolete' (RFC-0007's name) instead of 'stale'.",
            help="Hash every source file to compare with the last build (slower); a changed "
            "skill is then 'obsolete' instead of 'stale'.",
        ),
    ] = False
    budget: Annotated[
        bool,
        Param(
            "Also report, per existing agent skills folder of the scope (.claude/skills, "
            ".agents/skills, ...; project and home), the skill listing the agent pays for: "
            "estimated tokens of the skills' names and descriptions against the budget "
            "(default: Claude Code's 1% of a 200,000-token context) and which descriptions "
            "would be dropped.",
            help="Show instead what each agent skills folder (project and home) costs the "
            "agent's skill listing: estimated tokens against the budget ([budget] in config; "
            "default 1% of a 200,000-token context) and the descriptions the agent would drop.",
        ),
    ] = False
    apply: Annotated[
        Literal["overrides"] | None,
        Param(
            "Apply a suggestion of the budget: overrides sets Claude Code's skillOverrides to "
            "name-only for the skills whose descriptions an over-budget .claude/skills folder "
            "drops (the least used), in .claude/settings.local.json (project) or "
            "~/.claude/settings.json (home), keeping every other setting.",
            help="With --budget, apply a suggestion: overrides sets Claude Code's "
            'skillOverrides to "name-only" for the skills whose descriptions an over-budget '
            ".claude/skills folder drops (the least used), in .claude/settings.local.json "
            "(project) or ~/.claude/settings.json (home).",
        ),
    ] = None
    dry_run: Annotated[
        bool,
        Param(
            "With apply, show what would change; write nothing.",
            flags=("-n", "--dry-run"),
            help="With --apply, show what would change; write nothing.",
        ),
    ] = False
    reset: Annotated[
        bool,
        Param(
            "With apply, take out instead every entry it set (those skillc recorded), "
            "leaving the user's own.",
            help="With --apply overrides, take out instead every skillOverrides entry skillc "
            "set (its record, ~/.skillc/listing-overrides.json) and forget them; the user's "
            "own entries, and those the user changed since, are left as they are.",
        ),
    ] = False


def list_(session: Session, params: ListParams) -> SkillList:
    """Not logged: it resolves no skill. ``apply`` (the command line's) writes Claude Code's
    settings (:func:`skillc_index.listing.overrides.apply_overrides`) and prices the folders
    again from what it wrote, or with ``reset`` takes out what it set
    (:func:`~skillc_index.listing.overrides.reset_overrides`); ``dry_run`` or ``reset``
    without it is E100."""
    if params.apply is None and (params.dry_run or params.reset):
        from skillc_index.option_errors import ParameterError

        raise ParameterError(("{dry_run}" if params.dry_run else "{reset}") + " goes with {apply}")
    if params.apply is not None and not params.budget:
        params = params._replace(budget=True)
    from skillc_index.inventory.folders import trusted_targets
    from skillc_index.listing.skills import list_skills

    listed = list_skills(
        session.layout,
        scope=params.scope,
        status=params.status,
        pattern=params.pattern,
        limit=params.limit,
        check_obsolete=params.check_obsolete,
        managed=params.managed,
        agent=params.agent,
        configured=trusted_targets(session.layout, session.config),
        store_notices_only=params.budget,  # the budgets report the agent folders' problems
    )
    if not params.budget:
        return listed.fitted(session)
    from dataclasses import replace

    from skillc_index.listing.budget import listing_budgets, unused_project_budgets
    from skillc_index.listing.overrides import apply_overrides, claude_overrides, reset_overrides
    from skillc_index.listing.usage import skill_usage

    layout, config = session.layout, session.config
    scopes: tuple[Scope, ...] = ("project", "global") if params.scope == "all" else (params.scope,)
    strict = params.apply is not None  # a file it may change must be read, not skipped
    found = claude_overrides(layout, strict=strict)
    # priced up to three times with --apply: the skills' usage (every access log) read once;
    # each time of the skills the listing found (the inventory is not walked a second time)
    installed = listed.installed
    usage = skill_usage(layout, config, installed) if params.apply is not None else None
    budgets = listing_budgets(layout, config, scopes, found, params.agent, usage, installed)
    plans = None
    applied: tuple[Notice, ...] = ()
    if params.reset:
        plans = reset_overrides(layout, scopes, dry_run=params.dry_run)
    elif params.apply is not None:
        planning = budgets  # priced without skillc's own entries, which it may change
        if found.ours:
            planning = listing_budgets(
                layout, config, scopes, found.planning(), params.agent, usage, installed
            )
        plans, applied = apply_overrides(planning, layout, found, dry_run=params.dry_run)
    if plans is not None and any(plan.written for plan in plans):  # priced again as written
        found = claude_overrides(layout, strict=strict)
        budgets = listing_budgets(layout, config, scopes, found, params.agent, usage, installed)
    notices = listed.notices + found.notices + applied
    notices += unused_project_budgets(layout, config, found, budgets)
    notices += tuple(notice for folder in budgets for notice in folder.notices)
    # fitted with its budgets (they were left out of the reply's bound: 562 skills, 231 K)
    return replace(listed, budget=budgets, overrides=plans, notices=notices).fitted(session)


LIST: Operation[ListParams, SkillList] = Operation(
    name="list",
    title="List skills",
    description="List the installed skills: those skillc manages (the project store, found by "
    "walking up from the working directory, then the global store), then every other skill "
    "of the agents' skills folders (project and home) and of installed Claude Code plugins, "
    "project ones first, each with its status (a store skill: normal (built and current), "
    "stale (its sources changed since the last build; `obsolete` with `check_obsolete`) or "
    "not-built; any other: indexed, stale or not-indexed), where it is and the agents that "
    "see it. Every skill can be read (skc_show, skc_search...) built or not. Use it to learn "
    "the names of the available skills before the other tools (each name here is one they "
    "accept), or with `managed` the skills whose build (the stub agents load) is out of "
    "date. With `budget`, it also says what each agent skills folder costs the agent's skill "
    "listing, against its budget.",
    params=ListParams,
    run=list_,
    output="skillc_index.listing.shapes:ListShape",
    cli_only={
        "apply": "it writes the agent's own settings (which skills it lists by name only): "
        "a person decides that, on the command line",
        "dry_run": "it goes with apply, which only the command line has",
        "reset": "it goes with apply, which only the command line has",
    },
)


# -- build (RFC-0001, RFC-0007) -----------------------------------------------------------


STORE_SKILL_DESCRIPTION = (
    "Skill name (looked up in the project store .skillc/skills/, then the global store "
    "~/.skillc/skills/) or a path to a folder holding SKILL.md, relative to the working "
    "directory or absolute. skc_list shows the names."
)
"""The ``skill`` parameter of a command that takes a store skill by name (``build``)."""


class BuildParams(Record):
    """What to build and how: the tool's one ``skill``, or the command line's ``skills``
    (names, skill folders, folders of skills) and ``all_`` (every skill of the stores), a
    batch when they stand for several (:func:`~skillc_index.build.jobs.is_batch`)."""

    skill: Annotated[str | None, Param(STORE_SKILL_DESCRIPTION, path=True)]
    skills: Annotated[
        tuple[str, ...],
        Param(
            "Skill names, skill folders or folders of skills to build.",
            argument=True,
            metavar="SKILL...",
            skill=True,
            max_items=MAX_PATHS,
        ),
    ] = ()
    all_: Annotated[
        bool,
        Param(
            "Build every skill of the project and global stores (a skill imported from a "
            "folder is imported again from it; without --target, each for the targets it is "
            "deployed to)."
        ),
    ] = False
    global_: Annotated[
        bool,
        Param(
            "Compile to the global runtime (~/.skillc/runtime/) and deploy to the home agent "
            "folders, whatever the source.",
            flags=("-g", "--global"),
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
            max_items=MAX_TARGETS,
            flags=("-t", "--target"),
            metavar="AGENTS",
            help="Agents to deploy to, comma-separated or repeated (default: claude). Known: "
            "agents (.agents/skills), claude, codex, copilot, cursor, gemini, kiro, opencode, "
            "trae, and [targets] from config; a value with a '/' is a folder.",
        ),
    ] = ()
    copy: Annotated[bool, Param("Copy the stub into agent folders instead of symlinking.")] = False
    force: Annotated[
        bool,
        Param(
            "Replace a different skill of the same name in the store, move a folder "
            "skillc did not make at a deployment destination aside (to a hidden backup beside "
            "it, named in `backup`; nothing is deleted), and recompile even an up-to-date "
            "skill.",
            flags=("-f", "--force"),
            help="Replace a different skill of the same name in the store when importing a "
            "path, move aside (never delete) a folder skillc did not make at a deployment "
            "destination, and recompile even an up-to-date skill.",
        ),
    ] = False

    def log_args(self) -> dict[str, Any]:
        return {
            "global": self.global_,
            "target": list(self.target),
            "copy": self.copy,
            "force": self.force,
        }


def build(session: Session, params: BuildParams) -> BuildResult | BatchResult:
    """Build and deploy one skill (:func:`build_one`), or the batch the command line's
    ``skills`` and ``all_`` stand for (:func:`~skillc_index.build.batch.build_batch`: each
    skill built and logged as one, one failure stopping none of the others). The session's
    ``check_targets`` sees the targets before anything is written. Its warnings end with
    one, once, when ``skc`` (which the stub tells agents to run) is not on ``PATH``
    (:func:`~skillc_index.programs.skc_missing`). Raises
    :class:`~skillc_index.build.jobs.NoSkillToBuild` (E100) when no skill is given."""
    from skillc_index.programs import skc_missing

    if session.check_targets is not None:
        session.check_targets(session.layout, params.target)
    missing = skc_missing("the stub")
    result: BuildResult | BatchResult | None = None
    if params.skill is None or params.skills or params.all_:  # the command line's forms
        from skillc_index.build.batch import build_batch
        from skillc_index.build.jobs import NoSkillToBuild, is_batch

        if is_batch(params, session):
            result = build_batch(session, params)
        elif not params.skills:
            raise NoSkillToBuild
        else:
            params = params._replace(skill=params.skills[0], skills=())
    if result is None:
        result = build_one(session, params)
    from skillc_index.route.parked import refresh_routers

    for notice in refresh_routers(session.layout):  # a router an older skillc wrote
        result = result.with_notice(notice)
    return result if missing is None else result.with_notice(missing)


def build_one(
    session: Session,
    params: BuildParams,
    *,
    deploys: bool = True,
    routed: Mapping[Scope, Mapping[str, Path]] | None = None,
) -> BuildResult:
    """Build and deploy ``params.skill`` (not ``deploys``: to no target, copies made before
    refreshed alone; ``routed``: each scope's skills behind a router, read once for a
    batch, :func:`~skillc_index.build.skill.build_skill`); logged after the build, or with its
    error when the skill resolves."""
    from skillc_index.build.skill import build_skill

    if params.skill is None:
        raise TypeError("build_one() builds one skill: params.skill names it")
    layout = session.layout
    config = session.config
    args = params.log_args()
    try:
        built = build_skill(
            params.skill, layout, targets=params.target, copy=params.copy, force=params.force,
            force_global=params.global_, config=config, progress=session.progress,
            deploys=deploys, routed=routed,
        )  # fmt: skip
    except Exception as exc:
        from skillc_index.diagnostics import NotASkill

        error = exc
        if isinstance(exc, NotASkill):  # a folder skc package wrote: the hint says so
            from os import fspath

            from skillc_index.build.jobs import package_output

            error = package_output(exc, fspath(params.skill), layout)
        session.log.record_failure(
            layout, "build", params.skill, args, error, force_global=params.global_
        )
        if error is exc:
            raise
        raise error from None
    session.log.record(layout, built.skill, "build", args)
    return built


BUILD: Operation[BuildParams, BuildResult | BatchResult] = Operation(
    name="build",
    title="Build and deploy a skill",
    description="Compile a skill into its runtime (a short stub SKILL.md that points agents "
    "to these tools, a manifest and the search index) and deploy it to agent folders "
    "(default: claude, as a symlink). Run it after creating or editing a skill, so agents "
    "load the new stub (reading a skill with skc_show or skc_search needs no build). A path "
    "outside the stores is first imported (copied) into the project store. Rebuilding an "
    "unchanged skill only re-checks it. Without `force` it never replaces a different skill in "
    "the store nor a folder skillc did not create.",
    params=BuildParams,
    run=build,
    output="skillc_index.build.shapes:BuildShape",
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


OPERATIONS = (INIT, LIST, BUILD, PACKAGE, ROUTE_INSTALL, ROUTE_UNINSTALL, ROUTE_STATUS)
"""The operations of this package, in the order ``skc`` and the MCP server list them (the
route operations are no tools)."""
