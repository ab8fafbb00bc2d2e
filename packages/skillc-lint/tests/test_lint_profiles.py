"""The dialect profiles (agentskills, claude-code, skillli): each rule triggers, and its near
miss stays silent. Skills are real folders linted through the public API."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from skillc_lint import PROFILES, LintDiagnostic, UnknownProfile, default_registry, lint_skill

Writer = Callable[..., Path]
Found = Callable[..., list[LintDiagnostic]]

BASE = "name: my-skill\ndescription: Formats tables. Use when a table needs formatting.\n"


def lint(folder: Path, rule: str, *profiles: str) -> list[str]:
    """Messages of ``rule`` linting ``folder`` with ``profiles`` (default: agentskills)."""
    registry = default_registry(profiles=profiles or None)
    return [d.message for d in lint_skill(folder, registry=registry).diagnostics if d.rule == rule]


def front(skill: Writer, extra: str, **kwargs: object) -> Path:
    return skill(frontmatter=BASE + extra, **kwargs)


# -- profiles as data ----------------------------------------------------------------------------


def test_profiles_are_data_and_extend_the_standard() -> None:
    assert list(PROFILES) == ["agentskills", "claude-code", "skillli", "gibberish"]
    for name, profile in PROFILES.items():
        assert profile.extends == (None if name == "agentskills" else "agentskills")
        assert {rule.category for rule in profile.rules} == {name}
    ids = [rule.id for rule in default_registry(profiles=("claude-code",))]
    assert "SKL501" in ids and "SKL601" in ids and "SKL701" not in ids


def test_every_dialect_rule_is_in_its_own_range() -> None:
    # agentskills also holds the security (SKL90x), budget (SKL92x) and target (SKL93x) rules,
    # which apply to every skill whatever its dialect, and SKL402 (Git LFS pointers: the
    # lead's ruling put it in RFC-0008's family of file rules)
    ranges = {
        "agentskills": ("SKL402", "SKL5", "SKL90", "SKL92", "SKL93"),
        "claude-code": ("SKL6",),
        "skillli": ("SKL7",),
        "gibberish": ("SKL8",),
    }
    for name, profile in PROFILES.items():
        assert all(rule.id.startswith(ranges[name]) for rule in profile.rules)


def test_a_profile_applied_twice_is_harmless() -> None:
    registry = default_registry(profiles=("claude-code", "claude-code", "agentskills"))
    assert len([r for r in registry if r.id == "SKL601"]) == 1
    known = registry.options("SKL109")["known-fields"]
    assert len(known) == len(set(known))


def test_unknown_profile_is_unknown_profile_and_a_key_error() -> None:
    """The README's E100 from the registry API itself (a bare KeyError before)."""
    with pytest.raises(UnknownProfile) as caught:
        default_registry(profiles=("cursor",))
    assert isinstance(caught.value, KeyError)
    assert caught.value.name == "cursor"
    assert caught.value.diagnostic.code == "E100"


def test_one_profile_given_as_a_string_is_that_profile() -> None:
    """``profiles="claude-code"`` was the profiles ``c``, ``l``... (KeyError: 'c')."""
    as_text = default_registry(profiles="claude-code")
    assert [r.id for r in as_text] == [r.id for r in default_registry(profiles=("claude-code",))]


def test_known_fields_grow_with_the_profile(skill: Writer) -> None:
    folder = front(skill, "argument-hint: '[file]'\nversion: 1.0.0\n")
    assert lint(folder, "SKL109") == [
        "unknown frontmatter field 'argument-hint' (read by Claude Code, GitHub Copilot: "
        "--profile claude-code, --target claude, --target copilot)",
        "unknown frontmatter field 'version'",
    ]
    assert lint(folder, "SKL109", "claude-code") == ["unknown frontmatter field 'version'"]
    assert lint(folder, "SKL109", "claude-code", "skillli") == []


def test_rfc_only_registry_has_no_dialect_rule(skill: Writer) -> None:
    folder = front(skill, "compatibility: [a, b]\n")
    result = lint_skill(folder, registry=default_registry(profiles=()))
    assert not [d for d in result.diagnostics if d.rule.startswith("SKL5")]


# -- SKL501-504 agentskills --------------------------------------------------------------------


def test_skl501_compatibility(skill: Writer) -> None:
    assert lint(front(skill, "compatibility: [git, docker]\n"), "SKL501") == [
        "compatibility must be a string, not a list"
    ]
    assert lint(front(skill, "compatibility: ''\n"), "SKL501") == [
        "compatibility is empty (1-500 characters)"
    ]
    assert lint(front(skill, f"compatibility: {'x' * 501}\n"), "SKL501") == [
        "compatibility is 501 characters long (1-500 allowed)"
    ]


def test_skl501_counts_the_line_break_a_block_keeps(skill: Writer) -> None:
    """500 characters as a ``|`` block are 501 with its final line break, which the
    specification's validators (skills-ref, FastMCP's client) and the MCP server count: SKL501
    counted without it and said nothing. It says so now, with the way out; ``|-`` is clean."""
    text = "Requires git. " * 35 + "x" * 10
    assert len(text) == 500
    assert lint(front(skill, f"compatibility: |\n  {text}\n"), "SKL501") == [
        "compatibility is 501 characters long (1-500 allowed); the white space around it "
        "counts (`|-` drops a block's final line break)"
    ]
    assert lint(front(skill, f"compatibility: |-\n  {text}\n"), "SKL501") == []


def test_skl501_near_miss(skill: Writer) -> None:
    assert lint(front(skill, f"compatibility: {'x' * 500}\n"), "SKL501") == []
    # skillli (spec/004 layer 1) accepts a list of requirements
    assert lint(front(skill, "compatibility: [git, docker]\n"), "SKL501", "skillli") == []


def test_skl504_license(skill: Writer) -> None:
    """A license of another type than text linted clean, though ``skc package`` drops it (a
    conformant client skips the skill): an error as SKL501 is for a compatibility so."""
    for value, kind in (("[MIT]", "a list"), ("42", "a number"), ("{a: b}", "a mapping")):
        assert lint(front(skill, f"license: {value}\n"), "SKL504") == [
            f"license must be a string, not {kind}"
        ]
    for text in ("MIT", "'2024'", "2024-01-01", "Proprietary. LICENSE.txt has complete terms"):
        assert lint(front(skill, f"license: {text}\n"), "SKL504") == [], text


def test_skl502_metadata(skill: Writer) -> None:
    folder = front(skill, "metadata:\n  version: 1.0\n  tags: [a]\n")
    assert lint(folder, "SKL502") == [
        "metadata value 'version' must be a string, not a number (quote it: \"1.0\")",
        "metadata value 'tags' must be a string, not a list",
    ]
    assert lint(front(skill, "metadata: [a]\n"), "SKL502") == [
        "metadata must be a mapping of strings, not a list"
    ]


def test_skl502_quotes_the_number_as_written(skill: Writer) -> None:
    """The hint quoted the number's reading (``1.10``: "1.1"), not what the author wrote."""
    written = ("1.10", "1e3", "0x10", "007")
    folder = front(skill, "metadata:\n" + "".join(f"  k{n}: {w}\n" for n, w in enumerate(written)))
    assert lint(folder, "SKL502") == [
        f"metadata value 'k{n}' must be a string, not a number (quote it: \"{w}\")"
        for n, w in enumerate(written)
    ]
    assert lint(front(skill, "metadata: {version: 1.10, build: 1_000}\n"), "SKL502") == [
        "metadata value 'version' must be a string, not a number (quote it: \"1.10\")"
    ]  # 1_000 is text to YAML 1.2


def test_skl502_and_skl701_point_at_the_nested_key(skill: Writer) -> None:
    """A finding about ``metadata.<key>`` was reported on the ``metadata:`` line, whatever
    key it was about; a key a merge brings in has no line of its own: the parent's."""
    folder = front(skill, "metadata:\n  author: me\n  tags:\n    - a\n  version: 1.10\n")
    registry = default_registry(profiles=("skillli",))
    found = lint_skill(folder, registry=registry).diagnostics
    lines = sorted((d.rule, d.line) for d in found if d.rule in ("SKL502", "SKL701"))
    assert lines == [("SKL502", 6), ("SKL502", 8), ("SKL701", 8)]
    merged = front(skill, "base: &b {build: 7}\nmetadata:\n  <<: *b\n  n: 2\n", name="merged")
    found = lint_skill(merged, registry=registry).diagnostics
    assert sorted(d.line for d in found if d.rule == "SKL502") == [5, 7]  # near miss
    keyed = front(skill, "metadata:\n  author: me\n  1: one\n", name="keyed")
    found = lint_skill(keyed, registry=registry).diagnostics  # a key not a string: its line
    assert [(d.line, d.message) for d in found if d.rule == "SKL502"] == [
        (6, "metadata key 1 must be a string")
    ]


def test_skl502_names_every_key_not_a_string_as_written(skill: Writer) -> None:
    """``1``, ``true`` and ``null`` keys: SKL502 named None and 1 but not true (Python's
    ``True == 1`` made them one key, on the metadata line for None): each is named as
    written, on its own line; a quoted one is a string."""
    folder = front(skill, "metadata:\n  1: one\n  true: yes-key\n  null: nothing\n  '2': ok\n")
    registry = default_registry(profiles=("skillli",))
    found = lint_skill(folder, registry=registry).diagnostics
    assert [(d.line, d.message) for d in found if d.rule == "SKL502"] == [
        (5, "metadata key 1 must be a string"),
        (6, "metadata key true must be a string"),
        (7, "metadata key null must be a string"),
    ]
    flow = front(skill, "metadata: {1: one, true: yes-key, 1.5: x, ~: y}\n", name="flow")
    assert lint(flow, "SKL502") == [
        f"metadata key {key} must be a string" for key in ("1", "true", "1.5", "~")
    ]


def test_skl502_near_miss(skill: Writer) -> None:
    assert lint(front(skill, 'metadata:\n  version: "1.0"\n  author: me\n'), "SKL502") == []


def test_skl502_an_unquoted_date_is_a_string(skill: Writer) -> None:
    """YAML 1.2 (and the other tools) read ``2026-03-05`` as text; a number, a map or a
    list beside it stays an error (near miss)."""
    dates = "metadata:\n  updated: 2026-03-05\n  at: 2026-03-05 10:30:00\n"
    assert lint(front(skill, dates), "SKL502") == []
    mixed = "metadata: {updated: 2026-03-05, build: 7, owner: {a: b}}\n"
    assert lint(front(skill, mixed), "SKL502") == [
        "metadata value 'build' must be a string, not a number (quote it: \"7\")",
        "metadata value 'owner' must be a string, not a mapping",
    ]


def test_skl503_allowed_tools(skill: Writer) -> None:
    assert lint(front(skill, "allowed-tools: [Read, Grep]\n"), "SKL503") == [
        "allowed-tools must be a space-separated string, not a list"
    ]
    assert lint(front(skill, "allowed-tools: Read, Grep\n"), "SKL503") == [
        "allowed-tools is space-separated, not comma-separated: 'Read, Grep'"
    ]
    assert lint(front(skill, "allowed-tools: Read Bash(git:*\n"), "SKL503") == [
        "allowed-tools has unbalanced parentheses: 'Read Bash(git:*'"
    ]


def test_skl503_near_miss(skill: Writer) -> None:
    text = "allowed-tools: Read Bash(git add:*) Bash(gh pr:*) Grep\n"
    assert lint(front(skill, text), "SKL503") == []
    # Claude Code reads a YAML list and commas
    assert lint(front(skill, "allowed-tools: [Read, Grep]\n"), "SKL503", "claude-code") == []
    assert lint(front(skill, "allowed-tools: Read, Grep\n"), "SKL503", "claude-code") == []


# -- SKL601-605 claude-code --------------------------------------------------------------------


def test_skl601_field_types(skill: Writer) -> None:
    folder = front(skill, "argument-hint: [issue-number]\nuser-invocable: 'no'\nhooks: [x]\n")
    assert lint(folder, "SKL601", "claude-code") == [
        "argument-hint must be a string, not a list (quote it: YAML reads [x] as a list)",
        "user-invocable must be true or false, not a string",
        "hooks must be a mapping of events, not a list",
    ]


def test_skl601_near_miss(skill: Writer) -> None:
    text = "argument-hint: '[issue-number]'\nuser-invocable: false\nmode: true\n"
    assert lint(front(skill, text), "SKL601", "claude-code") == []
    # without the profile the fields are only unknown (SKL109), never type-checked
    assert lint(front(skill, "user-invocable: 'no'\n"), "SKL601") == []


def test_skl602_context(skill: Writer) -> None:
    assert lint(front(skill, "context: inline\n"), "SKL602", "claude-code") == [
        "context must be 'fork', not 'inline'"
    ]
    assert lint(front(skill, "context: fork\n"), "SKL602", "claude-code") == []


def test_skl603_agent_without_fork(skill: Writer) -> None:
    [d] = [
        d
        for d in lint_skill(
            front(skill, "agent: Explore\n"), registry=default_registry(profiles=("claude-code",))
        ).diagnostics
        if d.rule == "SKL603"
    ]
    assert (d.severity, d.message, d.line) == (
        "warning",
        "agent 'Explore' has no effect without 'context: fork'",
        4,
    )
    assert lint(front(skill, "context: fork\nagent: Explore\n"), "SKL603", "claude-code") == []


@pytest.mark.parametrize(
    "model", ["sonnet", "haiku", "inherit", "opus[1m]", "claude-sonnet-4-5-20250929"]
)
def test_skl604_near_miss_models(skill: Writer, model: str) -> None:
    assert lint(front(skill, f"model: {model}\n"), "SKL604", "claude-code") == []


def test_skl604_unknown_model(skill: Writer) -> None:
    [message] = lint(front(skill, "model: gpt-4o\n"), "SKL604", "claude-code")
    assert message.startswith("unknown model 'gpt-4o' (an alias: sonnet, opus, haiku")


SPEC_HOOKS = """hooks:
  PreToolUse:
    - matcher: "Bash"
      hooks:
        - type: command
          command: "./scripts/validate.sh"
          timeout: 30
  PostToolUse:
    - matcher: "Edit|Write"
      hooks:
        - type: command
          command: "./scripts/lint.sh"
          async: true
  Stop:
    - hooks:
        - type: prompt
          prompt: "Check if all tasks are complete: $ARGUMENTS"
          model: haiku
"""


def test_skl605_near_miss_the_spec_example(skill: Writer) -> None:
    assert lint(front(skill, SPEC_HOOKS), "SKL605", "claude-code") == []


def test_skl605_hooks_structure(skill: Writer) -> None:
    text = """hooks:
  BeforeToolUse: []
  PreToolUse:
    - matcher: Bash
  PostToolUse:
    - hooks:
        - type: shell
        - type: command
          timeout: -1
  Stop: nope
"""
    assert lint(front(skill, text), "SKL605", "claude-code") == [
        "unknown hook event 'BeforeToolUse'",
        "hooks.PreToolUse[0].hooks must be a non-empty list of handlers",
        "hooks.PostToolUse[0].hooks[0].type must be one of command, prompt, agent, not 'shell'",
        "hooks.PostToolUse[0].hooks[1] (command) needs a 'command' string",
        "hooks.PostToolUse[0].hooks[1].timeout must be positive",
        "hooks.Stop must be a list of matchers, not a string",
    ]


# -- SKL701-705 skillli registry fields -----------------------------------------------------------


def test_skl701_version(skill: Writer) -> None:
    folder = front(skill, "version: 1.2\nmin-skillli-version: v1\n")
    assert lint(folder, "SKL701", "skillli") == [
        'version must be a semver string like "1.2.0", not a number',
        "min-skillli-version 'v1' is not a semantic version (1.2.0)",
    ]
    folder = front(skill, "metadata:\n  version: '1.0'\n")
    assert lint(folder, "SKL701", "skillli") == [
        "metadata.version '1.0' is not a semantic version (1.2.0)"
    ]


def test_skl701_near_miss_top_level_wins(skill: Writer) -> None:
    folder = front(skill, "version: 1.2.0-beta.1+build.5\nmetadata:\n  version: 'bad'\n")
    assert lint(folder, "SKL701", "skillli") == []


#: SKL702's cases: a frontmatter, the message. An item is named by its position, never by
#: YAML's value (802.10 reads 802.1, 1e3 1000.0, ~ None).
_SKL702 = [
    ("tags: [" + ", ".join(f"t{i}" for i in range(21)) + "]\n", "tags has 21 tags (1-20 allowed)"),
    ("tags: 5\n", "tags must be a list of strings or a comma-separated string, not a number"),
    ("tags:\n- wifi\n- 802.11\n", "tags must be a list of strings: item 2 is a number: quote it"),
    ("tags: [wifi, 802.10]\n", "tags must be a list of strings: item 2 is a number: quote it"),
    ("tags: [1e3]\n", "tags must be a list of strings: item 1 is a number: quote it"),
    ("tags: [a, ~, b]\n", "tags must be a list of strings: item 2 is empty"),
    (
        "metadata:\n  tags: [a, true, {b: c}]\n",
        "metadata.tags must be a list of strings: item 2 is a boolean: quote it",
    ),
    ("tags: [a, {b: c}]\n", "tags must be a list of strings: item 2 is a mapping"),
    ("metadata:\n  tags: 'a,,b'\n", "metadata.tags has an empty tag"),
]


@pytest.mark.parametrize(("frontmatter", "message"), _SKL702)
def test_skl702_tags(skill: Writer, frontmatter: str, message: str) -> None:
    assert lint(front(skill, frontmatter), "SKL702", "skillli") == [message]


def test_skl702_near_miss(skill: Writer) -> None:
    assert lint(front(skill, "tags: [a, b]\n"), "SKL702", "skillli") == []
    assert (
        lint(front(skill, "metadata:\n  tags: 'typescript, testing'\n"), "SKL702", "skillli") == []
    )


def test_skl703_skl704_enums(skill: Writer) -> None:
    folder = front(skill, "category: testing\ntrust-level: gold\n")
    assert lint(folder, "SKL703", "skillli") == [
        "category must be one of development, creative, enterprise, data, devops, other, "
        "not 'testing'"
    ]
    assert lint(folder, "SKL704", "skillli") == [
        "trust-level must be one of community, verified, official, not 'gold'"
    ]
    folder = front(skill, "category: devops\nmetadata:\n  trust-level: verified\n")
    assert lint(folder, "SKL703", "skillli") == lint(folder, "SKL704", "skillli") == []


def test_skl705_urls(skill: Writer) -> None:
    folder = front(skill, "repository: github.com/me/x\nhomepage: ftp://example.com\n")
    assert lint(folder, "SKL705", "skillli") == [
        "repository must be an http(s) URL, not 'github.com/me/x'",
        "homepage must be an http(s) URL, not 'ftp://example.com'",
    ]
    folder = front(skill, "repository: https://github.com/me/x\n")
    assert lint(folder, "SKL705", "skillli") == []


def test_the_help_names_every_rule_of_each_profile() -> None:
    """``skillc-lint --help``'s profile paragraph left SKL402 out of ``agentskills`` (the
    README's table and ``--explain`` had it): each profile's rules are named there, one by
    one or in a range (``SKL501-504``)."""
    import re

    from skillc_lint.cli import lint_command

    text = " ".join((lint_command.help or "").split())
    paragraph = text[text.index("Profiles add the rules") : text.index("Selectors name tags")]
    named: set[int] = set()
    for first, last in re.findall(r"SKL(\d{3})(?:-(?:SKL)?(\d{3}))?", paragraph):
        named.update(range(int(first), int(last or first) + 1))
    for profile in PROFILES.values():
        missing = [rule.id for rule in profile.rules if int(rule.id[3:]) not in named]
        assert missing == [], profile.name
