"""``eval`` as an operation (:mod:`skillc_index.operation`): will the agent pick each skill
for the requests it is meant for (issue 38)? The work is in :mod:`skillc_gateway.evaluate`;
the table of operations is :mod:`skillc_gateway.operations`.

The MCP tool scores offline only: ``init`` writes files and ``live`` starts the user's agent
command, which a model must not choose (``cli_only``).
"""

from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING, Annotated, Literal

from skillc_gateway._limits import MAX_FIND_PATHS
from skillc_index.arguments import MAX_SKILLS
from skillc_index.operation import Operation, Param, Session
from skillc_index.parameters import given
from skillc_index.record import Record

if TYPE_CHECKING:
    from skillc_gateway.evaluate.report import EvalResult

__all__ = ["EVAL", "EvalParams"]

_LIVE_ONLY = "it starts the user's agent command: never a model's choice"


class EvalParams(Record):
    skills: Annotated[
        tuple[str, ...],
        Param(
            "The skills whose trigger cases run: names of the library, or folders holding "
            "SKILL.md (a folder outside the library joins it). Default: every skill of the "
            "library that has cases.",
            argument=True,
            metavar="[SKILL]...",
            path=True,
            skill=True,
            max_items=MAX_SKILLS,  # names only (build's and lint's take paths: MAX_PATHS)
        ),
    ] = ()
    path: Annotated[
        tuple[str, ...],
        Param(
            "The library: the skills under these folders, each in the project, the home "
            "folder or a folder of installed skills (default: every installed skill the "
            "agent lists).",
            help="Score against the skills under this folder (repeatable) [default: every "
            "installed skill the agent lists].",
            metavar="DIR",
            path=True,
            names="dir",
            max_items=MAX_FIND_PATHS,  # find's folders: the same bound
        ),
    ] = ()
    library: Annotated[
        str | None,
        Param(
            "A named library: the folders of [libraries] NAME in the configuration (instead "
            "of path or every installed skill).",
            metavar="NAME",
            min_length=1,
        ),
    ] = None
    agent: Annotated[
        Literal["claude", "codex"],
        Param("The agent whose listing is scored: its cut of each entry and its budget."),
    ] = "claude"
    top: Annotated[
        int,
        Param(
            "A should-trigger case passes when the skill ranks within this many.",
            minimum=1,
            maximum=100,
            show_default=True,
        ),
    ] = 3
    mutate: Annotated[
        bool,
        Param(
            "Mutation check: remove each phrase of the description in turn and report the "
            "phrases the cases need and those no case tests.",
        ),
    ] = False
    min_recall: Annotated[
        float | None,
        Param(
            "Fail (exit 1) when a skill's recall is below this (0 to 1).",
            metavar="RATIO",
        ),
    ] = None
    max_false_triggers: Annotated[
        int | None,
        Param("Fail (exit 1) when a skill has more false triggers than this.", minimum=0),
    ] = None
    init: Annotated[
        bool,
        Param(
            "Write a starter evals/triggers.yaml for each SKILL instead (never replaces one "
            "without --force)."
        ),
    ] = False
    force: Annotated[
        bool,
        Param("With --init: replace an existing evals/triggers.yaml.", flags=("-f", "--force")),
    ] = False
    live: Annotated[
        str | None,
        Param(
            "Also run each case through this agent command (split into arguments, no shell; "
            "{query} and {skill} are replaced, else the query is the last argument), e.g. "
            "'claude -p --output-format stream-json --verbose'.",
            metavar="CMD",
        ),
    ] = None
    # the live mode's numbers are None when not given (their defaults are LiveOptions'): one
    # given without live is E100, whatever its value
    runs: Annotated[
        int | None,
        Param("With --live: runs per case [default: 3].", minimum=1, maximum=100),
    ] = None
    threshold: Annotated[
        float | None,
        Param(
            "With --live: the share of runs that must invoke the skill for it to count as "
            "triggered [default: 0.5].",
        ),
    ] = None
    live_timeout: Annotated[
        int | None,
        Param("With --live: seconds a run may take [default: 300].", minimum=1),
    ] = None
    live_pattern: Annotated[
        str | None,
        Param(
            "With --live: the regular expression that shows the skill was invoked in the "
            "output ({skill} is its folder name or its name, plugin:skill for a plugin's; "
            "{skill_md} a read of its SKILL.md) [default: a Skill tool call, a read of its "
            "SKILL.md, or a shell call of skc show/outline/open NAME].",
            metavar="REGEX",
        ),
    ] = None
    max_live_runs: Annotated[
        int | None,
        Param(
            "With --live: the agent runs (cases times --runs) this invocation may start; "
            "more stops it before any run [default: 300].",
            minimum=1,
            maximum=1_000_000,
            metavar="N",
        ),
    ] = None
    dry_run: Annotated[
        bool,
        Param(
            "With --live: show the arguments of each agent run; run no agent.",
            flags=("-n", "--dry-run"),
        ),
    ] = False


def _ratio(name: str, value: float | None, *, share: bool = False) -> None:
    """E100 for a ratio outside 0-1; for a ``share`` of runs (``threshold``), for 0 too: at
    0 a skill the agent never invoked counted as triggered (every should-not-trigger case a
    live failure, ``invoked 0/1``)."""
    from skillc_index.option_errors import ParameterError

    if share and value is not None and value == 0:
        raise ParameterError(
            f"{{{name}}} must be above 0 and at most 1, not {value}: it is the share of the "
            "runs that must invoke the skill (0.01 takes one run)"
        )
    if value is not None and not 0 <= value <= 1:
        raise ParameterError(f"{{{name}}} must be between 0 and 1, not {value}")


#: The live mode's parameters: given (whatever the value) without ``live``, they are E100.
_LIVE_ONLY_PARAMS = (
    "runs", "threshold", "live_timeout", "live_pattern", "max_live_runs", "dry_run",
)  # fmt: skip
#: What scores the cases, which ``init`` does not: given with it, E100.
_NOT_WITH_INIT = ("live", "mutate", "min_recall", "max_false_triggers")


def _goes_with(params: EvalParams) -> None:
    """E100 for a parameter given without the one it goes with (as ``stats --force`` without
    ``--html``): ``force`` without ``init``, the live mode's without ``live``; and for one
    that scores cases given with ``init``, which writes them. They were taken in silence,
    and did nothing."""
    from skillc_index.option_errors import ParameterError

    if not params.init and given(params, ("force",)):
        raise ParameterError("{force} goes with {init}")
    name = given(params, _NOT_WITH_INIT) if params.init else None
    if name is not None:
        raise ParameterError(f"{{{name}}} does not go with {{init}}")
    name = given(params, _LIVE_ONLY_PARAMS) if params.live is None else None
    if name is not None:
        raise ParameterError(f"{{{name}}} goes with {{live}}")


def evaluate(session: Session, params: EvalParams) -> EvalResult:
    """Not logged: it reads no skill for an agent (as ``find``). A session with
    ``confined_paths`` (the MCP server) has checked ``path`` and ``skills`` first
    (:meth:`~skillc_index.operation.Session.check_paths`), and checks the folders of
    ``library`` here, before any is walked."""
    from skillc_gateway.evaluate.run import EvalOptions, evaluate, init_cases

    _ratio("min_recall", params.min_recall)
    _ratio("threshold", params.threshold, share=True)
    _goes_with(params)
    live = None
    if params.live is not None:
        import shlex

        from skillc_gateway.evaluate.live import DEFAULT_PATTERN, LiveOptions, live_pattern

        try:
            command = tuple(shlex.split(params.live))
        except ValueError as exc:
            from skillc_index.option_errors import InvalidOption

            raise InvalidOption(f"live command: {exc}") from None
        if os.name != "posix":  # the agent runs in a process group of its own, as a tool does
            from skillc_index import UnsupportedPlatform

            raise UnsupportedPlatform("live mode needs a POSIX system (process groups)")
        # the command's check (check_command) is run.evaluate's, first: every caller passes
        pattern = params.live_pattern or DEFAULT_PATTERN
        try:  # as run_live compiles it for each skill, before any work
            live_pattern(pattern, "skill")
        except re.error as exc:
            from skillc_index.option_errors import InvalidOption

            raise InvalidOption(f"live pattern is not a regular expression: {exc}") from None
        live = LiveOptions(command, pattern=pattern)  # the defaults, then what was given
        if params.runs is not None:
            live = live._replace(runs=params.runs)
        if params.threshold is not None:
            live = live._replace(threshold=params.threshold)
        if params.live_timeout is not None:
            live = live._replace(timeout=float(params.live_timeout))
        if params.max_live_runs is not None:
            live = live._replace(max_runs=params.max_live_runs)
        live = live._replace(dry_run=params.dry_run)
    paths = params.path
    if params.library is not None:
        if paths:
            from skillc_index.option_errors import InvalidOption

            raise InvalidOption("give a library or paths, not both")
        layout = session.layout
        folders, left_out = session.config.library(params.library, layout.project_root, layout.home)
        session.warn(left_out)  # a project's folder outside it: left out, as its [targets]
        paths = tuple(str(folder) for folder in folders)
        # confined as ``path`` is (the MCP server): a project's [libraries] entry is a
        # checkout's choice, and it named folders outside the project, or ``/``
        session.confine("eval", f"--library {params.library}", paths)
    options = EvalOptions(
        project_paths=params.library is not None and session.config.project_library(params.library),
        skills=params.skills,
        paths=paths,
        agent=params.agent,
        top=params.top,
        mutate=params.mutate,
        min_recall=params.min_recall,
        max_false_triggers=params.max_false_triggers,
        live=live,
        confined=session.confined_paths,
    )
    if params.init:
        return init_cases(session.layout, session.config, options, params.force)
    return _fitted(session, evaluate(session.layout, session.config, options))


def _fitted(session: Session, result: EvalResult) -> EvalResult:
    """``result`` within the reply's bound (:meth:`~skillc_index.operation.Session.
    fit_parts`: the MCP tool's; 20 skills of 1,000 cases made 43 MB). The skills' summaries
    (their counts, recall, phrases, problems; those breaching a threshold first, then those
    failing a case), the collisions (worst first) and the breaches are fitted first, whole
    when they fit; then the cases' ``results`` of the skills listed, while they fit, the
    failed ones first (what a reader acts on), one of each skill's in turn (every skill shows
    some), each skill's in order."""
    if session.reply_chars is None:  # (the command line: every result)
        return result
    from itertools import compress

    from skillc_index.operation import Part

    breaching = {index for index, _ in result.breached}
    ranked = sorted(
        range(len(result.skills)),
        key=lambda i: (
            i not in breaching,
            all(case.passed for case in result.skills[i].cases),
            i,
        ),
    )
    bare = result._replace(skills=tuple(report._replace(shown=()) for report in result.skills))
    breaches = result.breaches()
    kept, cut = session.fit_parts(
        lambda: [
            Part("skills", [bare.skills[index].to_dict() for index in ranked]),
            Part("collisions", [collision.to_dict() for collision in result.collisions]),
            Part("breaches", breaches),
        ],
        "eval",
        "name fewer skills, or run `skc eval --format json` for every skill",
        beside=bare._replace(skills=(), collisions=(), breached=()).to_dict(),
        warnings=result.warnings,
    )
    if cut:
        listed = tuple(sorted(compress(ranked, kept[0])))
        result = result._replace(
            listed=listed,
            collisions=tuple(compress(result.collisions, kept[1])),
            listed_breaches=kept[2],
            warnings=(*result.warnings, *cut),
        )
        bare = bare._replace(listed=listed, collisions=result.collisions, listed_breaches=kept[2])
    turns: list[tuple[bool, int, int, int]] = []  # (passed, its turn, skill, case)
    for skill in result.listed if result.listed is not None else range(len(result.skills)):
        taken = {False: 0, True: 0}
        for case, scored in enumerate(result.skills[skill].cases):
            turns.append((scored.passed, taken[scored.passed], skill, case))
            taken[scored.passed] += 1
    order = [(skill, case) for _, _, skill, case in sorted(turns)]
    whole = "every skill's counts are whole; " if result.listed is None else ""
    kept_cases, cut = session.fit(
        lambda: [result.skills[skill].cases[case].to_dict() for skill, case in order],
        "eval",
        "case results",
        f"{whole}name fewer skills, or run `skc eval --format json` for every result",
        total=sum(len(report.cases) for report in result.skills),
        beside=bare.to_dict(),
        warnings=result.warnings,  # the cut of skills' warning too
    )
    if not cut:
        return result
    shown = set(compress(order, kept_cases))
    skills = tuple(
        report._replace(
            shown=tuple(
                scored for case, scored in enumerate(report.cases) if (skill, case) in shown
            )
        )
        for skill, report in enumerate(result.skills)
    )
    return result._replace(skills=skills, warnings=(*result.warnings, *cut))


EVAL: Operation[EvalParams, EvalResult] = Operation(
    name="eval",
    title="Test whether skills trigger",
    description="Score skills' trigger cases (evals/evals.json, evals/triggers.yaml...) "
    "offline against the listing an agent sees of the library (names and descriptions, as "
    "the agent cuts them): per skill the recall of its should-trigger cases within the top "
    "`top`, its false triggers, and for each miss the skill that took the request; and the "
    "collisions, pairs of skills that take each other's cases or whose descriptions are "
    "near-duplicates. Use it to check that a description makes the agent pick the skill.",
    params=EvalParams,
    run=evaluate,
    output="skillc_gateway.shapes:EvalShape",
    cli_only={
        "init": "it writes files into skills",
        "force": "it goes with init",
        "live": _LIVE_ONLY,
        **dict.fromkeys(_LIVE_ONLY_PARAMS, _LIVE_ONLY),
    },
)
