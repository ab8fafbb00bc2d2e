"""``lint`` as an operation (:mod:`skillc_index.operation`): skills checked against the
authoring rules (RFC-0008), with the configuration's ``[lint]`` table, logged.

:data:`LINT` is the MCP tool ``skc_lint`` (one skill: ``skill``) and the command ``skc lint``
(``skillc-lint``; any number of skills, folders of skills or files: ``skills``), which
:mod:`skillc_lint.cli` makes from it. Its run (:func:`~skillc_lint._run.lint_run`) returns a
:class:`~skillc_lint._run.LintRun`; :func:`lint` lints one skill of it with rules built once
(:func:`rule_registry`, :func:`suppressions`). Only the standard library and
:mod:`skillc_index.operation` (with :mod:`skillc_index.arguments`) are imported here: the
linter loads when the operation runs.
"""

from __future__ import annotations

import stat
from collections.abc import Callable, Collection, Iterable, Sequence
from typing import TYPE_CHECKING, Annotated, Any, Literal, NamedTuple

from skillc_index.arguments import MAX_PATHS, MAX_TARGETS
from skillc_index.operation import SKILL_DESCRIPTION, Operation, Param, Session
from skillc_lint._configs import config_root, nearest_config

if TYPE_CHECKING:
    from pathlib import Path

    from skillc_index import Config, Diagnostic, Layout, Notice
    from skillc_lint import FixOutcome, LintResult, RuleRegistry
    from skillc_lint._baseline import Baseline
    from skillc_lint._run import LintRun
    from skillc_lint._suppress import PathIgnores
    from skillc_lint.shapes import LintShape

__all__ = [
    "LINT",
    "MAX_RULE_VALUES",
    "OPERATIONS",
    "LintParams",
    "LintReport",
    "Suppressions",
    "config_of",
    "lint",
    "lint_config",
    "lint_skills",
    "nearest_config",
    "rule_registry",
    "suppressions",
]

#: At most this many values of ``select`` and ``ignore`` (each may name several rules,
#: comma-separated): the tool's ``maxItems``, the command line's repeated option. 200,000
#: held the MCP server 4 s and wrote a 1 MB access-log row.
MAX_RULE_VALUES = 256


class LintParams(NamedTuple):
    """What to lint and how: the tool's one ``skill``, or the command line's ``skills``
    (several, folders of skills, files; none: the project store), the rules (``select``,
    ``ignore``, ``profile``), what to hide (``baseline``); the rest is the command line's
    (:data:`LINT`'s ``cli_only`` says why)."""

    skill: Annotated[str | None, Param(SKILL_DESCRIPTION, path=True, skill=True)]
    skills: Annotated[
        tuple[str, ...],
        Param(
            "Skill folders, skill names, folders of skills or files of skills to lint "
            "(none: every skill of the project store).",
            argument=True,
            metavar="[SKILL]...",
            path=True,
            skill=True,
            max_items=MAX_PATHS,
        ),
    ] = ()
    force: Annotated[
        bool,
        Param(
            "Lint even if the skill is compiled (SKL001 warns that results may mislead).",
            flags=("-f", "--force"),
            help="Lint compiled skills too (SKL001 warns).",
        ),
    ] = False
    select: Annotated[
        tuple[str, ...],
        Param(
            "Run only these rules: ids (SKL102), id prefixes (SKL1), names (name-format) or "
            "tags (security, budget); an item may hold several, comma-separated.",
            item_min_length=1,
            max_items=MAX_RULE_VALUES,
            metavar="RULES",
            help="Run only these rules: comma-separated ids, id prefixes (SKL3), names or tags "
            "(security, budget).",
        ),
    ] = ()
    ignore: Annotated[
        tuple[str, ...],
        Param(
            "Do not run these rules (the same forms; applied after select).",
            item_min_length=1,
            max_items=MAX_RULE_VALUES,
            metavar="RULES",
            help="Do not run these rules (same syntax; applied after --select).",
        ),
    ] = ()
    profile: Annotated[
        tuple[str, ...],
        Param(
            "Lint for these skill dialects too: claude-code, skillli, gibberish (default: the "
            "configuration's [lint] profiles). agentskills, the standard, always applies.",
            item_min_length=1,
            max_items=MAX_TARGETS,
            metavar="NAME",
            help="Lint for a dialect too: claude-code, skillli, gibberish (repeatable; default: "
            "agentskills, the standard, which every dialect extends).",
        ),
    ] = ()
    target: Annotated[
        tuple[str, ...],
        Param(
            "Report what these agents or package formats drop, change or refuse of the "
            "frontmatter (SKL931, SKL932) and, for a package format, of the file names "
            "(SKL933): claude, codex, agents, copilot, cursor, gemini, kiro, opencode, trae, "
            "upload, plugin, well-known (default: the configuration's [lint] targets).",
            item_min_length=1,
            max_items=MAX_TARGETS,
            flags=("-t", "--target"),
            metavar="AGENT",
            help="Report what an agent or package format drops, changes or refuses "
            "(SKL931-SKL933): claude, codex, agents, ..., upload, plugin, well-known "
            "(repeatable or comma-separated; default: [lint] targets).",
        ),
    ] = ()
    list_rules: Annotated[
        bool,
        Param(
            "List every rule with its severity after configuration (and whether it has "
            "fixes), and exit."
        ),
    ] = False
    fix: Annotated[bool, Param("Apply the safe fixes, lint again and report what remains.")] = False
    unsafe_fixes: Annotated[
        bool,
        Param("Apply the unsafe fixes too, those that may change meaning (implies --fix)."),
    ] = False
    diff: Annotated[
        bool,
        Param(
            "Print a unified diff of what the fixes would change and write nothing (implies "
            "--fix; text format only)."
        ),
    ] = False
    explain: Annotated[
        str | None,
        Param(
            "Print why a rule exists and how to fix its findings (an id, a prefix such as "
            "SKL3, or a name; rules of every profile), and exit.",
            metavar="RULE",
        ),
    ] = None
    baseline: Annotated[
        str | None,
        Param(
            "A baseline file (JSON, written by skillc-lint --write-baseline): the findings it "
            "holds are not reported, only new ones.",
            min_length=1,
            metavar="FILE",
            names="file",
            path=True,
            help="Do not report the findings FILE holds (written by --write-baseline): only "
            "new ones are shown and fail the run.",
        ),
    ] = None
    write_baseline: Annotated[
        str | None,
        Param(
            "Write every finding of this run to FILE (JSON) and exit 0: adopt the linter on a "
            "repository as it is, then lint with --baseline FILE.",
            min_length=1,
            metavar="FILE",
            names="file",
        ),
    ] = None
    statistics: Annotated[
        bool,
        Param("Print how many findings each rule has instead of the findings (text or json)."),
    ] = False
    max_warnings: Annotated[
        int | None,
        Param(
            "Exit 1 when there are more than N warnings (errors always fail).",
            minimum=0,
            metavar="N",
        ),
    ] = None
    add_suppressions: Annotated[
        bool,
        Param(
            "Write a skillc-lint comment hiding each current finding into the skill's "
            "Markdown (disable-line at the end of its line, or disable= after the "
            "frontmatter; none for a security rule's, which no comment hides), report how "
            "many, and exit 0."
        ),
    ] = False
    show_fixes: Annotated[
        bool,
        Param("Show each finding's fix under it (what --fix or --unsafe-fixes would do)."),
    ] = False
    sarif_file: Annotated[
        str | None,
        Param(
            "Also write the run's findings as SARIF to FILE, whatever --format prints (one "
            "run gives CI its annotations and its code-scanning upload).",
            min_length=1,
            metavar="FILE",
            names="file",
        ),
    ] = None
    config: Annotated[
        str | None,
        Param(
            "The config file to use (a config.toml, or a pyproject.toml with [tool.skillc]) "
            "instead of the one found nearest each linted skill.",
            min_length=1,
            metavar="PATH",
            names="file",
        ),
    ] = None
    no_cache: Annotated[
        bool,
        Param(
            "Lint every skill again instead of reusing the results of unchanged skills "
            "(the cache in $SKILLC_CACHE_DIR, else the user cache folder), and store none."
        ),
    ] = False
    jobs: Annotated[
        int | None,
        Param(
            "Lint with N worker processes (default: one per usable CPU; 1: one skill after "
            "another in this process). The output is the same for any N.",
            minimum=1,
            maximum=1024,
            flags=("-j", "--jobs"),
            metavar="N",
        ),
    ] = None

    @property
    def fix_mode(self) -> Literal["safe", "unsafe"] | None:
        """The fixes to apply: ``unsafe`` ones too (``unsafe_fixes``), the ``safe`` ones
        (``fix``, or ``diff``, which shows them), or none."""
        if self.unsafe_fixes:
            return "unsafe"
        return "safe" if self.fix or self.diff else None

    def rules(self) -> dict[str, tuple[str, ...]]:
        """The options that choose the rules, as :func:`rule_registry` takes them."""
        return {
            "profile": self.profile,
            "select": self.select,
            "ignore": self.ignore,
            "target": self.target,
        }

    def own_files(self, cwd: Path) -> frozenset[str]:
        """The files the run reads or writes besides the skills' (``baseline``,
        ``write_baseline``, ``sarif_file``, relative to ``cwd``): no part of any skill it
        lints (a repository whose root is the skill holds them), each as the real path of its
        folder joined with its name (:class:`~skillc_lint._skill.Skill`'s ``leave_out``)."""
        import os

        from skillc_index.files import real_path

        files = (self.baseline, self.write_baseline, self.sarif_file)
        paths = [os.path.join(cwd, file) for file in files if file]  # noqa: PTH118
        return frozenset(
            os.path.join(real_path(os.path.dirname(path)), os.path.basename(path))  # noqa: PTH118,PTH119,PTH120
            for path in paths
        )

    def log_args(self) -> dict[str, Any]:
        """The options as given; :func:`lint` sets ``profiles`` to those in effect and adds
        ``errors``, ``warnings`` and ``skipped`` once the skill is linted."""
        return {
            "force": self.force,
            "profiles": list(self.profile),
            "select": list(self.select),
            "ignore": list(self.ignore),
        }


class LintReport(NamedTuple):
    """What linting one skill found, and the folder its paths are shown relative to."""

    result: LintResult
    cwd: Path
    fixes: FixOutcome | None = None
    """What fixing did, when the lint fixed (the command line's ``--fix``)."""
    shown: tuple[bool, ...] | None = None
    """Which diagnostics the reply holds (a mask of them), when the reply's size bound (the
    tool's) left the others out (None: all); ``cut`` is the warning that says so."""
    cut: tuple[Notice, ...] = ()

    @property
    def warnings(self) -> tuple[Diagnostic | Notice, ...]:
        return (*self.result.notices, *self.cut)

    def to_dict(self) -> LintShape:
        """The tool's JSON of the skill: its ``--format json`` object, whose error and
        warning counts are of every diagnostic, also those the reply leaves out (its
        ``warnings``, :attr:`warnings`' lines, are the reply's, as every tool's)."""
        from skillc_lint import json_report

        data: LintShape = json_report([self.result], self.cwd, single=True, warnings=False)
        if self.shown is not None:
            from itertools import compress

            data["diagnostics"] = list(compress(data["diagnostics"], self.shown))
        return data


def _names(values: Iterable[str], name: str, most: int) -> list[str]:
    """Items that may each hold several comma-separated names, as one list; one ``str`` is
    one item, not its characters (:func:`skillc_index.items.as_items`). More than ``most``
    names is :class:`~skillc_index.option_errors.TooManyItems` (E100) of the parameter
    ``name``, as more items are (one item of 200,000 names held the MCP server 7 s)."""
    from skillc_index.items import as_items

    names = [part.strip() for value in as_items(values) for part in value.split(",")]
    names = [part for part in names if part]
    if len(names) > most:
        from skillc_index.option_errors import TooManyItems

        raise TooManyItems(name, len(names), most)
    return names


class LintConfig(NamedTuple):
    """The configuration a lint uses and the folder its ``per-file-ignores`` patterns are
    relative to (the config file's project; a ``--config`` file's: the working folder's,
    :func:`config_of`); ``guarded`` when that file is the linted skill's own (in a folder not
    at or above the working folder, or in a skill's folder: :func:`~skillc_lint._configs.
    skills_own`), whose ``[lint]`` cannot configure or ignore the security rules; ``file``:
    the config file read as the project's (None: none)."""

    config: Config
    root: Path
    guarded: bool = False
    file: Path | None = None


def lint_config(session: Session, start: Path | None, given: str | None = None) -> LintConfig:
    """The configuration for linting ``start`` (a skill folder, a folder of skills, a file),
    as ruff finds its own: ``given`` (``--config PATH``, relative to the working folder);
    else the config file nearest ``start`` (:func:`nearest_config`: ``.skillc/config.toml``,
    or ``pyproject.toml`` with ``[tool.skillc]``, walking up from it, else from the working
    folder); else the session's (the project's found from the working folder, and the global
    one). A file
    found whose folder is not the working folder or one above it is the linted skill's
    own: :attr:`LintConfig.guarded`.
    Raises :class:`~skillc_lint.ConfigNotFound` (E100) when ``given`` is no file (saying
    what it is when it is there: a folder, a device...), or a file that cannot be used (not
    TOML, a ``pyproject.toml`` without ``[tool.skillc]``: :attr:`Config.ignored
    <skillc_index.Config.ignored>`), rather than lint on other settings than those named."""
    from skillc_lint import ConfigNotFound

    layout = session.layout
    if given is not None:
        path = layout.cwd / given
        try:
            mode = path.stat().st_mode  # one stat: what it is, or nothing there
        except OSError:
            raise ConfigNotFound(given) from None
        if not stat.S_ISREG(mode):
            from skillc_index.files import file_kind

            raise ConfigNotFound(given, file_kind(mode))
        file: Path | None = path
    else:
        file = None if start is None else nearest_config(start, layout, layout.cwd)
    found = config_of(layout, file, layout.cwd if given is None else None, session.config)
    config = found.config
    if given is not None and file is not None and file in config.ignored:
        raise ConfigNotFound(given, reason=config.ignored[file])
    if config is not session.config:
        session.warn(config.notices)
    return found


def config_of(
    layout: Layout, file: Path | None, cwd: Path | None, loaded: Config | None = None
) -> LintConfig:
    """The :class:`LintConfig` of the config file ``file`` (:func:`skillc_index.find_config`'s;
    None, or the project's of ``layout``: the project's and the global one, ``loaded`` when
    the caller has read them). :attr:`~LintConfig.guarded` when ``file``'s folder is neither
    ``cwd``, the working folder (``skillc-lint``'s, the language server's workspace folder),
    nor one above it, or is in a skill's folder (:func:`~skillc_lint._configs.skills_own`):
    the skill's own, always guarded, wherever the working folder is, even for ``cwd`` None
    (a file the user named, ``--config``: guarded only when it is in a skill's folder; its
    ``per-file-ignores`` patterns are relative to the project found from the working folder,
    else the working folder, as the project's own config's are, wherever the file lies:
    ``ci/lint.toml`` is no project's root).
    ``skillc-lint`` and the language server both read their configuration so."""
    from skillc_index import load_config
    from skillc_index.config import project_config_file

    if file is None or file == project_config_file(layout):
        config = load_config(layout) if loaded is None else loaded
    else:
        config = load_config(layout, project_file=file)
    from skillc_lint._configs import skills_own

    if cwd is None:
        own = file is not None and skills_own(config_root(file), layout.own_home)
        return LintConfig(config, layout.project_root or layout.cwd, own, file)
    if file is None:
        file = project_config_file(layout)
        own = file is not None and skills_own(config_root(file), layout.own_home)
        return LintConfig(config, layout.project_root or layout.cwd, own, file)
    from skillc_index.files import within

    root = config_root(file)
    own = not within(cwd, root) or skills_own(root, layout.own_home)
    return LintConfig(config, root, own, file)


def rule_registry(
    session: Session,
    *,
    profile: Iterable[str] = (),
    select: Iterable[str] = (),
    ignore: Iterable[str] = (),
    target: Iterable[str] = (),
    config: Config | None = None,
    guarded: bool = False,
) -> RuleRegistry:
    """The rules a lint runs: the configuration's ``[lint]`` table (``config``, default the
    session's; its problems warned as ``config [lint]: ...``; ``guarded``: its project file
    is the linted skill's, :attr:`LintConfig.guarded`), the profiles (``profile``, else the
    table's), then ``select`` and ``ignore``. Raises
    :class:`~skillc_lint.UnknownProfile` or :class:`~skillc_lint.UnknownRule` (E100)."""
    from skillc_index import Notice
    from skillc_lint import configured_registry

    config = session.config if config is None else config
    profiles = tuple(_names(profile, "profile", MAX_TARGETS))
    targets = _names(target, "target", MAX_TARGETS)
    registry, problems = configured_registry(config.lint, profiles, config.origins, guard=guarded)
    session.warn(Notice(f"config [lint]: {problem}") for problem in problems)
    off = registry.turned_off  # run, their findings hidden and counted (suppressions)
    if off:
        registry.enable(*off)
    if targets:
        from skillc_index import UnknownTarget, target_dialects
        from skillc_lint._rules.targets import use_targets

        unknown = use_targets(registry, targets)
        if unknown:
            raise UnknownTarget(unknown[0], tuple(target_dialects()))
    for selectors, apply in (
        (_names(select, "select", MAX_RULE_VALUES), registry.enable_only),  # UnknownRule
        (_names(ignore, "ignore", MAX_RULE_VALUES), registry.disable),  # of each
    ):
        if selectors:
            apply(*selectors)
    # --select runs what it names even when the config turns it off: shown, not hidden
    registry.turned_off = {} if select else {k: v for k, v in off.items() if registry.is_enabled(k)}
    return registry


class Suppressions(NamedTuple):
    """What a run hides besides the skill's own ``skillc-lint`` comments: the ``[lint]``
    table's per-file ignores and the baseline (None: no baseline given)."""

    ignores: PathIgnores
    baseline: Baseline | None = None


def suppressions(
    session: Session,
    registry: RuleRegistry,
    baseline: str | None = None,
    config: LintConfig | None = None,
) -> Suppressions:
    """The run's :class:`Suppressions`: ``[lint] per-file-ignores`` of ``config`` (default:
    the session's, patterns relative to the project, else the working folder; its problems
    warned as ``config [lint]: ...``) and the ``baseline`` file (relative to the working
    folder). Raises :class:`~skillc_lint.InvalidBaseline` (E100) for a baseline that cannot
    be read."""
    from skillc_index import Notice
    from skillc_lint import InvalidBaseline
    from skillc_lint._baseline import Baseline, BaselineError
    from skillc_lint._suppress import PathIgnores

    layout = session.layout
    if config is None:
        config = LintConfig(session.config, layout.project_root or layout.cwd)
    root = config.root
    table = config.config.lint.get("per-file-ignores")
    if table is None:
        ignores = PathIgnores(root, {})
    else:
        ignores, problems = PathIgnores.from_config(root, table, registry, config.guarded)
        session.warn(Notice(f"config [lint]: {problem}") for problem in problems)
    from skillc_index.config import project_config_file

    files = {"global": layout.global_config, "project": config.file or project_config_file(layout)}
    ignores.watch(registry, config.config.origins, {k: v for k, v in files.items() if v})
    if baseline is None:
        return Suppressions(ignores)
    try:
        return Suppressions(ignores, Baseline.read(layout.cwd / baseline))
    except BaselineError as exc:
        raise InvalidBaseline(str(exc)) from None


def _suppressed(result: LintResult, hidden: Suppressions) -> LintResult:
    """``result`` without what the per-file ignores and the baseline hide."""
    from dataclasses import replace

    ignores = hidden.ignores
    kept = []  # (no pattern hides nothing: each finding's path is not even built)
    for d in result.diagnostics:
        if ignores and ignores.hides(result.path / d.file, d):
            ignores.count(d)  # a security finding is counted: said on stderr
        else:
            kept.append(d)
    if hidden.baseline is not None:
        kept = hidden.baseline.hide(replace(result, diagnostics=tuple(kept)))
    if len(kept) == len(result.diagnostics):
        return result
    gone = len(result.diagnostics) - len(kept)
    return replace(result, diagnostics=tuple(kept), suppressed=result.suppressed + gone)


def lint(
    session: Session,
    params: LintParams,
    registry: RuleRegistry | None = None,
    hidden: Suppressions | None = None,
    *,
    fix: Literal["safe", "unsafe"] | None = None,
    write: bool = True,
    engine: Callable[[Path], LintResult] | None = None,
    tree: Path | None = None,
    places: Sequence[Path] = (),
    leave_out: Collection[str] | None = None,
) -> LintReport:
    """Lint one skill (``params.skill``) and log it, when it is a skill of a store (or
    imported into one): a folder in no store is linted without a trace (no runtime folder,
    no log row). Its result holds every finding the suppressions leave: the run caps it for
    the report (:func:`~skillc_lint._engine.capped`) after writing any baseline or comment.
    ``registry``: the rules (default: :func:`rule_registry` of ``params``) and ``hidden``
    (default: :func:`suppressions` of ``params``): a caller linting several skills builds
    them once (a baseline counts its matches over the whole run). ``fix``: apply the safe
    fixes (or all, ``"unsafe"``) first (:func:`~skillc_lint.fix_skill`; ``write=False``
    computes them without writing; findings the per-file ignores hide are not fixed); the
    result is then what remains. ``tree``: the folder the fixes may write in, when the skill
    was found in a folder of skills (default: the skill's own folder; the ``tree`` of
    :func:`~skillc_lint.fix_skill`); ``places``: where they may write when the skill was found
    by its name (``fix_skill``'s). ``engine``: what lints the resolved folder when not fixing
    (default: :func:`~skillc_lint.lint_skill` with ``registry``); the command line passes the
    result a worker process already computed for it. ``leave_out``: the run's own files
    (default: :meth:`LintParams.own_files`, computed here; a run of many skills computes
    them once and passes them)."""
    from skillc_index import error_line, expand_user, resolve_skill
    from skillc_lint import fix_skill, lint_skill, profiles_in
    from skillc_lint._targets import skill_folder

    cwd = session.layout.cwd
    if params.skill is None:
        raise TypeError("lint() lints one skill: params.skill names it")
    skill = resolve_skill(params.skill, session.layout)
    session.warn_resolved(skill.notices)
    folder = skill_folder(cwd / expand_user(params.skill), skill, session.layout)
    if registry is None or hidden is None:
        found = lint_config(session, folder, params.config)
    if registry is None:
        registry = rule_registry(
            session, **params.rules(), config=found.config, guarded=found.guarded
        )
    if hidden is None:
        hidden = suppressions(session, registry, params.baseline, found)

    own = params.own_files(cwd) if leave_out is None else leave_out
    args = params.log_args()
    args["profiles"] = list(profiles_in(registry))
    outcome = None

    def run() -> LintResult:
        nonlocal outcome
        assert hidden is not None
        if fix is None:
            if engine is not None:
                return _suppressed(engine(folder), hidden)
            linted = lint_skill(
                folder,
                registry=registry,
                force=params.force,
                cap=False,
                leave_out=own,
            )
            return _suppressed(linted, hidden)
        ignores = hidden.ignores
        outcome = fix_skill(
            folder,
            registry=registry,
            force=params.force,
            unsafe=fix == "unsafe",
            write=write,
            skip=lambda d: ignores.hides(folder / d.file, d),
            tree=tree,
            places=places,
            leave_out=own,
        )
        return _suppressed(outcome.result, hidden)

    if not (skill.in_store or skill.imported_from):
        # a folder in no store (a checkout): nothing is written anywhere (DECISIONS.md)
        return LintReport(run(), cwd, outcome)
    error: str | None = None
    try:
        result = run()
        args.update(errors=result.errors, warnings=result.warnings, skipped=result.skipped)
    except BaseException as exc:
        error = error_line(exc)
        raise
    finally:
        session.log.record(session.layout, skill, "lint", args, error)
    return LintReport(result, cwd, outcome)


def lint_skills(session: Session, params: LintParams) -> LintRun:
    """:data:`LINT`'s run: :func:`skillc_lint._run.lint_run` (the linter is imported here)."""
    from skillc_lint._run import lint_run

    return lint_run(session, params)


LINT: Operation[LintParams, LintRun] = Operation(
    name="lint",
    title="Lint a skill",
    description="Check a skill against the authoring standard (RFC-0008 rules SKL001 to "
    "SKL401: frontmatter, structure, links, files) and return every problem with its rule, "
    "severity, file and line, and for fixable ones a fix (edits to apply). Use after "
    "writing or editing a skill, before building or publishing it; fix the errors first. "
    "`profile` adds the rules of a skill dialect "
    "(claude-code, skillli, gibberish); `select` and `ignore` narrow the rules. A compiled "
    "skill (one holding .skillc-meta/manifest.json) is skipped unless `force`.",
    params=LintParams,
    run=lint_skills,
    output="skillc_lint.shapes:LintShape",
    cli_only={
        "jobs": "the tool lints one skill; worker processes pay off over many",
        "add_suppressions": "writes the skill's files; the tool is read-only",
        "no_cache": "the tool lints one skill, never from the result cache of the command "
        "line's runs",
        "show_fixes": "the text format's; the tool returns each diagnostic's fix",
        "sarif_file": "writes a file; the tool is read-only and returns the findings",
        "config": "the tool reads the configuration found nearest the skill, as the command "
        "line does without --config; it names no file to read",
        "skills": "the command line lints several skills, or folders of skills, in one run; "
        "the tool lints one (skill)",
        "list_rules": "lists the rules instead of linting; an agent reads the rules from the "
        "diagnostics",
        "explain": "prints a rule's documentation instead of linting",
        "write_baseline": "writes a file; the tool is read-only (it reads a baseline)",
        "statistics": "a summary for people; the tool returns every diagnostic with counts",
        "max_warnings": "sets the exit status; the tool returns warning_count",
        "fix": "writes the skill's files, and the tool is read-only: it returns each "
        "diagnostic's fix (edits) for the agent to apply",
        "unsafe_fixes": "writes the skill's files (see fix)",
        "diff": "shows what fix would write; the tool returns the fixes' edits instead",
    },
    mcp_only={"skill": "the command line takes any number of skills (skills)"},
)

OPERATIONS: tuple[Operation[Any, Any], ...] = (LINT,)
"""The operations of this package."""
