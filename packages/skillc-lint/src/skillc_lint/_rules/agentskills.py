"""The ``agentskills`` profile (the default): what the Agent Skills standard says of its
optional fields and RFC-0008 does not check (SKL501-SKL504), and the frontmatter's hygiene
(SKL510: no trailing whitespace, which ``--fix`` removes).

spec/004 layer 1: ``compatibility`` a string of 1-500 characters, ``metadata`` a map of string
to string, ``allowed-tools`` a space-separated string, ``license`` a string. Dialects that
accept more (Claude Code reads a YAML list of tools, skillli a list of requirements) widen the
``accept`` option.
"""

from __future__ import annotations

from skillc_index.dialect import is_text, text_fault, text_length
from skillc_lint._registry import Finding, Rule
from skillc_lint._rules import fixes
from skillc_lint._rules.fields import (
    Findings,
    Options,
    field_line,
    frontmatter,
    scalar_texts,
    type_name,
    white_space_note,
)
from skillc_lint._skill import Skill

__all__ = ["RULES"]


def _strings(value: object) -> bool:
    return isinstance(value, list) and all(isinstance(item, str) for item in value)


def frontmatter_whitespace(skill: Skill, options: Options) -> Findings:
    """SKL510: no frontmatter line (the ``---`` fences included) ends in spaces or tabs:
    invisible, they make the block differ from what it shows (a fence stricter parsers do not
    recognize, a block scalar keeping them)."""
    frontmatter = skill.skill_md.frontmatter
    end = frontmatter.end_line
    if not end:
        return
    found, fix = fixes.strip_trailing_whitespace(skill, end)
    if found:
        shown = ", ".join(map(str, found[:10])) + (", ..." if len(found) > 10 else "")
        noun = "line" if len(found) == 1 else "lines"
        yield Finding(f"trailing whitespace on frontmatter {noun} {shown}", line=found[0], fix=fix)


def compatibility_format(skill: Skill, options: Options) -> Findings:
    """SKL501: ``compatibility`` is text of 1 to ``max-length`` (500) characters
    (:func:`~skillc_index.dialect.text_fault`); a list of such strings when
    ``accept`` holds ``list``."""
    data = frontmatter(skill)
    if "compatibility" not in data:
        return
    value, line = data["compatibility"], field_line(skill, "compatibility")
    limit = options["max-length"]
    if "list" in options["accept"] and _strings(value):
        texts = list(value)
    elif isinstance(value, str):
        texts = [value]
    else:
        allowed = " or a list of strings" if "list" in options["accept"] else ""
        yield Finding(f"compatibility must be a string{allowed}, not {type_name(value)}", line=line)
        return
    for text in texts or [""]:
        fault = text_fault(text, limit)
        if fault == "empty":
            yield Finding(f"compatibility is empty (1-{limit} characters)", line=line)
        elif fault == "long":
            size, note = text_length(text), white_space_note(text, limit)
            message = f"compatibility is {size} characters long (1-{limit} allowed){note}"
            yield Finding(message, line=line)


def metadata_format(skill: Skill, options: Options) -> Findings:
    """SKL502: ``metadata`` maps strings to strings (a number must be quoted: ``"1.0"``).

    An unquoted date (``updated: 2026-03-05``) counts as a string: YAML 1.2 and the other
    tools read it so (DECISIONS.md "Lint"); lists, maps and numbers stay errors."""
    data = frontmatter(skill)
    if "metadata" not in data:
        return
    value, line = data["metadata"], field_line(skill, "metadata")
    if not isinstance(value, dict):
        yield Finding(f"metadata must be a mapping of strings, not {type_name(value)}", line=line)
        return
    texts: dict[tuple[str, ...], str] = {}
    if any(isinstance(item, (int, float)) for item in value.values()):
        texts = scalar_texts(skill)  # as written: '1.10', not 1.1
    from skillc_index.markdown.yaml12 import typed_keys

    # a plain ``1``, ``true`` or ``null`` key, read as its text (``1`` and ``true`` are one
    # key to Python): named as written, on its line
    for written in typed_keys(skill.skill_md.frontmatter, "metadata"):
        at = field_line(skill, "metadata", written)
        yield Finding(f"metadata key {written or 'null'} must be a string", line=at)
    for key, item in value.items():
        if not isinstance(key, str):  # not from the source's text (a reading of another kind)
            at = field_line(skill, "metadata", str(key))
            yield Finding(f"metadata key {key!r} must be a string", line=at)
        elif not is_text(item):  # an unquoted date is a string in YAML 1.2
            text = texts.get(("metadata", key)) if isinstance(item, (int, float)) else None
            hint = f' (quote it: "{text}")' if text is not None else ""
            yield Finding(
                f"metadata value '{key}' must be a string, not {type_name(item)}{hint}",
                line=field_line(skill, "metadata", key),
            )


def license_format(skill: Skill, options: Options) -> Findings:
    """SKL504: ``license`` is text (a license's name, or a file of the skill), as the
    specification makes it (:func:`~skillc_index.dialect.is_text`); an unquoted date counts
    as text (YAML 1.2 reads it so, as for SKL502). A list, a mapping, a number or a boolean
    is what ``skc package`` drops (a conformant client skips a skill whose standard field has
    another type)."""

    data = frontmatter(skill)
    if "license" not in data:
        return
    value = data["license"]
    if not is_text(value):
        line = field_line(skill, "license")
        yield Finding(f"license must be a string, not {type_name(value)}", line=line)


def _top_level_commas(text: str) -> bool:
    """Whether ``text`` separates entries with commas (outside ``Bash(...)`` patterns)."""
    depth = 0
    for char in text:
        if char == "(":
            depth += 1
        elif char == ")":
            depth = max(depth - 1, 0)
        elif char == "," and depth == 0:
            return True
    return False


def allowed_tools_format(skill: Skill, options: Options) -> Findings:
    """SKL503: ``allowed-tools`` is a space-separated string (``Read Bash(git:*)``), with
    balanced parentheses; ``accept`` may add ``list`` (a YAML list) and ``commas``."""
    data = frontmatter(skill)
    if "allowed-tools" not in data:
        return
    value, line = data["allowed-tools"], field_line(skill, "allowed-tools")
    accept = options["accept"]
    if "list" in accept and _strings(value):
        entries = list(value)
    elif isinstance(value, str):
        entries = [value]
        if _top_level_commas(value) and "commas" not in accept:
            yield Finding(
                f"allowed-tools is space-separated, not comma-separated: '{value}'", line=line
            )
    else:
        wanted = "a space-separated string" + (" or a list" if "list" in accept else "")
        yield Finding(f"allowed-tools must be {wanted}, not {type_name(value)}", line=line)
        return
    for entry in entries:
        if not entry.strip():
            yield Finding("allowed-tools has an empty entry", line=line)
        elif entry.count("(") != entry.count(")"):
            yield Finding(f"allowed-tools has unbalanced parentheses: '{entry}'", line=line)


RULES: tuple[Rule, ...] = (
    Rule(
        "SKL501",
        "compatibility-format",
        "error",
        compatibility_format,
        "compatibility is a string of 1-500 characters.",
        options={"max-length": 500, "accept": ["string"]},
        category="agentskills",
        rationale=(
            "compatibility tells users and agents what the skill needs (a product, a system); the "
            "standard makes it a short string."
        ),
        fix=(
            "Write compatibility as one string of at most 500 characters, e.g. 'Requires git and "
            "Python 3.11'."
        ),
    ),
    Rule(
        "SKL502",
        "metadata-format",
        "error",
        metadata_format,
        "metadata is a map of string keys to string values.",
        category="agentskills",
        rationale=(
            "The standard makes metadata a map of strings; a number (1.0) or a list is read "
            "differently by each tool."
        ),
        fix=(
            "Quote values that YAML would read as numbers ('version: \"1.0\"'), and write lists as "
            "one string; dates may stay unquoted."
        ),
    ),
    Rule(
        "SKL503",
        "allowed-tools-format",
        "warning",
        allowed_tools_format,
        "allowed-tools is a space-separated string of tools.",
        options={"accept": ["string"]},
        category="agentskills",
        rationale=(
            "allowed-tools is parsed as a space-separated list of tools; commas or unbalanced "
            "parentheses make agents read different tools than meant."
        ),
        fix=(
            "Separate tools with spaces ('Read Grep Bash(git:*)') and close every parenthesis; the "
            "claude-code profile also accepts a YAML list."
        ),
    ),
    Rule(
        "SKL504",
        "license-format",
        "error",
        license_format,
        "license is a string.",
        category="agentskills",
        rationale=(
            "The standard makes license text; a client skips a skill whose license is a list, "
            "a mapping or a number, and skc package leaves such a license out."
        ),
        fix=(
            "Write the license as one string: 'MIT', or 'Proprietary. LICENSE.txt has complete "
            "terms'."
        ),
    ),
    Rule(
        "SKL510",
        "frontmatter-whitespace",
        "warning",
        frontmatter_whitespace,
        "Frontmatter lines (the --- fences included) do not end in spaces or tabs.",
        category="agentskills",
        fixable="safe",
        rationale=(
            "Trailing whitespace is invisible: a '--- ' fence that stricter parsers do not "
            "recognize, text a block scalar keeps, a diff that shows nothing."
        ),
        fix="Remove the spaces and tabs at the end of the lines (skillc-lint --fix does).",
    ),
)
