"""The ``gibberish`` profile: gibb.eri.sh tool-defining skills (spec/003), SKL801-SKL820.

SKL801-SKL805 check the frontmatter of §2.2. SKL810-SKL820 check the tools of §3, reading the
issues :mod:`skillc_index.tools.model` found while parsing them: the model is the one
definition of a broken tool, for this linter and for ``skc run`` (which refuses one).
"""

from __future__ import annotations

from skillc_index import MAX_TIMEOUT, MODES
from skillc_lint._registry import Finding, Rule, RuleCheck, Severity
from skillc_lint._rules.fields import SEMVER, Findings, Options, field_line, frontmatter, type_name
from skillc_lint._skill import Skill

__all__ = ["FIELDS", "RULES"]

#: spec/003 §2.2: the fields SKL109 learns with this profile.
FIELDS = ("version", "author", "modes", "read_only", "always_ask", "timeout", "network")
BOOLEAN_FIELDS = ("read_only", "always_ask", "network")


def version_required(skill: Skill, options: Options) -> Findings:
    """SKL801: ``version`` is present and a semantic version (§2.2 required fields)."""
    data = skill.frontmatter
    if data is None:
        return
    value = data.get("version")
    line = field_line(skill, "version")
    if value is None:
        yield Finding("missing required frontmatter field: version", line=line)
    elif not isinstance(value, str):
        yield Finding(f'version must be a string like "1.0.0", not {type_name(value)}', line=line)
    elif not SEMVER.match(value.strip()):
        yield Finding(f"version '{value}' is not a semantic version (1.0.0)", line=line)


def description_length(skill: Skill, options: Options) -> Findings:
    """SKL802: the description fits gibb.eri.sh's 256 characters (longer is truncated)."""
    value = frontmatter(skill).get("description")
    limit = options["max-length"]
    if isinstance(value, str) and len(value.strip()) > limit:
        yield Finding(
            f"description is {len(value.strip())} characters long; gibb.eri.sh cuts it at {limit}",
            line=field_line(skill, "description"),
        )


def modes_valid(skill: Skill, options: Options) -> Findings:
    """SKL803: ``modes`` is a list of ``Global``, ``Dev`` and ``Meeting``."""
    data = frontmatter(skill)
    if "modes" not in data:
        return
    value, line = data["modes"], field_line(skill, "modes")
    if not isinstance(value, list) or not value:
        shown = "an empty list" if isinstance(value, list) else type_name(value)
        yield Finding(f"modes must be a list of {', '.join(MODES)}, not {shown}", line=line)
        return
    for mode in value:
        if mode not in MODES:
            shown = f"'{mode}'" if isinstance(mode, str) else type_name(mode)
            yield Finding(f"unknown mode {shown} (one of {', '.join(MODES)})", line=line)


def timeout_range(skill: Skill, options: Options) -> Findings:
    """SKL804: ``timeout`` is a whole number of seconds from 1 to 300."""
    data = frontmatter(skill)
    if "timeout" not in data:
        return
    value = data["timeout"]
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_TIMEOUT:
        shown = repr(value) if isinstance(value, (int, float, str)) else type_name(value)
        yield Finding(
            f"timeout must be 1-{MAX_TIMEOUT} seconds (an integer), not {shown}",
            line=field_line(skill, "timeout"),
        )


def field_types(skill: Skill, options: Options) -> Findings:
    """SKL805: ``author`` is a string; ``read_only``, ``always_ask``, ``network`` booleans."""
    data = frontmatter(skill)
    if "author" in data and not isinstance(data["author"], str):
        yield Finding(
            f"author must be a string, not {type_name(data['author'])}",
            line=field_line(skill, "author"),
        )
    for key in BOOLEAN_FIELDS:
        if key in data and not isinstance(data[key], bool):
            yield Finding(
                f"{key} must be true or false, not {type_name(data[key])}",
                line=field_line(skill, key),
            )


def _issues(kind: str) -> RuleCheck:
    """A rule reporting the tool model's issues of one ``kind``."""

    def check(skill: Skill, options: Options) -> Findings:
        for issue in skill.tools.issues:
            if issue.kind == kind:  # a milder case of the rule (SKL815's bad default)
                yield Finding(issue.message, line=issue.line, warning=issue.severity == "warning")

    check.__name__ = kind.replace("-", "_")
    check.__doc__ = f"The tool model's '{kind}' issues."
    return check


def command_block(skill: Skill, options: Options) -> Findings:
    """SKL817: the tool model's ``command-block`` issues, and a script a command runs that
    the skill does not hold (``python3 helper.py``, no ``helper.py``): ``skc run`` runs every
    relative script from the skill (:func:`~skillc_index.tools.model.script_file`), so the
    tool is not found (127), never the working folder's file of that name."""
    from skillc_index.tools.model import script_file

    yield from _issues("command-block")(skill, options)
    for tool in skill.tools.tools:
        scripts = tool.command.scripts() if tool.command is not None else {}
        for script in scripts.values():
            rel = script_file(script)
            outside = rel is None or rel == ".." or rel.startswith("../")  # run's E012
            if not outside and rel is not None and not skill.exists(rel):
                yield Finding(
                    f"tool '{tool.name}' runs the script '{script}', which the skill does not "
                    "hold: skc run reports it not found (127) and never runs the working "
                    "folder's file of that name",
                    line=tool.command.line if tool.command is not None else tool.line,
                )


def _tool_rule(
    rule_id: str,
    name: str,
    kind: str,
    summary: str,
    severity: Severity = "error",
    *,
    rationale: str,
    fix: str,
) -> Rule:
    return Rule(
        rule_id,
        name,
        severity,
        _issues(kind),
        summary,
        category="gibberish",
        rationale=rationale,
        fix=fix,
    )


RULES: tuple[Rule, ...] = (
    Rule(
        "SKL801",
        "gibberish-version",
        "error",
        version_required,
        "version is present and a semantic version.",
        category="gibberish",
        rationale=(
            "gibb.eri.sh requires a semantic version on tool-defining skills to track updates."
        ),
        fix="Add 'version: \"1.0.0\"' (MAJOR.MINOR.PATCH).",
    ),
    Rule(
        "SKL802",
        "gibberish-description-length",
        "warning",
        description_length,
        "description is at most 256 characters.",
        options={"max-length": 256},
        category="gibberish",
        rationale="gibb.eri.sh shows the description in a short listing of at most 256 characters.",
        fix="Shorten the description; the limit is the max-length option.",
    ),
    Rule(
        "SKL803",
        "gibberish-modes",
        "error",
        modes_valid,
        "modes is a list of Global, Dev and Meeting.",
        category="gibberish",
        rationale=(
            "modes says in which gibb.eri.sh modes the tools are offered; unknown modes are "
            "ignored."
        ),
        fix="List one or more of Global, Dev and Meeting.",
    ),
    Rule(
        "SKL804",
        "gibberish-timeout",
        "error",
        timeout_range,
        "timeout is an integer from 1 to 300.",
        category="gibberish",
        rationale=(
            "timeout bounds how long a tool's command may run; gibb.eri.sh accepts 1-300 seconds."
        ),
        fix="Use an integer from 1 to 300.",
    ),
    Rule(
        "SKL805",
        "gibberish-field-types",
        "error",
        field_types,
        "author is a string; read_only, always_ask and network are booleans.",
        category="gibberish",
        rationale=(
            "gibb.eri.sh reads these fields with fixed types; a wrong type changes the permissions "
            "asked for."
        ),
        fix="Write author as a string and read_only, always_ask and network as true or false.",
    ),
    _tool_rule(
        "SKL810",
        "tools-present",
        "no-tools",
        "The skill defines at least one tool.",
        rationale="A tool-defining skill exists to define tools; without one it offers nothing.",
        fix="Add a '### tool_name' section with a Parameters table and a command block.",
    ),
    _tool_rule(
        "SKL811",
        "tool-name",
        "tool-name",
        "Tool names are 1-32 of a-z, 0-9 and _.",
        rationale=(
            "Tool names become function names for the model; gibb.eri.sh allows 1-32 of a-z, 0-9 "
            "and _."
        ),
        fix="Rename the tool heading, e.g. '### search_notes'.",
    ),
    _tool_rule(
        "SKL812",
        "tool-unique",
        "tool-duplicate",
        "Tool names are unique.",
        rationale="Two tools of one name cannot both be called; the model sees only one.",
        fix="Give each tool a different name.",
    ),
    _tool_rule(
        "SKL813",
        "tool-parameters-section",
        "parameters-missing",
        "Each tool has a Parameters section.",
        "warning",
        rationale="The Parameters section tells the model which arguments a tool takes.",
        fix="Add a '#### Parameters' table under the tool (or say it takes none).",
    ),
    _tool_rule(
        "SKL814",
        "parameter-table",
        "parameter-table",
        "Parameter tables have Name, Type and Required columns and valid, unique names.",
        rationale=(
            "The parameter table is parsed into the tool's schema; missing columns or duplicate "
            "names make it unusable."
        ),
        fix="Use the columns Name, Type and Required with one row per unique, valid name.",
    ),
    _tool_rule(
        "SKL815",
        "parameter-type",
        "parameter-type",
        "Parameter types are string, integer, number, boolean or array.",
        rationale="Parameter types become the tool's JSON schema; only these types are understood.",
        fix="Use string, integer, number, boolean or array.",
    ),
    _tool_rule(
        "SKL816",
        "parameter-required",
        "parameter-required",
        "Required is 'yes' or 'no'.",
        rationale="Required tells the model whether it must pass the argument.",
        fix="Write yes or no in the Required column.",
    ),
    Rule(
        "SKL817",
        "command-block",
        "error",
        command_block,
        "Each tool has one command in a bash or sh block, and the script it runs is the skill's.",
        category="gibberish",
        rationale=(
            "Each tool runs exactly one command, taken from a bash or sh code block; the script "
            "an interpreter runs is always the skill's file, so one the skill lacks never runs."
        ),
        fix=(
            "Give the tool one ```bash block holding its command, and add the script it runs "
            "to the skill (or fix its path)."
        ),
    ),
    _tool_rule(
        "SKL818",
        "command-variables",
        "command-variable",
        "Every {{placeholder}} is a declared parameter (flags on booleans).",
        rationale=(
            "A {{placeholder}} that is no parameter is never filled, and a boolean is passed as a "
            "flag."
        ),
        fix="Declare the parameter in the table, or fix the placeholder's name.",
    ),
    _tool_rule(
        "SKL819",
        "command-no-shell",
        "command-shell",
        "Commands use no shell syntax: pipes, redirects, ;, &&, $VAR, backticks.",
        rationale=(
            "Commands run without a shell so that arguments cannot inject commands; shell syntax "
            "would not work and is refused."
        ),
        fix=(
            "Call one program with arguments; move pipelines or redirects into a script of the "
            "skill."
        ),
    ),
    _tool_rule(
        "SKL820",
        "command-no-code-values",
        "command-code",
        "No {{placeholder}} is code: an interpreter's inline script (sh -c, python -c, "
        "node -e...), the script or code it runs, a file perl opens with <> (perl -ne, "
        "where 'cmd|' runs), the program a wrapper runs, a variable it sets (env PATH={{x}}), "
        "or an option's text (-u{{x}}, --{{x}}).",
        rationale=(
            "A placeholder that becomes code (sh -c {{x}}, python -c {{x}}) lets the model's "
            "argument run as a program: command injection."
        ),
        fix="Pass the value as data to a script of the skill, never as code to an interpreter.",
    ),
)
