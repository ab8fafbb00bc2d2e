"""What the chosen agents do with a skill (SKL931-SKL933, issue 37): ``skillc-lint --target X``
or ``[lint] targets = ["codex", ...]``.

Each target is a built-in ``skc build`` target (``claude``, ``codex``, ``agents``...) or a
``skc package`` format (``upload``, ``plugin``, ``well-known``); what it reads is its dialect
record in skillc-index (:func:`skillc_index.target_dialects`), and what it drops, folds,
moves or cuts is the same projection ``skc build --target`` and ``skc package`` apply
(:func:`skillc_index.project_frontmatter`): the lint says beforehand what the build reports.

- SKL931 ``target-fields`` (warning): a field a target drops or changes (one finding per
  target and field). Safe fix: a top-level ``version`` or ``author`` (a one-line plain value)
  moves under ``metadata`` when the skill has none, where every target keeps it (no agent
  reads either at the top level, Claude Code included).
- SKL932 ``target-name`` (error): a name a target that refuses non-conforming skills will
  not take (a reserved word for uploads, a tag, the name rule): the skill is skipped or the
  upload fails.
- SKL933 ``target-paths`` (error; a warning for a milder case), for the package formats
  alone: what ``skc package`` says of the skill's paths, through the same functions
  (:func:`skillc_index.path_problems`): an error for a name no zip may hold (not UTF-8, a
  backslash, a drive letter: package refuses the skill), a warning for one Windows or macOS
  cannot unpack as it is (a ``:``, ``*?"<>|``, a control character, a device name such as
  ``CON`` or ``aux``, a trailing dot or space, a path over 200 characters) and for two paths
  one file there (case, Unicode normalisation; a file and a folder too).

No target chosen: the rules are silent.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from skillc_index import (
    SKILL_FILE,
    Dialect,
    name_refusals,
    path_problems,
    project_frontmatter,
    target_dialects,
)
from skillc_lint._fixes import Fix, TextEdit
from skillc_lint._registry import Finding, Rule, RuleRegistry
from skillc_lint._rules.fields import Findings, Options, field_line, frontmatter, scalar_texts
from skillc_lint._skill import Skill

__all__ = ["RULES", "TARGETS_OPTION", "read_by_targets", "use_targets"]

#: The rule option (and the ``[lint]`` key) that names the targets.
TARGETS_OPTION = "targets"
#: Fields a safe fix moves under ``metadata``.
_MOVABLE = ("version", "author")
# ``key: value`` on one line, a plain or simply quoted scalar (groups: key, value).
_ONE_LINE = re.compile(r"([a-z]+):[ \t]+([^\s\"'#|>&*!%@`{\[][^#]*?|\"[^\"\\]*\"|'[^']*')[ \t]*")


def _targets(options: Options) -> list[tuple[str, Dialect]]:
    known = target_dialects()
    return [(name, known[name]) for name in options[TARGETS_OPTION] if name in known]


def read_by_targets(options: Options) -> frozenset[str]:
    """The fields the chosen targets read, or keep for the other agents of their folder
    (Copilot's ``argument-hint`` in ``.agents/skills``): SKL109 knows them."""
    return frozenset().union(*(dialect.reads | dialect.shared for _, dialect in _targets(options)))


def _move_to_metadata(skill: Skill, key: str, text: object) -> Fix | None:
    """``key: value`` (one line) -> ``metadata:`` / ``  key: "text"``, when the frontmatter
    has no ``metadata`` and then reads with ``metadata.key`` holding ``text``: what the
    build writes there (a number as the source writes it, ``1.10``, not ``1.1``)."""
    from skillc_index import parse_frontmatter
    from skillc_lint._fixes import apply_edits, line_break

    data = frontmatter(skill)
    if "metadata" in data or key not in data or not isinstance(text, str):
        return None
    number = field_line(skill, key)
    lines = skill.lines(SKILL_FILE)
    content = lines[number - 1].rstrip("\r\n")
    match = _ONE_LINE.fullmatch(content)
    if match is None or match.group(1) != key:
        return None
    quoted = '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
    moved = f"metadata:{line_break(lines)}  {key}: {quoted}"  # the file's own line break
    edit = TextEdit(number, 1, number, len(content) + 1, moved)
    new = apply_edits(skill.skill_md_text, (edit,))
    parsed = None if new is None else parse_frontmatter(new).data
    if not parsed or parsed.get("metadata") != {key: text} or key in parsed:
        return None
    return Fix(f"move {key} under metadata", (edit,))


def target_fields(skill: Skill, options: Options) -> Findings:
    """SKL931: each field a chosen target drops or changes, as ``skc build`` reports it."""
    data = frontmatter(skill)
    if not data:
        return
    texts = scalar_texts(skill)  # what build writes: '1.10', not '1.1'
    for name, dialect in _targets(options):
        projection = project_frontmatter(data, dialect, name, texts=texts)
        for change in projection.changes:
            top = change.field.split(".", 1)[0]
            movable = change.action == "moved" and top in _MOVABLE
            moved = projection.frontmatter.get("metadata", {}).get(top) if movable else None
            fix = _move_to_metadata(skill, top, moved) if movable else None
            yield Finding(change.text, line=field_line(skill, top), fix=fix)


def target_name(skill: Skill, options: Options) -> Findings:
    """SKL932: a chosen target that refuses non-conforming skills refuses this one's name."""
    name = frontmatter(skill).get("name")
    if not isinstance(name, str):
        return
    for target, dialect in _targets(options):
        if not dialect.strict:
            continue
        for problem in name_refusals(name, dialect):
            yield Finding(f"{target} refuses the skill: {problem}", line=field_line(skill, "name"))


def target_paths(skill: Skill, options: Options) -> Findings:
    """SKL933: what ``skc package`` refuses (an error) or warns of (a warning) in the paths of
    the files it would package, when a chosen target is a package format: once, whichever
    formats are chosen (package says the same of each)."""
    from skillc_index.dialect import PACKAGE_DIALECTS

    if not any(name in PACKAGE_DIALECTS for name, _ in _targets(options)):
        return
    packaged = [rel for rel in skill.files if not skill.not_packaged(rel)]  # package's rule
    for problem in path_problems(packaged):
        yield Finding(
            f"{problem.text} (skc package {'refuses the skill' if problem.refused else 'warns'})",
            problem.path,
            warning=not problem.refused,
        )


RULES: tuple[Rule, ...] = (
    Rule(
        "SKL931",
        "target-fields",
        "warning",
        target_fields,
        "A field a chosen target (--target, [lint] targets) drops or changes.",
        options={TARGETS_OPTION: []},
        category="agentskills",
        tags=("targets",),
        rationale="Each agent reads its own subset of the frontmatter: Codex ignores "
        "when_to_use and disable-model-invocation, uploads and Agent Plugins refuse any "
        "field outside the standard. skc build and skc package rewrite the frontmatter for "
        "each target and say what they dropped; this rule says it while you write.",
        fix="Keep the intent in what the target reads: fold when_to_use into the description, "
        "put version and author under metadata (--fix does it), or accept the report.",
        fixable="safe",
    ),
    Rule(
        "SKL932",
        "target-name",
        "error",
        target_name,
        "A chosen target that refuses non-conforming skills refuses this name.",
        options={TARGETS_OPTION: []},
        category="agentskills",
        tags=("targets",),
        rationale="claude.ai uploads and the Skills API refuse names with 'anthropic' or "
        "'claude' or XML tags; Agent Plugins clients skip a skill whose name breaks the "
        "standard's rule.",
        fix="Rename the skill (its folder and its name field).",
    ),
    Rule(
        "SKL933",
        "target-paths",
        "error",
        target_paths,
        "A path a chosen package format (upload, plugin, well-known) refuses, or that Windows "
        "or macOS cannot unpack as it is.",
        options={TARGETS_OPTION: []},
        category="agentskills",
        tags=("targets",),
        rationale="A zip's separator is / alone: skc package refuses a backslash or a drive "
        "letter in a file name (an extractor on Windows reads it as a path out of the folder). "
        'Windows refuses : * ? " < > | and control characters in a name, names such as CON, '
        "aux or nul.txt, a trailing dot or space, and paths past 260 characters; Windows and "
        "macOS take README.md and readme.md (or a file guide and a folder Guide) for one. "
        "skc package warns of these; this rule says it while you write.",
        fix="Rename the file or folder (and the links to it).",
    ),
)


def use_targets(registry: RuleRegistry, names: Sequence[str]) -> list[str]:
    """Set the targets of every rule in ``registry`` whose options declare
    :data:`TARGETS_OPTION` (these, and SKL109: a field a target reads is known); returns the
    names no target has (left out)."""
    known = target_dialects()
    chosen = [name for name in dict.fromkeys(names) if name in known]
    for rule in registry:
        if TARGETS_OPTION in rule.options:
            registry.set_options(rule.id, **{TARGETS_OPTION: chosen})
    return [name for name in names if name not in known]
