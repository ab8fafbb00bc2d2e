"""The built-in rules, RFC-0008:C-REGISTRY's table (SKL001-SKL401): one small function
each, then :data:`RULES`, each function with its id, name, severity, summary and options.
The checks of the structure (SKL201-SKL205) are in :mod:`~skillc_lint._rules.structure`,
those of the links and of what they reach (SKL301-SKL303, SKL401) in
:mod:`~skillc_lint._rules.links`.

Every registry starts with these rules (profiles add theirs after them). Rules about fields
SKL100 found invalid stay silent, so one mistake gives one diagnostic.
"""

from __future__ import annotations

from skillc_index import SKILL_FILE, composed, type_name
from skillc_index.dialect import (
    NAME_LIMIT,
    description_problem,
    name_faults,
    skill_name_problem,
    text_length,
)
from skillc_lint._fixes import Fix
from skillc_lint._registry import Finding, Rule
from skillc_lint._rules import fixes
from skillc_lint._rules.fields import (
    Findings,
    Options,
    encoding_of,
    field_line,
    frontmatter_name,
    white_space_note,
)
from skillc_lint._rules.files import side_files_left_out
from skillc_lint._rules.links import (
    link_anchor_exists,
    link_file_exists,
    link_no_escape,
    no_orphans,
)
from skillc_lint._rules.structure import (
    heading_first_h1,
    heading_h1,
    heading_hierarchy,
    heading_match_name,
    skill_size,
)
from skillc_lint._rules.triggers import TRIGGER_PATTERNS, TRIGGER_PHRASINGS, description_triggers
from skillc_lint._skill import Skill

__all__ = ["RULES"]

#: SKL109 known fields (DECISIONS.md "Lint"): the Agent Skills standard's six.
KNOWN_FIELDS = ("name", "description", "license", "compatibility", "metadata", "allowed-tools")
#: SKL109's "did you mean": how alike (difflib's ratio) a known field is to an unknown one
#: at least: a typo (``descripton``, ``licence``, ``allowed_tools``: 0.85 and more), not a
#: different word (``authors`` and ``paths``: 0.67).
HINT_CUTOFF = 0.75
#: SKL401 exceptions: common non-content files, never orphans (any folder, any case).
NON_CONTENT_FILES = ("LICENSE.md", "CHANGELOG.md", "CONTRIBUTING.md", "README.md")


def _description(skill: Skill) -> str | None:
    """The frontmatter ``description`` when it is a string with text, else None."""
    data = skill.frontmatter
    value = data.get("description") if data else None
    return value if isinstance(value, str) and value.strip() else None


# -- meta -------------------------------------------------------------------------------------


def skip_compiled(skill: Skill, options: Options) -> Findings:
    """SKL001 (RFC-0008:C-REGISTRY): the warning given when a compiled skill is linted with
    --force. Skipping compiled skills without --force is done before any rule runs."""
    if skill.compiled:
        yield Finding("linting compiled skill; results may not be meaningful")


# -- frontmatter ------------------------------------------------------------------------------


def frontmatter_valid(skill: Skill, options: Options) -> Findings:
    """SKL100: delimiters present and YAML parseable, with the RFC's three messages; UTF-8
    (no ``---`` of UTF-16 is read), no BOM before the opening ``---`` (agents have ignored
    such a skill), no key written twice in any of its mappings; side files: warnings."""
    frontmatter, encoding = skill.skill_md.frontmatter, encoding_of(skill, SKILL_FILE)
    if encoding or skill.bom(SKILL_FILE) == "UTF-8":
        bom = "starts with a UTF-8 BOM, not ---: some agents skip the skill"
        yield Finding(f"SKILL.md {encoding or bom}", line=1)
    for repeated in frontmatter.repeated:  # in any mapping: `metadata.author`
        lines = f"lines {repeated.first} and {repeated.again}"
        message = f"key '{repeated.key}' written twice ({lines}): YAML forbids it"
        yield Finding(message, line=repeated.again)
    if frontmatter.error and (frontmatter.present or not encoding):  # its encoding first
        fix = None
        if frontmatter.present and not frontmatter.end_line:  # no closing ---
            fix = fixes.close_frontmatter(skill)
        elif frontmatter.present:  # closed, but not YAML (or not a mapping)
            fix = fixes.quote_values(skill)
        yield Finding(frontmatter.error, line=frontmatter.error_line, fix=fix)
    yield from side_files_left_out(skill)  # agents/openai.yaml past the same bounds: warnings


def name_required(skill: Skill, options: Options) -> Findings:
    """SKL101: ``name`` is present (a ``name:`` with no value counts as missing)."""
    data = skill.frontmatter
    if data is not None and data.get("name") is None:
        yield Finding("missing required frontmatter field: name", line=field_line(skill, "name"))


def name_format(skill: Skill, options: Options) -> Findings:
    """SKL102: lowercase ASCII letters, digits and hyphens; no hyphen first, last or
    doubled (DECISIONS.md: ``--`` is forbidden as in the Agent Skills spec)."""
    data = skill.frontmatter
    value = data.get("name") if data else None
    line = field_line(skill, "name")
    if value is None:
        return
    if not isinstance(value, str):
        yield Finding(f"name must be a string, not {type_name(value)}", line=line)
        return
    problems = list(name_faults(value).form)
    if problems:
        yield Finding(
            f"name '{value}' {', '.join(problems)}",
            line=line,
            fix=_name_fix(skill, value, problems),
        )


def _name_fix(skill: Skill, value: str, problems: list[str]) -> Fix | None:
    """SKL102's fix: lower case when that is the only fault (safe; the folder is never
    renamed: when it has the old case, SKL104 then says so); else the folder's name when it
    is a valid name, or the name made valid (unsafe: the skill is renamed)."""
    folder = skill.name
    if problems == ["contains uppercase characters"]:
        new = value.lower()
        note = f"; rename the folder '{folder}' to '{new}' too (SKL104)" if folder == value else ""
        return fixes.rename(skill, new, f"lower-case the name to '{new}'{note}", safe=True)
    new = folder if skill_name_problem(folder) is None else fixes.name_from(value)
    if not new:
        return None
    return fixes.rename(skill, new, f"rename the skill to '{new}'", safe=False)


def name_length(skill: Skill, options: Options) -> Findings:
    """SKL103: 1 to 64 characters (:func:`~skillc_index.dialect.name_faults`)."""
    data = skill.frontmatter
    value = data.get("name") if data else None
    length = name_faults(value).length if isinstance(value, str) else None
    if length is not None:
        message = (
            f"name is empty (1-{NAME_LIMIT} characters required)"
            if not length
            else f"name is {length} characters long (1-{NAME_LIMIT} allowed)"
        )
        yield Finding(message, line=field_line(skill, "name"))


def name_match_dir(skill: Skill, options: Options) -> Findings:
    """SKL104: ``name`` is the skill folder's name, composed alike (a folder copied from a Mac
    is decomposed, NFD: the reference validator ``skills-ref`` compares normalised forms too)."""
    name = frontmatter_name(skill)
    if name is not None and composed(name) != composed(skill.name):
        fix = None
        if skill_name_problem(skill.name) is None:
            description = f"rename the skill to '{skill.name}', its folder's name"
            fix = fixes.rename(skill, skill.name, description, safe=False)
        from skillc_index.deceptive import look_alikes_named

        yield Finding(
            f"name '{name}' does not match directory '{skill.name}'"
            + look_alikes_named(name, skill.name),
            line=field_line(skill, "name"),
            fix=fix,
        )


def description_required(skill: Skill, options: Options) -> Findings:
    """SKL105: ``description`` is present."""
    data = skill.frontmatter
    if data is not None and "description" not in data:
        yield Finding("missing required frontmatter field: description", line=1)


def description_nonempty(skill: Skill, options: Options) -> Findings:
    """SKL106: ``description`` is text, not empty or whitespace only."""
    data = skill.frontmatter
    if data is None or "description" not in data:
        return
    value = data["description"]
    line = field_line(skill, "description")
    if value is not None and not isinstance(value, str):
        yield Finding(f"description must be a string, not {type_name(value)}", line=line)
    elif value is None or not value.strip():
        yield Finding("description is empty", line=line)


def description_length(skill: Skill, options: Options) -> Findings:
    """SKL107: at most ``max-length`` (1024) characters, counted as every reader of the kit and
    the specification's validators count them (:func:`~skillc_index.dialect.text_length`: the
    white space around it too)."""
    description = _description(skill)
    limit = options["max-length"]
    if description is None or description_problem(description, limit) is None:
        return
    size = text_length(description)
    message = f"description is {size} characters long (at most {limit} recommended)"
    note = white_space_note(description, limit)
    yield Finding(message + note, line=field_line(skill, "description"))


def frontmatter_known(skill: Skill, options: Options) -> Findings:
    """SKL109: every frontmatter key is a known field (``known-fields``, and those the
    chosen ``targets`` read)."""
    data = skill.frontmatter
    if not data:
        return
    known = list(options["known-fields"])
    if options["targets"]:
        from skillc_lint._rules.targets import read_by_targets

        known += sorted(read_by_targets(options) - set(known))
    for key in data:
        if key in known:
            continue
        hint = _dialect_hint(str(key))
        if not hint:
            import difflib  # only for an unknown field: a clean skill does not pay for it

            close = difflib.get_close_matches(str(key), known, n=1, cutoff=HINT_CUTOFF)
            hint = f" (did you mean '{close[0]}'?)" if close else ""
        yield Finding(f"unknown frontmatter field '{key}'{hint}", line=field_line(skill, str(key)))


def _dialect_hint(key: str) -> str:
    """For SKL109, a field an agent reads: which agents, and the options that make it known
    (``(read by Claude Code: --profile claude-code, --target claude)``): the agents from their
    dialect records (:func:`~skillc_index.target_dialects`, each agent once, under its first
    target), the profiles from their known fields; ``""`` for a field no agent reads."""
    from skillc_index import target_dialects
    from skillc_lint._profiles import PROFILES

    agents: dict[str, str] = {}  # agent -> its first target reading ``key``
    for target, dialect in target_dialects().items():
        if key in dialect.reads:
            agents.setdefault(dialect.agent, target)
    if not agents:  # (a registry's field, skillli's `version`, is no agent's: no hint)
        return ""
    ways = [f"--profile {name}" for name, p in PROFILES.items() if key in p.known_fields]
    ways += [f"--target {target}" for target in agents.values()]
    return f" (read by {', '.join(agents)}: {', '.join(ways)})"


RULES: tuple[Rule, ...] = (
    Rule(
        "SKL001",
        "skip-compiled",
        "warning",
        skip_compiled,
        "Compiled skills (with .skillc-meta/manifest.json) are skipped unless --force.",
        category="meta",
        protected=True,
        rationale=(
            "A compiled skill (one holding .skillc-meta/manifest.json) is skillc's build output, "
            "not what an author edits: its findings point at generated text."
        ),
        fix=(
            "Lint the source folder the skill was built from; pass --force only to inspect the "
            "build output anyway."
        ),
    ),
    Rule(
        "SKL100",
        "frontmatter-valid",
        "error",
        frontmatter_valid,
        "SKILL.md starts with a --- delimited block of valid YAML.",
        category="frontmatter",
        rationale=(
            "Every agent reads a skill's name and description from the YAML frontmatter; without a "
            "closed --- block of valid YAML the skill cannot be listed or loaded at all."
        ),
        fix=(
            "Start SKILL.md with a line '---', write the fields as YAML, close with '---'; quote "
            "values holding ': ' or starting with a YAML indicator ('name: \"x: y\"')."
        ),
        fixable="safe",
    ),
    Rule(
        "SKL101",
        "name-required",
        "error",
        name_required,
        "The name field is present.",
        category="frontmatter",
        rationale="The name identifies the skill to agents and tools; the Agent Skills "
        "standard requires it.",
        fix="Add 'name: <folder-name>' to the frontmatter.",
    ),
    Rule(
        "SKL102",
        "name-format",
        "error",
        name_format,
        "name uses lowercase letters, digits and single hyphens, not first or last.",
        category="frontmatter",
        rationale=(
            "Names are used as identifiers, commands (/name) and folder names across agents: the "
            "standard allows lowercase letters, digits and single hyphens only."
        ),
        fix="Rename to lowercase with hyphens between words, e.g. 'pdf-tools' for 'PDF_Tools'.",
        fixable="safe",
    ),
    Rule(
        "SKL103",
        "name-length",
        "error",
        name_length,
        "name is 1-64 characters long.",
        category="frontmatter",
        rationale=(
            "The standard limits a name to 1-64 characters so every agent can store and show it."
        ),
        fix="Shorten the name to at most 64 characters (the folder name too).",
    ),
    Rule(
        "SKL104",
        "name-match-dir",
        "error",
        name_match_dir,
        "name matches the skill's directory name.",
        category="frontmatter",
        rationale=(
            "The Agent Skills standard says the name MUST match the folder; a name that differs "
            "means two names for one skill, and clients (Agent Plugins) skip such a skill."
        ),
        fix="Rename the folder or the name field so both are the same.",
        fixable="unsafe",
    ),
    Rule(
        "SKL105",
        "description-required",
        "error",
        description_required,
        "The description field is present.",
        category="frontmatter",
        rationale=(
            "The description is what an agent reads to decide when to load the skill; without it "
            "the skill is never chosen."
        ),
        fix="Add 'description: <what it does>. Use when <situation>.' to the frontmatter.",
    ),
    Rule(
        "SKL106",
        "description-nonempty",
        "error",
        description_nonempty,
        "description is text, not empty or whitespace only.",
        category="frontmatter",
        rationale=(
            "An empty or non-text description gives the agent nothing to choose the skill by."
        ),
        fix="Write the description as text: what the skill does and when to use it.",
    ),
    Rule(
        "SKL107",
        "description-length",
        "warning",
        description_length,
        "description is at most 1024 characters.",
        options={"max-length": 1024},
        category="frontmatter",
        rationale=(
            "Descriptions are listed for every skill in the agent's context; the standard caps "
            "them at 1024 characters and long ones crowd out other skills."
        ),
        fix=(
            "Keep what the skill does and when to use it in the description; move details into the "
            "body. The limit is the max-length option."
        ),
    ),
    Rule(
        "SKL108",
        "description-triggers",
        "warning",
        description_triggers,
        "description says when to use the skill ('Use when ...').",
        options={"patterns": [*TRIGGER_PATTERNS, *TRIGGER_PHRASINGS], "fields": ["description"]},
        category="frontmatter",
        rationale=(
            "Agents pick skills by matching the task to the description; one that says what the "
            "skill does but not when to use it is chosen less reliably."
        ),
        fix=(
            "Add a trigger sentence such as 'Use when ...'; the phrases accepted are the patterns "
            "option, the fields read with the description the fields option (the claude-code "
            "profile adds when_to_use, which Claude Code lists with it)."
        ),
    ),
    Rule(
        "SKL109",
        "frontmatter-known",
        "warning",
        frontmatter_known,
        "Frontmatter fields are known Agent Skills fields.",
        options={"known-fields": list(KNOWN_FIELDS), "targets": []},
        category="frontmatter",
        rationale=(
            "A field no agent knows is ignored silently; it is often a typo of a real field "
            "(descripton) or a dialect's field used without its profile."
        ),
        fix=(
            "Fix the spelling, move custom data under metadata, or lint with the dialect's "
            "--profile (claude-code, skillli, gibberish) or the agent's --target (a field it "
            "reads is known); the known-fields option lists more."
        ),
    ),
    Rule(
        "SKL201",
        "skill-size",
        "warning",
        skill_size,
        "SKILL.md is at most 500 lines.",
        options={"max-lines": 500},
        category="structure",
        rationale=(
            "SKILL.md is loaded whole when the skill is used; the Agent Skills guidance keeps it "
            "under 500 lines so it does not eat the context."
        ),
        fix=(
            "Move reference material into files under references/ and link them from SKILL.md. The "
            "limit is the max-lines option."
        ),
    ),
    Rule(
        "SKL202",
        "heading-h1",
        "warning",
        heading_h1,
        "SKILL.md has an H1 heading.",
        category="structure",
        rationale=(
            "An H1 titles the instructions for the model and for readers; tools that outline "
            "skills start from it."
        ),
        fix="Add a '# <Skill title>' heading after the frontmatter.",
    ),
    Rule(
        "SKL203",
        "heading-match-name",
        "warning",
        heading_match_name,
        "The first H1 of SKILL.md contains the skill name.",
        category="structure",
        rationale=(
            "A title that names the skill ties the body to its name for readers and for the model."
        ),
        fix=(
            "Put the skill's name in the first H1 (only its letters and digits count: "
            "'# PDF Tools' or '# PDF-Tools: Guide' for pdf-tools)."
        ),
    ),
    Rule(
        "SKL204",
        "heading-first-h1",
        "warning",
        heading_first_h1,
        "The first heading of each Markdown file is an H1.",
        category="structure",
        rationale=(
            "Each Markdown file is read on its own by the agent; an H1 first says what the file is."
        ),
        fix="Start the file with a '# Title' heading.",
    ),
    Rule(
        "SKL205",
        "heading-hierarchy",
        "warning",
        heading_hierarchy,
        "Headings do not skip levels going deeper.",
        category="structure",
        rationale=(
            "A skipped level (H2 then H4) breaks the outline agents and tools build from the "
            "headings."
        ),
        fix="Use the next level down (H2 then H3), or raise the deeper heading.",
    ),
    Rule(
        "SKL301",
        "link-file-exists",
        "error",
        link_file_exists,
        "Relative links point at files that exist in the skill.",
        category="links",
        rationale=(
            "A link to a file that does not exist sends the agent to read nothing: the "
            "instructions it points to are lost."
        ),
        fix=(
            "Fix the path (relative to the linking file), add the missing file, or remove the link."
        ),
        fixable="safe",
    ),
    Rule(
        "SKL302",
        "link-anchor-exists",
        "warning",
        link_anchor_exists,
        "Anchor links point at existing headings.",
        category="links",
        rationale=(
            "A link to an anchor that no heading (or HTML anchor) defines leads nowhere in the "
            "file."
        ),
        fix=(
            "Link to an existing heading's slug (lowercase, spaces as hyphens) or add the heading "
            'or an <a id="..."></a> anchor.'
        ),
    ),
    Rule(
        "SKL303",
        "link-no-escape",
        "error",
        link_no_escape,
        "Links stay in the skill folder; a link to an existing sibling skill is a warning.",
        category="links",
        rationale=(
            "A skill is copied and installed as one folder; a link leaving it (through '..' or a "
            "symlink) breaks once installed and may expose files of the host. A link to another "
            "skill of the collection ('../other/SKILL.md') is only a warning: it works while the "
            "skills are installed side by side, but a skill installed alone (an agent's skills "
            "folder, a marketplace) loses it."
        ),
        fix=(
            "Copy what the link needs into the skill folder and link it there; replace symlinks "
            "pointing out with the files. For a sibling skill, name it instead of linking its "
            "file ('use the other-skill skill'), or suppress the warning where the collection is "
            "always installed whole."
        ),
    ),
    Rule(
        "SKL401",
        "no-orphans",
        "warning",
        no_orphans,
        "Every Markdown file is reachable from SKILL.md through links or by being named.",
        options={"exceptions": list(NON_CONTENT_FILES)},
        category="files",
        rationale=(
            "A Markdown file that SKILL.md neither links nor names (nor any file it reaches) is "
            "never read by the agent, which finds files through what SKILL.md says."
        ),
        fix=(
            "Link or name the file (its path, in prose or a code span) in SKILL.md or a file it "
            "reaches, or delete it; "
            "README/LICENSE/CHANGELOG are exempt (the exceptions option)."
        ),
    ),
)
