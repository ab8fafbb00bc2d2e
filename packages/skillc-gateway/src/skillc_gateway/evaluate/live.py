"""The live mode of ``skc eval``: a real agent, run by a command the user gives, per case.

Only with ``--live CMD`` (never otherwise; the MCP tool has no such parameter). ``CMD`` is
split as a shell would split it (:func:`shlex.split`) but never run by a shell: each word is
an argument, ``{query}`` and ``{skill}`` in a word are replaced by the case's request and the
skill's name, and without ``{query}`` the request is the last argument (``claude -p``,
``codex exec``). The command also gets ``SKC_EVAL_QUERY`` and ``SKC_EVAL_SKILL`` in its
environment.

The request and the name come from a skill's files: neither may become an option of the
agent (a request ``--dangerously-skip-permissions``). As ``skc run`` does with a tool's
values, a case whose request (or skill name) would start an argument with ``-`` is not run
(:class:`RefusedRequest`, the case's error) unless a ``--`` word of the command comes before
it (``claude -p --``: the request after it is an operand).

Each case runs ``runs`` times; the skill counts as invoked in a run when the run's output
(stdout and stderr, the first :data:`MAX_OUTPUT` bytes of each) matches the pattern, and as
triggered when it was invoked in at least ``threshold`` of the runs (skill-creator's 3 runs
at 0.5 by default). A case with a run that failed (could not start, timed out, exited
non-zero) does not pass: that run says nothing of the agent's choice.

The default pattern (``{skill}`` the skill's folder name or its frontmatter ``name``, each
escaped: Claude Code invokes a skill by its folder's name) finds what the agents print when
they use a skill: Claude Code's ``stream-json`` tool call ``"skill": "NAME"`` (also
``plugin:NAME``), and a read of ``NAME/SKILL.md`` (Codex, and agents that read skills as
files), the name whole (not the end of another skill's name).
"""

from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING, NamedTuple

from skillc_gateway._runner import HeadTail, run_in_group

if TYPE_CHECKING:
    from skillc_gateway.evaluate.cases import Case
    from skillc_gateway.shapes import LiveShape

__all__ = [
    "DEFAULT_PATTERN",
    "LiveCase",
    "LiveOptions",
    "RefusedRequest",
    "argv_of",
    "live_pattern",
    "run_live",
]

#: A read of ``NAME/SKILL.md`` counts when no character of a name comes before ``NAME`` (the
#: start, ``/``, a quote, a space...): ``scientific-brainstorming/SKILL.md`` is no read of
#: ``brainstorming``.
DEFAULT_PATTERN = r'"(?:skill|command)"\s*:\s*"(?:[^"]*:)?/?{skill}"|(?<![\w.-]){skill}/SKILL\.md'
#: Output read of each stream of a run, in bytes.
MAX_OUTPUT = 4 << 20


class LiveOptions(NamedTuple):
    command: tuple[str, ...]
    runs: int = 3
    threshold: float = 0.5
    timeout: float = 300.0
    pattern: str = DEFAULT_PATTERN


class LiveCase(NamedTuple):
    runs: int
    """Runs made: 0 for a case that was not run (:class:`RefusedRequest`, in ``errors``)."""
    invoked: int
    """Runs that invoked the skill."""
    triggered: bool
    passed: bool
    """Triggered as the case says it should be, and no run failed."""
    errors: tuple[str, ...] = ()
    """Runs that failed (could not start, timed out, exited non-zero), why."""

    def to_dict(self) -> LiveShape:
        return {
            "runs": self.runs,
            "invoked": self.invoked,
            "triggered": self.triggered,
            "passed": self.passed,
            "errors": list(self.errors),
        }


class RefusedRequest(ValueError):
    """A case that is not run: its request or skill name cannot reach the agent command as
    one plain argument (see the module docstring)."""


def argv_of(command: tuple[str, ...], skill: str, query: str) -> list[str]:
    """The arguments of one run (see the module docstring); :class:`RefusedRequest` when a
    value would start an argument with ``-`` before any ``--`` word, or holds what no argument
    can (a NUL, a lone surrogate)."""
    for what, value in (("the request", query), ("the skill's name", skill)):
        if "\x00" in value:
            raise RefusedRequest(f"{what} holds a NUL character: it cannot be an argument")
        try:
            os.fsencode(value)
        except UnicodeEncodeError as exc:
            raise RefusedRequest(
                f"{what} holds {value[exc.start]!r}, which cannot be an argument"
            ) from None
    program = command[0].rsplit("/", 1)[-1] or "the agent"
    operands = False  # after a "--" word of the command, no argument is an option

    def checked(argument: str, what: str) -> str:
        if argument.startswith("-") and not operands:
            raise RefusedRequest(
                f"{what} starts with '-', so {program} would read it as an option: "
                f"{argument!r} (put '--' before it in the command to pass it)"
            )
        return argument

    argv = [command[0]]
    for word in command[1:]:
        argument = word.replace("{skill}", skill).replace("{query}", query)
        if word.startswith("{skill}"):
            argument = checked(argument, "the skill's name")
        elif word.startswith("{query}"):
            argument = checked(argument, "the request")
        argv.append(argument)
        operands = operands or word == "--"
    if not any("{query}" in word for word in command):
        argv.append(checked(query, "the request"))
    return argv


def live_pattern(pattern: str, *names: str) -> re.Pattern[str]:
    """``pattern`` for a skill of these ``names``: ``{skill}`` replaced by any of them, each
    escaped. :class:`re.error` when it is no regular expression (the option is checked with
    it before any work)."""
    either = "|".join(re.escape(name) for name in dict.fromkeys(names) if name)
    return re.compile(pattern.replace("{skill}", f"(?:{either})"))


def run_live(options: LiveOptions, skill: str, case: Case, folder: str = "") -> LiveCase:
    """Run ``case`` ``options.runs`` times through the agent command, for the skill of name
    ``skill`` in a folder of name ``folder``: the pattern takes either (Claude Code invokes a
    skill by its folder's name, the frontmatter ``name`` being a label)."""
    pattern = live_pattern(options.pattern, folder, skill)
    env = {**os.environ, "SKC_EVAL_QUERY": case.query, "SKC_EVAL_SKILL": skill}
    try:
        argv = argv_of(options.command, skill, case.query)
    except RefusedRequest as exc:  # not run, so not passed either
        return LiveCase(0, 0, False, False, (str(exc),))
    invoked = 0
    errors: list[str] = []
    for _ in range(options.runs):
        out, err = HeadTail(MAX_OUTPUT, 0), HeadTail(MAX_OUTPUT, 0)
        try:  # the user's own command, no shell; it and its children end with the run
            code, timed_out = run_in_group(argv, (out, err), env=env, timeout=options.timeout)
        except OSError as exc:
            errors.append(str(exc))
            continue
        if timed_out:
            errors.append(f"{argv[0]} timed out after {options.timeout:g} seconds")
            continue
        if code != 0:
            errors.append(f"{argv[0]} exited with status {code}")
        text = out.text()[0] + "\n" + err.text()[0]
        if pattern.search(text):
            invoked += 1
    triggered = options.runs > 0 and invoked / options.runs >= options.threshold
    # a run that failed tells nothing of the agent's choice (a command not found "invoked"
    # no skill): its case does not pass, whichever way it should go
    passed = not errors and (triggered if case.should_trigger else not triggered)
    return LiveCase(options.runs, invoked, triggered, passed, tuple(errors))
