"""Command line of skillc-lint: ``skc lint`` and the ``skillc-lint`` console script.

One click command serves both (registered with ``skc`` through the ``skillc.commands`` entry
point). This module imports only click and :mod:`skillc_index.console` at import time; the
linter is imported inside the command body, so ``skc --help`` and ``skc lint --help`` stay fast.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

import click

from skillc_index.console import (
    CONTEXT_SETTINGS,
    count_range,
    format_option,
    print_json,
    run,
    verbose_option,
)

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from skillc_index import SkillcError
    from skillc_index.operation import Session
    from skillc_lint import LintResult, RuleRegistry
    from skillc_lint.operations import LintReport

FORMATS = ("text", "json", "sarif", "github")


def _registry(
    session: Session, profile: Sequence[str], select: Sequence[str], ignore: Sequence[str]
) -> RuleRegistry:
    """:func:`~skillc_lint.operations.rule_registry`; an unknown profile or a selector naming
    no rule is a usage error of its option (E100)."""
    from skillc_lint import UnknownProfile, UnknownRule
    from skillc_lint.operations import rule_registry

    try:
        return rule_registry(session, profile=profile, select=select, ignore=ignore)
    except UnknownProfile as exc:
        raise click.BadParameter(exc.reason, param_hint="--profile") from None
    except UnknownRule as exc:
        message = f"{exc.reason} (see --list-rules)"
        raise click.BadParameter(message, param_hint=f"--{exc.parameter}") from None


def _print_rules(registry: RuleRegistry, output_format: str) -> None:
    states = registry.states()
    if output_format == "json":
        print_json(
            [
                {
                    "id": s.rule.id,
                    "name": s.rule.name,
                    "severity": s.severity,
                    "enabled": s.enabled,
                    "options": dict(s.options),
                    "summary": s.rule.summary,
                    "fixable": s.rule.fixable,
                }
                for s in states
            ]
        )
        return
    width = max(len(s.rule.name) for s in states)
    for s in states:
        state = s.severity if s.enabled else "off"
        fixable = (s.rule.fixable or "").ljust(6)
        name = s.rule.name.ljust(width)
        click.echo(f"{s.rule.id}  {name}  {state.ljust(7)}  {fixable}  {s.rule.summary}")


def _fixes(count: int) -> str:
    return f"{count} fix" if count == 1 else f"{count} fixes"


def _fix_lines(
    reports: Sequence[LintReport], mode: Literal["safe", "unsafe"] | None, diff: bool
) -> tuple[str, str]:
    """The summary of a run's fixes (stdout; empty when not fixing) and the hint of those it
    left (stderr; empty when there are none)."""
    from skillc_lint._fixes import fixable

    safe, unsafe = fixable(d for r in reports for d in r.result.diagnostics)
    summary = ""
    if mode is not None:
        applied = sum(r.fixes.applied for r in reports if r.fixes)
        files = sum(len(r.fixes.changes) for r in reports if r.fixes)
        where = f"in {files} file{'' if files == 1 else 's'}"
        if not applied:
            summary = "no fixes to apply"
        elif diff:
            summary = f"{_fixes(applied)} would be applied {where} (--diff: nothing written)"
        else:
            summary = f"applied {_fixes(applied)} {where}"
    hints = []
    if safe and mode is None:
        hints.append(f"{_fixes(safe)} available with --fix")
    if unsafe and mode != "unsafe":
        hints.append(f"{_fixes(unsafe)} available with --unsafe-fixes")
    return summary, "; ".join(hints)


def _explain(selector: str, output_format: str) -> None:
    """Print the documentation of the rules ``selector`` names (an id, a prefix or a name),
    of every profile; a selector naming no rule is a usage error of ``--explain``."""
    from skillc_lint import PROFILES, default_registry
    from skillc_lint._output import explain_lines, rule_doc

    registry = default_registry(profiles=tuple(PROFILES))
    ids = registry.match(selector)
    if not ids:
        raise click.BadParameter(
            f"no rule matches '{selector}' (see --list-rules)", param_hint="--explain"
        )
    owner = {rule.id: name for name, p in PROFILES.items() for rule in p.rules}
    docs = [rule_doc(registry.get(rule_id), owner.get(rule_id)) for rule_id in ids]
    if output_format == "json":
        print_json(docs[0] if len(docs) == 1 else docs)
        return
    for index, doc in enumerate(docs):
        if index:
            click.echo()
        for line in explain_lines(doc):
            click.echo(line)


class LintCommand(click.Command):
    """The lint command: a usage error found while parsing the command line (an unknown
    option, a bad ``--jobs``) is also printed in the machine format the command line asks
    for, so ``--format sarif`` never leaves an empty file."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        asked = _format_asked(args)  # before parsing, which consumes the list
        try:
            return super().parse_args(ctx, args)
        except click.UsageError as exc:
            _print_run_error(exc, asked)
            raise


def _format_asked(args: Sequence[str]) -> str:
    """The ``--format`` of a command line click could not parse (the last one given)."""
    chosen = "text"
    for index, arg in enumerate(args):
        if arg == "--":
            break
        if arg == "--format" and index + 1 < len(args):
            chosen = args[index + 1]
        elif arg.startswith("--format="):
            chosen = arg.partition("=")[2]
    return chosen


def _print_run_error(exc: Exception, output_format: str) -> None:
    """The error that stops the whole run, in ``output_format`` on stdout when that is a
    machine format (the kit's error line on stderr is printed by its caller, as for any
    command)."""
    if output_format not in ("json", "sarif", "github"):
        return
    from pathlib import Path

    from skillc_index import CLI_SPELLING, InternalError, InvalidOption, SkillcError
    from skillc_lint import __version__
    from skillc_lint._output import RunError, github_error_line, sarif_log

    if isinstance(exc, SkillcError):
        diagnostic = exc.spelled(CLI_SPELLING)
    elif isinstance(exc, click.UsageError):
        diagnostic = InvalidOption(exc.format_message()).diagnostic
    else:
        diagnostic = InternalError.unexpected(exc).diagnostic
    error = RunError(None, diagnostic)
    if output_format == "json":
        print_json(error.to_dict())
    elif output_format == "sarif":
        print_json(sarif_log([error], None, Path.cwd(), version=__version__))
    else:
        click.echo(github_error_line(error))


class _Progress:
    """``linting [######........] 120/564`` on stderr, redrawn after each skill and cleared
    before anything else is printed; drawn only when ``enabled`` (a terminal, text output,
    several skills), so pipes and CI logs never see it."""

    WIDTH = 30

    def __init__(self, total: int, *, enabled: bool) -> None:
        self.total = total
        self.enabled = enabled
        self.done = 0
        self.drawn = False

    def echo(self, text: str, *, err: bool = False) -> None:
        """Print a line (or lines: a diagnostic and its hint) of a skill's report, whose
        callers made what it quotes of the skill printable (``terminal=True``)."""
        self.clear()
        click.echo(text, err=err)

    def advance(self) -> None:
        self.done += 1
        if not self.enabled or self.done >= self.total:
            self.clear()
            return
        filled = self.WIDTH * self.done // self.total
        bar = "#" * filled + "." * (self.WIDTH - filled)
        sys.stderr.write(f"\rlinting [{bar}] {self.done}/{self.total}")
        sys.stderr.flush()
        self.drawn = True

    def clear(self) -> None:
        if self.drawn:
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()
            self.drawn = False


@click.command("lint", cls=LintCommand, context_settings=CONTEXT_SETTINGS)
@click.argument("skills", nargs=-1, metavar="[SKILL]...")
@click.option("--force", is_flag=True, help="Lint compiled skills too (SKL001 warns).")
@click.option(
    "--select",
    multiple=True,
    metavar="RULES",
    help="Run only these rules: comma-separated ids, id prefixes (SKL3), names or tags "
    "(security, budget).",
)
@click.option(
    "--ignore",
    multiple=True,
    metavar="RULES",
    help="Do not run these rules (same syntax; applied after --select).",
)
@click.option(
    "--profile",
    multiple=True,
    metavar="NAME",
    help="Lint for a dialect too: claude-code, skillli, gibberish (repeatable; default: "
    "agentskills, the standard, which every dialect extends).",
)
@click.option(
    "--list-rules",
    is_flag=True,
    help="List every rule with its severity after configuration (and whether it has fixes), "
    "and exit.",
)
@click.option(
    "--fix",
    is_flag=True,
    help="Apply the safe fixes, lint again and report what remains.",
)
@click.option(
    "--unsafe-fixes",
    is_flag=True,
    help="Apply the unsafe fixes too, those that may change meaning (implies --fix).",
)
@click.option(
    "--diff",
    is_flag=True,
    help="Print a unified diff of what the fixes would change and write nothing (implies "
    "--fix; text format only).",
)
@click.option(
    "--explain",
    metavar="RULE",
    help="Print why a rule exists and how to fix its findings (an id, a prefix such as "
    "SKL3, or a name; rules of every profile), and exit.",
)
@click.option(
    "--baseline",
    metavar="FILE",
    help="Do not report the findings FILE holds (written by --write-baseline): only new "
    "ones are shown and fail the run.",
)
@click.option(
    "--write-baseline",
    metavar="FILE",
    help="Write every finding of this run to FILE (JSON) and exit 0: adopt the linter on a "
    "repository as it is, then lint with --baseline FILE.",
)
@click.option(
    "--statistics",
    is_flag=True,
    help="Print how many findings each rule has instead of the findings (text or json).",
)
@click.option(
    "--max-warnings",
    type=click.IntRange(min=0),
    metavar="N",
    help="Exit 1 when there are more than N warnings (errors always fail).",
)
@click.option(
    "-j",
    "--jobs",
    type=count_range(1, 1024),
    metavar="N",
    help="Lint with N worker processes (default: one per usable CPU; 1: one skill after "
    "another in this process). The output is the same for any N.",
)
@format_option(*FORMATS)
@click.version_option(package_name="skillc-lint", message="%(package)s %(version)s")
@verbose_option
def lint_command(**params: Any) -> int:
    """Validate skill authoring quality.

    Lint each SKILL against the authoring rules of RFC-0008 (SKL001 to SKL401). A SKILL is a
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
    the whole file), by `per-file-ignores` in the `[lint]` table, or by a baseline file.

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
    the standard's compatibility, metadata and allowed-tools, SKL501-503, frontmatter
    whitespace, SKL510, the security rules SKL901-908 and the budget rules SKL921-923),
    `claude-code` (SKL601-606, and the plugin and marketplace manifests of a plugin folder,
    SKL611-612), `skillli` (registry fields and quizzes, SKL701-726) and `gibberish`
    (gibb.eri.sh tool-defining skills, SKL801-819). Each extends `agentskills`. Selectors name
    tags too: `--select security`.

    \b
    Examples:
      skc lint my-skill
      skc lint                                   # every skill of the project
      skillc-lint skills/                        # every skill under skills/ (CI)
      skillc-lint skills/ --jobs 1               # in this process only
      skillc-lint skills/ --format sarif > lint.sarif
      skillc-lint skills/ --format github        # annotations in GitHub Actions
      skillc-lint my-skill --ignore SKL108,SKL4 --format json
      skillc-lint skills/ --select security      # the security rules alone (CI)
      skillc-lint my-plugin/ --profile claude-code   # a plugin: its skills and manifest
      skillc-lint .claude/skills --profile claude-code
      skillc-lint skills/git --profile gibberish
      skillc-lint --list-rules --profile skillli
      skillc-lint --explain SKL301               # why the rule exists, how to fix it
      skillc-lint skills/ --write-baseline lint-baseline.json
      skillc-lint skills/ --baseline lint-baseline.json --max-warnings 0
      skillc-lint skills/ --statistics           # findings per rule
      skillc-lint skills/ --fix --diff           # what --fix would change
      skillc-lint skills/ --fix                  # apply the safe fixes
      skillc-lint my-skill --unsafe-fixes        # and the others
    """
    options = _Options(**params)
    try:
        return _lint(options)
    except (click.exceptions.Exit, BrokenPipeError):
        raise
    except Exception as exc:  # the run's own error: in the chosen format too, then as usual
        _print_run_error(exc, options.output_format)
        raise


class _Options(NamedTuple):
    """The parameters of :func:`lint_command`, as click passes them: one field per click
    parameter above it, named as click names it (a new option is a decorator and a field)."""

    skills: tuple[str, ...]
    force: bool
    select: tuple[str, ...]
    ignore: tuple[str, ...]
    profile: tuple[str, ...]
    list_rules: bool
    fix: bool
    unsafe_fixes: bool
    diff: bool
    explain: str | None
    baseline: str | None
    write_baseline: str | None
    statistics: bool
    max_warnings: int | None
    jobs: int | None
    output_format: str


def _computed(
    folder: Path, done: LintResult | SkillcError, registry: RuleRegistry, *, force: bool
) -> Callable[[Path], LintResult]:
    """The engine :func:`~skillc_lint.operations.lint` runs on the folder it resolved:
    ``done`` (what a worker returned for ``folder``: its result, or the error to raise), or a
    fresh lint when the folder resolved to another (an imported skill's source)."""
    import os

    def engine(resolved: Path) -> LintResult:
        if os.path.realpath(resolved) != os.path.realpath(folder):
            from skillc_lint import lint_skill

            return lint_skill(resolved, registry=registry, force=force)
        if isinstance(done, Exception):
            raise done
        return done

    return engine


def _shown(problem: SkillcError, cwd: Path) -> SkillcError:
    """A file fixing left alone, its paths written as the diagnostics write them."""
    from pathlib import Path

    from skillc_lint import NotFixed, _output

    if isinstance(problem, NotFixed):
        return problem.shown(lambda path: _output.display_path(Path(path), cwd))
    return problem


def _lint(options: _Options) -> int:
    """The body of :func:`lint_command` (which reports its errors in the chosen format)."""
    import os
    from dataclasses import replace
    from pathlib import Path

    from skillc_index import CLI_SPELLING, Notice, SkillcError, format_diagnostic, printable
    from skillc_index.console import cli_session, report
    from skillc_lint import InvalidBaseline, __version__, _output
    from skillc_lint._engine import (
        Target,
        lint_folder,
        resolve_target,
        resolve_targets,
        target_folders,
    )
    from skillc_lint._output import RunError
    from skillc_lint._pool import lint_folders, usable_cores
    from skillc_lint.operations import LintParams, _suppressed, lint, suppressions

    output_format = options.output_format
    if options.explain is not None:
        _explain(options.explain, output_format)
        return 0
    baseline, write_baseline = options.baseline, options.write_baseline
    if baseline is not None and write_baseline is not None:
        raise click.UsageError("use one of --baseline and --write-baseline")
    if options.statistics and output_format not in ("text", "json"):
        raise click.BadParameter("works with --format text or json", param_hint="--statistics")
    diff = options.diff
    if diff and output_format != "text":
        raise click.BadParameter(
            f"prints a diff, which the {output_format} format has no place for", param_hint="--diff"
        )
    mode: Literal["safe", "unsafe"] | None = (
        "unsafe" if options.unsafe_fixes else "safe" if options.fix or diff else None
    )
    session = cli_session()
    layout = session.layout
    cwd = layout.cwd
    registry = _registry(session, options.profile, options.select, options.ignore)
    if options.list_rules:
        _print_rules(registry, output_format)
        return 0
    try:
        hidden = suppressions(session, registry, baseline)
    except InvalidBaseline as exc:
        raise click.BadParameter(exc.reason, param_hint="--baseline") from None

    targets: list[Target | RunError] = []
    for argument in options.skills:
        try:
            targets.append(resolve_target(argument, layout))
        except SkillcError as exc:  # reported in its place; the other targets are linted
            targets.append(RunError(argument, exc.spelled(CLI_SPELLING)))
    if not options.skills:
        targets.extend(resolve_targets((), layout))
    plan: list[Path | RunError] = []  # what the run reports, in order
    # each skill folder (real path) linted, once, and the folder its fixes may write in: the
    # folder of skills it was found in (None: named itself, its own folder)
    trees: dict[str, Path | None] = {}
    for target in targets:
        if isinstance(target, RunError):
            plan.append(target)
            continue
        if target.collection and target.folder is not None:
            where = _output.display_path(target.folder, cwd)
            count = len(target.skills)
            if count:
                noun = "skill" if count == 1 else "skills"
                click.echo(f"linting {count} {noun} in {where}", err=True)
            else:
                click.echo(f"no skills in {where}", err=True)
        tree = target.folder if target.collection else None
        for folder in target.skills:
            key = os.path.realpath(folder)
            if key not in trees:
                plan.append(folder)
                trees[key] = tree
            elif tree is None:  # named itself too: it may be fixed where it is
                trees[key] = None
    single = len(targets) == 1 and (isinstance(targets[0], RunError) or not targets[0].collection)

    folders = [item for item in plan if isinstance(item, Path)]
    # each skill's findings are printed as soon as they are known, except when the run prints
    # counts, writes a baseline or shows a diff first
    streamed = not (options.statistics or write_baseline is not None or diff)
    progress = _Progress(
        len(folders),
        enabled=output_format == "text" and len(folders) > 1 and sys.stderr.isatty(),
    )
    # fixing rewrites files, one skill after another in this process; linting uses the pool
    pooled = (
        None
        if mode
        else lint_folders(
            folders, registry, force=options.force, jobs=options.jobs or usable_cores()
        )
    )
    reports: list[LintReport] = []
    outcomes: list[_output.Outcome] = []

    def show(outcome: _output.Outcome, findings: bool) -> None:
        """What one skill (or folder, or target that failed) prints: its notices and errors
        on stderr, and with ``findings`` its findings in the text or github format."""
        if isinstance(outcome, RunError):
            progress.echo(format_diagnostic(outcome.diagnostic, terminal=True), err=True)
        else:
            if outcome.skipped:
                skipping = Notice(f"skipping compiled skill '{outcome.skill}'", level="info")
                progress.echo(format_diagnostic(skipping, terminal=True), err=True)
            for notice in outcome.notices:
                progress.echo(format_diagnostic(notice, terminal=True), err=True)
        if findings:
            show_findings(outcome)

    def show_findings(outcome: _output.Outcome) -> None:
        if isinstance(outcome, RunError):
            if output_format == "github":
                progress.echo(printable(_output.github_error_line(outcome)))
        elif output_format == "github":
            for line in _output.github_lines(outcome, cwd):
                progress.echo(printable(line))  # one line each: GitHub's escapes for breaks
        elif output_format == "text" and not outcome.skipped:
            for line in _output.text_lines(outcome, cwd):
                progress.echo(line, err=True)
            progress.echo(_output.summary_line(outcome))

    for item in plan:
        if isinstance(item, Path):
            params = LintParams(
                str(item), options.force, options.select, options.ignore, options.profile, baseline
            )
            try:
                if pooled is None:
                    tree = trees[os.path.realpath(item)]
                    done = lint(
                        session, params, registry, hidden, fix=mode, write=not diff, tree=tree
                    )
                else:
                    engine = _computed(item, next(pooled), registry, force=options.force)
                    done = lint(session, params, registry, hidden, engine=engine)
                if done.fixes is not None and done.fixes.problems:  # paths as text shows them
                    left = tuple(_shown(problem, cwd) for problem in done.fixes.problems)
                    done = done._replace(
                        fixes=replace(done.fixes, problems=left),
                        result=replace(done.result, not_fixed=tuple(p.diagnostic for p in left)),
                    )
                reports.append(done)
                outcome: _output.Outcome = done.result
            except SkillcError as exc:
                outcome = RunError(_output.display_path(item, cwd), exc.spelled(CLI_SPELLING))
        else:
            outcome = item
        outcomes.append(outcome)
        show(outcome, streamed)
        if isinstance(item, Path):  # a skill folder done, linted or not
            progress.advance()
    progress.clear()
    linted_targets = [target for target in targets if not isinstance(target, RunError)]
    for folder in target_folders(linted_targets):  # the folder rules: listing budget, plugins
        folder_result = lint_folder(folder, registry=registry)
        if folder_result is not None:  # per-file ignores and the baseline hide here too
            folder_result = _suppressed(folder_result, hidden)
        if folder_result is not None and folder_result.diagnostics:
            outcomes.append(folder_result)
            show(folder_result, streamed)

    problems = [p for r in reports if r.fixes for p in r.fixes.problems]
    if diff:
        from skillc_lint._fixes import unified_diff

        for r in reports:
            if r.fixes and r.fixes.changes:
                shown = {
                    c.file: _output.display_path(r.result.path / c.file, cwd)
                    for c in r.fixes.changes
                }
                click.echo(unified_diff(r.fixes.changes, shown), nl=False)
    for problem in problems:
        report(problem.diagnostic)
    if not streamed and not options.statistics and write_baseline is None:
        for outcome in outcomes:
            show_findings(outcome)
    failed = sum(isinstance(outcome, RunError) for outcome in outcomes)
    results = [outcome for outcome in outcomes if not isinstance(outcome, RunError)]
    if write_baseline is not None:
        from skillc_lint._suppress import Baseline

        try:
            count = Baseline.write(cwd / write_baseline, results)
        except OSError as exc:
            reason = f"cannot write '{write_baseline}': {exc.strerror or exc}"
            raise click.BadParameter(reason, param_hint="--write-baseline") from None
        noun = "finding" if count == 1 else "findings"
        click.echo(f"wrote {count} {noun} to {write_baseline}", err=True)
        return 1 if failed else 0
    if hidden.baseline is not None:
        stale = hidden.baseline.stale
        note = f"; {stale} no longer found (--write-baseline prunes them)" if stale else ""
        click.echo(f"baseline {baseline}: {hidden.baseline.matched} hidden{note}", err=True)
    warnings = sum(r.warnings for r in results if not r.skipped)
    max_warnings = options.max_warnings
    too_many = max_warnings is not None and warnings > max_warnings
    linted = [r for r in results if not r.skipped]
    if options.statistics:
        counts = _output.statistics(linted)
        if output_format == "json":
            print_json(counts)
        else:
            for row in counts:
                click.echo(f"{row['count']:>6}  {row['rule']}  {row['name']}  ({row['severity']})")
            click.echo(_output.total_line(results))
    elif output_format == "json":
        print_json(_output.json_report(outcomes, cwd, single=single))
    elif output_format == "sarif":
        print_json(_output.sarif_log(outcomes, registry, cwd, version=__version__))
    elif output_format == "text":
        if len(linted) > 1:
            click.echo(_output.total_line(linted))
        if failed and len(outcomes) > 1:
            click.echo(_output.failed_line(failed))
        summary, hint = _fix_lines(reports, mode, diff)
        if summary:
            click.echo(summary)
        if hint:
            report(Notice(hint, level="info"))
    if too_many:
        click.echo(f"too many warnings: {warnings} (--max-warnings {max_warnings})", err=True)
    ok = not failed and not problems and not too_many and all(r.ok for r in results)
    return 0 if ok else 1


def main(argv: Sequence[str] | None = None) -> int:
    """Console script entry point: ``skillc-lint [SKILL]...``; ``argv`` defaults to
    ``sys.argv[1:]``. Returns the exit code (the script exits with it)."""
    return run(lint_command, argv, prog_name="skillc-lint")
