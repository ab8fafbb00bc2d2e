"""SKL931-SKL932 (issue 37): what a chosen agent or package format drops, changes or refuses,
from ``--target`` or ``[lint] targets``; the same projection ``skc build --target`` reports."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from skillc_index import parse_frontmatter
from skillc_lint import LintDiagnostic, configured_registry, default_registry, lint_skill

Writer = Callable[..., Path]
Run = Callable[..., "subprocess.CompletedProcess[str]"]

CLAUDE_FIELDS = (
    "name: my-skill\n"
    "description: Formats tables. Use when a table needs formatting.\n"
    "when_to_use: When a table is ragged.\n"
    "disable-model-invocation: true\n"
    "argument-hint: '[file]'\n"
    "version: 1.2\n"
)


def _hits(folder: Path, targets: list[str]) -> list[LintDiagnostic]:
    registry, problems = configured_registry({"targets": targets})
    assert problems == []
    found = lint_skill(folder, registry=registry).diagnostics
    return [d for d in found if d.rule in ("SKL931", "SKL932")]


def test_no_target_no_finding(skill: Writer) -> None:
    folder = skill(frontmatter=CLAUDE_FIELDS)
    found = lint_skill(folder, registry=default_registry()).diagnostics
    assert [d for d in found if d.rule in ("SKL931", "SKL932")] == []


def test_what_codex_drops_and_changes_is_what_build_reports(skill: Writer) -> None:
    from skillc_index import project_frontmatter, target_dialects

    folder = skill(frontmatter=CLAUDE_FIELDS)
    hits = _hits(folder, ["codex"])
    data = parse_frontmatter((folder / "SKILL.md").read_text()).data
    assert data is not None
    changes = project_frontmatter(data, target_dialects()["codex"], "codex").changes
    assert sorted(d.message for d in hits) == sorted(change.text for change in changes)
    assert {d.severity for d in hits} == {"warning"}
    assert "codex (Codex): 'version' moved to metadata.version" in [d.message for d in hits]
    # Copilot reads argument-hint in .agents/skills, Codex's folder: kept there, not reported
    assert not [d for d in hits if "'argument-hint'" in d.message]


def test_claude_reads_them_all(skill: Writer) -> None:
    assert _hits(skill(frontmatter=CLAUDE_FIELDS), ["claude"]) == []


def test_a_field_a_chosen_target_reads_is_known(skill: Writer) -> None:
    """SKL109 called Copilot's ``argument-hint`` unknown under ``--target copilot`` (and
    Claude Code's under ``--target claude``), where SKL931 rightly said nothing."""
    folder = skill(frontmatter=CLAUDE_FIELDS)

    def unknown(targets: list[str]) -> list[str]:
        registry, _problems = configured_registry({"targets": targets})
        found = lint_skill(folder, registry=registry).diagnostics
        return sorted(d.message.split("'")[1] for d in found if d.rule == "SKL109")

    everything = ["argument-hint", "disable-model-invocation", "version", "when_to_use"]
    assert unknown([]) == everything
    assert unknown(["copilot"]) == ["version", "when_to_use"]
    assert unknown(["claude"]) == ["version"]
    assert unknown(["upload"]) == everything  # near miss: an upload reads none of them
    assert unknown(["upload", "copilot"]) == ["version", "when_to_use"]  # known to one


def test_an_upload_refuses_a_reserved_word(skill: Writer) -> None:
    folder = skill(name="claude-tables")
    hits = _hits(folder, ["upload", "codex"])
    assert [(d.rule, d.severity) for d in hits] == [("SKL932", "error")]
    assert "upload refuses the skill" in hits[0].message and "'claude'" in hits[0].message


def test_unknown_targets_in_the_config_are_reported() -> None:
    _registry, problems = configured_registry({"targets": ["codex", "nope"]})
    assert problems == ["unknown target 'nope'; ignored"]
    _registry, problems = configured_registry({"targets": "codex"})
    assert problems == ["targets must be a list of names; ignored"]


def test_the_safe_fix_moves_version_under_metadata(lint: Run, skill: Writer) -> None:
    folder = skill(frontmatter=CLAUDE_FIELDS)
    done = lint(str(folder), "--target", "codex", "--fix")
    data = parse_frontmatter((folder / "SKILL.md").read_text()).data
    assert data is not None
    assert data["metadata"] == {"version": "1.2"} and "version" not in data
    assert data["when_to_use"] == "When a table is ragged."  # no fix changes meaning
    assert done.returncode == 0, done.stderr


def test_the_safe_fix_writes_the_version_as_written(lint: Run, skill: Writer) -> None:
    """``version: 1.10`` was moved as ``"1.1"`` (the number's reading): a different version.
    The fix writes what ``skc build`` writes, the scalar's own characters."""
    for number, written in enumerate(("1.10", "1e3", "0x10", "1_000", "007", "true")):
        name = f"v{number}"
        base = f"name: {name}\ndescription: Formats tables. Use when a table is ragged.\n"
        folder = skill(name=name, frontmatter=f"{base}version: {written}\n")
        done = lint(str(folder), "--target", "codex", "--fix", "--select", "SKL931")
        assert done.returncode == 0, done.stderr
        text = (folder / "SKILL.md").read_text()
        assert f'metadata:\n  version: "{written}"\n' in text, (written, text)


@pytest.mark.parametrize("eol", ["\r\n", "\r"])
def test_the_safe_fix_keeps_the_files_line_breaks(lint: Run, skill: Writer, eol: str) -> None:
    """SKILL.md written with CRLF (or lone CR) line breaks: the line the fix adds under
    ``metadata:`` ends with the file's break, not a bare LF."""
    folder = skill(skill_md=f"---{eol}{CLAUDE_FIELDS.replace(chr(10), eol)}---{eol}{eol}# T{eol}")
    done = lint(str(folder), "--target", "codex", "--fix", "--select", "SKL931", script=True)
    assert done.returncode == 0, done.stderr
    data = (folder / "SKILL.md").read_bytes()
    assert f'metadata:{eol}  version: "1.2"{eol}'.encode() in data
    rest = data.replace(eol.encode(), b"")  # no other line break left
    assert b"\n" not in rest and b"\r" not in rest


def test_skl502_and_skl931_read_the_source_texts_once(
    skill: Writer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SKL502 and SKL931 both quote a number as written (``1.10``): the block is read again
    for it once a skill, not once a rule."""
    from skillc_index.markdown import yaml12

    calls: list[object] = []
    read = yaml12.scalar_texts
    monkeypatch.setattr(yaml12, "scalar_texts", lambda front: calls.append(front) or read(front))
    base = "name: my-skill\ndescription: Formats tables. Use when a table is ragged.\n"
    folder = skill(frontmatter=base + "version: 1.10\nmetadata:\n  build: 1.20\n")
    registry, _problems = configured_registry({"targets": ["codex"]})
    found = {d.rule: d.message for d in lint_skill(folder, registry=registry).diagnostics}
    assert '(quote it: "1.20")' in found["SKL502"] and "SKL931" in found
    assert len(calls) == 1


def test_the_command_line_option(lint: Run, skill: Writer) -> None:
    folder = skill(frontmatter=CLAUDE_FIELDS)
    done = lint(str(folder), "--target", "codex,agents", "--format", "json")
    text = json.dumps(json.loads(done.stdout))
    assert "SKL931" in text and "agents (Agent Skills (.agents/skills))" in text
    bad = lint(str(folder), "--target", "nope")
    assert bad.returncode == 1 and 'unknown target "nope"' in bad.stderr


def test_the_router_route_installs_lints_clean_for_every_agent(tmp_path: Path) -> None:
    """``skc route install``'s router: its description held ``'<task>'`` (a tag to uploads,
    ``‹task›`` to Codex) and a trigger SKL108 did not know ("Use it FIRST, for any task")."""
    from skillc_index.route.router_skill import ROUTER_NAME, router_text

    for profiles in ((), ("claude-code",)):
        registry, problems = configured_registry(
            {"targets": ["claude", "codex", "agents", "upload"]}, profiles
        )
        assert problems == []
        for count, agent, scope in ((1, "claude", "project"), (36, "codex", "global")):
            folder = tmp_path / f"{agent}-{len(profiles)}" / ROUTER_NAME
            folder.mkdir(parents=True)
            (folder / "SKILL.md").write_text(router_text(count, agent, scope), encoding="utf-8")
            found = lint_skill(folder, registry=registry).diagnostics
            assert [f"{d.rule} {d.message}" for d in found] == []


def test_skl933_says_beforehand_what_package_says_of_the_paths(
    skill: Writer, lint: Run, tmp_path: Path
) -> None:
    """``--target upload`` said nothing of ``CON.md``, ``aux/``, ``star*.md``, ``guide`` beside
    ``Guide/x.md`` or ``README.md`` beside ``readme.md``, which ``skc package`` warns of, nor of
    ``docs\\readme.md``, which it refuses: SKL933 says each, through package's own function
    (a warning where package warns, an error where it refuses), for a package target alone
    (once whichever are chosen), and not of what package leaves out (``evals/``)."""
    from skillc_index import Layout
    from skillc_index.package.make import package_skills

    files = {"CON.md": "", "aux/notes.md": "", "refs/star*.md": "", "guide": "", "Guide/x.md": ""}
    files |= {"README.md": "", "readme.md": "", "evals/a|b.json": "", "ok.md": ""}
    folder = skill(name="port", files=files)
    registry, _problems = configured_registry({"targets": ["upload", "plugin", "codex"]})
    found = [d for d in lint_skill(folder, registry=registry).diagnostics if d.rule == "SKL933"]
    layout = Layout.discover(tmp_path, {"SKILLC_HOME": str(tmp_path / "home")})
    packaged = package_skills([str(folder)], layout, fmt="upload", output=tmp_path / "out")
    said = [n.text.removeprefix("port: ") for n in packaged.warnings]
    assert sorted(d.message for d in found) == sorted(
        f"{text} (skc package warns)" for text in said
    )
    assert sorted((d.file, d.severity) for d in found) == [
        ("CON.md", "warning"),
        ("aux", "warning"),
        ("guide", "warning"),
        ("readme.md", "warning"),
        ("refs/star*.md", "warning"),
    ]
    assert _rule_hits(folder, ["codex"], "SKL933") == []  # no package target: silent
    (folder / "docs\\readme.md").write_text("win\n")
    (refused,) = [d for d in _rule_hits(folder, ["well-known"], "SKL933") if d.severity == "error"]
    assert refused.file == "docs\\readme.md"
    assert refused.message == (
        "a file name that no zip may hold (a backslash, read as a separator on Windows): "
        "docs\\readme.md (skc package refuses the skill)"
    )
    done = lint(str(folder), "--target", "upload")
    assert done.returncode == 1 and "SKL933 target-paths: a file name that no zip" in done.stderr
    # a name that is not UTF-8 (package refuses it too) was E999, a UnicodeEncodeError
    (folder / os.fsdecode(b"caf\xe9.md")).write_text("latin\n")
    done = lint(str(folder), "--target", "upload", "--format", "json")
    said = [d["message"] for d in json.loads(done.stdout)["diagnostics"] if d["rule"] == "SKL933"]
    assert "a file name that is not UTF-8: caf\ufffd.md (skc package refuses the skill)" in said
    assert "E999" not in done.stderr and "Traceback" not in done.stderr


def test_skl933_judges_a_symlink_to_a_pyc_as_package_does(skill: Writer, tmp_path: Path) -> None:
    """SKL933 asked whether a file is packaged by its name alone: ``C:x.bin -> m.pyc`` (and
    ``drive/q:a.bin -> ../m.pyc``) was an error, "skc package refuses the skill", though package,
    which follows the symlink (:func:`~skillc_index.layout.not_packaged` given the skill's
    root), leaves it out and packages the skill; SKL521 called them bundled. Lint asks the
    same function, the same way."""
    from skillc_index import Layout
    from skillc_index.package.make import package_skills

    folder = skill(name="pyc", files={"m.pyc": b"\x00pyc", "ok.md": "# Ok\n"})
    (folder / "C:x.bin").symlink_to("m.pyc")
    (folder / "drive").mkdir()
    (folder / "drive" / "q:a.bin").symlink_to("../m.pyc")
    assert _rule_hits(folder, ["upload"], "SKL933") == []
    assert _rule_hits(folder, [], "SKL521") == []  # no package holds them: "bundled" neither
    layout = Layout.discover(tmp_path, {"SKILLC_HOME": str(tmp_path / "home")})
    packaged = package_skills([str(folder)], layout, fmt="upload", output=tmp_path / "out")
    assert packaged.skills == ("pyc",)
    (folder / "D:y.bin").write_text("real\n")  # a file of that name that is packaged: refused
    (hit,) = _rule_hits(folder, ["upload"], "SKL933")
    assert (hit.file, hit.severity) == ("D:y.bin", "error")


def _rule_hits(folder: Path, targets: list[str], rule: str) -> list[LintDiagnostic]:
    registry, _problems = configured_registry({"targets": targets})
    return [d for d in lint_skill(folder, registry=registry).diagnostics if d.rule == rule]
