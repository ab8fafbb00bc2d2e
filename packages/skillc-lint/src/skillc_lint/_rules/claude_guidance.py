"""What Claude Code does with a skill's text and tools (SKL607-SKL609, the ``claude-code``
profile, tag ``guidance``; issue 39), tuned on real skills to keep false positives rare (the
lint README records each rule's count on the corpus and the library, and what a hand-read
sample found).

- SKL607 ``claude-argument-in-code``: ``$0``-``$9`` in SKILL.md's code, which Claude Code
  replaces with the skill's arguments before the model reads the text.
- SKL608 ``claude-side-effects``: a skill that says it deploys, publishes, pushes or drops,
  and runs the command that does it, without ``disable-model-invocation: true``.
- SKL609 ``claude-tools``: ``allowed-tools`` / ``disallowed-tools`` naming a tool Claude Code
  does not have (the tool names are the ``claude`` target's dialect record in skillc-index).
  (``!`cmd```, ``$ARGUMENTS``), which the stub a build deploys does not hold.
"""

from __future__ import annotations

import re

from skillc_index import SKILL_FILE
from skillc_lint._registry import Finding, Rule
from skillc_lint._rules.fields import (
    Findings,
    Options,
    code_blocks,
    field_line,
    frontmatter,
    in_code,
    lines_holding,
)
from skillc_lint._rules.guidance import guidance_rule
from skillc_lint._skill import Skill

__all__ = ["RULES"]

# -- SKL607 positional arguments in code ----------------------------------------------------------

#: ``$0``-``$9`` as Claude Code reads them (``$ARGUMENTS[N]``'s shorthand), not ``${1}``,
#: ``\$1``, ``$$1`` or part of a longer word or number; a sum of money (``$1,500``, ``$0.25``,
#: ``$8.2M``, ``$0-20``, ``$50/mo``) is not code.
_POSITIONAL = re.compile(r"(?<![\w$\\])\$(\d)(?![\w.,/%]|-\d|\s?[KkMmBb]\b)")
#: A line holding a sum of money (``$1,400``, ``$12.50``): its other ``$N`` are sums too.
_MONEY = re.compile(r"\$\d{1,3}(?:,\d{3})+|\$\d+\.\d\d\b")
_CODE_SPAN = re.compile(r"(`+)(.+?)\1")
_SINGLE_QUOTED = re.compile(r"'[^']*'")
#: Signs that the skill takes arguments (then ``$1`` in a command may be meant).
_TAKES_ARGUMENTS = re.compile(r"\$ARGUMENTS\b")


def _takes_arguments(skill: Skill) -> bool:
    data = frontmatter(skill)
    return bool(
        "arguments" in data
        or "argument-hint" in data
        or _TAKES_ARGUMENTS.search(skill.skill_md_text)
    )


def argument_in_code(skill: Skill, options: Options) -> Findings:
    """SKL607: no ``$0``-``$9`` in SKILL.md's code blocks and code spans: Claude Code
    replaces them with the skill's arguments (``$1`` is ``$ARGUMENTS[1]``) before the model
    reads the text, code included, so ``awk '{print $1}'``, ``"$1"`` in a shell function, a
    SQL ``$1`` or a regex's ``$1`` reach the model broken. A skill that takes arguments
    (``arguments``, ``argument-hint`` or ``$ARGUMENTS``) may mean ``$1`` in a command: there
    only one inside single quotes (an awk, sed or SQL text) is reported."""
    meant = _takes_arguments(skill)
    start = skill.skill_md.frontmatter.end_line or 0
    text = skill.skill_md_text
    dollars = lines_holding(text, ("$",), lines=skill.lines(SKILL_FILE))
    blocks = code_blocks(skill) if dollars else ()
    for number, line in dollars:
        if number <= start or _MONEY.search(line):
            continue
        code = in_code(blocks, number)
        parts = [line] if code else [m.group(2) for m in _CODE_SPAN.finditer(line)]
        if meant:
            parts = [quoted for part in parts for quoted in _SINGLE_QUOTED.findall(part)]
        match = next((m for part in parts if (m := _POSITIONAL.search(part))), None)
        if match:
            found = match.group(0)
            yield Finding(
                f"'{found}' in code: Claude Code replaces it with the skill's argument "
                f"{match.group(1)} (empty when there is none) before the model reads it",
                line=number,
                column=line.find(found) + 1 if found in line else None,
            )


# -- SKL608 side effects without disable-model-invocation ----------------------------------------

#: What a destructive drop is said of.
_DROPPED = r"(?:tables?|databases?|schemas?|collections?)\b"
#: The first word after "drop" when it says it destroys nothing: a preposition (drop into
#: the shell, no drop in latency), a pronoun not followed by what is dropped (drops you into
#: the prompt; "drops it tables" is IT's tables), a noun it qualifies (drop rate, drop zone).
#: A whole word only: "in-memory", "out-of-date", "per-tenant", "on-prem" qualify the table.
_NOT_DROPPED = (
    r"(?:(?:into|onto|in|on|to|from|at|by|for|off|out|below|under|over|with|within|"
    r"across|through|per|via|rates?|zones?|shadows?|downs?)(?![\w'-])"
    r"|(?:you|me|us|him|her|them|it)(?![\w'-])(?!\s+" + _DROPPED + r"))"
)
#: What a skill says it does (its name, and its description up to "Use when"), by kind.
_SAYS = {
    "deploy": r"deploy(?:s|ing)?\b|ship(?:s|ping)?\s+(?:it|to)\b",
    "publish": r"publish(?:es|ing)?\b|releas(?:e|es|ing)\s+(?:a\s+)?(?:new\s+)?version"
    r"|(?:cut|create|tag)s?\s+(?:a\s+)?(?:new\s+)?release",
    "push": r"git\s+(?:commit|push)\b|(?:commit|push)(?:s|es|ting|ing)?\s+"
    r"(?:the\s+|your\s+|all\s+)?(?:staged\s+)?(?:changes|commits?|code|files|work|branch|to)\b"
    r"|merg(?:e|es|ing)\s+(?:the\s+|a\s+)?(?:pull|pr)",
    "delete": r"\b(?:delet|destroy|purg|wip)(?:e|es|ing|s)?\b|tear(?:s|ing)?\s+down"
    # dropping is destructive only said of a table, a database, a schema (as DROP TABLE), up
    # to 3 words after it ("drops the staging database", "drop all of the databases"), the
    # first not a preposition, a pronoun or a noun drop qualifies (drop into the shell, drops
    # you into the prompt, no drop in latency, drop rate); never drag-and-dropping, drag and drop
    r"|(?<![\w-])(?<!drag\sand\s)(?<!drag\s&\s)drop(?:s|ping)?\s+(?!" + _NOT_DROPPED + r")"
    r"(?:[\w'-]+\s+){0,3}" + _DROPPED,
}
#: A skill that calls itself a guide or a reference explains a workflow rather than runs it.
_EXPLAINS = re.compile(
    r"\b(?:guide|reference|best\s+practices|patterns|documentation|overview|tutorial|checklist|"
    r"templates?)\b",
    re.IGNORECASE,
)
#: The commands that do it, in SKILL.md's code.
_RUNS = {
    "deploy": r"\b(?:vercel|netlify|firebase|flyctl|fly|wrangler|serverless|sls|railway|cdk|sam|"
    r"eb|(?:gcloud|az|databricks)(?:\s+[\w-]+){1,3})\s+deploy\b|\bvercel\s+--prod\b|"
    r"\bkubectl\s+(?:apply|rollout\s+restart)\b|\bhelm\s+(?:install|upgrade)\b|"
    r"\b(?:terraform|tofu)\s+apply\b|\bpulumi\s+up\b|\bdocker\s+push\b|"
    r"\baz\s+deployment\s+\w+\s+create\b",
    "publish": r"\b(?:npm|pnpm|yarn|cargo|gem|poetry|flit|hatch|uv)\s+publish\b|"
    r"\btwine\s+upload\b|\bgh\s+release\s+create\b|\bgit\s+push\b[^\n]*--tags\b|"
    r"\bdocker\s+push\b|\bgh-pages\b|\bgit\s+push\b",
    "push": r"\bgit\s+(?:push|commit)\b|\bgh\s+pr\s+merge\b",
    "delete": r"\bDROP\s+(?:DATABASE|TABLE|SCHEMA)\b|\b(?:terraform|tofu|pulumi)\s+destroy\b|"
    r"\bkubectl\s+delete\b|\bgh\s+repo\s+delete\b|\b(?:aws|az|gcloud)\s+[\w\s-]*\bdelete\b",
}
_SAYS_RE = {kind: re.compile(pattern, re.IGNORECASE) for kind, pattern in _SAYS.items()}
#: A script of the skill named for what it does (``scripts/publish.sh``, ``deploy.py``).
_SCRIPT = r"|\b[\w./{}$-]*{verb}[\w-]*\.(?:sh|py|js|mjs|ts|ps1)\b"
_RUNS_RE = {
    kind: re.compile(pattern + _SCRIPT.replace("{verb}", kind if kind != "push" else "push"))
    for kind, pattern in _RUNS.items()
}
#: Where a description stops saying what the skill does and starts saying when to use it.
_WHEN = re.compile(r"\buse\s+(?:this\s+skill\s+)?(?:when|for|whenever|to)\b|\btriggers?\b", re.I)


def _says(skill: Skill) -> list[tuple[str, str]]:
    """Each kind of side effect the name or the description (before "Use when") claims,
    with the words that claim it."""
    data = frontmatter(skill)
    name, description = data.get("name"), data.get("description")
    text = name.replace("-", " ") if isinstance(name, str) else ""
    if isinstance(description, str):
        text += ". " + _WHEN.split(description, maxsplit=1)[0]
    if _EXPLAINS.search(text):
        return []
    return [(kind, m.group(0)) for kind, pattern in _SAYS_RE.items() if (m := pattern.search(text))]


def side_effects(skill: Skill, options: Options) -> Findings:
    """SKL608: a skill whose name or description says it deploys, publishes, pushes or
    deletes, and whose SKILL.md runs a command that does it (``vercel deploy --prod``,
    ``npm publish``, ``git push``, ``DROP TABLE``), sets ``disable-model-invocation: true``:
    otherwise Claude may start it on its own, when the code merely looks ready."""
    data = frontmatter(skill)
    if not data or data.get("disable-model-invocation") is True:
        return
    claims = _says(skill)
    if not claims:
        return
    start = skill.skill_md.frontmatter.end_line or 0
    blocks = code_blocks(skill)
    for number, text_line in enumerate(skill.lines(SKILL_FILE), 1):
        if number <= start:
            continue
        line = text_line.rstrip("\r\n")
        code = in_code(blocks, number)
        parts = [line] if code else [m.group(2) for m in _CODE_SPAN.finditer(line)]
        for kind, words in claims:
            match = next((m for part in parts if (m := _RUNS_RE[kind].search(part))), None)
            if match:
                yield Finding(
                    f"says '{words.strip()}' and runs '{match.group(0).strip()}' here, but "
                    "Claude may start it on its own: set 'disable-model-invocation: true'",
                    line=field_line(skill, "description") if "description" in data else 1,
                )
                return


# -- SKL609 tools Claude Code has ----------------------------------------------------------------

_ENTRY = re.compile(r"[^\s,()]+(?:\([^)]*\))?")


def _entries(value: object) -> list[str]:
    """The tools a string names (space- or comma-separated), or a list's items (one tool
    each: ``Azure MCP/documentation`` is one name)."""
    if isinstance(value, str):
        return _ENTRY.findall(value)
    if isinstance(value, list):
        return [item.strip() for item in value if isinstance(item, str) and item.strip()]
    return []


def tool_names(skill: Skill, options: Options) -> Findings:
    """SKL609: every tool ``allowed-tools`` and ``disallowed-tools`` name is one Claude Code
    has (the ``claude`` target's dialect record: its built-in tools, and ``mcp__server`` or
    ``mcp__server__tool`` for an MCP server's): an unknown name grants or denies nothing."""
    from skillc_index import target_dialects

    dialect = target_dialects()["claude"]
    known = dialect.tools
    by_lower = {tool.lower(): tool for tool in known}
    data = frontmatter(skill)
    for key in ("allowed-tools", "disallowed-tools"):
        for entry in dict.fromkeys(_entries(data.get(key))):
            name = entry.split("(", 1)[0]
            if name in known or name.startswith(dialect.tool_prefixes) or name == "*":
                continue
            close = by_lower.get(name.lower())
            hint = f" (did you mean '{close}'?)" if close else ""
            yield Finding(
                f"{key} names '{name}', which is not a {dialect.agent} tool{hint}: it grants "
                "or denies nothing",
                line=field_line(skill, key),
            )


RULES: tuple[Rule, ...] = (
    guidance_rule(
        "SKL607",
        "claude-argument-in-code",
        argument_in_code,
        "No $0-$9 in SKILL.md's code, which Claude Code replaces with the skill's arguments.",
        "Claude Code replaces $ARGUMENTS, $ARGUMENTS[N] and their shorthand $N in SKILL.md, "
        "code blocks included, before the model reads it, whenever the skill is run with "
        "arguments: awk '{print $1}', a shell function's \"$1\", SQL's $1 and a regex "
        "replacement's $1 reach the model as the user's argument (or nothing). Reference "
        "files and scripts are not substituted.",
        "Move the code into a script of the skill (scripts/x.sh) or a reference file, which "
        "Claude Code does not substitute, and point at it.",
        category="claude-code",
    ),
    guidance_rule(
        "SKL608",
        "claude-side-effects",
        side_effects,
        "A skill that deploys, publishes, pushes or deletes sets disable-model-invocation.",
        "Claude Code's guidance: workflows with side effects (deploy, publish, commit, push, "
        "delete) should run only when the user asks (/name). Without "
        "disable-model-invocation: true Claude may start one on its own because the code "
        "looks ready.",
        "Add 'disable-model-invocation: true' to the frontmatter (the skill then runs only "
        "as /name), or reword the description if the skill only explains the workflow.",
        category="claude-code",
    ),
    guidance_rule(
        "SKL609",
        "claude-tools",
        tool_names,
        "allowed-tools and disallowed-tools name tools Claude Code has.",
        "Claude Code matches allowed-tools and disallowed-tools against its tools' exact "
        "names (Bash, Read, WebFetch...) and MCP tools (mcp__server__tool); another agent's "
        "tool names or a misspelling grant or deny nothing, so the skill asks for "
        "permission (or is not restricted) where the author meant otherwise.",
        "Use Claude Code's tool names (code.claude.com/docs/en/tools-reference), "
        "mcp__server__tool for an MCP server's tool; keep another agent's names in a skill "
        "for that agent.",
        category="claude-code",
    ),
)
