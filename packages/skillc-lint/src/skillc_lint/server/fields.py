"""What a frontmatter field means and which values it takes: the hover and the completion of
the language server.

skillc keeps no per-agent table of fields yet; the one home of field knowledge is the
format specification's profile tables (spec/004 layers 1 to 4, spec/003 for gibb.eri.sh),
whose fields the profiles make known to SKL109. :data:`FIELDS` is those tables as data,
with what the agent of each layer does with the field. Every caller asks :func:`field_help`
and :func:`field_values`, so a table per agent (what Claude Code, Codex, Cursor... each do
with a field) can replace :data:`FIELDS` in one place. Values come from the rule modules
that check them, so completion offers what the linter accepts.

Pure data and functions: no LSP library here.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from skillc_lint._rules import claude_code, skillli

__all__ = ["FIELDS", "FieldHelp", "field_help", "field_values"]


@dataclass(frozen=True)
class FieldHelp:
    """One frontmatter field: its profile, YAML type, what it means, and what the agents of
    that profile do with it."""

    name: str
    profile: str
    """The profile that makes the field known (``agentskills``: the standard's)."""
    type: str
    meaning: str
    agents: str
    """What the agents reading this profile's skills do with the field."""
    values: tuple[str, ...] = ()
    """The values completion offers (an enumeration, booleans); empty for free text."""

    def markdown(self) -> str:
        """The hover text: Markdown, as editors render it."""
        lines = [
            f"**`{self.name}`** ({self.type}; profile `{self.profile}`)",
            "",
            self.meaning,
            "",
            f"*Agents:* {self.agents}",
        ]
        per_agent = agents_of(self.name)
        if per_agent:
            lines += ["", per_agent]
        if self.values:
            lines += ["", "Values: " + ", ".join(f"`{value}`" for value in self.values)]
        return "\n".join(lines)


def agents_of(name: str) -> str:
    """Per target, from skillc-index's dialect records (the one home of what each agent
    reads): which read field ``name``, which leave it out, which refuse a skill holding it."""
    from skillc_index.dialect import target_dialects

    read: list[str] = []
    dropped: list[str] = []
    refused: list[str] = []
    for target, dialect in sorted(target_dialects().items()):
        if dialect.readers:
            continue  # a shared folder: what its readers do, said by each of them
        shown = f"{target} ({dialect.agent})"
        if name in dialect.reads:
            read.append(shown)
        elif dialect.strict:
            refused.append(shown)
        else:
            dropped.append(shown)
    parts = [
        f"{label}: {', '.join(targets)}"
        for label, targets in (
            ("read by", read),
            ("not read by", dropped),
            ("refused by", refused),
        )
        if targets
    ]
    return "*Per target:* " + "; ".join(parts) + "." if parts else ""


_BOOLEAN = ("true", "false")
_STANDARD = (
    "Every agent that reads Agent Skills (Claude Code, Codex, Cursor, Gemini CLI, Copilot...)"
)
_CLAUDE = "Claude Code acts on it; other agents ignore it."
_SKILLLI = "The skillli registry reads it (top level, or under `metadata`); agents ignore it."
_GIBBERISH = "gibb.eri.sh reads it for its tool-defining skills; other agents ignore it."

FIELDS: tuple[FieldHelp, ...] = (
    # spec/004 layer 1: the Agent Skills standard
    FieldHelp(
        "name",
        "agentskills",
        "string",
        "The skill's name: 1-64 lowercase letters, digits and single hyphens, the same as "
        "its folder's name.",
        f"{_STANDARD} list the skill under it; Claude Code makes it the `/name` command; "
        "Agent Plugins clients skip a skill whose name is not its folder's.",
    ),
    FieldHelp(
        "description",
        "agentskills",
        "string",
        "What the skill does and when to use it (at most 1024 characters; say `Use when ...`).",
        f"{_STANDARD} show it in the skill listing the model reads to decide when to load "
        "the skill: it is the only text the model sees before that.",
    ),
    FieldHelp(
        "license",
        "agentskills",
        "string",
        "The license of the skill, an SPDX identifier (`MIT`, `Apache-2.0`) or a file name.",
        "Informational: agents do not act on it; registries and people read it.",
        ("MIT", "Apache-2.0", "BSD-3-Clause", "GPL-3.0-only", "Proprietary"),
    ),
    FieldHelp(
        "compatibility",
        "agentskills",
        "string",
        "What the skill needs to run (`Requires git and docker`), at most 500 characters.",
        "Informational: agents may show it; none checks it.",
    ),
    FieldHelp(
        "metadata",
        "agentskills",
        "mapping of strings",
        "Any key-value pairs of your own (`author`, `version`); values are strings.",
        "Agents keep it and do not act on it; skillli reads its registry fields from it.",
    ),
    FieldHelp(
        "allowed-tools",
        "agentskills",
        "string",
        "Tools the skill may use without asking, space-delimited "
        "(`Bash(git:*) Read Grep`). Experimental in the standard.",
        "Claude Code pre-approves these tools while the skill is active; agents without "
        "tool permissions ignore it. A bare `Bash` grants every shell command.",
    ),
    # spec/004 layer 2 and Claude Code's skills reference
    FieldHelp(
        "argument-hint",
        "claude-code",
        "string",
        "The arguments shown while typing `/name` (`[issue-number]`).",
        _CLAUDE,
    ),
    FieldHelp(
        "disable-model-invocation",
        "claude-code",
        "boolean",
        "`true`: only the user runs the skill (`/name`); the model never loads it by itself. "
        "Default `false`.",
        f"{_CLAUDE} The skill leaves the listing the model reads (no budget spent).",
        _BOOLEAN,
    ),
    FieldHelp(
        "user-invocable",
        "claude-code",
        "boolean",
        "`false`: hidden from the `/` menu; only the model loads it. Default `true`.",
        _CLAUDE,
        _BOOLEAN,
    ),
    FieldHelp(
        "mode",
        "claude-code",
        "boolean",
        "`true`: listed among the mode commands. Default `false`.",
        _CLAUDE,
        _BOOLEAN,
    ),
    FieldHelp(
        "context",
        "claude-code",
        "string",
        "`fork` runs the skill in an isolated subagent.",
        _CLAUDE,
        ("fork",),
    ),
    FieldHelp(
        "agent",
        "claude-code",
        "string",
        "The subagent type with `context: fork` (default `general-purpose`), or a custom "
        "agent's name.",
        _CLAUDE,
        ("general-purpose", "Explore", "Plan", "Bash"),
    ),
    FieldHelp(
        "model",
        "claude-code",
        "string",
        "The model while the skill runs: an alias or a full model id (default: inherited).",
        _CLAUDE,
        claude_code.MODEL_ALIASES,
    ),
    FieldHelp(
        "hooks",
        "claude-code",
        "mapping",
        "Lifecycle hooks scoped to the skill: event name to a list of matchers and handlers.",
        f"{_CLAUDE} Its command handlers run shell commands on the user's machine.",
    ),
    FieldHelp(
        "when_to_use",
        "claude-code",
        "string",
        "When to use the skill, listed after the description.",
        _CLAUDE,
    ),
    FieldHelp(
        "arguments",
        "claude-code",
        "string or list",
        "Names of the skill's arguments (`$name` in the text).",
        _CLAUDE,
    ),
    FieldHelp(
        "effort",
        "claude-code",
        "string",
        "The reasoning effort while the skill runs.",
        _CLAUDE,
        claude_code.EFFORT_LEVELS,
    ),
    FieldHelp(
        "paths",
        "claude-code",
        "string or list",
        "Glob patterns: the skill is offered only when working on matching files.",
        _CLAUDE,
    ),
    FieldHelp(
        "shell",
        "claude-code",
        "string",
        "The shell of the skill's `!` commands.",
        _CLAUDE,
        claude_code.SHELLS,
    ),
    # spec/004 layers 3 and 4: skillli
    FieldHelp("version", "skillli", "string (semver)", "The package version.", _SKILLLI),
    FieldHelp("author", "skillli", "string", "GitHub user or organization.", _SKILLLI),
    FieldHelp("tags", "skillli", "list or CSV string", "1-20 tags for discovery.", _SKILLLI),
    FieldHelp(
        "category", "skillli", "enum", "The registry category.", _SKILLLI, skillli.CATEGORIES
    ),
    FieldHelp(
        "trust-level",
        "skillli",
        "enum",
        "How far the registry vouches for the skill (`community` by default).",
        _SKILLLI,
        skillli.TRUST_LEVELS,
    ),
    FieldHelp("repository", "skillli", "URL", "The source repository.", _SKILLLI),
    FieldHelp("homepage", "skillli", "URL", "Homepage or documentation.", _SKILLLI),
    FieldHelp(
        "min-skillli-version", "skillli", "string", "The oldest skillli that reads it.", _SKILLLI
    ),
    FieldHelp("checksum", "skillli", "string", "SHA-256 set by `skillli publish`.", _SKILLLI),
    FieldHelp(
        "quiz",
        "skillli",
        "list or mapping",
        "Quiz blocks with questions; a `gate: true` quiz must be passed before going on.",
        "skillli's agent integration asks the questions and follows their branches.",
    ),
    # spec/003 §2.2: gibb.eri.sh
    FieldHelp("version", "gibberish", "string (semver)", "The skill's version.", _GIBBERISH),
    FieldHelp("author", "gibberish", "string", "The author's name or handle.", _GIBBERISH),
    FieldHelp(
        "modes",
        "gibberish",
        "list",
        "Context modes the tools are offered in (default `[Global]`).",
        _GIBBERISH,
        ("[Global]", "[Dev]", "[Meeting]", "[Dev, Global]"),
    ),
    FieldHelp(
        "read_only",
        "gibberish",
        "boolean",
        "`true`: the tools may run without approval.",
        _GIBBERISH,
        _BOOLEAN,
    ),
    FieldHelp(
        "always_ask",
        "gibberish",
        "boolean",
        "`true`: always ask before running, even when read-only.",
        _GIBBERISH,
        _BOOLEAN,
    ),
    FieldHelp(
        "timeout", "gibberish", "integer", "Seconds a tool may run (1-300, default 30).", _GIBBERISH
    ),
    FieldHelp(
        "network",
        "gibberish",
        "boolean",
        "Declares that the tools need the internet (informational).",
        _GIBBERISH,
        _BOOLEAN,
    ),
)


def field_help(name: str, profiles: Iterable[str]) -> FieldHelp | None:
    """What field ``name`` means for a skill linted with ``profiles`` (the standard's
    fields always; a dialect's only when its profile is chosen; the first profile in
    ``profiles`` order wins when two define it); None for a field none of them knows."""
    chosen = ["agentskills", *profiles]
    found = [entry for entry in FIELDS if entry.name == name and entry.profile in chosen]
    found.sort(key=lambda entry: chosen.index(entry.profile))
    return found[0] if found else None


def field_values(name: str, profiles: Iterable[str], *, folder: str = "") -> tuple[str, ...]:
    """The values completion offers for field ``name``: ``folder`` (the skill folder's
    name) for ``name``, else the field's enumeration (:func:`field_help`)."""
    if name == "name":
        return (folder,) if folder else ()
    found = field_help(name, profiles)
    return found.values if found is not None else ()
