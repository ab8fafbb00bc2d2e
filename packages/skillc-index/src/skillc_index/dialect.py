"""What each agent reads of a SKILL.md (issue 37): its *dialect*.

One record per agent (:class:`Dialect`), held by the built-in target table
(:data:`skillc_index.targets.KNOWN_TARGETS`, the ``dialect`` of each :class:`AgentTarget`) and by
the packages ``skc package`` writes (:data:`PACKAGE_DIALECTS`). A dialect says which
frontmatter fields the agent reads, whether it refuses a skill with any other field, its limits
(description, listing entry, name) and its side files, and where each fact comes from
(``source``: the skillc-index README's table "What each agent reads" repeats it).

Beside them, the specification's rules every reader of the kit asks, each written once: the
name rule (:func:`name_faults`, :func:`skill_name_problem`), a plugin's name rule
(:func:`plugin_name_rule`) and the limits of a description
and a compatibility note (:func:`description_problem`, :func:`compatibility_problem`,
:func:`fit_text`). The projection that turns a source's frontmatter into what an agent reads
is :mod:`skillc_index.build.project`. This module imports nothing heavy (the layout imports it
on every command).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Literal, TypeGuard

from skillc_index.record import Record

__all__ = [
    "AGENT_SKILLS",
    "CLAUDE_CODE",
    "CLAUDE_CODE_FIELDS",
    "CLAUDE_CODE_FOLDER_FIELDS",
    "CLAUDE_CODE_TOOLS",
    "CLAUDE_UPLOAD",
    "CODEX",
    "CODEX_FIELDS",
    "CODEX_SIDE_FILE",
    "COMPATIBILITY_LIMIT",
    "COPILOT",
    "CURSOR",
    "DESCRIPTION_LIMIT",
    "DISCOVERY",
    "GEMINI",
    "KIRO",
    "NAME_LIMIT",
    "OPENCODE",
    "PACKAGE_DIALECTS",
    "PLUGINS",
    "SHARED_FOLDER_FIELDS",
    "SHORT_DESCRIPTION",
    "SKILL_DIR_PLACEHOLDER",
    "STANDARD_FIELDS",
    "TRAE",
    "Dialect",
    "NameFaults",
    "codex_name_refusal",
    "codex_refusal",
    "compatibility_problem",
    "description_problem",
    "fit_text",
    "folded_text",
    "name_faults",
    "name_refusals",
    "plugin_name_rule",
    "skill_name_problem",
    "target_dialects",
    "text_fault",
    "text_length",
]

#: The fields of the Agent Skills specification (agentskills.io/specification).
STANDARD_FIELDS = frozenset(
    {"name", "description", "license", "compatibility", "metadata", "allowed-tools"}
)
#: The specification's limits: a description of 1-1,024 characters, a compatibility note of
#: at most 500, a name of 1-64 that matches its folder. The two texts are counted by
#: :func:`text_length`, checked by :func:`description_problem` and :func:`compatibility_problem`
#: and fitted by :func:`fit_text`: every reader of the kit asks these.
DESCRIPTION_LIMIT = 1024
COMPATIBILITY_LIMIT = 500
#: The name rule is :func:`name_faults`.
NAME_LIMIT = 64
#: Codex's side file (developers.openai.com/codex/skills, "agents/openai.yaml").
CODEX_SIDE_FILE = "agents/openai.yaml"
#: The key under ``metadata`` whose text Codex shows as a skill's short description
#: (``metadata.short-description``): its loader refuses the whole skill when the text is over
#: its limit, the description's (codex-rs ``core-skills/src/loader.rs``,
#: ``MAX_SHORT_DESCRIPTION_LEN``).
SHORT_DESCRIPTION = "short-description"
#: What the commands a skill holds write for the skill's folder, as the agents that define
#: them do: OpenClaw's ``{baseDir}``, Claude Code's ``${CLAUDE_SKILL_DIR}``, and
#: ``$SKILL_DIR`` (the variable skillc-gateway's ``exec`` sets), each also as ``$NAME`` /
#: ``${NAME}``. A bare ``$NAME`` ends where a name would (``$SKILL_DIRS`` is another
#: variable). ``exec`` replaces them; a build deploys the files they name in hook commands.
SKILL_DIR_PLACEHOLDER = re.compile(
    r"\{baseDir\}|\$\{(?:CLAUDE_)?SKILL_DIR\}|\$(?:CLAUDE_)?SKILL_DIR(?![A-Za-z0-9_])"
)
#: What OpenAI's skill-creator validator (openai/skills ``quick_validate.py``) lets through:
#: the standard fields but ``compatibility``.
CODEX_FIELDS = STANDARD_FIELDS - {"compatibility"}

#: What Claude Code reads beyond the standard (code.claude.com/docs/en/skills, "Frontmatter
#: reference").
CLAUDE_CODE_FIELDS = frozenset(
    {
        "when_to_use",
        "arguments",
        "argument-hint",
        "disable-model-invocation",
        "user-invocable",
        "disallowed-tools",
        "model",
        "effort",
        "context",
        "agent",
        "background",
        "hooks",
        "paths",
        "shell",
    }
)
#: The Claude Code fields that act only when Claude Code loads the skill from its own folder:
#: the ``hooks`` it registers, the files that offer it (``paths``), the subagent it runs in
#: (``context: fork``, ``agent``, ``background``), its ``model`` and ``effort``, the tools it
#: denies (``disallowed-tools``), the shell of its ``!`` commands. Read through another program
#: (``skc show`` behind ``skc route``'s router) the skill loses them, a hook that guards
#: writes included: ``route install`` leaves a skill that sets one in the agent folder.
CLAUDE_CODE_FOLDER_FIELDS = frozenset(
    {
        "hooks",
        "paths",
        "context",
        "agent",
        "background",
        "model",
        "effort",
        "disallowed-tools",
        "shell",
    }
)


class Dialect(Record):
    """What one agent (or one package format) reads of a SKILL.md."""

    agent: str
    """Its name in messages (``Codex``, ``Claude Code``)."""
    reads: frozenset[str]
    """The frontmatter fields it reads; any other is ignored (or refused: ``strict``)."""
    strict: bool
    """A field outside ``reads`` makes it refuse (or skip) the whole skill."""
    source: str
    """Where these facts come from (a documentation page, a validator, a report)."""
    description_limit: int | None = None
    """The longest description it takes (``strict``: refused over it; else cut)."""
    short_description_limit: int | None = None
    """The longest ``metadata.short-description`` it takes (:data:`SHORT_DESCRIPTION`:
    Codex refuses the skill over it; cut)."""
    listing_limit: int | None = None
    """The most of ``description`` + ``when_to_use`` its skill listing shows per entry."""
    side_files: tuple[str, ...] = ()
    """Files beside SKILL.md it reads (``agents/openai.yaml``)."""
    reserved_words: tuple[str, ...] = ()
    """Words a name may not contain."""
    size_limit: int | None = None
    """The largest package it takes, in bytes."""
    readers: tuple[str, ...] = ()
    """For a folder several agents read: the targets whose agents read it."""
    plain_description: bool = False
    """The description may not hold ``<`` or ``>`` (read as XML tags: refused)."""
    keeps_others: bool = False
    """Fields outside ``reads`` are written as they are (the agent ignores them, and the
    source is written in this agent's dialect: Claude Code's superset)."""
    tools: frozenset[str] = frozenset()
    """The tool names its ``allowed-tools`` (and ``disallowed-tools``) take; empty when not
    known (no check is made)."""
    tool_prefixes: tuple[str, ...] = ()
    """Prefixes of the names of tools other programs add (MCP servers' ``mcp__``)."""
    shared: frozenset[str] = frozenset()
    """Fields outside ``reads`` written as they are: the other agents that read the same
    folder act on them (:data:`SHARED_FOLDER_FIELDS` for ``.agents/skills``)."""


#: Claude Code's built-in tools, as permission rules and ``allowed-tools`` name them
#: (code.claude.com/docs/en/tools-reference, "Tools reference"), and the names of earlier
#: releases that skills still grant (``Task``, now ``Agent``; ``MultiEdit``, ``LS``,
#: ``NotebookRead``, ``TodoRead``, ``BashOutput``, ``KillShell``).
CLAUDE_CODE_TOOLS = frozenset(
    {
        "Agent",
        "AskUserQuestion",
        "Bash",
        "CronCreate",
        "CronDelete",
        "CronList",
        "Edit",
        "EnterPlanMode",
        "EnterWorktree",
        "ExitPlanMode",
        "ExitWorktree",
        "Glob",
        "Grep",
        "ListMcpResourcesTool",
        "LSP",
        "Monitor",
        "NotebookEdit",
        "PowerShell",
        "Read",
        "ReadMcpResourceTool",
        "SendMessage",
        "Skill",
        "TaskCreate",
        "TaskGet",
        "TaskList",
        "TaskOutput",
        "TaskStop",
        "TaskUpdate",
        "TeamCreate",
        "TeamDelete",
        "TodoWrite",
        "ToolSearch",
        "WebFetch",
        "WebSearch",
        "Write",
        # earlier releases' names
        "Task",
        "MultiEdit",
        "LS",
        "NotebookRead",
        "TodoRead",
        "BashOutput",
        "KillShell",
    }
)

CLAUDE_CODE = Dialect(
    "Claude Code",
    STANDARD_FIELDS | CLAUDE_CODE_FIELDS,
    strict=False,
    source="https://code.claude.com/docs/en/skills (Frontmatter reference; listing entries cut "
    "at 1,536 characters of description + when_to_use); tools: "
    "https://code.claude.com/docs/en/tools-reference",
    listing_limit=1536,
    keeps_others=True,
    tools=CLAUDE_CODE_TOOLS,
    tool_prefixes=("mcp__",),
)
COPILOT = Dialect(
    "GitHub Copilot",
    STANDARD_FIELDS | {"argument-hint", "user-invocable", "disable-model-invocation"},
    strict=False,
    source="https://docs.github.com/en/copilot/concepts/agents/about-agent-skills and VS Code's "
    "agent skills page (argument-hint, user-invocable, disable-model-invocation)",
    description_limit=DESCRIPTION_LIMIT,
)
CURSOR = Dialect(
    "Cursor",
    STANDARD_FIELDS | {"disable-model-invocation"},
    strict=False,
    source="https://www.cursor.com/docs/context/skills (frontmatter: name, description, license, "
    "compatibility, metadata, disable-model-invocation)",
    description_limit=DESCRIPTION_LIMIT,
)
GEMINI = Dialect(
    "Gemini CLI",
    STANDARD_FIELDS,
    strict=False,
    source="https://geminicli.com/docs/cli/using-agent-skills/ (name and description; "
    "activation asks for consent)",
    description_limit=DESCRIPTION_LIMIT,
)
OPENCODE = Dialect(
    "OpenCode",
    STANDARD_FIELDS,
    strict=False,
    source="https://opencode.ai/docs/skills/ (name, description, license, compatibility, "
    "metadata; other fields ignored)",
    description_limit=DESCRIPTION_LIMIT,
)
KIRO = Dialect(
    "Kiro",
    STANDARD_FIELDS,
    strict=False,
    source="https://kiro.dev/docs/skills (the Agent Skills standard; no fields of its own "
    "documented)",
    description_limit=DESCRIPTION_LIMIT,
)
TRAE = Dialect(
    "Trae",
    STANDARD_FIELDS,
    strict=False,
    source="Trae's Skills docs page (name and description; no fields of its own documented)",
    description_limit=DESCRIPTION_LIMIT,
)
#: What the other readers of ``.agents/skills`` (Copilot, Cursor; Gemini CLI and OpenCode read the
#: standard) act on beyond the specification: the folder keeps them, although Codex does not
#: read them and the specification's validators refuse them (``skills-ref``, the skill-creators'
#: ``quick_validate.py``): left out, a user-only skill (``disable-model-invocation: true``)
#: would be one the model invokes in Cursor and Copilot. No reader refuses a skill for them.
SHARED_FOLDER_FIELDS = (
    COPILOT.reads | CURSOR.reads | GEMINI.reads | OPENCODE.reads
) - STANDARD_FIELDS
#: Codex's folder is the shared ``.agents/skills``: what it gets keeps those fields too.
CODEX = Dialect(
    "Codex",
    CODEX_FIELDS,
    strict=False,
    source="https://developers.openai.com/codex/skills (name, description; agents/openai.yaml: "
    "interface, policy.allow_implicit_invocation, dependencies); descriptions over 1,024 "
    "characters refused (community reports; codex-rs core-skills loader.rs: a name over 64, a "
    "description or metadata.short-description over 1,024); openai/skills skill-creator "
    "quick_validate.py (no compatibility, no < or > in the description)",
    description_limit=DESCRIPTION_LIMIT,
    short_description_limit=DESCRIPTION_LIMIT,
    side_files=(CODEX_SIDE_FILE,),
    plain_description=True,
    shared=SHARED_FOLDER_FIELDS,
)
#: The cross-agent folder ``.agents/skills``: the specification (its reference validator
#: ``skills-ref`` refuses any other field) as Codex takes it (no ``compatibility``, a
#: description without ``<``/``>``), the fields its other readers act on
#: (:data:`SHARED_FOLDER_FIELDS`), and Codex's side file, since Codex reads this folder.
AGENT_SKILLS = Dialect(
    "Agent Skills (.agents/skills)",
    CODEX_FIELDS,
    strict=True,
    source="https://agentskills.io/specification and its reference validator skills-ref; read "
    "by Codex, Copilot, Cursor, Gemini CLI and OpenCode (their rows)",
    description_limit=DESCRIPTION_LIMIT,
    short_description_limit=DESCRIPTION_LIMIT,
    side_files=(CODEX_SIDE_FILE,),
    readers=("codex", "copilot", "cursor", "gemini", "opencode"),
    plain_description=True,
    shared=SHARED_FOLDER_FIELDS,
)
#: An upload to claude.ai or the Skills API (and Anthropic's ``package_skill.py``).
CLAUDE_UPLOAD = Dialect(
    "claude.ai upload / Skills API",
    STANDARD_FIELDS,
    strict=True,
    source="anthropics/skills skill-creator scripts/quick_validate.py (allowed keys, name and "
    "description rules) and the Skills API docs (reserved words, XML tags, 30 MB uploads)",
    description_limit=DESCRIPTION_LIMIT,
    reserved_words=("anthropic", "claude"),
    size_limit=30_000_000,
    plain_description=True,
)
#: A skill of an Agent Plugins 1.0 plugin: a conformant client skips one whose frontmatter does
#: not conform to the specification.
PLUGINS = Dialect(
    "Agent Plugins 1.0",
    STANDARD_FIELDS,
    strict=True,
    source="agentplugins/agent-plugins-spec (skills/: a skill not conforming to the Agent "
    "Skills specification MUST be skipped); its clients include Codex and Claude Code, whose "
    "validators refuse < and > in a description",
    description_limit=DESCRIPTION_LIMIT,
    plain_description=True,
)

#: A skill of a web site's discovery index: read by any agent of the standard, so what the
#: shared folder gets.
DISCOVERY = AGENT_SKILLS._replace(
    agent="Agent Skills Discovery",
    source="cloudflare/agent-skills-discovery-rfc v0.2.0 (names and descriptions per the Agent "
    "Skills specification); read by any agent: what .agents/skills gets",
    readers=(),
)

#: The dialects of ``skc package``'s formats.
PACKAGE_DIALECTS: dict[str, Dialect] = {
    "upload": CLAUDE_UPLOAD,
    "plugin": PLUGINS,
    "claude-plugin": CLAUDE_CODE,
    "well-known": DISCOVERY,
}


def target_dialects() -> dict[str, Dialect]:
    """Every name ``skillc-lint --target`` takes, with its dialect: the built-in targets'
    (:data:`~skillc_index.targets.KNOWN_TARGETS`) and the package formats'
    (:data:`PACKAGE_DIALECTS`; ``claude-plugin`` is Claude Code's, already a target)."""
    from skillc_index.targets import KNOWN_TARGETS

    found = {name: target.dialect for name, target in KNOWN_TARGETS.items() if target.dialect}
    found.update((name, dialect) for name, dialect in PACKAGE_DIALECTS.items() if name not in found)
    return found


def text_length(value: str) -> int:
    """The length of a frontmatter text as the specification's limits count it: every character
    of the parsed value, the white space around it too (a YAML block, ``description: |``, ends
    in a line break its author may not see). The validators count so: the reference validator
    ``skills-ref`` and FastMCP's Skills extension client, which refuses a whole ``skills/list``
    for one entry over the limit, and checks the entry against SKILL.md's own frontmatter (a
    server may not trim it). Codex folds runs of white space before it counts: a text within
    this count is within Codex's."""
    return len(value)


def folded_text(value: object) -> str:
    """A frontmatter ``value`` as the agents list it and Codex counts it: a text with each run
    of white space folded to one space, none at either end (codex-rs ``loader.rs``,
    ``sanitize_single_line``; Claude Code's listing shows an entry on one line); "" for
    anything but text. The one fold of the listing's model, :func:`codex_refusal` and lint's
    listing rule."""
    return " ".join(value.split()) if isinstance(value, str) else ""


def is_text(value: object) -> TypeGuard[str]:
    """Whether a standard field's ``value`` (``license``, ``compatibility``) as YAML 1.2 reads
    it (an unquoted date is a string there) is text, as the specification makes it: the one
    verdict of lint's SKL502 and SKL504, of what ``skc package`` drops (a conformant client
    skips a skill whose standard field has another type) and of what the gateway serves."""
    return isinstance(value, str)


def text_fault(value: str, limit: int) -> Literal["empty", "long"] | None:
    """How a ``description`` or ``compatibility`` text ``value`` breaks the specification's
    rule: ``empty`` (no text but white space), ``long`` (over ``limit`` characters as
    :func:`text_length` counts them), or None: the one verdict of :func:`description_problem`
    and :func:`compatibility_problem`, and of lint's SKL501, which words it its own way."""
    if not value.strip():
        return "empty"
    return "long" if text_length(value) > limit else None


def _text_problem(field: str, value: str, limit: int) -> str | None:
    fault = text_fault(value, limit)
    if fault == "empty":
        return f"{field} is empty"
    if fault == "long":
        return f"{field} is {text_length(value):,} characters long (at most {limit:,})"
    return None


def description_problem(value: str, limit: int = DESCRIPTION_LIMIT) -> str | None:
    """Why a ``description`` of text ``value`` breaks the specification's rule (some text, at
    most ``limit`` characters as :func:`text_length` counts them), or None: the one check of
    lint's SKL107, the MCP server, build's projection (:func:`fit_text`) and the listing's
    model of Codex."""
    return _text_problem("description", value, limit)


def codex_refusal(frontmatter: Mapping[str, Any], folder: str | None = None) -> str | None:
    """Why Codex's loader refuses a skill of this ``frontmatter`` (loaded; a skill of a
    folder named ``folder`` when it has no ``name``), or None, as codex-rs
    ``core-skills/src/loader.rs`` reads it. Its typed parse fails on a ``name``,
    ``description`` or ``metadata.short-description`` that is a list or a mapping, and on a
    ``metadata`` that is not a mapping (one set to nothing counts as none here, as
    ``metadata:`` left empty parses; whether it takes a ``null`` written out is not
    modelled). Then each text, its white space folded (:func:`folded_text`), is refused: a
    description empty or over :data:`DESCRIPTION_LIMIT` characters
    (:func:`description_problem`), a short description over :data:`CODEX`'s
    ``short_description_limit``, a name over :data:`NAME_LIMIT` (:func:`codex_name_refusal`).
    Its parse takes a number, a boolean or a date as the text it is written as, which the
    loaded value no longer holds: such a description counts as empty here, such a name or
    short description as none. The one model of the listing (``skc list --budget``, ``skc
    eval``) and ``skc build``'s warning."""
    metadata = frontmatter.get("metadata")
    if metadata is not None and not isinstance(metadata, Mapping):
        return "metadata is not a mapping"
    metadata = metadata or {}
    typed = (
        ("name", frontmatter.get("name")),
        ("description", frontmatter.get("description")),
        (f"metadata.{SHORT_DESCRIPTION}", metadata.get(SHORT_DESCRIPTION)),
    )
    for field, value in typed:
        if isinstance(value, (list, Mapping)):
            return f"{field} is not text"
    problem = description_problem(folded_text(frontmatter.get("description")))
    if problem is not None:
        return problem
    short = folded_text(metadata.get(SHORT_DESCRIPTION))
    limit = CODEX.short_description_limit or DESCRIPTION_LIMIT
    if text_length(short) > limit:
        return (
            f"metadata.{SHORT_DESCRIPTION} is {text_length(short):,} characters long "
            f"(at most {limit:,})"
        )
    return codex_name_refusal(frontmatter.get("name"), folder)


def codex_name_refusal(name: object, folder: str | None = None) -> str | None:
    """Why Codex's loader refuses a skill whose frontmatter's ``name`` is ``name``, or the
    name of its folder ``folder`` when that is no text or nothing, each with its white space
    folded (:func:`folded_text`, as codex-rs's ``default_skill_name`` folds the folder's):
    over :data:`NAME_LIMIT` characters; None when it takes it (Codex checks no other rule)."""
    taken = folded_text(name) or folded_text(folder)
    if len(taken) > NAME_LIMIT:
        return f"the name is {len(taken):,} characters long (at most {NAME_LIMIT})"
    return None


def compatibility_problem(value: str, limit: int = COMPATIBILITY_LIMIT) -> str | None:
    """Why a ``compatibility`` of text ``value`` breaks the specification's rule (some text, at
    most ``limit`` characters as :func:`text_length` counts them), or None: lint's SKL501, the
    MCP server, build's projection (:func:`fit_text`)."""
    return _text_problem("compatibility", value, limit)


def fit_text(value: str, limit: int) -> tuple[str, bool]:
    """``value`` within ``limit`` characters as :func:`text_length` counts them: as it is when
    it fits, else without the white space around it (what an agent shows is the same), else
    that cut (:func:`~skillc_index.text.cut`, an ellipsis last); and whether it was cut."""
    if text_length(value) <= limit:
        return value, False
    from skillc_index.text import cut

    text = value.strip()
    return (text, False) if text_length(text) <= limit else (cut(text, limit), True)


class NameFaults(Record):
    """How a name breaks the Agent Skills name rule (:func:`name_faults`)."""

    length: int | None
    """Its length when that is not 1 to :data:`NAME_LIMIT` (0: empty),
    else None."""
    form: tuple[str, ...]
    """What is wrong with its characters, each said of the name (``contains uppercase
    characters``, ``starts with a hyphen``); empty when nothing is."""


def _shown_chars(chars: list[str]) -> str:
    """Characters a message names: the visible ones quoted (``'é_'``), a combining mark, an
    invisible one or a look-alike of an ASCII character by its code point and name (``U+0307
    COMBINING DOT ABOVE``: quoted, it would stack on the quote mark or show as nothing;
    ``U+0440 CYRILLIC SMALL LETTER ER``: quoted, ``'р'`` reads as the ``p`` it is not,
    :func:`~skillc_index.deceptive.looks_ascii`)."""
    if all(char.isascii() for char in chars):
        return repr("".join(chars))
    import unicodedata

    from skillc_index.deceptive import looks_ascii
    from skillc_index.text import char_name

    plain = [
        c
        for c in chars
        if c.isprintable() and not unicodedata.category(c).startswith("M") and not looks_ascii(c)
    ]
    named = [char_name(c) for c in chars if c not in plain]
    return " and ".join([repr("".join(plain))] * bool(plain) + named)


def name_faults(name: str) -> NameFaults:
    """Every way ``name`` breaks the Agent Skills name rule (lowercase ASCII letters, digits
    and single hyphens, none first or last; 1 to 64 characters): the one rule, which
    :func:`skill_name_problem` and lint's SKL102 and SKL103 say in their words. Uppercase
    is ASCII's ``A``-``Z``; every character outside ASCII is invalid, as written (the Kelvin
    sign, whose lower case is ``k``, too: ``U+212A KELVIN SIGN``)."""
    form = []
    if re.search("[A-Z]", name):
        form.append("contains uppercase characters")
    invalid = sorted(set(re.findall(r"[^a-zA-Z0-9-]", name)))
    if invalid:
        form.append(f"contains invalid characters {_shown_chars(invalid)}")
    if name.startswith("-"):
        form.append("starts with a hyphen")
    if name.endswith("-") and len(name) > 1:
        form.append("ends with a hyphen")
    if "--" in name:
        form.append("contains consecutive hyphens")
    return NameFaults(None if 0 < len(name) <= NAME_LIMIT else len(name), tuple(form))


def skill_name_problem(name: str) -> str | None:
    """Why ``name`` is not a valid Agent Skills name (:func:`name_faults`), or ``None`` if it
    is."""
    faults = name_faults(name)
    if faults.length == 0:
        return "a skill name must not be empty"
    if faults.length is not None:
        return f"a skill name has at most {NAME_LIMIT} characters (this one has {faults.length})"
    if faults.form:
        return (
            "a skill name uses lowercase letters, digits and single hyphens, "
            "and does not start or end with a hyphen"
        )
    return None


def name_refusals(name: str, dialect: Dialect) -> list[str]:
    """Why ``dialect`` refuses a skill named ``name`` (a strict dialect: the specification's
    name rule, no tags, none of its reserved words); empty when it takes it."""
    problems = []
    problem = skill_name_problem(name)
    if problem is not None:
        problems.append(problem)
    if "<" in name or ">" in name:
        problems.append("a name may not hold XML tags")
    problems += [
        f"a name may not contain the reserved word '{word}'"
        for word in dialect.reserved_words
        if word in name
    ]
    return problems


#: A plugin's name, by package format: Claude Code's is kebab-case (its plugins reference:
#: lowercase letters, digits and hyphens; ``claude plugin validate`` warns of another), Agent
#: Plugins 1.0's may hold inner dots too (§5.5: no ``--`` or ``..``, none first or last).
#: Patterns, compiled when first used (``re``'s cache): every command imports this module.
_PLUGIN_NAMES = {
    "claude-plugin": (
        r"[a-z0-9]+(?:-[a-z0-9]+)*",
        "kebab-case (lowercase letters, digits, hyphens)",
    ),
    "plugin": (
        r"(?!.*(?:--|\.\.))[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?",
        "lowercase letters and digits, with single . or - between them",
    ),
}


def plugin_name_rule(name: str, fmt: str = "claude-plugin") -> str | None:
    """The rule ``name`` breaks as the name of a plugin of the package format ``fmt``
    (``claude-plugin``: Claude Code's; ``plugin``: Agent Plugins 1.0's), said after "must
    be": over :data:`NAME_LIMIT` characters first, then the format's form; None when it
    keeps it. The one rule of ``skc package`` and lint's SKL611 and SKL612."""
    if len(name) > NAME_LIMIT:
        return f"at most {NAME_LIMIT} characters"
    pattern, rule = _PLUGIN_NAMES[fmt]
    return None if re.fullmatch(pattern, name) else rule


#: The marketplace names Claude Code reserves: it refuses to add a marketplace of one of them.
#: The list agnix 0.59.3's rule CC-MP-002 ("Invalid or Reserved Marketplace or Plugin Name",
#: from code.claude.com/docs/en/plugins/marketplace-reference) checks, read from its installed
#: binary (``agnix`` of the ``agnix`` PyPI wheel: the strings of the rule) and each name
#: confirmed by running it on a marketplace of that name (``Marketplace name 'agent-skills'
#: is reserved``): Anthropic's own marketplaces, Claude Code's internal sources, and the
#: names of JavaScript's ``Object.prototype`` (held as a key). As agnix compares: exactly.
RESERVED_MARKETPLACES = frozenset(
    {
        "agent-skills",
        "anthropic-agent-skills",
        "anthropic-marketplace",
        "anthropic-plugin-directory",
        "anthropic-plugins",
        "builtin",
        "claude-code-marketplace",
        "claude-code-plugins",
        "claude-community",
        "claude-for-financial-services",
        "claude-for-legal",
        "claude-plugin-directory",
        "claude-plugin-test",
        "claude-plugins-community",
        "claude-plugins-official",
        "claude-tag-plugins",
        "financial-services-plugins",
        "first-party-plugins",
        "healthcare",
        "inline",
        "knowledge-work-plugins",
        "life-sciences",
        "skills-dir",
        "synced",
        *("constructor", "hasOwnProperty", "isPrototypeOf", "propertyIsEnumerable"),
        *("toLocaleString", "toString", "valueOf"),
    }
)
#: The plugin sources' kinds, reserved as marketplace names in any case (agnix: ``Pip`` is
#: reserved as ``pip``).
RESERVED_SOURCE_MARKETPLACES = frozenset({"cargo", "gh", "github", "npm", "pip", "uv"})
#: What a marketplace name may not start with, in any case: claude.ai's own (agnix, CC-MP-002).
RESERVED_MARKETPLACE_PREFIX = "claudeai-"


def marketplace_name_reserved(name: str) -> str | None:
    """What Claude Code reserves of the marketplace name ``name`` (the name, or the prefix
    ``claudeai-``), so that it refuses to add the marketplace; None when it reserves none of
    it (:data:`RESERVED_MARKETPLACES`)."""
    if name in RESERVED_MARKETPLACES:
        return name
    if name.lower() in RESERVED_SOURCE_MARKETPLACES:
        return name.lower()
    if name.lower().startswith(RESERVED_MARKETPLACE_PREFIX):
        return RESERVED_MARKETPLACE_PREFIX
    return None
