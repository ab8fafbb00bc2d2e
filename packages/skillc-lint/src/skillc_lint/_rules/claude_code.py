"""The ``claude-code`` profile: Claude Code's frontmatter extensions (spec/004 layer 2 and
Claude Code's current skills reference: ``when_to_use``, ``arguments``, ``effort``, ``paths``,
``shell``), SKL601-SKL606 (its plugin manifests: :mod:`.plugins`). Other agents ignore
these fields; Claude Code acts on them, so a wrong type
or value changes what the skill does."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from skillc_index.dialect import CLAUDE_CODE_FIELDS
from skillc_lint._registry import Finding, Rule
from skillc_lint._rules.fields import Findings, Options, field_line, frontmatter, type_name
from skillc_lint._skill import Skill

__all__ = ["FIELDS", "RULES"]

BOOLEAN_FIELDS = ("disable-model-invocation", "user-invocable", "mode", "background")
STRING_FIELDS = ("argument-hint", "context", "agent", "model", "when_to_use")
#: The fields SKL109 learns with this profile: what Claude Code reads beyond the standard
#: (skillc-index's record of it, which ``--target claude`` reads too) and spec/004 layer 2's
#: ``mode``.
FIELDS = tuple(sorted(CLAUDE_CODE_FIELDS | {"mode"}))

#: Documented values of ``effort`` and ``shell``.
EFFORT_LEVELS = ("low", "medium", "high", "xhigh", "max")
SHELLS = ("bash", "powershell")
MODEL_ALIASES = ("sonnet", "opus", "haiku", "inherit", "default", "opusplan")
HOOK_EVENTS = (
    "PreToolUse",
    "PostToolUse",
    "PostToolUseFailure",
    "PermissionRequest",
    "UserPromptSubmit",
    "Notification",
    "Stop",
    "SubagentStart",
    "SubagentStop",
    "PreCompact",
    "SessionStart",
    "SessionEnd",
)
HANDLER_TYPES = ("command", "prompt", "agent")
#: The field each handler type needs (spec/004 "Hooks Block").
HANDLER_FIELD = {"command": "command", "prompt": "prompt", "agent": "prompt"}


def field_types(skill: Skill, options: Options) -> Findings:
    """SKL601: booleans are YAML booleans, text fields are strings, ``hooks`` a mapping."""
    data = frontmatter(skill)
    for key in FIELDS:
        if key not in data:
            continue
        value, line = data[key], field_line(skill, key)
        if key in BOOLEAN_FIELDS and not isinstance(value, bool):
            yield Finding(f"{key} must be true or false, not {type_name(value)}", line=line)
        elif key in STRING_FIELDS and not isinstance(value, str):
            hint = ""
            if isinstance(value, list) and key == "argument-hint":
                hint = " (quote it: YAML reads [x] as a list)"
            yield Finding(f"{key} must be a string, not {type_name(value)}{hint}", line=line)
        elif key == "hooks" and not isinstance(value, dict):
            yield Finding(f"hooks must be a mapping of events, not {type_name(value)}", line=line)


def context_value(skill: Skill, options: Options) -> Findings:
    """SKL602: ``context`` is ``fork``, the only value Claude Code knows."""
    value = frontmatter(skill).get("context")
    if isinstance(value, str) and value != "fork":
        yield Finding(f"context must be 'fork', not '{value}'", line=field_line(skill, "context"))


def agent_needs_fork(skill: Skill, options: Options) -> Findings:
    """SKL603: ``agent`` is only used with ``context: fork``."""
    data = frontmatter(skill)
    if isinstance(data.get("agent"), str) and data.get("context") != "fork":
        yield Finding(
            f"agent '{data['agent']}' has no effect without 'context: fork'",
            line=field_line(skill, "agent"),
        )


def model_value(skill: Skill, options: Options) -> Findings:
    """SKL604: ``model`` is an alias (``sonnet``, ``opus``, ``haiku``...) or a Claude model
    id (``claude-...``, also behind a provider prefix or an ``@version``)."""
    value = frontmatter(skill).get("model")
    if not isinstance(value, str):
        return
    aliases = list(options["aliases"])
    base = value.strip().removesuffix("[1m]")
    if base in aliases or ("claude" in base and not any(c.isspace() for c in base)):
        return
    yield Finding(
        f"unknown model '{value}' (an alias: {', '.join(aliases)}; or a Claude model id)",
        line=field_line(skill, "model"),
    )


def _handler_problems(where: str, handler: Any, types: list[str]) -> list[str]:
    if not isinstance(handler, dict):
        return [f"{where} must be a mapping, not {type_name(handler)}"]
    kind = handler.get("type")
    if kind not in types:
        scalar = kind is None or isinstance(kind, (str, int, float))
        shown = repr(kind) if scalar else type_name(kind)  # never the repr of a collection
        return [f"{where}.type must be one of {', '.join(types)}, not {shown}"]
    problems = []
    needed = HANDLER_FIELD.get(str(kind))
    if needed and not (isinstance(handler.get(needed), str) and handler[needed].strip()):
        problems.append(f"{where} ({kind}) needs a '{needed}' string")
    timeout = handler.get("timeout")
    if timeout is not None and (isinstance(timeout, bool) or not isinstance(timeout, int)):
        problems.append(f"{where}.timeout must be a number of seconds")
    elif isinstance(timeout, int) and timeout <= 0:
        problems.append(f"{where}.timeout must be positive")
    if "async" in handler and not isinstance(handler["async"], bool):
        problems.append(f"{where}.async must be true or false")
    return problems


def _hook_problems(hooks: Mapping[Any, Any], events: list[str], types: list[str]) -> list[str]:
    problems: list[str] = []
    for event, groups in hooks.items():
        if event not in events:
            problems.append(f"unknown hook event '{event}'")
            continue
        if not isinstance(groups, list):
            problems.append(f"hooks.{event} must be a list of matchers, not {type_name(groups)}")
            continue
        for index, group in enumerate(groups):
            where = f"hooks.{event}[{index}]"
            if not isinstance(group, dict):
                problems.append(f"{where} must be a mapping with 'hooks'")
                continue
            if "matcher" in group and not isinstance(group["matcher"], str):
                problems.append(f"{where}.matcher must be a string")
            handlers = group.get("hooks")
            if not isinstance(handlers, list) or not handlers:
                problems.append(f"{where}.hooks must be a non-empty list of handlers")
                continue
            for number, handler in enumerate(handlers):
                problems += _handler_problems(f"{where}.hooks[{number}]", handler, types)
    return problems


def hooks_structure(skill: Skill, options: Options) -> Findings:
    """SKL605: ``hooks`` maps known events to matcher groups, each holding handlers with a
    known ``type`` and what that type needs (``command``, ``prompt``)."""
    hooks = frontmatter(skill).get("hooks")
    if not isinstance(hooks, dict):
        return
    line = field_line(skill, "hooks")
    for problem in _hook_problems(hooks, list(options["events"]), list(options["types"])):
        yield Finding(problem, line=line)


def _names(value: object) -> list[str] | None:
    """A string (space- or comma-separated) or a list of strings as its items; None for any
    other value."""
    if isinstance(value, str):
        return value.replace(",", " ").split()
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return [item.strip() for item in value]
    return None


def field_values(skill: Skill, options: Options) -> Findings:
    """SKL606: ``effort`` is a documented level, ``shell`` is ``bash`` or ``powershell``,
    ``paths``, ``arguments`` and ``disallowed-tools`` are a string or a list of strings, not
    empty (glob patterns; argument names usable as ``$name``; tool names)."""
    data = frontmatter(skill)
    for key, allowed in (("effort", EFFORT_LEVELS), ("shell", SHELLS)):
        value = data.get(key)
        if key in data and value not in allowed:
            shown = f"'{value}'" if isinstance(value, str) else type_name(value)
            yield Finding(
                f"{key} must be one of {', '.join(allowed)}, not {shown}",
                line=field_line(skill, key),
            )
    for key in ("paths", "arguments", "disallowed-tools"):
        if key not in data:
            continue
        items = _names(data[key])
        line = field_line(skill, key)
        if items is None:
            yield Finding(
                f"{key} must be a string or a list of strings, not {type_name(data[key])}",
                line=line,
            )
        elif not [item for item in items if item]:
            yield Finding(f"{key} is empty", line=line)
        elif key == "arguments":
            for item in items:
                if not _ARGUMENT.fullmatch(item):
                    yield Finding(
                        f"argument name '{item}' cannot be used as ${item} (letters, digits, "
                        "_ and -, not starting with a digit)",
                        line=line,
                    )


_ARGUMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")


RULES: tuple[Rule, ...] = (
    Rule(
        "SKL601",
        "claude-field-types",
        "error",
        field_types,
        "Claude Code fields have their types: booleans, strings, a hooks mapping.",
        category="claude-code",
        rationale=(
            "Claude Code acts on these fields; a wrong type (the string 'false' for a boolean) "
            "silently changes what the skill does."
        ),
        fix=(
            "Use YAML booleans (true/false) for the flags, quoted strings for text fields, a "
            "mapping for hooks."
        ),
    ),
    Rule(
        "SKL602",
        "claude-context",
        "error",
        context_value,
        "context is 'fork'.",
        category="claude-code",
        rationale=(
            "context: fork is the only value Claude Code knows; any other value is ignored and the "
            "skill runs inline."
        ),
        fix="Write 'context: fork', or remove the field.",
    ),
    Rule(
        "SKL603",
        "claude-agent-fork",
        "warning",
        agent_needs_fork,
        "agent is set only with context: fork.",
        category="claude-code",
        rationale=(
            "agent chooses the subagent that runs a forked skill; without context: fork it has no "
            "effect."
        ),
        fix="Add 'context: fork' or remove agent.",
    ),
    Rule(
        "SKL604",
        "claude-model",
        "error",
        model_value,
        "model is a model alias or a Claude model id.",
        options={"aliases": list(MODEL_ALIASES)},
        category="claude-code",
        rationale="An unknown model makes Claude Code fail to run the skill.",
        fix=(
            "Use an alias (sonnet, opus, haiku, inherit) or a full Claude model id; the aliases "
            "option lists the accepted ones."
        ),
    ),
    Rule(
        "SKL605",
        "claude-hooks",
        "error",
        hooks_structure,
        "hooks map known events to matchers and handlers of a known type.",
        options={"events": list(HOOK_EVENTS), "types": list(HANDLER_TYPES)},
        category="claude-code",
        rationale=(
            "Hooks run commands on Claude Code events; an unknown event or handler type never "
            "fires, a handler without its command or prompt fails."
        ),
        fix=(
            "Map a known event (PreToolUse, Stop, ...) to a list of matchers each with hooks of "
            "type command (with command) or prompt/agent (with prompt)."
        ),
    ),
    Rule(
        "SKL606",
        "claude-field-values",
        "error",
        field_values,
        "effort, shell, paths, arguments and disallowed-tools have values Claude Code accepts.",
        category="claude-code",
        rationale="Claude Code ignores or rejects a field it cannot read: an unknown effort "
        "level or shell, or paths, arguments and disallowed-tools of the wrong shape, silently "
        "change how the skill runs.",
        fix="effort: low, medium, high, xhigh or max; shell: bash or powershell; paths: glob "
        "patterns as a list or a comma-separated string; arguments: names as a list or a "
        "space-separated string; disallowed-tools: tool names as a list or a string.",
    ),
)
