"""The budget rules (SKL921-SKL923, tag ``budget``): SKILL.md tokens, one description against
the listing's cut, and a folder's listing against the agent's budget (a folder rule)."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from skillc_index import CHARS_PER_TOKEN, MAX_ENTRY_DESCRIPTION, estimate_tokens
from skillc_lint import LintDiagnostic, default_registry, lint_folder

Found = Callable[..., list[LintDiagnostic]]
Writer = Callable[..., Path]


def test_the_estimate_is_skillc_index_s() -> None:
    assert CHARS_PER_TOKEN == 4
    assert [estimate_tokens(n) for n in (0, 1, 4, 5, 20_000)] == [0, 1, 1, 2, 5000]


def test_skill_md_over_5000_tokens(skill: Writer, found: Found) -> None:
    words = "word " * 4000  # 20,000 characters of body, about 5,000 tokens with the rest
    hits = found(skill(body=words), "SKL921")
    assert len(hits) == 1 and hits[0].severity == "warning"
    assert hits[0].message.startswith("SKILL.md is about 5,0")
    near = found(skill(name="near", body="word " * 3900), "SKL921")
    assert near == []  # 19,500 characters and the frontmatter: under the limit


def test_skill_md_tokens_are_counted_in_lf_newlines(tmp_path: Path, found: Found) -> None:
    """SKL921 counted each CR of a CRLF checkout (Windows, ``core.autocrlf``): a SKILL.md of
    about 4,900 tokens passed with LF newlines and was "about 5,078 tokens" with CRLF. The
    agent reads the text with its newlines normalised: both count the same."""
    front = "---\nname: big\ndescription: Big. Use when testing.\n---\n\n# big\n\n"
    body = "".join(
        f"Line {i:04d} of guidance text for the agent to follow here.\n" for i in range(349)
    )
    counts = {}
    for newline, name in (("\n", "lf"), ("\r\n", "crlf"), ("\r", "cr")):
        folder = tmp_path / name / "big"
        folder.mkdir(parents=True)
        (folder / "SKILL.md").write_bytes((front + body).replace("\n", newline).encode())
        assert found(folder, "SKL921") == [], name
        # over the limit either way: the same count
        (folder / "SKILL.md").write_bytes((front + body * 2).replace("\n", newline).encode())
        [hit] = found(folder, "SKL921")
        counts[name] = hit.message
    assert counts["crlf"] == counts["lf"] == counts["cr"]
    tokens = estimate_tokens(len(front + body * 2))  # the LF text's characters
    assert counts["lf"].startswith(f"SKILL.md is about {tokens:,} tokens")


def test_skill_tokens_limit_is_an_option(skill: Writer) -> None:
    from skillc_lint import lint_skill

    registry = default_registry()
    registry.set_options("SKL921", **{"max-tokens": 100})
    folder = skill(body="word " * 100)
    rules = [d.rule for d in lint_skill(folder, registry=registry).diagnostics]
    assert rules.count("SKL921") == 1


def test_description_and_when_to_use_past_the_listing_cut(skill: Writer, found: Found) -> None:
    long = "Formats tables. Use when a table needs formatting. " + "x" * 1000
    front = f"name: my-skill\ndescription: {long}\nwhen_to_use: {'y' * 600}\n"
    hits = found(skill(frontmatter=front), "SKL922")
    total = len(long) + 1 + 600
    assert [d.message for d in hits] == [
        f"description (with when_to_use) is {total:,} characters: the skill listing keeps "
        f"{MAX_ENTRY_DESCRIPTION:,}, the last {total - MAX_ENTRY_DESCRIPTION:,} are never seen "
        "by the agent"
    ]
    assert hits[0].line == 3
    front = f"name: near\ndescription: {long}\nwhen_to_use: {'y' * 400}\n"  # 1,452: fits
    assert found(skill(name="near", frontmatter=front), "SKL922") == []


def test_a_description_alone_past_the_listing_cut_says_description(
    skill: Writer, found: Found
) -> None:
    long = "Formats tables. Use when a table needs formatting. " + "x" * 1900
    hits = found(skill(frontmatter=f"name: my-skill\ndescription: {long}\n"), "SKL922")
    assert [d.message.split(":")[0] for d in hits] == [f"description is {len(long):,} characters"]


def _folder_of(tmp: Path, count: int, description_chars: int) -> Path:
    folder = tmp / "skills"
    for number in range(count):
        name = f"skill-{number:02d}"
        text = "Use when " + "z" * (description_chars - 9)
        (folder / name).mkdir(parents=True)
        (folder / name / "SKILL.md").write_text(
            f"---\nname: {name}\ndescription: {text}\n---\n\n# {name}\n", encoding="utf-8"
        )
    return folder


def test_a_folder_over_the_listing_budget(tmp_path: Path) -> None:
    folder = _folder_of(tmp_path, 12, 700)  # 12 entries of about 715 characters: 8,580 > 8,000
    result = lint_folder(folder, registry=default_registry())
    assert result is not None
    assert [(d.rule, d.file, d.severity) for d in result.diagnostics] == [
        ("SKL923", ".", "warning")
    ]
    message = result.diagnostics[0].message
    assert message.startswith("the listing of the 12 skills here is about 2,1")
    assert "over the 2,000-token budget (1% of 200,000): the agent lists 1 by name alone" in message
    assert "(skill-11)" in message  # the last in listing order is dropped first
    registry = default_registry()
    registry.configure({"SKL923": {"percent": 2.0}})  # a larger budget: fits
    result = lint_folder(folder, registry=registry)
    assert result is not None and result.diagnostics == ()


def test_a_folder_within_the_budget(tmp_path: Path) -> None:
    folder = _folder_of(tmp_path, 10, 700)  # 7,150 characters: fits
    result = lint_folder(folder, registry=default_registry())
    assert result is not None and result.diagnostics == ()


def test_the_command_line_reports_the_folder(tmp_path: Path, clean_env: dict[str, str]) -> None:
    _folder_of(tmp_path, 12, 700)
    env = clean_env  # (its own lint cache: never the user's)
    command = [sys.executable, "-m", "skillc_lint", "--select", "budget", "skills"]
    proc = subprocess.run(
        [*command, "--format", "json"], capture_output=True, text=True, env=env,
        cwd=tmp_path, check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr  # a warning
    report = json.loads(proc.stdout)
    assert [item["path"] for item in report][-1] == "skills"
    assert [d["rule"] for d in report[-1]["diagnostics"]] == ["SKL923"]
    assert all(item["diagnostics"] == [] for item in report[:-1])
    text = subprocess.run(command, capture_output=True, text=True, env=env, cwd=tmp_path)
    assert "skills: warning[W300]: SKL923 folder-listing-budget: the listing" in text.stderr
    assert text.stdout.splitlines()[-1] == "12 skills: 0 errors, 1 warning"  # not 13: the folder
    # one skill named alone: no folder, no folder rule
    one = subprocess.run(
        [*command[:-1], "skills/skill-00"], capture_output=True, text=True, env=env,
        cwd=tmp_path, check=False,
    )  # fmt: skip
    assert "SKL923" not in one.stderr


def test_folder_options_are_checked() -> None:
    registry = default_registry()
    problems = registry.configure({"SKL923": {"percent": "lots", "context-tokens": 0}})
    assert problems == [
        "SKL923: option 'percent' must be a positive number, not 'lots'; ignored",
        "SKL923: option 'context-tokens' must be a positive integer, not 0; ignored",
    ]


def test_a_folder_of_one_skill_prints_no_total(tmp_path: Path, clean_env: dict[str, str]) -> None:
    """The folder's SKL923 result is no skill: a folder holding one skill prints the one
    skill's findings and no ``1 skill: ...`` total, as the skill named alone does."""
    _folder_of(tmp_path, 1, 700)
    (tmp_path / ".skillc").mkdir()
    (tmp_path / ".skillc" / "config.toml").write_text(
        "[lint.SKL923]\npercent = 0.01\n", encoding="utf-8"
    )  # a 20-token budget: the one entry is over it
    command = [sys.executable, "-m", "skillc_lint", "--select", "budget", "skills"]
    text = subprocess.run(
        command, capture_output=True, text=True, env=clean_env, cwd=tmp_path, check=False
    )
    assert "SKL923 folder-listing-budget" in text.stderr
    assert text.stdout.splitlines() == [  # each result's summary, no total
        "skill-00: 0 errors, 0 warnings",
        "skills: 0 errors, 1 warning",
    ]
