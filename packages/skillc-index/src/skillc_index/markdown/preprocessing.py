"""What Claude Code fills in in a skill's SKILL.md when it loads it, before the model reads
it (code.claude.com/docs/en/skills, "Inject dynamic context" and "Available string
substitutions"): the output of a dynamic-context command (``!`gh pr diff``` inline, or a
fenced block opened with ```` ```! ````) and the argument and session placeholders
(``$ARGUMENTS``, ``$ARGUMENTS[N]``, ``$N``, a named ``$argument`` the ``arguments`` field
declares, ``${CLAUDE_SESSION_ID}``, ``${CLAUDE_EFFORT}``). Claude Code fills them in the
SKILL.md it loads, which a build deploys as the stub: :func:`claude_fills` finds them, for
the build's warning (no lint rule: only a stub loses them). Nothing is run.
``${CLAUDE_SKILL_DIR}`` is left out: the stub's ``skc exec`` runs a skill's files from its
folder. And whether the skill's ``allowed-tools`` pre-approve the stub's ``skc`` commands
(:func:`claude_allows_skc`: else Claude Code asks before each). Standard library only."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from skillc_index.record import Record

__all__ = ["MAX_FILLED", "SKC_GRANT", "Filled", "claude_allows_skc", "claude_fills"]

#: The lines :func:`claude_fills` returns at most (a warning names the first).
MAX_FILLED = 50

#: ``!`command``` at the start of a line or after a space (``a!`b``` is no command).
_INLINE = re.compile(r"(?:^|(?<=\s))!`[^`\n]+`")
#: A fenced block Claude Code runs: ```` ```! ```` (or ``~~~!``) on a line of its own.
_BLOCK = re.compile(r"^ {0,3}(?:`{3,}|~{3,})!\s*$")
#: ``$ARGUMENTS`` (and ``$ARGUMENTS[N]``), the session and effort variables.
_PLACEHOLDER = re.compile(r"\$ARGUMENTS\b|\$\{CLAUDE_SESSION_ID\}|\$\{CLAUDE_EFFORT\}")
#: ``$0``-``$9`` as SKL607 reads them: not ``\$1``, ``$$1``, part of a word or a sum of money.
_POSITIONAL = re.compile(r"(?<![\w$\\])\$\d(?![\w.,/%]|-\d|\s?[KkMmBb]\b)")
_MONEY = re.compile(r"\$\d{1,3}(?:,\d{3})+|\$\d+\.\d\d\b")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")


class Filled(Record):
    """A line of SKILL.md holding what Claude Code fills in when it loads the skill."""

    line: int
    """Its number in SKILL.md, from 1 (the frontmatter's lines counted)."""
    form: str
    """What it holds, as written first on the line (``!`gh pr diff```, ``$ARGUMENTS``)."""
    command: bool
    """A dynamic-context command (its output is filled in), not a placeholder."""


def _named(frontmatter: Mapping[str, Any]) -> re.Pattern[str] | None:
    """``$name`` for each argument ``arguments`` declares (a list of names, or a
    space-separated string of them), else None."""
    declared = frontmatter.get("arguments")
    if isinstance(declared, str):
        declared = declared.split()
    if not isinstance(declared, list):
        return None
    names = sorted(
        {n for n in declared if isinstance(n, str) and _NAME.fullmatch(n)}, key=len, reverse=True
    )
    if not names:
        return None
    return re.compile(r"\$(?:" + "|".join(map(re.escape, names)) + r")(?![\w-])")


def _command(line: str) -> re.Match[str] | None:
    """The first ``!`cmd``` of ``line`` outside a code span (an even number of backticks
    before it: ```.gitignore !`-rules``` is a span holding ``!``), or a ```` ```! ```` line."""
    block = _BLOCK.match(line)
    if block is not None:
        return block
    ticks, counted = 0, 0  # the backticks before the match, counted once each (one pass)
    for match in _INLINE.finditer(line):
        ticks, counted = ticks + line.count("`", counted, match.start()), match.start()
        if ticks % 2 == 0:
            return match
    return None


def claude_fills(
    lines: Sequence[str], frontmatter: Mapping[str, Any], first_line: int = 1
) -> list[Filled]:
    """The ``lines`` of SKILL.md's body (after its frontmatter; the first is number
    ``first_line`` of the file, as :func:`~skillc_index.text.split_lines` and the parse
    number them) holding what Claude Code fills in when it loads the skill: dynamic-context
    commands, argument and session placeholders (``$N`` only in a skill that takes
    arguments: ``arguments``, ``argument-hint`` or ``$ARGUMENTS``; a line with a sum of
    money holds none). At most :data:`MAX_FILLED`, in order."""
    takes = "arguments" in frontmatter or "argument-hint" in frontmatter
    takes = takes or any("$ARGUMENTS" in line for line in lines)
    named = _named(frontmatter)
    found: list[Filled] = []
    for number, line in enumerate(lines, first_line):
        if "!" not in line and "$" not in line:
            continue
        match = _command(line)
        command = match is not None
        if match is None:
            match = _PLACEHOLDER.search(line) or (named.search(line) if named else None)
        if match is None and takes and not _MONEY.search(line):
            match = _POSITIONAL.search(line)
        if match is not None:
            found.append(Filled(number, match.group(0).strip(), command))
            if len(found) == MAX_FILLED:
                break
    return found


#: The ``allowed-tools`` entry that pre-approves every ``skc`` command in Claude Code.
SKC_GRANT = "Bash(skc *)"
#: A tool of ``allowed-tools``: a name with its specifier (``Bash(git add:*)``).
_TOOL = re.compile(r"[A-Za-z_][\w.-]*(?:\([^)]*\))?")
#: What ``Bash(...)`` holds when it allows every ``skc`` command (Claude Code's prefix
#: forms, the older ``:*`` one included), or any command.
_ANY_SKC = re.compile(r"\s*(?:\*|skc\s*(?::\s*)?\*)\s*")


def claude_allows_skc(allowed_tools: object) -> bool:
    """Whether a skill's ``allowed-tools`` (a string, or a list of strings; absent or empty:
    nothing is restricted, so True) pre-approve every ``skc`` command in Claude Code:
    ``Bash``, ``Bash(*)``, ``Bash(skc *)`` or ``Bash(skc:*)``. A skill that pre-approves
    only other commands (``Bash(gh *)``) makes Claude Code ask before each ``skc`` call
    of the stub."""
    if isinstance(allowed_tools, str):
        tools = _TOOL.findall(allowed_tools)
    elif isinstance(allowed_tools, list):
        tools = [t for item in allowed_tools if isinstance(item, str) for t in _TOOL.findall(item)]
    else:
        return True
    if not tools:
        return True
    for tool in tools:
        name, _, rest = tool.partition("(")
        if name == "Bash" and (not rest or _ANY_SKC.fullmatch(rest.removesuffix(")"))):
            return True
    return False
