"""The quieter, truer defaults of issue 39, on fixtures shaped like the false positives
measured on real skills (lint README, "Measured on real skills").

- SKL401: a file is referenced when the skill's Markdown names it anywhere, code spans and
  code blocks included (real skills write `` `reference/faq-database.md` ``, not a link);
- SKL303: a link to a sibling skill that exists in the same collection is a portability
  warning; missing or leaving the collection stays an error (DECISIONS.md "Lint");
- SKL104: name != folder is an error, with an unsafe fix.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from skillc_lint import default_registry, lint_skill

SkillWriter = Callable[..., Path]
DESCRIPTION = "Formats tables. Use when a table needs formatting."

# -- SKL401: named anywhere ---------------------------------------------------------------------


def orphans(folder: Path) -> list[str]:
    return sorted(d.file for d in lint_skill(folder).diagnostics if d.rule == "SKL401")


def test_skl401_a_file_named_in_a_code_span_or_prose_is_referenced(skill: SkillWriter) -> None:
    folder = skill(
        body=(
            "# My Skill\n\n"
            "Look answers up in `reference/faq-database.md` first.\n"
            "For forms read forms.md; the API is in {baseDir}/references/api.md.\n"
        ),
        files={
            "reference/faq-database.md": "# FAQ\n",
            "forms.md": "# Forms\n",
            "references/api.md": "# API\n",
            "references/old.md": "# Old\n",
        },
    )
    assert orphans(folder) == ["references/old.md"]


def test_skl401_names_in_code_blocks_longer_paths_and_folders_count(skill: SkillWriter) -> None:
    folder = skill(
        body=(
            "# My Skill\n\n"
            "```bash\ncat ./scripts/../docs/setup.md\n```\n\n"
            "The repository keeps it at skills/my-skill/guides/style.md.\n"
            "Everything else is under `templates/`.\n"
        ),
        files={
            "docs/setup.md": "# Setup\n",
            "guides/style.md": "# Style\n",
            "templates/a.md": "# A\n",
            "templates/deep/b.md": "# B\n",
        },
    )
    assert orphans(folder) == []


def test_skl401_a_mention_reaches_transitively_but_not_from_an_orphan(skill: SkillWriter) -> None:
    folder = skill(
        body="# My Skill\n\nStart with `guide.md`.\n",
        files={
            "guide.md": "# Guide\n\nThen `steps/two.md`.\n",
            "steps/two.md": "# Two\n",
            "lost.md": "# Lost\n\nSee `steps/three.md`.\n",
            "steps/three.md": "# Three\n",
        },
    )
    assert orphans(folder) == ["lost.md", "steps/three.md"]


def test_skl401_a_file_name_shared_by_two_files_names_neither(skill: SkillWriter) -> None:
    folder = skill(
        body="# My Skill\n\nSee `overview.md`; also `b/overview.md`.\n",
        files={"a/overview.md": "# A\n", "b/overview.md": "# B\n"},
    )
    assert orphans(folder) == ["a/overview.md"]


def test_skl401_a_word_that_only_contains_the_name_is_no_mention(skill: SkillWriter) -> None:
    folder = skill(
        body="# My Skill\n\nSee notes.md.bak and old-notes.md for history.\n",
        files={"notes.md": "# Notes\n"},
    )
    assert orphans(folder) == ["notes.md"]


# -- SKL303: sibling skills ---------------------------------------------------------------------


def write(folder: Path, name: str, body: str) -> Path:
    path = folder / name
    path.mkdir(parents=True, exist_ok=True)
    text = f"---\nname: {name}\ndescription: {DESCRIPTION}\n---\n# {name}\n\n{body}"
    (path / "SKILL.md").write_text(text, encoding="utf-8")
    return path


def rules(folder: Path) -> list[tuple[str, str, str]]:
    return [
        (d.rule, d.severity, d.message)
        for d in lint_skill(folder).diagnostics
        if d.rule == "SKL303"
    ]


def test_skl303_a_link_to_an_existing_sibling_skill_is_a_warning(tmp_path: Path) -> None:
    skills = tmp_path / "plugins" / "teams" / "skills"
    write(skills, "team-patterns", "")
    (skills / "team-patterns" / "references").mkdir()
    (skills / "team-patterns" / "references" / "roles.md").write_text("# R\n", encoding="utf-8")
    one = write(
        skills,
        "parallel-work",
        "See [patterns](../team-patterns/SKILL.md), [roles](../team-patterns/references/roles.md)"
        " and [again](../../skills/team-patterns/SKILL.md#team-patterns).\n",
    )
    assert rules(one) == [
        ("SKL303", "warning", "link to sibling skill 'team-patterns': '../team-patterns/SKILL.md'"),
        (
            "SKL303",
            "warning",
            "link to sibling skill 'team-patterns': '../team-patterns/references/roles.md'",
        ),
        (
            "SKL303",
            "warning",
            "link to sibling skill 'team-patterns': '../../skills/team-patterns/SKILL.md"
            "#team-patterns'",
        ),
    ]


def test_skl303_missing_sibling_or_leaving_the_collection_stays_an_error(tmp_path: Path) -> None:
    skills = tmp_path / "skills"
    write(skills, "other", "")
    (skills / "shared").mkdir()
    (skills / "shared" / "notes.md").write_text("# N\n", encoding="utf-8")
    (tmp_path / "outside.md").write_text("# O\n", encoding="utf-8")
    one = write(
        skills,
        "one",
        "[a](../other/missing.md) [b](../gone/SKILL.md) [c](../shared/notes.md)"
        " [d](../../outside.md) [e](../one/SKILL.md)\n",
    )
    found = rules(one)
    assert [(rule, severity) for rule, severity, _ in found] == [("SKL303", "error")] * 5


def test_skl303_a_sibling_symlink_leaving_the_collection_is_an_error(tmp_path: Path) -> None:
    skills = tmp_path / "skills"
    other = write(skills, "other", "")
    (tmp_path / "secret.md").write_text("# S\n", encoding="utf-8")
    (other / "out.md").symlink_to(tmp_path / "secret.md")
    one = write(skills, "one", "[x](../other/out.md)\n")
    assert [(rule, severity) for rule, severity, _ in rules(one)] == [("SKL303", "error")]


def test_skl303_a_sibling_link_alone_passes_and_the_setting_still_rules(tmp_path: Path) -> None:
    """A sibling link is a warning whatever SKL303's severity; set to a warning, the rule's
    escapes are warnings too."""
    skills = tmp_path / "skills"
    write(skills, "other", "")
    (tmp_path / "outside.md").write_text("# O\n", encoding="utf-8")
    one = write(skills, "one", "[x](../other/SKILL.md)\n")
    assert lint_skill(one).ok
    two = write(skills, "two", "[x](../other/SKILL.md) [y](../../outside.md)\n")
    assert [severity for _, severity, _ in rules(two)] == ["warning", "error"]
    registry = default_registry()
    registry.set_severity("SKL303", "warning")
    found = lint_skill(two, registry=registry).diagnostics
    assert [(d.rule, d.severity) for d in found] == [("SKL303", "warning")] * 2


# -- SKL104: an error, with an unsafe fix ---------------------------------------------------------


def test_skl104_is_an_error_with_an_unsafe_fix(tmp_path: Path, write_skill: SkillWriter) -> None:
    folder = write_skill(tmp_path / "tables", "table-tools", DESCRIPTION, "# Table Tools\n")
    result = lint_skill(folder)
    (found,) = [d for d in result.diagnostics if d.rule == "SKL104"]
    assert found.severity == "error" and not result.ok
    assert found.fix is not None and not found.fix.safe
    assert "rename the skill to 'tables'" in found.fix.description
