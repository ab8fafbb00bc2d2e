"""``tools`` and ``run`` as operations (:mod:`skillc_index.operation`): the commands of
gibb.eri.sh tool-defining skills (spec/003), in a module of their own so that ``skc tools``
and ``skc run`` (:mod:`skillc_gateway.cli_tools`) define no other operation. The operation
table, with these two, is :mod:`skillc_gateway.operations`.

Neither is an MCP tool (``no_tool`` says why): ``run`` starts a program a skill defines,
which a model must not start, and ``tools`` lists what only ``run`` can call.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal

from skillc_index.operation import SKILL_DESCRIPTION, Operation, Param, Session
from skillc_index.record import Record

if TYPE_CHECKING:
    from skillc_gateway._runner import RunPlan, RunResult
    from skillc_gateway._tools import ToolList
    from skillc_gateway.shapes import RunShape
    from skillc_index import Diagnostic, Notice

__all__ = [
    "RUN",
    "TOOLS",
    "RunOutcome",
    "RunParams",
    "ToolsParams",
]


# -- tools (spec/003 §3) ----------------------------------------------------------------------


class ToolsParams(Record):
    skill: Annotated[str, Param(SKILL_DESCRIPTION, argument=True, path=True, skill=True)]

    def log_args(self) -> dict[str, Any]:
        return {}  # and tool_count, once read


def tools(session: Session, params: ToolsParams) -> ToolList:
    """The tools ``params.skill`` defines; what is wrong with a definition is a warning."""
    from skillc_gateway._tools import list_tools

    args = params.log_args()
    with session.logged("tools", params.skill, args) as skill:
        found = list_tools(skill)
        args["tool_count"] = len(found.skill.tools)
    return found


TOOLS: Operation[ToolsParams, ToolList] = Operation(
    name="tools",
    title="List the tools a skill defines",
    description="List the tools of a gibb.eri.sh tool-defining skill: name, description, "
    "parameters (an MCP-style inputSchema) and command template. Nothing is run.",
    params=ToolsParams,
    run=tools,
    output="skillc_gateway.shapes:ToolsShape",
    no_tool="what it lists only `run` can call, and a model must not start a skill's "
    "programs (the MCP tool list is RFC-0007's and find)",
)


# -- run (spec/003 §3.4-§5) -------------------------------------------------------------------


class RunParams(Record):
    skill: Annotated[
        str,
        Param(
            "Skill name, looked up in the project store, then the global store (never a "
            "folder of the working directory: write './name' for one), an installed plugin's "
            "skill as plugin:skill, or a path to a folder holding SKILL.md.",
            argument=True,
            skill=True,
        ),
    ]
    tool: Annotated[str, Param("The tool to run (`tools` lists them).", argument=True)]
    arguments: Annotated[
        tuple[str, ...],
        Param(
            "The tool's arguments, each `name=value` (a name repeated for an array).",
            argument=True,
            metavar="[NAME=VALUE]...",
        ),
    ] = ()
    mode: Annotated[
        Literal["Global", "Dev", "Meeting"] | None,
        Param(
            "GIBBERISH_MODE for the tool (default: Global, or the skill's first mode).",
            help="GIBBERISH_MODE for the tool [default: Global, or the skill's first mode].",
        ),
    ] = None
    dry_run: Annotated[
        bool, Param("Show the argv, folder and timeout; run nothing.", flags=("-n", "--dry-run"))
    ] = False

    def log_args(self) -> dict[str, Any]:
        """The tool and the names of its arguments (never their values)."""
        names = sorted({word.partition("=")[0] for word in self.arguments})
        return {"tool": self.tool, "parameters": names, "dry_run": self.dry_run}


class RunOutcome(Record):
    """A run: its plan, and what the tool did (``finished``; None for a dry run)."""

    plan: RunPlan
    finished: RunResult | None
    warnings: tuple[Diagnostic | Notice, ...] = ()

    @property
    def exit_code(self) -> int:
        """The tool's exit status (0 for a dry run)."""
        return 0 if self.finished is None else self.finished.exit_code

    def to_dict(self) -> RunShape:
        """spec/003 §4.3's envelope; the plan for a dry run."""
        return self.plan.to_dict() if self.finished is None else self.finished.envelope()


def run(session: Session, params: RunParams) -> RunOutcome:
    """Run ``params.tool`` of ``params.skill`` (a bare name: the stores only), never through
    a shell; with ``dry_run``, only plan it. The tool's failures are the outcome's (its exit
    status, ``error``); E100 when it cannot start (an unknown tool or parameter, a bad value,
    a broken definition), E022 when its working folder cannot be entered."""
    from skillc_gateway._runner import assignments, folder_error, plan_run, run_tool

    values = assignments(params.arguments)
    args = params.log_args()
    with session.logged("run", params.skill, args, stores_only=True) as skill:
        plan = plan_run(skill, params.tool, values, mode=params.mode, start=session.layout.cwd)
        if params.dry_run:
            if not plan.cwd.is_dir():  # what starting it would say (E022), as a preview
                raise folder_error(plan.cwd)
            return RunOutcome(plan, None)
        finished = run_tool(plan)
        args.update(exit_code=finished.exit_code, duration_ms=finished.duration_ms)
    return RunOutcome(plan, finished)


RUN: Operation[RunParams, RunOutcome] = Operation(
    name="run",
    title="Run a tool of a skill",
    description="Run a tool of a gibb.eri.sh skill as program plus arguments, never through a "
    "shell, in a sanitised environment, within the skill's timeout; the result is spec/003's "
    "envelope (exit code, output, parsed JSON).",
    params=RunParams,
    run=run,
    output="skillc_gateway.shapes:RunShape",
    annotations={"readOnlyHint": False, "openWorldHint": True},
    no_tool="it runs a program a skill defines, with the user's rights; a model must not "
    "start it (a tool call may only read or build skills)",
)
