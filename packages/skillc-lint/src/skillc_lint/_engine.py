"""Linting: run the registry's rules over a skill and return data (RFC-0008).

:func:`lint_skill` is the API every front end calls (the CLI, ``skc lint``, the MCP server,
embedders): it walks the skill once, parses each Markdown file once, runs each enabled rule and
returns a :class:`LintResult`. :func:`find_skill_folders` and :func:`~skillc_lint._targets.
resolve_targets` turn what a user typed (a path, a name, a folder of skills) into skill folders.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from skillc_index import (
    SKILL_FILE,
    Diagnostic,
    NotASkill,
    Notice,
    diagnostic_json,
    find_skill_folders,  # re-exported: the walk lint and build share
    fs_bytes,
    is_file,
    is_folder,
    lint_diagnostic,
    manifest_path,
)
from skillc_lint._registry import RuleRegistry, RuleState, Severity

if TYPE_CHECKING:
    from collections.abc import Collection, Mapping

    from skillc_lint._cache import ResultCache
    from skillc_lint._fixes import Fix
    from skillc_lint._skill import Known, Skill
    from skillc_lint._targets import Target

__all__ = [
    "MAX_FINDINGS",
    "LintDiagnostic",
    "LintResult",
    "find_skill_folders",
    "is_compiled",
    "lint_folder",
    "lint_skill",
    "lint_targets",
    "target_folders",
]

#: Findings of one rule in one file, and of one rule in one skill, that are reported; past it
#: one more finding says how many were left out (a skill can hold thousands of bad hook
#: handlers, or 100,000 orphaned files: the report stays readable).
MAX_FINDINGS = 100


@dataclass(frozen=True)
class LintDiagnostic:
    """One rule violation: the JSON shape of the Validating guide, plus the rule's name."""

    rule: str
    """Rule id, ``SKL102``."""
    name: str
    """Rule name, ``name-format``."""
    severity: Severity
    file: str
    """Relative POSIX path from the skill root (``SKILL.md``, ``references/api.md``)."""
    line: int | None
    message: str
    column: int | None = None
    """1-based, in characters, when ``line`` is set: where the rule points, else the line's
    first non-blank character."""
    source: str | None = field(default=None, compare=False, repr=False)
    """The text of ``line`` (for the code frame of the text output and the baseline's
    fingerprint); never in machine formats."""
    fix: Fix | None = None
    """The rule's fix for it (:class:`~skillc_lint.Fix`), if it has one."""
    detail: str = field(default="", compare=False, repr=False)
    """The end of :attr:`message` a baseline does not match (see :attr:`matched`)."""
    more: int = field(default=0, compare=False, repr=False)
    """The findings of its rule it stands for, when it says how many were left out
    (:func:`capped`); 0 for a finding. A baseline neither writes nor matches one."""

    @property
    def matched(self) -> str:
        """The message a baseline matches: without its :attr:`detail` (SKL923's skill names,
        which change whenever a skill is added)."""
        return self.message[: len(self.message) - len(self.detail)] if self.detail else self.message

    @property
    def diagnostic(self) -> Diagnostic:
        """The RFC-0005 E300/W300 diagnostic, for :func:`skillc_index.format_diagnostic`."""
        return lint_diagnostic(self.rule, self.name, self.message, self.severity)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "rule": self.rule,
            "severity": self.severity,
            "file": self.file,
            "line": self.line,
            "column": self.column,
            "message": self.message,
        }
        if self.fix is not None:
            data["fix"] = self.fix.to_dict()
        return data


@dataclass(frozen=True)
class LintResult:
    """What linting one skill found."""

    skill: str
    """The skill folder's name."""
    path: Path
    """The skill folder (as given, or as resolved from a name)."""
    diagnostics: tuple[LintDiagnostic, ...] = ()
    skipped: str | None = None
    """``"compiled"`` when SKL001 skipped a compiled skill (no rule ran), else None."""
    rules: tuple[str, ...] = field(default=(), repr=False)
    """Ids of the rules that ran, in order."""
    notices: tuple[Notice, ...] = ()
    """Warnings of the run that are no rule's finding: a Markdown file over the parse
    limit, whose headings and links after the limit were not checked; a suppression comment
    naming no rule."""
    suppressed: int = 0
    """Findings not reported because a suppression hid them (an inline comment, a
    per-file ignore, the baseline)."""
    fixed: int | None = None
    """Fixes applied before this lint (:func:`~skillc_lint.fix_skill`); None when not fixing."""
    not_fixed: tuple[Diagnostic, ...] = ()
    """Files whose fixes were not written, one error each (E999: read-only, outside the
    folder being fixed...; E012), from :attr:`~skillc_lint.FixOutcome.problems`."""
    folder: bool = False
    """The result of a folder of skills (its ``folder`` rules: :func:`lint_folder`), not of a
    skill: a run's total does not count it as one."""
    withheld: tuple[int, int] = field(default=(0, 0), repr=False)
    """Errors and warnings found but not held in :attr:`diagnostics` (:func:`withheld`: a
    run writing a baseline gave them to the file), counted in :attr:`errors`,
    :attr:`warnings` and :attr:`ok` all the same."""

    @property
    def errors(self) -> int:
        return sum(d.severity == "error" for d in self.diagnostics) + self.withheld[0]

    @property
    def warnings(self) -> int:
        return sum(d.severity == "warning" for d in self.diagnostics) + self.withheld[1]

    @property
    def ok(self) -> bool:
        """No error-severity diagnostic (warnings allowed): exit status 0."""
        return self.errors == 0

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "skill": self.skill,
            "diagnostics": [d.to_dict() for d in self.diagnostics],
        }
        if self.skipped:
            data["skipped"] = self.skipped
        if self.fixed is not None:
            data["fixed"] = self.fixed
        if self.not_fixed:
            data["not_fixed"] = [diagnostic_json(d) for d in self.not_fixed]
        return data


def is_compiled(root: Path) -> bool:
    """RFC-0008:C-SCOPE: a skill is compiled when ``.skillc-meta/manifest.json`` exists."""
    return is_file(manifest_path(root))


def lint_skill(
    path: str | os.PathLike[str],
    *,
    registry: RuleRegistry | None = None,
    force: bool = False,
    texts: Mapping[str, str] | None = None,
    cache: ResultCache | None = None,
    cap: bool = True,
    leave_out: Collection[str] = (),
) -> LintResult:
    """Lint the skill folder at ``path`` with ``registry`` (default: every RFC-0008 rule).

    ``path`` may be the path of the skill's ``SKILL.md`` (:func:`skill_root`).
    A compiled skill is skipped (``skipped="compiled"``) unless ``force``, and then SKL001
    warns that results may not be meaningful. Raises :class:`~skillc_index.NotASkill` (E010)
    when the folder (or file) at ``path`` has no SKILL.md, InvalidOption (E100) when
    ``path`` is no ``str`` or ``os.PathLike``,
    :class:`~skillc_index.diagnostics.SkillNotFound` (E001) when nothing is there (as the
    command line: DECISIONS), and :class:`~skillc_index.PathEscapesRoot` (E012), without
    reading it, when SKILL.md is a symlink resolving outside the folder. ``texts`` maps
    files of the skill (relative paths) to the text to lint instead of theirs (fixes not
    written yet, an editor's), as written: a leading BOM is its own, not the disk's.
    ``cache``: where a result of the same skill, rules and linter may be stored
    (:mod:`skillc_lint._cache`); it is reused, or the result stored there (not with
    ``texts``). ``cap``: report at most :data:`MAX_FINDINGS` of a rule (:func:`capped`);
    False for a caller that hides findings first (a baseline, per-file ignores) and caps then.
    ``leave_out``: files no part of the skill (a run's own baseline and SARIF: ``Skill``'s).
    """
    return lint_with_texts(
        path, registry=registry, force=force, texts=texts, cache=cache, cap=cap, leave_out=leave_out
    )[0]


def skill_root(path: object) -> Path:
    """The skill folder ``path`` stands for, as the API's ``path`` (:func:`lint_skill`,
    :func:`~skillc_lint.fix_skill`): a ``str`` or ``os.PathLike``, else E100
    (:func:`~skillc_index.layout.checked_skill`), never a bare ``TypeError``; the path of a
    skill's ``SKILL.md`` is its folder, as :func:`~skillc_lint.resolve_target` (the command
    line) and :func:`~skillc_index.resolve_skill` take it."""
    from skillc_index.layout import checked_skill

    root = Path(checked_skill(path, "path", "a skill's path (str or os.PathLike)"))
    if root.name == SKILL_FILE and is_file(root):
        return root.parent
    return root


def checked_arguments(registry: object, texts: object, leave_out: object) -> frozenset[str]:
    """E100 (:class:`~skillc_index.InvalidOption`) naming the parameter, before anything is
    linted, never a bare ``TypeError`` or ``AttributeError``: ``registry`` None or a
    :class:`~skillc_lint.RuleRegistry`, ``texts`` None or a mapping of ``str`` to ``str``,
    ``leave_out`` a collection of ``str`` (:func:`~skillc_index.items.checked_items`); the
    files of ``leave_out`` as checked (a generator read once, a ``str`` one path), which
    the caller uses in its place."""
    from collections.abc import Mapping

    from skillc_index import InvalidOption
    from skillc_index.items import checked_items

    if registry is not None and not isinstance(registry, RuleRegistry):
        raise InvalidOption(f"registry must be a RuleRegistry, not {type(registry).__name__}")
    if texts is not None:
        pairs = texts.items() if isinstance(texts, Mapping) else ()
        wrong_text = next((p for p in pairs if not all(isinstance(v, str) for v in p)), None)
        if wrong_text is not None or not isinstance(texts, Mapping):
            given = (
                type(texts).__name__
                if wrong_text is None
                else " to ".join(type(v).__name__ for v in wrong_text)
            )
            raise InvalidOption(f"texts must map file paths (str) to texts (str), not {given}")

    def wrong(value: object, _listed: bool) -> InvalidOption:
        return InvalidOption(f"leave_out must be file paths (str), not {type(value).__name__}")

    return frozenset(checked_items(leave_out, str, wrong))


def entry_name(root: Path, real: str) -> str:
    """A skill's name: its folder entry's, as ``skc list`` and ``find`` name it and agents
    load it (a link's own, ``alpha-x -> repoA/skill`` is ``alpha-x``; SKL104 compares the
    ``name`` field with it); the real folder's (``real``) for ``.`` or a root ending in
    ``..``."""
    return Path(os.path.abspath(root)).name or Path(real).name  # noqa: PTH100


def lint_with_texts(
    path: str | os.PathLike[str],
    *,
    registry: RuleRegistry | None = None,
    force: bool = False,
    texts: Mapping[str, str] | None = None,
    cache: ResultCache | None = None,
    known: Known | None = None,
    cap: bool = True,
    leave_out: Collection[str] = (),
) -> tuple[LintResult, Mapping[str, str]]:
    """:func:`lint_skill`, and the text of each Markdown file the lint read (what the fixes
    of its diagnostics were computed from; empty for a skipped compiled skill). ``known``:
    what the caller has of the skill already (:class:`~skillc_lint._skill.Known`, the
    language server's; no result cache then)."""
    from skillc_index import PathEscapesRoot, SkillFileNotFound, safe_join
    from skillc_index.diagnostics import SkillNotFound
    from skillc_lint._skill import Skill

    root = skill_root(path)
    leave_out = checked_arguments(registry, texts, leave_out)
    real = os.path.realpath(root)  # resolved once: every check below is made against it
    try:
        # E012 before E010: an escaping SKILL.md is never read
        safe_join(root, SKILL_FILE, real_root=real)
    except PathEscapesRoot:
        raise PathEscapesRoot(str(root / SKILL_FILE)) from None
    except SkillFileNotFound:  # a SKILL.md no file can be (a symlink loop): E010 below
        pass
    if not is_file(root / SKILL_FILE):
        if not (is_folder(root) or is_file(root)):  # nothing there: E001, as the CLI says
            raise SkillNotFound(str(path))
        raise NotASkill(str(path))
    if registry is None:
        from skillc_lint._profiles import default_registry

        registry = default_registry()
    compiled = is_compiled(root)
    name = entry_name(root, real)
    if compiled and not force:
        return LintResult(name, root, skipped="compiled"), {}
    from skillc_lint._profiles import substitutions_in

    skill = Skill(
        root,
        compiled=compiled,
        substitutions=substitutions_in(registry),
        texts=texts,
        real_root=real,
        known=known,
        leave_out=leave_out,
    )
    key: str | None = None
    if cache is not None and texts is None and known is None:
        from skillc_lint._cache import result_key

        rules = cache.rules_key(registry, force=force)
        key = None if rules is None else result_key(skill, rules)
        stored = None if key is None else cache.get(key, skill)
        if stored is not None:
            return capped(stored) if cap else stored, skill.texts
    active = [entry for entry in registry.active() if entry.rule.scope == "skill"]
    found = _run(active, skill)
    shown, notices, suppressed = _unsuppressed(skill, registry, active, found)
    result = LintResult(
        name,
        root,
        tuple(sorted((d for _, d in shown), key=_place)),
        rules=tuple(e.rule.id for e in active),
        notices=skill.notices + notices,
        suppressed=suppressed,
    )
    if cache is not None and key is not None:
        cache.put(key, skill, result)  # every finding: the cap is the reader's
    return capped(result) if cap else result, skill.texts


def _place(d: LintDiagnostic) -> tuple[bool, bytes, int, str]:
    """Where a skill's finding is reported: SKILL.md's first, then by file, line and rule."""
    return (d.file != SKILL_FILE, fs_bytes(d.file), d.line or 0, d.rule)


def _folder_place(d: LintDiagnostic) -> tuple[bytes, str]:
    """Where a folder's finding is reported: by file, then by rule."""
    return (fs_bytes(d.file), d.rule)


def capped(result: LintResult) -> LintResult:
    """``result`` with at most :data:`MAX_FINDINGS` findings of one rule in one file, then
    one saying how many more there were, and at most :data:`MAX_FINDINGS` of one rule in the
    skill (or folder), then one saying how many more there were, on the first file left out
    (each with :attr:`~LintDiagnostic.more` set). Applied last, once every suppression
    (comments, per-file ignores, the baseline) has hidden what it hides: a comment or a
    baseline entry is written for every finding, never for a count."""
    per_rule = Counter(d.rule for d in result.diagnostics)
    if not per_rule or max(per_rule.values()) <= MAX_FINDINGS:
        return result
    counts: Counter[tuple[str, str]] = Counter()  # by rule and file
    shown: Counter[tuple[str, str]] = Counter()
    total: Counter[str] = Counter()  # by rule
    last: dict[tuple[str, str], LintDiagnostic] = {}
    first_left: dict[str, str] = {}
    errors: set[tuple[str, str]] = set()  # (rule, file) left out with an error among them
    kept: list[LintDiagnostic] = []
    for d in result.diagnostics:
        where = (d.rule, d.file)
        counts[where] += 1
        last[where] = d
        if counts[where] > MAX_FINDINGS or total[d.rule] == MAX_FINDINGS:
            if counts[where] <= MAX_FINDINGS:
                first_left.setdefault(d.rule, d.file)
            if d.severity == "error":
                errors.add(where if counts[where] > MAX_FINDINGS else (d.rule, ""))
            continue
        shown[where] += 1
        total[d.rule] += 1
        kept.append(d)
    left = {rule: count - total[rule] for rule, count in per_rule.items()}
    scope = "folder" if result.folder else "skill"

    def more(
        d: LintDiagnostic, count: int, line: int | None, where: str, key: tuple[str, str]
    ) -> None:
        text = (
            f"{count} more {d.rule} findings in this {where} (the first {MAX_FINDINGS} are shown)"
        )
        severity: Severity = "error" if key in errors else "warning"  # as those left out
        source = d.source if line is not None else None
        column = None if source is None else len(source) - len(source.lstrip()) + 1
        kept.append(
            replace(
                d,
                severity=severity,
                line=line,
                message=text,
                column=column,
                source=source,
                fix=None,
                detail="",
                more=count,
            )
        )

    for where, count in counts.items():
        if count > MAX_FINDINGS and shown[where] == MAX_FINDINGS:
            d = last[where]
            more(d, count - MAX_FINDINGS, d.line, "file", where)
            left[where[0]] -= count - MAX_FINDINGS
    for rule, file in first_left.items():
        if left[rule]:
            more(last[rule, file], left[rule], None, scope, (rule, ""))
    order = _folder_place if result.folder else _place
    return replace(result, diagnostics=tuple(sorted(kept, key=order)))


def withheld(result: LintResult) -> LintResult:
    """``result`` holding none of its findings but counting them all
    (:attr:`LintResult.withheld`): what a run writing a baseline reports, its findings in the
    file, so that the run keeps none (memory bounded by the baseline's, not by the findings)."""
    return replace(result, diagnostics=(), withheld=(result.errors, result.warnings))


def _run(active: Sequence[RuleState], subject: object) -> list[tuple[int, LintDiagnostic]]:
    """Run each rule of ``active`` on ``subject`` (a skill, or a folder for folder rules):
    the diagnostics with the rule's place in the run, every one (:func:`capped` bounds them once
    the suppressions have hidden theirs: a skill's files are bounded). A skill's diagnostics
    carry their line's text (the code frame, as the rule's ``frame`` shows it: SKL904's keys
    masked) and a column, and no fix in a file read in part
    (:attr:`~skillc_lint._skill.Skill.partial`: the fix would be made for its start alone)."""
    from skillc_lint._skill import Skill

    line_text = subject.line_text if isinstance(subject, Skill) else None
    partial = subject.partial if isinstance(subject, Skill) else {}
    found: list[tuple[int, LintDiagnostic]] = []

    def diagnostic(
        entry: RuleState,
        file: str,
        line: int | None,
        column: int | None,
        message: str,
        fix: Fix | None = None,
        warning: bool = False,
        detail: str = "",
    ) -> LintDiagnostic:
        source = line_text(file, line) if line and line_text else None
        if source is not None and entry.rule.frame is not None:
            source = entry.rule.frame(source)  # SKL904's keys masked
        if source is not None and column is None:
            column = len(source) - len(source.lstrip()) + 1
        return LintDiagnostic(
            entry.rule.id,
            entry.rule.name,
            "warning" if warning else entry.severity,
            file,
            line,
            message + detail,
            column if source is not None else None,
            source,
            None if file in partial else fix,
            detail,
        )

    for order, entry in enumerate(active):
        for finding in entry.rule.check(subject, entry.options):
            found.append(
                (
                    order,
                    diagnostic(
                        entry,
                        finding.file,
                        finding.line,
                        finding.column,
                        finding.message,
                        finding.fix,
                        finding.warning,
                        finding.detail,
                    ),
                )
            )
    return found


#: The rule that reports a ``skillc-lint`` comment of the skill naming a security rule: an
#: attempt, in the text under audit, to turn the audit off (no comment can).
GUARD_RULE = "SKL902"


def _unsuppressed(
    skill: Skill,
    registry: RuleRegistry,
    active: Sequence[RuleState],
    found: list[tuple[int, LintDiagnostic]],
) -> tuple[list[tuple[int, LintDiagnostic]], tuple[Notice, ...], int]:
    """The diagnostics of ``found`` (each with its rule's place in ``active``) no
    ``skillc-lint: disable`` comment of their file hides, a warning for each rule a comment
    names that is no rule of the registry, and how many were hidden. No comment hides a
    security rule (:meth:`~skillc_lint.RuleRegistry.guarded`: the text under audit does not
    turn the audit off); a comment naming one is a warning finding of :data:`GUARD_RULE` at
    the name it writes, so CI sees it (a warning of the run when that rule does not run)."""
    from skillc_lint._suppress import inline_suppressions

    notices: list[Notice] = []
    comments = {}
    named: dict[str, frozenset[str]] = {}  # each selector written -> the ids it hides
    guarded: dict[str, bool] = {}  # each selector written -> whether it names a security rule
    guard = next(((o, e) for o, e in enumerate(active) if e.rule.id == GUARD_RULE), None)
    attempts: list[tuple[int, LintDiagnostic]] = []
    for rel, text in skill.texts.items():
        found_here = inline_suppressions(text, skill.docs[rel].code_blocks)
        if found_here.comments:
            comments[rel] = found_here
            for line, column, selector in found_here.comments:
                if selector not in named:
                    ids = frozenset(registry.match(selector))
                    named[selector] = ids - registry.guarded(ids)
                    guarded[selector] = named[selector] != ids
                if guarded[selector]:
                    message = (
                        f"skillc-lint comment cannot hide security rules: '{selector}' (use "
                        "--ignore or the project's config)"
                    )
                    if guard is None:
                        notices.append(Notice(f"{skill.root / rel}:{line}: {message}"))
                    else:
                        rule = guard[1].rule  # the line's text: its code frame
                        source = skill.line_text(rel, line)
                        attempt = LintDiagnostic(
                            rule.id, rule.name, "warning", rel, line, message, column, source
                        )
                        attempts.append((guard[0], attempt))
                elif not named[selector]:
                    where = skill.root / rel
                    notices.append(
                        Notice(f"{where}:{line}: skillc-lint comment names no rule: '{selector}'")
                    )
    if not comments:
        return found, (), 0
    shown = [
        (order, d)
        for order, d in found
        if not (d.file in comments and comments[d.file].hides(d, named))
    ]
    return shown + attempts, tuple(notices), len(found) - len(shown)


def lint_folder(
    path: str | os.PathLike[str], *, registry: RuleRegistry, cap: bool = True
) -> LintResult | None:
    """Run the ``folder`` rules of ``registry`` on a folder of skills (the listing of the
    skills it holds, a plugin's or a marketplace's manifest). The result is named after the
    folder, its diagnostics' files relative to it; None when no folder rule is enabled.
    ``cap``: as :func:`lint_skill`'s."""
    folder = Path(path)
    active = [entry for entry in registry.active() if entry.rule.scope == "folder"]
    if not active:
        return None
    found = sorted((d for _, d in _run(active, folder)), key=_folder_place)
    result = LintResult(
        folder.resolve().name,
        folder,
        tuple(found),
        rules=tuple(e.rule.id for e in active),
        folder=True,
    )
    return capped(result) if cap else result


def target_folders(targets: Iterable[Target]) -> list[Path]:
    """The folders the ``folder`` rules check for these targets, each once: every folder of
    skills named (``skills/``, a plugin, a marketplace) and the folders directly holding its
    skills (what an agent lists). A single skill named has none."""
    folders: dict[str, Path] = {}
    for target in targets:
        if not target.collection or target.folder is None:
            continue
        # each folder resolved once (the skills of a folder share their parent)
        # (not those of the folders a store's skills were imported from, linted in their stead)
        parents = (s.parent for s in target.skills if target.folder in s.parents)
        for folder in dict.fromkeys((target.folder, *parents)):
            folders.setdefault(os.path.realpath(folder), folder)
    return list(folders.values())


def lint_targets(
    targets: Sequence[Target],
    *,
    registry: RuleRegistry | None = None,
    force: bool = False,
    jobs: int = 1,
) -> list[LintResult]:
    """Lint every skill of ``targets`` once (a folder named twice is linted once), with
    ``jobs`` worker processes (:func:`~skillc_lint.lint_folders`), then run the folder rules
    on :func:`target_folders` (a folder's result is kept when it has diagnostics); the first
    error raised linting one of them (E010, E012) is raised once every skill is linted."""
    from skillc_lint._pool import lint_folders

    if registry is None:
        from skillc_lint._profiles import default_registry

        registry = default_registry()
    folders: list[Path] = []
    seen: set[str] = set()
    for target in targets:
        for skill in target.skills:
            key = os.path.realpath(skill)
            if key not in seen:
                seen.add(key)
                folders.append(skill)
    outcomes = list(lint_folders(folders, registry, force=force, jobs=jobs))
    for outcome in outcomes:
        if isinstance(outcome, Exception):
            raise outcome
    results = [capped(outcome) for outcome in outcomes if isinstance(outcome, LintResult)]
    for folder in target_folders(targets):
        result = lint_folder(folder, registry=registry)
        if result is not None and result.diagnostics:
            results.append(result)
    return results
