"""What Claude Code fills in in a SKILL.md it loads (``markdown.preprocessing.claude_fills``),
which a deployed stub loses: the lines a build's warning names, and the near misses (a ``!``
inside a code span, a sum of money, ``$1`` in a skill that takes no arguments) that are none."""

from __future__ import annotations

from skillc_index.markdown.preprocessing import claude_allows_skc, claude_fills

PR_SUMMARY = [
    "# Summarize a pull request",
    "",
    "## Pull request context",
    "- PR diff: !`gh pr diff`",
    "- Changed files: !`gh pr diff --name-only`",
    "",
    "## Task",
    "Summarize the pull request for issue $ARGUMENTS (session ${CLAUDE_SESSION_ID}).",
]


def test_commands_and_placeholders_are_found_in_order_with_their_lines() -> None:
    fills = claude_fills(PR_SUMMARY, {}, 8)
    assert [(fill.line, fill.form, fill.command) for fill in fills] == [
        (11, "!`gh pr diff`", True),
        (12, "!`gh pr diff --name-only`", True),
        (15, "$ARGUMENTS", False),
    ]


def test_named_arguments_and_positions_count_only_in_a_skill_taking_arguments() -> None:
    lines = ["# fix", "", "Fix $issue, then $0 again."]
    assert [fill.line for fill in claude_fills(lines, {"arguments": ["issue"]}, 9)] == [11]
    assert claude_fills(["Pay $1 a month, or $5."], {}) == []  # no arguments taken
    assert claude_fills(["Costs $1,000 then $2."], {"argument-hint": "[n]"}) == []  # money


def test_a_bang_in_a_code_span_or_a_word_is_no_command() -> None:
    lines = ["Files kept by `.gitignore !`-rules (e.g. `x`) stay.", "wow!`not a command`."]
    assert claude_fills(lines, {}) == []


def test_allowed_tools_covering_the_stubs_skc_commands() -> None:
    assert claude_allows_skc(None) and claude_allows_skc("Bash") and claude_allows_skc("Bash(*)")
    assert claude_allows_skc("Read Bash(skc *)") and claude_allows_skc(["Bash(skc:*)"])
    assert not claude_allows_skc("Bash(gh *)") and not claude_allows_skc("Read Grep")
