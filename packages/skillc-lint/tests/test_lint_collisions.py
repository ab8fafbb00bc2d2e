"""SKL924 (a folder rule, opt-in): skills of one folder whose descriptions an
agent may mistake for each other (issue 38)."""

from __future__ import annotations

import json
from pathlib import Path

from skillc_lint import RuleRegistry, default_registry, lint_folder


def _skill(folder: Path, name: str, description: str) -> None:
    (folder / name).mkdir(parents=True)
    text = f"---\nname: {name}\ndescription: {json.dumps(description)}\n---\n\n# {name}\n"
    (folder / name / "SKILL.md").write_text(text, encoding="utf-8")


PDF = "Fill in PDF forms, merge PDF files and extract text. Use when the user works with PDFs."


def _library() -> RuleRegistry:
    """The default registry with SKL924 switched on (it is opt-in)."""
    registry = default_registry()
    registry.configure({"SKL924": "on"})
    return registry


def test_near_duplicate_descriptions_are_reported_on_both_skills(tmp_path: Path) -> None:
    folder = tmp_path / "skills"
    _skill(folder, "pdf-forms", PDF)
    _skill(folder, "pdf-tools", PDF.replace("text", "tables"))
    _skill(folder, "docx", "Create and edit Word documents, with tracked changes and comments.")
    result = lint_folder(folder, registry=_library())
    assert result is not None
    found = [(d.rule, d.file) for d in result.diagnostics]
    assert found == [("SKL924", "pdf-forms/SKILL.md"), ("SKL924", "pdf-tools/SKILL.md")]
    message = result.diagnostics[0].message
    assert message.startswith("the description of pdf-forms is ")
    assert "alike to pdf-tools's (shared: fill in pdf forms merge pdf files and extract" in message
    # a stricter threshold, and the rule is off unless asked
    registry = _library()
    registry.configure({"SKL924": {"near": 0.99}})
    result = lint_folder(folder, registry=registry)
    assert result is not None and result.diagnostics == ()
    result = lint_folder(folder, registry=default_registry())
    assert result is not None and "SKL924" not in [d.rule for d in result.diagnostics]


def test_distinct_descriptions_do_not_collide(tmp_path: Path) -> None:
    folder = tmp_path / "skills"
    _skill(folder, "pdf-forms", PDF)
    _skill(folder, "git-review", "Review a pull request, read the diff, comment on risky changes.")
    result = lint_folder(folder, registry=_library())
    assert result is not None and result.diagnostics == ()


def test_one_description_under_two_names_collides(tmp_path: Path) -> None:
    """The names' words are no part of the likeness: one description vendored under two
    long names was 0.55 alike (below 0.6, no finding)."""
    folder = tmp_path / "skills"
    _skill(folder, "acrobat-filler-toolkit-pro", "Fill in PDF forms.")
    _skill(folder, "office-document-assistant-helper", "Fill in PDF forms.")
    for i in range(8):
        _skill(
            folder, f"other-{i}", f"Handle topic {i}: widgets, gadgets and reports for team {i}."
        )
    result = lint_folder(folder, registry=_library())
    assert result is not None
    assert [d.file for d in result.diagnostics if d.rule == "SKL924"] == [
        "acrobat-filler-toolkit-pro/SKILL.md",
        "office-document-assistant-helper/SKILL.md",
    ]
    assert "is 100% alike to office-document-assistant-helper's" in result.diagnostics[0].message
