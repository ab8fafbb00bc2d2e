"""The result of ``skc eval`` and its renderings: the JSON (``to_dict``), the table for
people, SARIF 2.1.0 and GitHub annotations (each finding at the description line of the
skill's ``SKILL.md``, where the fix goes), and the thresholds' verdict."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import compress
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from skillc_gateway.evaluate.live import LiveCase
    from skillc_gateway.evaluate.overlap import Collision, PhraseCheck
    from skillc_gateway.shapes import CaseShape, EvalShape, PlannedShape, SkillEvalShape
    from skillc_index import Diagnostic, Notice

__all__ = [
    "CaseResult",
    "EvalResult",
    "PlannedRun",
    "SkillReport",
    "github_lines",
    "sarif_log",
    "table",
]


class CaseResult(NamedTuple):
    query: str
    should_trigger: bool
    file: str
    place: int | None
    """The skill's place in the ranking (1 the best; a tie counts against it), None when
    the request does not rank it."""
    passed: bool
    taken_by: str | None
    """The skill ranked first when it is not this one (for a miss: who took the request)."""
    live: LiveCase | None = None
    checks: int = 0
    """The eval's ``assertions`` (or ``expectations``): counted, not run."""
    id: int | None = None
    """The eval's integer ``id`` (None: it has none, or one that is no integer)."""

    def to_dict(self) -> CaseShape:
        found: CaseShape = {
            "query": self.query,
            "should_trigger": self.should_trigger,
            "file": self.file,
            "place": self.place,
            "passed": self.passed,
            "taken_by": self.taken_by,
            "checks": self.checks,
            "id": self.id,
        }
        if self.live is not None:
            found["live"] = self.live.to_dict()
        return found


class PlannedRun(NamedTuple):
    """A case's agent runs as ``--live`` plans them (:func:`.live.argv_of`): what
    ``--dry-run`` shows, the bound counts and :func:`.live.run_live` runs."""

    skill: str
    query: str
    argv: tuple[str, ...]
    runs: int
    """Times it runs (``--runs``; 0 for a refused case)."""
    refused: str | None = None
    """Why the case is not run (:class:`.live.RefusedRequest`), None: it runs."""

    def to_dict(self) -> PlannedShape:
        return {"skill": self.skill, "query": self.query, "argv": list(self.argv),
                "runs": self.runs, "refused": self.refused}  # fmt: skip


class SkillReport(NamedTuple):
    name: str
    skill_file: str
    """Its ``SKILL.md``."""
    line: int
    """The line of its description."""
    listed: str
    """How the agent lists it: full, shortened, name-only, omitted; or routed (behind the
    router of ``skc route``: ranked as ``skc find`` ranks it)."""
    cases: tuple[CaseResult, ...]
    problems: tuple[str, ...] = ()
    phrases: tuple[PhraseCheck, ...] = ()
    shown: tuple[CaseResult, ...] | None = None
    """The cases whose results the JSON lists when not all (a reply's bound: the MCP tool's),
    None: all. The counts are of every case."""

    @property
    def should(self) -> list[CaseResult]:
        return [case for case in self.cases if case.should_trigger]

    @property
    def recall(self) -> float | None:
        """Should-trigger cases passed, over all of them (None without any)."""
        should = self.should
        return sum(case.passed for case in should) / len(should) if should else None

    @property
    def false_triggers(self) -> int:
        return sum(1 for case in self.cases if not case.should_trigger and not case.passed)

    @property
    def untriggerable(self) -> bool:
        """The listing shows no description to choose it by: its cases cannot trigger it
        by description."""
        return self.listed in ("name-only", "omitted")

    def to_dict(self) -> SkillEvalShape:
        return {
            "name": self.name,
            "skill_file": self.skill_file,
            "line": self.line,
            "listed": self.listed,
            "untriggerable": self.untriggerable,
            "cases": len(self.cases),
            "recall": None if self.recall is None else round(self.recall, 4),
            "false_triggers": self.false_triggers,
            "results": [
                case.to_dict() for case in (self.cases if self.shown is None else self.shown)
            ],
            "problems": list(self.problems),
            "phrases": [check.to_dict() for check in self.phrases],
        }


class EvalResult(NamedTuple):
    agent: str
    top: int
    library: int
    """Skills in the library."""
    skills: tuple[SkillReport, ...]
    collisions: tuple[Collision, ...]
    breached: tuple[tuple[int | None, str], ...] = ()
    """What breaks the thresholds (:func:`breaches_of`), each with the index of the skill that
    breaks it, None for the run as a whole (none: the run passes): found once, when the skills
    are scored."""
    warnings: tuple[Diagnostic | Notice, ...] = ()
    written: tuple[str, ...] = ()
    """``--init``: the files written."""
    kept: tuple[str, ...] = ()
    """``--init``: the files that held the very starter text already, left as they are."""
    listed: tuple[int, ...] | None = None
    """The indexes of the skills whose summaries the JSON lists when not all (a reply's
    bound: the MCP tool's), None: all. :meth:`breaches` are of every skill."""
    listed_breaches: tuple[bool, ...] | None = None
    """Which of :meth:`breaches` the JSON lists (a mask of them: a reply's bound), None: all."""
    planned: tuple[PlannedRun, ...] = ()
    """``--live --dry-run``: the agent runs planned, none started (the cases' ``live`` absent),
    and the cases refused."""
    dry_run: bool = False
    """``--live --dry-run``: :attr:`planned` is the plan (empty: no case to run)."""
    routed: int = 0
    """Skills of the library behind a router of ``skc route`` (not in the listing)."""
    unscored: int = 0
    """Installed skills with trigger cases left out of the library (:func:`breaches_of`)."""

    def breaches(self) -> list[str]:
        """:attr:`breached`, a line each (``name: what``; the run's: ``what``)."""
        return [
            text if index is None else f"{self.skills[index].name}: {text}"
            for index, text in self.breached
        ]

    def to_dict(self) -> EvalShape:
        found: EvalShape = {
            "agent": self.agent,
            "top": self.top,
            "library": self.library,
            "routed": self.routed,
            "skills": [
                skill.to_dict()
                for index, skill in enumerate(self.skills)
                if self.listed is None or index in self.listed
            ],
            "collisions": [collision.to_dict() for collision in self.collisions],
            "breaches": self.breaches()
            if self.listed_breaches is None
            else list(compress(self.breaches(), self.listed_breaches)),
            "written": list(self.written),
            "kept": list(self.kept),
        }
        if self.dry_run:
            found["planned"] = [run.to_dict() for run in self.planned]
        return found


def breaches_of(
    skills: Sequence[SkillReport],
    min_recall: float | None,
    max_false_triggers: int | None,
    unscored: Sequence[str] = (),
    agent: str = "the agent",
) -> tuple[tuple[int | None, str], ...]:
    """What breaks the thresholds, each with the index of the skill in ``skills`` that breaks
    it (none: the run passes). Under a threshold, a skill reported without a case to score
    breaks it: one named, or one whose case files hold none that can be read (a skill of the
    library without any case file is not reported); and so does each installed skill with
    trigger cases left out of the library (``unscored``: ``agent`` neither lists it nor
    reaches it through a router; index None, the skill named in the text): a gate never
    passes leaving a skill with cases unscored (without a threshold a warning says so).

    With ``--live`` the thresholds hold for the agent's outcomes as well as the offline ones
    (adding ``--live`` never makes a gate laxer): the live recall is the should-trigger cases
    that passed live over all of them, a live false trigger a should-not-trigger case the
    agent triggered on; and a case whose agent runs failed, or that was not run, breaks them
    (it says nothing of the agent's choice), the first reason given."""
    found: list[tuple[int | None, str]] = []
    gated = min_recall is not None or max_false_triggers is not None
    if gated:
        found += (
            (None, f"{name}: not scored: {agent} neither lists it nor reaches it through a "
                   "router; name the skills or give --path/--agent")
            for name in unscored
        )  # fmt: skip
    for index, skill in enumerate(skills):
        if gated and not skill.cases:
            found.append((index, "no trigger case to score"))
            continue
        recall = skill.recall
        if min_recall is not None and recall is not None and recall < min_recall:
            # the ratio, and the threshold as given: never "0.67 < 0.67"
            passed = sum(case.passed for case in skill.should)
            found.append((index, f"recall {passed}/{len(skill.should)} < {min_recall:g}"))
        if max_false_triggers is not None and skill.false_triggers > max_false_triggers:
            found.append((index, f"{skill.false_triggers} false triggers > {max_false_triggers}"))
        if gated:
            found += (
                (index, text) for text in _live_breaches(skill, min_recall, max_false_triggers)
            )
    return tuple(found)


def _live_breaches(
    skill: SkillReport, min_recall: float | None, max_false_triggers: int | None
) -> list[str]:
    """What of ``skill``'s live outcomes breaks the thresholds (:func:`breaches_of`)."""
    from skillc_index.text import counted, one_line

    live = [(case, case.live) for case in skill.cases if case.live is not None]
    found: list[str] = []
    failed = [result for _, result in live if result.errors]
    if failed:
        why = one_line(failed[0].errors[0])
        found.append(f"live: {counted(len(failed), 'case')} not scored by the agent ({why})")
    should = [result for case, result in live if case.should_trigger]
    passed = sum(result.passed for result in should)
    if min_recall is not None and should and passed / len(should) < min_recall:
        found.append(f"live recall {passed}/{len(should)} < {min_recall:g}")
    false = sum(1 for case, result in live if not case.should_trigger and result.triggered)
    if max_false_triggers is not None and false > max_false_triggers:
        found.append(f"live: {false} false triggers > {max_false_triggers}")
    return found


def _percent(value: float | None) -> str:
    return "-" if value is None else f"{value * 100:.0f}%"


def table(result: EvalResult, echo: Callable[[str], None], limit: int = 10) -> None:
    """The text for people: a row per skill, then its misses (who took the request), its
    false triggers and phrases, then the worst ``limit`` collisions."""
    from skillc_index.text import counted, one_line, printable

    def label(text: str) -> str:
        """A name or a message on one line, its bidirectional and zero-width characters as
        escapes (``\\u202e``): a request or a phrase is shown by :func:`quoted`."""
        return printable(one_line(text))

    def quoted(text: str) -> str:
        """A request or a phrase quoted as Python writes a string, on one line, each control
        or format character one escape (``'\\x1b[8mdelete'``), never raw nor a space, and
        what else shows as nothing escaped as :func:`printable` does: as the annotations
        quote it."""
        return printable(repr(text))

    if result.written or result.kept:
        for path in result.written:
            echo(f"wrote {path}")
        for path in result.kept:
            echo(f"kept {path}: it holds the starter text already")
        return
    routed = f" and {result.routed:,} behind its router" if result.routed else ""
    echo(
        f"{result.agent} listing of {counted(result.library - result.routed, 'skill')}{routed}; "
        f"a should-trigger case passes within the top {result.top}"
    )
    if result.dry_run:  # even when every case is refused: a plan of none
        from skillc_index.text import shell_word

        runs = sum(run.runs for run in result.planned)
        echo(f"dry run: --live would start the agent {runs:,} times; none started:")
        for run in result.planned:
            if run.refused is None:
                # the words that run, each one shell word (a request's lines escaped, $'...')
                words = " ".join(shell_word(word) for word in run.argv)
                echo(f"  {label(run.skill)} x{run.runs}: {words}")
            else:
                echo(f"  {label(run.skill)} refused: {quoted(run.query)}: {label(run.refused)}")
    if not result.skills and result.unscored:
        echo(f"No case scored: {counted(result.unscored, 'installed skill')} with trigger "
             f"cases left out of the {result.agent} library (the warning names them).")  # fmt: skip
    elif not result.skills:
        echo("No trigger cases found (evals/evals.json, evals/triggers.yaml...): "
             "start one with skc eval --init SKILL.")  # fmt: skip
    rows = [["SKILL", "CASES", f"RECALL@{result.top}", "FALSE", "LISTED"]]
    for skill in result.skills:
        rows.append(
            [label(skill.name), str(len(skill.cases)), _percent(skill.recall),
             str(skill.false_triggers), skill.listed]
        )  # fmt: skip
    if result.skills:
        from skillc_index import table_lines

        for line in table_lines(rows):
            echo(line)
    for skill in result.skills:
        notes = [
            f"  miss: {quoted(case.query)} -> "
            + (f"taken by {label(case.taken_by)}" if case.taken_by else "no skill ranks it")
            + ("" if case.place is None else f" (place {case.place})")
            for case in skill.cases
            if case.should_trigger and not case.passed
        ]
        notes += [
            f"  false trigger: {quoted(case.query)}"
            for case in skill.cases
            if not case.should_trigger and not case.passed
        ]
        if not skill.cases:  # a case file of none, or a skill named without one
            notes.append("  no trigger case to score")
        if skill.untriggerable:
            notes.append(f"  listed {skill.listed}: its cases cannot trigger it by description")
        notes += [f"  phrase {check.effect}: {quoted(check.phrase)}" for check in skill.phrases]
        notes += [f"  {label(problem)}" for problem in skill.problems]
        live = [case for case in skill.cases if case.live is not None]
        if live:
            agreed = sum(1 for case in live if case.live and case.live.passed == case.passed)
            notes.append(f"  live: {agreed} of {len(live)} cases agree with offline")
            for case in live:
                assert case.live is not None
                verdict = "pass" if case.live.passed else "FAIL"
                how = f"live {verdict} (invoked {case.live.invoked}/{case.live.runs})" + (
                    f"; {len(case.live.errors)} runs failed" if case.live.errors else ""
                )
                if not case.live.runs:
                    how = "live not run: " + label("; ".join(case.live.errors))
                notes.append(
                    f"    {quoted(case.query)}: offline {'pass' if case.passed else 'FAIL'}, " + how
                )
        if notes:
            echo(f"{label(skill.name)}:")
            for note in notes:
                echo(note)
    if result.collisions:
        echo("collisions (worst first):")
        for collision in result.collisions[:limit]:
            how = f"similarity {collision.similarity:.2f}"
            first, second = label(collision.first), label(collision.second)
            for taker, count, loser in (
                (second, collision.first_lost, first),
                (first, collision.second_lost, second),
            ):
                if count:
                    how += f", {taker} takes {count} of {loser}'s cases"
            phrases = "; ".join(label(phrase) for phrase in collision.phrases[:3])
            echo(f"  {first} <-> {second}: {how}" + (f" ({phrases})" if phrases else ""))
        if len(result.collisions) > limit:
            echo(f"  ... ({len(result.collisions) - limit} more: --format json lists them all)")
    for line in result.breaches():
        echo(f"threshold breached: {label(line)}")


class _Finding(NamedTuple):
    rule: str
    level: str
    message: str
    file: str
    line: int


_RULES = {
    "eval-miss": "A should-trigger case does not rank the skill within the top k.",
    "eval-false-trigger": "A should-not-trigger case ranks the skill first.",
    "eval-untriggerable": "The agent lists the skill by name only or not at all.",
    "eval-collision": "Two skills' descriptions are near-duplicates or take each other's cases.",
    "eval-untested-phrase": "No case depends on this phrase of the description.",
    "eval-threshold": "The skill breaks --min-recall or --max-false-triggers, or has no case "
    "to score under them.",
    "eval-live-miss": "With --live: the agent did not invoke the skill for a should-trigger case.",
    "eval-live-false-trigger": "With --live: the agent invoked the skill for a should-not-trigger "
    "case.",
    "eval-live-error": "With --live: a case's agent runs failed (could not start, timed out, "
    "exited non-zero) or the case was not run.",
    "eval-skipped": "Part of the skill's cases was not scored as written: a case file skipped, "
    "an entry left out or counted once, the mutation check left out.",
}


def _findings(result: EvalResult) -> list[_Finding]:
    """The findings, names shown as :func:`~skillc_index.text.printable` (a skill's name
    never drives the terminal of whoever reads the annotations or the log)."""
    from skillc_index.text import one_line, printable

    found: list[_Finding] = []
    breaches: dict[int | None, list[str]] = {}
    for index, text in result.breached:
        breaches.setdefault(index, []).append(text)
    for text in breaches.get(None, ()):  # the run's: at no skill's file
        found.append(_Finding("eval-threshold", "error", f"threshold breached: {text}", "", 0))
    for index, skill in enumerate(result.skills):

        def add(rule: str, level: str, text: str, skill: SkillReport = skill) -> None:
            message = f"{printable(skill.name)}: {text}"
            found.append(_Finding(rule, level, message, skill.skill_file, skill.line))

        for case in skill.cases:
            if case.passed:
                continue
            if case.should_trigger:
                took = f"; taken by {printable(case.taken_by)}" if case.taken_by else ""
                add("eval-miss", "error", f"miss {case.query!r}{took}")
            else:
                add("eval-false-trigger", "error", f"false trigger {case.query!r}")
        for case in skill.cases:
            live = case.live
            if live is None or live.passed:
                continue
            runs = f"(invoked {live.invoked}/{live.runs})"
            if live.errors:
                text = printable(one_line(live.errors[0]))
                add("eval-live-error", "error", f"live not scored {case.query!r}: {text}")
            elif case.should_trigger:
                add("eval-live-miss", "error", f"live miss {case.query!r} {runs}")
            else:
                add("eval-live-false-trigger", "error", f"live false trigger {case.query!r} {runs}")
        if skill.untriggerable:
            add("eval-untriggerable", "warning", f"listed {skill.listed} by {result.agent}")
        for check in skill.phrases:
            if check.effect == "untested":
                add("eval-untested-phrase", "note", f"no case depends on {check.phrase!r}")
        for problem in skill.problems:  # the warning lines: never a clean run in silence
            add("eval-skipped", "warning", printable(one_line(problem)))
        for text in breaches.get(index, ()):
            add("eval-threshold", "error", f"threshold breached: {text}")
    for collision in result.collisions:
        for (file, line), other in (
            (collision.first_line, collision.second),
            (collision.second_line, collision.first),
        ):
            text = f"collides with {printable(other)} (similarity {collision.similarity:.2f})"
            if collision.phrases:
                text += ": " + "; ".join(collision.phrases[:3])
            found.append(_Finding("eval-collision", "warning", text, file, line))
    return found


def sarif_log(
    result: EvalResult | None, version: str, base: str, error: Diagnostic | None = None
) -> dict[str, Any]:
    """SARIF 2.1.0: one result per finding, at the description line; each file a URI as
    skillc-lint writes it (:mod:`skillc_index.sarif`: relative to ``%SRCROOT%``, ``base``
    or GitHub Actions' workspace where it is set, when below it, percent-encoded; else a
    ``file:`` URI). A run that failed (no ``result``)
    carries its ``error`` as skillc-lint's does: a notification of the invocation, which
    was not successful."""
    from pathlib import Path

    from skillc_index.sarif import (
        artifact_location,
        error_notification,
        source_root,
        uri_base_ids,
    )

    root = source_root(Path(base))
    notifications = [] if error is None else [error_notification(error)]

    return {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "skc eval",
                        "version": version,
                        "rules": [
                            {"id": rule, "shortDescription": {"text": text}}
                            for rule, text in _RULES.items()
                        ],
                    }
                },
                "results": [
                    {
                        "ruleId": finding.rule,
                        "level": finding.level,
                        "message": {"text": finding.message},
                        "locations": [
                            {
                                "physicalLocation": {
                                    "artifactLocation": artifact_location(
                                        Path(base) / finding.file, root
                                    ),
                                    "region": {"startLine": finding.line},
                                }
                            }
                        ]
                        if finding.file  # (the run's breach is at no file)
                        else [],
                    }
                    for finding in (_findings(result) if result is not None else [])
                ],
                "invocations": [
                    {
                        "executionSuccessful": not notifications,
                        "toolExecutionNotifications": notifications,
                    }
                ],
                "originalUriBaseIds": uri_base_ids(root),
            }
        ],
    }


def github_lines(result: EvalResult, base: str) -> list[str]:
    """One ``::error``/``::warning``/``::notice`` workflow command per finding, its file
    (relative to ``base``, the working folder) named as skillc-lint names it: relative to
    GitHub Actions' workspace when below it, else absolute
    (:func:`skillc_index.sarif.annotation_path`: GitHub reads a relative ``file=`` from the
    repository's root, whatever the step's working folder). Escaped as skillc-lint's are:
    GitHub's escapes first (a newline of a path is ``%0A``, which GitHub decodes to the real
    name), then what is left that drives a terminal
    (:func:`~skillc_index.text.printable`: ``\\x1b``)."""
    from pathlib import Path

    from skillc_index.sarif import annotation_path, github_data, github_property
    from skillc_index.text import printable

    levels = {"error": "error", "warning": "warning", "note": "notice"}
    lines = []
    for f in _findings(result):
        file = github_property(annotation_path(Path(f.file), Path(base)))
        where = f"file={file},line={f.line}," if f.file else ""  # (the run's: no file)
        lines.append(
            printable(
                f"::{levels[f.level]} {where}title={github_property(f.rule)}::"
                f"{github_data(f.message)}"
            )
        )
    return lines
