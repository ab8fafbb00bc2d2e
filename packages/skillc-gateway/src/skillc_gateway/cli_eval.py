"""``skc eval`` (issue 38), made from its operation (:data:`skillc_gateway.operations.EVAL`):
the function here prints the result as a table, SARIF or GitHub annotations (JSON is the
operation's ``to_dict``). Module level imports only click, the console conventions and the
operation."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from skillc_gateway._eval_op import EVAL, EvalParams
from skillc_index.console import Call, command
from skillc_index.helppage import FormatCommand

if TYPE_CHECKING:
    from skillc_gateway.evaluate.report import EvalResult
    from skillc_index import Diagnostic


def _status(result: EvalResult) -> int:
    return 1 if result.breached else 0


class EvalCommand(FormatCommand):
    """An error that stops the run (a skill not found, a bad option) is also printed in the
    ``json``, ``sarif`` or ``github`` format asked for, as skillc-lint prints its own
    (:class:`~skillc_index.helppage.FormatCommand`; DECISIONS: a machine format is never an
    empty file): a CI upload says why the run failed. JSON is ``{"error": {"code",
    "message"[, "detail"]}}``, skillc-lint's error of a whole run."""

    def print_error(self, exc: Exception, output_format: str) -> None:
        if output_format not in ("json", "sarif", "github"):
            return
        from skillc_index.console import error_json, error_of, print_json

        error = error_of(exc)
        if output_format == "json":
            print_json(error_json(error))
            return
        from pathlib import Path

        _print(None, output_format, str(Path.cwd()), error)


def _print(
    result: EvalResult | None, output_format: str, base: str, error: Diagnostic | None = None
) -> None:
    """``result``, or the ``error`` that stopped the run, as SARIF or GitHub annotations."""
    from skillc_gateway.evaluate.report import github_lines, sarif_log

    if output_format == "sarif":
        from importlib.metadata import version

        from skillc_index.console import print_json

        print_json(sarif_log(result, version("skillc-gateway"), base, error))
        return
    from skillc_index.sarif import github_error
    from skillc_index.streams import write_stdout  # UTF-8 whatever the stream's, as sarif

    lines = [] if result is None else list(github_lines(result, base))
    if error is not None:
        lines.append(github_error(error))
    write_stdout("".join(line + "\n" for line in lines))


@command(EVAL, formats=("text", "json", "sarif", "github"), status=_status, cls=EvalCommand)
def eval_command(result: EvalResult, call: Call[EvalParams]) -> int | None:
    """Test whether the agent picks each skill for its trigger cases.

    Reads each skill's trigger cases: evals/evals.json (Agent Skills' evals[] with
    assertions, or skill-creator's expectations: each eval should trigger the skill unless
    it says "should_trigger": false), trigger sets ([{query, should_trigger}] in
    skill-creator's evals/trigger-eval.json, evals/triggers.json, or agentskills.io's
    evals/eval_queries.json) and
    evals/triggers.yaml
    (should_trigger and should_not_trigger lists; --init writes a starter one).

    Each case's request is ranked over the library the skill lives in (every installed skill
    --agent lists, or the skills under --path) as the agent lists it: names and descriptions
    cut as --agent cuts them and as its listing budget leaves them, never the bodies; the
    ranker is skc find's lexical one, so the result is the same everywhere, offline. A skill
    behind the router of skc route is scored as skc find ranks it (lexically, by name,
    description and body, over every installed skill, or with --path over the skills under
    it, as find --path ranks them; a request naming it ranks it first). A should-trigger
    case passes when the skill ranks within --top (a tie counts against it), a
    should-not-trigger case when it does not rank first. Reported per skill: recall, false
    triggers, each miss with the skill that took the request, skills the agent lists by name
    only or not at all (their cases cannot trigger them by description); then the
    collisions, pairs of skills that take each other's cases or whose descriptions are
    near-duplicates, with the phrases they share. --mutate removes each phrase of a
    description in turn: `needed` phrases make a case pass, `untested` ones change nothing.

    --live CMD also runs each case through a real agent (never without --live): CMD is
    split into arguments and run without a shell, --runs times a case; the skill counts
    as triggered when the output shows it invoked in --threshold of the runs. Live and
    offline are reported side by side. A request is never code of CMD ({query} in an
    `sh -c` script is refused: pass it as "$1" or read $SKC_EVAL_QUERY). At most
    --max-live-runs agent runs (300) start, else none does; --dry-run shows each run's
    arguments and starts none.

    Exit status 1 when --min-recall or --max-false-triggers is breached; with --live they
    hold for the agent's outcomes too, and a case whose agent runs failed breaks them.
    sarif and github put each finding at the description line of the skill's SKILL.md.

    \b
    Examples:
      skc eval --init my-skill
      skc eval my-skill --mutate
      skc eval --path skills/ --min-recall 0.8 --max-false-triggers 0 --format github
      skc eval my-skill --live 'claude -p --output-format stream-json --verbose'
    """
    from skillc_gateway.evaluate.report import table

    if call.output_format in ("sarif", "github"):
        _print(result, call.output_format, str(call.session.layout.cwd))
    else:
        table(result, click.echo)
    return None
