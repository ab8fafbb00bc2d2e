"""Command line of skillc-lint: ``skc lint`` and the ``skillc-lint`` console script.

One click command serves both (registered with ``skc`` through the ``skillc.commands`` entry
point), made from the :data:`~skillc_lint.operations.LINT` operation: its parameters are the
operation's record, the run is the operation's, and :func:`lint_command` only prints the run
in the format asked for (text, json, sarif, github), each skill as soon as it is linted. This
module imports only click, :mod:`skillc_index.console` and the operation table at import
time; the linter is imported when the command runs, so ``skc --help`` and ``skc lint
--help`` stay fast.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import click

from skillc_index.console import (
    Call,
    command,
    print_json,
    report,
    run,
    verbose_option,
)
from skillc_index.helppage import Command, FormatCommand
from skillc_index.progress import bar_cells, dumb_terminal
from skillc_index.streams import utf8_process, write_stdout
from skillc_lint.operations import LINT, LintParams

if TYPE_CHECKING:
    from pathlib import Path

    from skillc_lint._output import Outcome
    from skillc_lint._run import LintRun

FORMATS = ("text", "json", "sarif", "github")


class LintCommand(FormatCommand):
    """The lint command: an error that stops the whole run (an unknown option, a bad
    ``--jobs``, an unknown rule) is also printed in the json, sarif or github format asked
    for (:class:`~skillc_index.helppage.FormatCommand`), and written to ``--sarif-file``."""

    def print_error(self, exc: Exception, output_format: str) -> None:
        _print_run_error(exc, output_format, self.given("--sarif-file"))


def _print_run_error(exc: Exception, output_format: str, sarif_file: str | None) -> None:
    """The error that stops the whole run, in ``output_format`` on stdout when that is a
    machine format (the kit's error line on stderr is printed by its caller, as for any
    command), and as a SARIF log to ``sarif_file`` in any format (the log with that one
    notification: never a missing file for CI to upload; a file that cannot be written is
    left, the run failing already)."""
    if output_format not in ("json", "sarif", "github") and sarif_file is None:
        return
    from pathlib import Path

    from skillc_index.console import error_json, error_of
    from skillc_index.sarif import github_error
    from skillc_lint import __version__
    from skillc_lint._output import RunError, sarif_log

    error = RunError(None, error_of(exc))
    log = sarif_log([error], (), Path.cwd(), version=__version__)
    if sarif_file is not None:
        import contextlib

        from skillc_index.command_errors import CannotWrite, ForeignFile

        with contextlib.suppress(CannotWrite, ForeignFile):
            _write_sarif(log, sarif_file, Path.cwd())
    if output_format == "json":
        print_json(error_json(error.diagnostic))
    elif output_format == "sarif":
        print_json(log)
    elif output_format == "github":
        write_stdout(github_error(error.diagnostic) + "\n")  # UTF-8, as json and sarif


class _Progress:
    """``linting [######........] 120/564`` on stderr, redrawn after each skill and cleared
    before anything else is printed; drawn only when ``enabled`` (a terminal, text output,
    several skills), so pipes and CI logs never see it. The line stays on one row of the
    terminal, as it is at each redraw: the bar narrows to fit, and is not drawn when even
    :data:`MIN_WIDTH` cells do not (:func:`~skillc_index.progress.bar_cells`)."""

    WIDTH = 30
    MIN_WIDTH = 10

    def __init__(self, total: int, *, enabled: bool) -> None:
        self.total = total
        self.enabled = enabled
        self.done = 0
        self.drawn = False

    def echo(self, text: str, *, err: bool = False, colour: bool | None = None) -> None:
        """Print a line (or lines: a diagnostic and its hint) of a skill's report, whose
        callers made what it quotes of the skill printable (``terminal=True``)."""
        self.clear()
        click.echo(text, err=err, color=colour)

    def advance(self) -> None:
        self.done += 1
        if not self.enabled or self.done >= self.total:
            self.clear()
            return
        count = f"{self.done}/{self.total}"
        width = bar_cells(len(f"linting [] {count}"), self.MIN_WIDTH, self.WIDTH)
        if width is None:
            self.clear()
            return
        filled = width * self.done // self.total
        bar = "#" * filled + "." * (width - filled)
        sys.stderr.write(f"\rlinting [{bar}] {count}")
        sys.stderr.flush()
        self.drawn = True

    def clear(self) -> None:
        if self.drawn:
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()
            self.drawn = False


@command(LINT, formats=FORMATS, cls=LintCommand, render_json=True)
def lint_command(run: LintRun, call: Call[LintParams]) -> int:
    """Validate skill authoring quality.

    Lint each SKILL against the authoring rules of RFC-0008 (SKL001-SKL402). A SKILL is a
    skill folder path, a skill name (project store, then global store) or a folder of skill
    folders such as `skills/` (every skill under it). Without SKILL, every skill of the
    project store (`.skillc/skills/`) is linted.

    Text output prints each problem on stderr,
    `SKILL.md:3:1: error[E300]: SKL102 name-format: ...` (file, line, column) with the line
    and a caret under it, then `my-skill: 1 error, 0 warnings` on stdout. json, sarif (SARIF
    2.1.0, for GitHub code scanning) and github (workflow annotations) go to stdout. Exit
    status 1 when any error-severity rule fails (or warnings exceed --max-warnings).

    Findings are hidden by a comment in a Markdown file
    (`<!-- skillc-lint: disable-next-line=SKL301 -->`, `disable-line=`, or `disable=` for
    the whole file; never a security rule's, SKL901-SKL908), by `per-file-ignores` in the
    `[lint]` table, or by a baseline file.

    --fix applies the safe fixes (quoting a frontmatter value YAML cannot read, a name's
    case, trailing whitespace in the frontmatter, a missing closing `---`, a link's case),
    --unsafe-fixes the others too (renaming the skill to its folder's name...), then the
    skill is linted again and only what remains is reported. --diff shows the changes as a
    diff instead of writing them; the exit status is the same.

    A SKILL that cannot be linted (E001 not found, E010 no SKILL.md, E012 a SKILL.md outside
    its folder) does not stop the others: its error is reported in its place, in the chosen
    format, and the exit status is 1. So is an error of the whole run (E100 a bad option):
    a json object `{"error": ...}`, a SARIF run whose invocation lists it in
    `toolExecutionNotifications`, a github `::error` annotation.

    Many skills are linted by worker processes (--jobs), and the results are printed in the
    same order as with --jobs 1, each as soon as it is ready; on a terminal a progress bar
    shows on stderr (text output only).

    Compiled skills (with `.skillc-meta/manifest.json`) are skipped unless --force. Rules
    are configured in the `[lint]` table of config.toml (`SKL108 = "off"`,
    `SKL201 = { max-lines = 300 }`, `profiles = ["claude-code"]`).

    Profiles add the rules and known fields of a skill dialect: `agentskills` (the default:
    Git LFS pointers, SKL402, the standard's compatibility, metadata, allowed-tools and
    license, SKL501-504, frontmatter whitespace, SKL510, guidance on the body, SKL520-530,
    the security rules SKL901-908, the budget and collision rules SKL921-924 and the target
    rules SKL931-933), `claude-code`
    (SKL601-609, and the plugin and marketplace manifests of a plugin folder, SKL611-612),
    `skillli` (registry fields and quizzes, SKL701-726) and `gibberish` (gibb.eri.sh
    tool-defining skills, SKL801-820). Each extends `agentskills`. Selectors name tags too:
    `--select security`.

    Two more commands of the `skillc-lint` script: `skillc-lint server` (the language server
    for editors, over stdio) and `skillc-lint clean` (empty the result cache); each takes
    --help.

    \b
    Examples:
      skc lint my-skill
      skc lint                                   # every skill of the project
      skc lint skills/                           # every skill under skills/ (CI)
      skc lint skills/ --jobs 1                  # in this process only
      skc lint skills/ --format sarif > lint.sarif
      skc lint skills/ --format github           # annotations in GitHub Actions
      skc lint my-skill --ignore SKL108,SKL4 --format json
      skc lint skills/ --select security         # the security rules alone (CI)
      skc lint my-plugin/ --profile claude-code  # a plugin: its skills and manifest
      skc lint .claude/skills --profile claude-code
      skc lint skills/git --profile gibberish
      skc lint --list-rules --profile skillli
      skc lint --explain SKL301                  # why the rule exists, how to fix it
      skc lint skills/ --write-baseline lint-baseline.json
      skc lint skills/ --baseline lint-baseline.json --max-warnings 0
      skc lint skills/ --statistics              # findings per rule
      skc lint skills/ --fix --diff              # what --fix would change
      skc lint skills/ --fix                     # apply the safe fixes
      skc lint my-skill --unsafe-fixes           # and the others
    """
    from skillc_lint import _output

    output_format, params = call.output_format, call.params
    for shown, option in ((run.docs, "--explain"), (run.rules, "--list-rules")):
        if shown is not None and output_format not in ("text", "json"):
            raise click.BadParameter("works with --format text or json", param_hint=option)
    if run.docs is not None:  # --explain
        if output_format == "json":
            print_json(run.to_dict())
        else:
            for index, doc in enumerate(run.docs):
                if index:
                    click.echo()
                for line in _output.explain_lines(doc):
                    click.echo(line)
        return 0
    if params.statistics and output_format not in ("text", "json"):
        raise click.BadParameter("works with --format text or json", param_hint="--statistics")
    if params.diff and output_format != "text":
        raise click.BadParameter(
            f"prints a diff, which the {output_format} format has no place for", param_hint="--diff"
        )
    if run.rules is not None:  # --list-rules
        if output_format == "json":
            print_json(run.to_dict())
        else:
            width = max(len(s.rule.name) for s in run.rules)
            for s in run.rules:
                state = (s.severity if s.enabled else "off").ljust(7)
                fixable = (s.rule.fixable or "").ljust(6)
                click.echo(
                    f"{s.rule.id}  {s.rule.name.ljust(width)}  {state}  {fixable}  {s.rule.summary}"
                )
        return 0
    return _print_run(run, call)


def _print_run(run: LintRun, call: Call[LintParams]) -> int:
    """Print a lint run in the chosen format as it lints: each skill's notices, errors and
    findings as soon as it is ready (unless the run prints counts, writes a baseline or shows
    a diff first), then what the run sums up; the exit status."""
    from skillc_index import Notice, counted, format_diagnostic, printable
    from skillc_index.sarif import github_error
    from skillc_lint import _output

    output_format, params, cwd = call.output_format, call.params, run.cwd
    terminal = sys.stderr.isatty()
    colour = _colour(terminal)
    for where, count in run.collections:  # a folder's name: never a line of its own
        if not count:
            click.echo(f"no skills in {printable(where)}", err=True)
        elif terminal:  # a progress note for people: never in CI logs or pipes
            click.echo(f"linting {counted(count, 'skill')} in {printable(where)}", err=True)
    if params.add_suppressions and (params.fix_mode or params.write_baseline is not None):
        raise click.BadParameter(
            "writes comments for the findings as they are: not with --fix, --unsafe-fixes, "
            "--diff or --write-baseline",
            param_hint="--add-suppressions",
        )
    quiet = params.write_baseline is not None or params.add_suppressions
    streamed = not (params.statistics or quiet or params.diff)
    drawn = output_format == "text" and run.total > 1 and terminal and not dumb_terminal()
    progress = _Progress(run.total, enabled=drawn)

    def show(outcome: Outcome, findings: bool) -> None:
        """What one skill (or folder, or target that failed) prints: its notices and errors
        on stderr, and with ``findings`` its findings."""
        if isinstance(outcome, _output.RunError):
            progress.echo(format_diagnostic(outcome.diagnostic, terminal=True), err=True)
        else:
            if outcome.skipped:
                skipping = Notice(f"skipping compiled skill '{outcome.skill}'", level="info")
                progress.echo(format_diagnostic(skipping, terminal=True), err=True)
            for notice in outcome.notices:
                progress.echo(format_diagnostic(notice, terminal=True), err=True)
        if findings:
            show_findings(outcome)

    def show_findings(outcome: Outcome) -> None:
        """Its findings in the text or github format (the others print the run at the end)."""
        if isinstance(outcome, _output.RunError):
            if output_format == "github":  # UTF-8 whatever the stream's, as json and sarif
                write_stdout(printable(github_error(outcome.diagnostic)) + "\n")
        elif output_format == "github":  # one line each: GitHub's escapes for breaks
            write_stdout(
                "".join(printable(line) + "\n" for line in _output.github_lines(outcome, cwd))
            )
        elif output_format == "text" and not outcome.skipped:
            shown = _output.text_lines(outcome, cwd, colour=colour, show_fixes=params.show_fixes)
            for line in shown:
                progress.echo(line, err=True, colour=colour)
            progress.echo(_output.summary_line(outcome))

    for outcome in run:  # each skill linted as the loop asks for it
        show(outcome, streamed)
        progress.advance()
    progress.clear()
    if params.diff:
        from skillc_lint._fixes import unified_diff

        for r in run.reports:
            if r.fixes and r.fixes.changes:
                shown = {
                    c.file: _output.display_path(r.result.path / c.file, cwd)
                    for c in r.fixes.changes
                }
                click.echo(unified_diff(r.fixes.changes, shown), nl=False)
    for problem in run.problems:
        report(problem.diagnostic)
    if not streamed and not params.statistics and not quiet:
        for outcome in run.outcomes:
            show_findings(outcome)
    # the SARIF log, built once: --sarif-file writes what --format sarif prints
    wanted = params.sarif_file is not None or output_format == "sarif"
    log = _sarif(run, quiet=quiet) if wanted else {}
    if params.sarif_file is not None:  # what --format sarif prints, whatever the format
        _write_sarif(log, params.sarif_file, cwd)
    if quiet and output_format != "text":  # no findings, but the run's own errors
        _print_errors(run, output_format, cwd, log)
    if params.add_suppressions:
        return _add_suppressions(run, output_format)
    if params.write_baseline is not None:
        wrote = counted(run.written or 0, "finding")
        click.echo(f"wrote {wrote} to {printable(params.write_baseline)}", err=True)
        return 0 if run.ok else 1
    baseline = run.hidden.baseline if run.hidden is not None else None
    if baseline is not None:
        stale = baseline.stale
        note = f"; {stale} no longer found (--write-baseline prunes them)" if stale else ""
        named = printable(str(params.baseline))
        click.echo(f"baseline {named}: {baseline.matched} hidden{note}", err=True)
    for line in _security_hidden(run):  # a config may hide the audit, never silently
        click.echo(line, err=True)
    if output_format == "json":  # the findings, or with --statistics their counts
        print_json(run.to_dict())
    elif params.statistics:
        for row in _output.statistics(run.linted):
            click.echo(f"{row['count']:>6}  {row['rule']}  {row['name']}  ({row['severity']})")
        click.echo(_output.total_line(run.linted, run.skills))
    elif output_format == "sarif":
        print_json(log)
    elif output_format == "text":
        if run.skills > 1:
            click.echo(_output.total_line(run.linted, run.skills))
        if run.failed and len(run.outcomes) > 1:
            click.echo(_output.failed_line(run.failed))
        summary, hint = _fix_lines(run, params)
        if summary:
            click.echo(summary)
        if hint:
            report(Notice(hint, level="info"))
    if run.too_many_warnings:
        click.echo(
            f"too many warnings: {run.warning_count} (--max-warnings {params.max_warnings})",
            err=True,
        )
    return 0 if run.ok else 1


def _sarif(run: LintRun, *, quiet: bool) -> dict[str, Any]:
    """The run's SARIF log, as ``--format sarif`` prints it and ``--sarif-file`` writes it:
    its findings, errors and warnings; ``quiet`` (``--write-baseline``,
    ``--add-suppressions``: they print no findings) the targets that could not be linted and
    the warnings alone, a log without results."""
    from dataclasses import replace

    from skillc_lint import __version__, _output

    outcomes = run.outcomes
    if quiet:
        outcomes = [
            o if isinstance(o, _output.RunError) else replace(o, diagnostics=()) for o in outcomes
        ]
    log = _output.sarif_log(outcomes, run.registries, run.cwd, version=__version__)
    if not quiet:  # what a config hid: no result of a log, a warning of its run
        from skillc_index import Notice
        from skillc_index.sarif import warning_notification

        notes = log["runs"][0]["invocations"][0]["toolExecutionNotifications"]
        notes += [warning_notification(Notice(line)) for line in _security_hidden(run)]
    return log


def _security_hidden(run: LintRun) -> list[str]:
    """A line for each config file that hid security findings (rules it turned off, its
    per-file ignores), as the baseline's says how many it hid."""
    from skillc_index import counted, printable
    from skillc_lint._output import display_path

    return [
        f"config {printable(display_path(file, run.cwd))}: "
        f"{counted(count, 'security finding')} hidden"
        for file, count in run.security_hidden.items()
    ]


class _LogRemoved(Exception):
    """The SARIF log ``--sarif-file`` replaces was removed while the new one was written."""


def _write_sarif(log: Mapping[str, Any], file: str, cwd: Path) -> None:
    """``--sarif-file``: a SARIF log (the run's, or its error's), written atomically (FILE
    relative to ``cwd``), replacing only a SARIF log (:func:`~skillc_lint._output.
    sarif_replaces`, E050; checked again right before the rename: a file made meanwhile is
    never replaced, and a log removed meanwhile is written as a new file). Raises E100 when it
    cannot be written."""
    from skillc_index import write_file_atomic
    from skillc_index.atomic import file_target
    from skillc_index.text import json_text
    from skillc_lint._output import sarif_replaces

    def write(replace: bool) -> None:
        def unchanged() -> None:  # what is there now is replaced only when it was a log
            if sarif_replaces(path, file) != replace:
                raise _LogRemoved if replace else FileExistsError

        write_file_atomic(path, data, parents=True, before_rename=unchanged, replace=replace)

    try:  # checked first by _run_checks.check_outputs
        path = file_target(cwd, file)
        data = (json_text(log) + "\n").encode("utf-8")
        try:
            write(sarif_replaces(path, file))
        except _LogRemoved:  # nothing there now (sarif_replaces False): a new file
            write(False)
    except FileExistsError:  # (made meanwhile)
        from skillc_index.command_errors import ForeignFile

        raise ForeignFile(file, "made while the log was written; run again") from None
    except OSError as exc:
        from skillc_index.command_errors import CannotWrite

        raise CannotWrite(file, exc.strerror or str(exc)) from None


def _print_errors(run: LintRun, output_format: str, cwd: Path, log: Mapping[str, Any]) -> None:
    """What ``--write-baseline`` and ``--add-suppressions`` print in a machine format: no
    findings (they go to the baseline or the comments), but the targets that could not be
    linted, so that the output is never empty and never hides an error (DECISIONS): the JSON
    list of them, ``log`` (the run's quiet SARIF log: them and the run's warnings as
    notifications), their GitHub annotations and the warnings'."""
    from skillc_index import printable
    from skillc_index.sarif import github_error, github_warning
    from skillc_lint import _output

    if output_format == "json":
        failed = [o for o in run.outcomes if isinstance(o, _output.RunError)]
        print_json(_output.json_report(failed, cwd, single=False))
    elif output_format == "sarif":
        print_json(log)
    else:
        lines = []
        for outcome in run.outcomes:  # in order: each error, each skill's warnings
            if isinstance(outcome, _output.RunError):
                lines.append(github_error(outcome.diagnostic))
            else:
                lines += [github_warning(notice) for notice in outcome.notices]
        write_stdout("".join(printable(line) + "\n" for line in lines))


def _add_suppressions(run: LintRun, output_format: str) -> int:
    """``--add-suppressions``: how many findings got a comment (the files that could not be
    written are reported with the run's problems, as ``--fix`` reports them); on stderr in a
    machine format, whose stdout holds the run's errors."""
    changes = [c for r in run.reports if r.fixes is not None for c in r.fixes.changes]
    added = sum(change.fixes for change in changes)
    from skillc_index.text import counted

    click.echo(
        f"added suppression comments for {counted(added, 'finding')} in "
        f"{counted(len(changes), 'file')}",
        err=output_format != "text",
    )
    left = run.uncommented
    if left:
        click.echo(
            f"{counted(left, 'finding')} in files that take no comment (scripts, manifests) or "
            "of security rules, which no comment hides: use [lint] per-file-ignores or "
            "--write-baseline",
            err=True,
        )
    return 0 if not (run.failed or run.problems) else 1


def _colour(terminal: bool) -> bool:
    """Colour the text output: on a terminal, unless ``NO_COLOR`` is not empty (no-color.org) or
    ``TERM`` is ``dumb``; ``FORCE_COLOR`` (not ``0``) colours a pipe too (CI logs that show
    colours)."""
    import os

    if os.environ.get("NO_COLOR") or dumb_terminal():
        return False
    force = os.environ.get("FORCE_COLOR")
    if force and force != "0":
        return True
    return terminal


def _fix_lines(run: LintRun, params: LintParams) -> tuple[str, str]:
    """The summary of a run's fixes (stdout; empty when not fixing), ending with how many
    files could not be fixed (their errors are on stderr), and the hint of those it left
    (stderr; empty when there are none)."""
    from skillc_index.text import counted
    from skillc_lint._fixes import fixable

    reports, mode = run.reports, params.fix_mode
    safe, unsafe = fixable(d for r in reports for d in r.result.diagnostics)
    summary = ""
    if mode is not None:
        applied = sum(r.fixes.applied for r in reports if r.fixes)
        files = sum(len(r.fixes.changes) for r in reports if r.fixes)
        left = sum(len(r.result.not_fixed) for r in reports)
        fixes, where = counted(applied, "fix", "fixes"), f"in {counted(files, 'file')}"
        if applied and params.diff:
            summary = f"{fixes} would be applied {where} (--diff: nothing written)"
        elif applied:
            summary = f"applied {fixes} {where}"
        elif left:  # "no fixes to apply" said so of fixes a full disk refused
            summary = "no fixes would be applied" if params.diff else "no fixes applied"
        else:
            summary = "no fixes to apply"
        if left:
            summary += f"; {counted(left, 'file')} could not be fixed (see the errors)"
    hints = []
    if safe and mode is None:
        hints.append(f"{counted(safe, 'fix', 'fixes')} available with --fix")
    if unsafe and mode != "unsafe":
        hints.append(f"{counted(unsafe, 'fix', 'fixes')} available with --unsafe-fixes")
    return summary, "; ".join(hints)


# skillc-lint is a console script of its own: --version, after --format as it always was
click.version_option(package_name="skillc-lint", message="%(package)s %(version)s")(lint_command)
lint_command.params.insert(-1, lint_command.params.pop())


@click.command(name="clean", cls=Command, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--format",
    "output_format",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="Output format: text, one line per file removed; json, the folder and the files.",
)
@verbose_option
def clean_command(output_format: str) -> None:
    """Clear the result cache: the next run lints every skill again.

    Removes only the files the cache wrote (lint-cache.db and SQLite's -wal, -shm and
    -journal files of it) from the cache folder: $SKILLC_CACHE_DIR when set, else
    skillc's user cache folder (~/.cache/skillc/lint on Linux). Nothing else in the
    folder is touched. Prints each file removed.

    \b
    Examples:
      skillc-lint clean
      SKILLC_CACHE_DIR=/tmp/lint-cache skillc-lint clean --format json
    """
    import os

    from skillc_index import InternalError, format_diagnostic, printable
    from skillc_index.config import folder_variable_notices
    from skillc_lint._cache import cache_dir, clean

    for notice in folder_variable_notices(os.environ):  # a relative SKILLC_CACHE_DIR: not used
        click.echo(format_diagnostic(notice, terminal=True), err=True)
    folder = cache_dir()
    try:
        removed = clean(folder)
    except OSError as exc:
        where = exc.filename or folder
        raise InternalError(f"cannot remove '{where}': {exc.strerror or exc}") from None
    if output_format == "json":
        print_json({"cache_dir": str(folder), "removed": [str(path) for path in removed]})
        return
    for path in removed:
        click.echo(f"removed {printable(str(path))}")
    if not removed:
        click.echo(f"nothing to remove in {printable(str(folder))}")


def main(argv: Sequence[str] | None = None) -> int:
    """Console script entry point: ``skillc-lint [SKILL]...``; ``argv`` defaults to
    ``sys.argv[1:]``. Returns the exit code (the script exits with it). ``skillc-lint
    server ...`` starts the language server instead (:mod:`skillc_lint.server.cli`),
    ``skillc-lint clean`` clears the result cache (:func:`clean_command`); a skill or folder
    named ``server`` or ``clean`` is ``skillc-lint ./server`` (or ``-- server``)."""
    if argv is None:
        utf8_process()
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == ["server"]:
        from skillc_lint.server.cli import main as server_main

        return server_main(args[1:])
    if args[:1] == ["clean"]:
        return run(clean_command, args[1:], prog_name="skillc-lint clean")
    return run(lint_command, args, prog_name="skillc-lint")
