"""skillc-lint over the real-world corpus (``../shared/corpus``): every one of its skills.

Every folder holding a SKILL.md is a skill, the ones nested inside other skills included. One
``skillc-lint`` process lints them all; it must not crash, and its counts per rule must be the
profile the README records. Skipped when the corpus is absent; ``$SKILLC_CORPUS`` points
elsewhere.
"""

from __future__ import annotations

import functools
import json
import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from skillc_lint import default_registry, find_skill_folders

# Asks xdist (--dist loadgroup) to run the module on one worker; the report is cached per
# process either way (_default_report).
pytestmark = [pytest.mark.corpus, pytest.mark.xdist_group("lint-corpus")]

README = Path(__file__).resolve().parents[1] / "README.md"
PROFILE_ROW = re.compile(r"^\| (SKL\d{3}) \| `?([a-z0-9-]+)`? \| (\d+) \| (\d+) \|$")


def _corpus() -> Path:
    custom = os.environ.get("SKILLC_CORPUS")
    if custom:
        return Path(custom)
    return Path(__file__).resolve().parents[3].parent / "shared" / "corpus"


CORPUS = _corpus()


@pytest.fixture(scope="session")
def corpus() -> Path:
    if not CORPUS.is_dir():
        pytest.skip(f"corpus not found at {CORPUS} (set SKILLC_CORPUS to use another)")
    return CORPUS


@pytest.fixture(scope="session")
def skill_folders(corpus: Path) -> list[str]:
    """Every folder of the corpus holding a SKILL.md (relative, sorted)."""
    return sorted(
        {p.parent.relative_to(corpus).as_posix() for p in corpus.rglob("SKILL.md") if p.is_file()}
    )


def _outside_env() -> dict[str, str]:
    """This process's environment without the user's ``SKILLC_*`` settings, but with the
    session's lint cache (``SKILLC_CACHE_DIR``) and managed settings file
    (``SKILLC_CLAUDE_MANAGED_SETTINGS``): never the user's own cache, nor the machine's."""
    kept = ("SKILLC_CACHE_DIR", "SKILLC_CLAUDE_MANAGED_SETTINGS")
    return {k: v for k, v in os.environ.items() if not k.startswith("SKILLC_") or k in kept}


@functools.cache
def _default_report(corpus: Path, folders: tuple[str, ...]) -> list[dict[str, Any]]:
    """``skillc-lint --format json`` over every corpus skill, in one process; kept for the
    worker's life (an xdist worker that runs out of tests tears even session fixtures down,
    and this lint of 581 skills takes about 35 s)."""
    proc = subprocess.run(
        [sys.executable, "-m", "skillc_lint", "--format", "json", *folders],
        cwd=str(corpus),
        env=_outside_env(),
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=600,
        check=False,
    )
    assert "Traceback" not in proc.stderr, proc.stderr[-3000:]
    assert "error[E999]" not in proc.stderr, proc.stderr[-3000:]
    assert proc.returncode in (0, 1), proc.stderr[-3000:]
    data = json.loads(proc.stdout)
    assert isinstance(data, list)
    return data


@pytest.fixture
def report(corpus: Path, skill_folders: list[str]) -> list[dict[str, Any]]:
    return _default_report(corpus, tuple(skill_folders))


def test_every_corpus_skill_is_linted(
    skill_folders: list[str], report: list[dict[str, Any]]
) -> None:
    if os.environ.get("SKILLC_CORPUS") is None:
        assert len(skill_folders) == 581
    assert [item["path"] for item in report] == skill_folders
    names = {rule.id: rule.name for rule in default_registry()}
    for item in report:
        assert item["skill"] == item["path"].rpartition("/")[2]
        assert "skipped" not in item
        for d in item["diagnostics"]:
            assert d["rule"] in names
            assert d["severity"] in ("error", "warning")
            assert d["file"] and not d["file"].startswith(("/", "../"))
            assert d["line"] is None or d["line"] >= 1
            assert d["message"]


def test_a_folder_of_skills_finds_the_outermost_ones(
    corpus: Path, skill_folders: list[str]
) -> None:
    nested = {
        folder
        for folder in skill_folders
        if any(folder.startswith(other + "/") for other in skill_folders)
    }
    hidden = {f for f in skill_folders if any(part.startswith(".") for part in f.split("/"))}
    found = [path.relative_to(corpus).as_posix() for path in find_skill_folders(corpus)]
    assert found == sorted(set(skill_folders) - nested)
    assert nested  # the corpus does nest skills; they are files of their parent skill
    # hidden folders are searched (awesome-copilot/.github/skills), as build and find do
    assert hidden and hidden <= set(found)


def test_readme_records_the_corpus_profile(
    skill_folders: list[str], report: list[dict[str, Any]]
) -> None:
    if os.environ.get("SKILLC_CORPUS") is not None:
        pytest.skip("the README profile is of ../shared/corpus")
    diagnostics: Counter[str] = Counter()
    skills: Counter[str] = Counter()
    for item in report:
        rules = [d["rule"] for d in item["diagnostics"]]
        diagnostics.update(rules)
        skills.update(set(rules))
    expected = {
        rule.id: (rule.name, diagnostics[rule.id], skills[rule.id]) for rule in default_registry()
    }
    recorded = {}
    text = README.read_text(encoding="utf-8")
    for line in text.splitlines():
        match = PROFILE_ROW.match(line.strip())
        if match:
            rule_id, name, count, in_skills = match.groups()
            recorded[rule_id] = (name, int(count), int(in_skills))
    assert recorded == expected
    # and the totals the paragraph above the table gives
    prose = " ".join(text.split())
    assert f"{sum(diagnostics.values()):,} diagnostics;" in prose
    tagged = {rule.id for rule in default_registry() if "guidance" in rule.tags}
    guidance = sum(n for rule, n in diagnostics.items() if rule in tagged)
    assert f"the guidance rules add {guidance:,} warnings" in prose


def _lint_corpus(corpus: Path, folders: list[str], *args: str) -> list[dict[str, Any]]:
    proc = subprocess.run(
        [sys.executable, "-m", "skillc_lint", "--format", "json", *args, *folders],
        cwd=str(corpus),
        env=_outside_env(),
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=600,
        check=False,
    )
    assert "Traceback" not in proc.stderr, proc.stderr[-3000:]
    assert "error[E999]" not in proc.stderr, proc.stderr[-3000:]
    data = json.loads(proc.stdout)
    assert isinstance(data, list)
    return data


def test_claude_code_profile_has_no_false_errors(corpus: Path, skill_folders: list[str]) -> None:
    """The Claude Code fields the corpus uses (argument-hint, context, user-invocable,
    allowed-tools as a list or with commas) are known and valid with --profile claude-code;
    its guidance rules (SKL607-SKL609) find what the README's table records."""
    from skillc_index import read_markdown
    from skillc_lint import PROFILES
    from skillc_lint._rules.claude_guidance import RULES as GUIDANCE

    fields = PROFILES["claude-code"].known_fields
    guidance = {rule.id for rule in GUIDANCE}

    report = _lint_corpus(corpus, skill_folders, "--profile", "claude-code")
    assert len(report) == len(skill_folders)
    used = set()
    advice: Counter[str] = Counter()
    for item in report:
        for d in item["diagnostics"]:
            if d["rule"] in guidance:
                advice[d["rule"]] += 1
                continue
            assert not d["rule"].startswith("SKL6"), d
            assert d["rule"] != "SKL503", d  # Claude Code reads lists and commas
            if d["rule"] == "SKL109":
                field = d["message"].split("'")[1]
                assert field not in fields, d
    for folder in skill_folders:
        data = read_markdown(corpus / folder / "SKILL.md").frontmatter.data or {}
        used.update(field for field in fields if field in data)
    assert {"argument-hint", "context", "user-invocable"} <= used  # the check is not vacuous
    if os.environ.get("SKILLC_CORPUS") is None:  # the README's counts are ../shared/corpus's
        recorded = {}
        for line in README.read_text(encoding="utf-8").splitlines():
            cells = line.split(" | ")
            if cells[0].lstrip("| ") in guidance:
                recorded[cells[0].lstrip("| ")] = int(cells[3].split()[0])
        assert recorded == {rule: advice[rule] for rule in sorted(guidance)}


def test_other_profiles_lint_the_corpus_without_crashing(
    corpus: Path, skill_folders: list[str]
) -> None:
    """The skillli and gibberish rules over every skill, in one pass (both profiles at once
    run each of their rules on each skill, as either alone would)."""
    report = _lint_corpus(corpus, skill_folders, "--profile", "skillli", "--profile", "gibberish")
    assert [item["path"] for item in report] == skill_folders
    rules = {d["rule"] for item in report for d in item["diagnostics"]}
    assert any(rule.startswith("SKL7") for rule in rules)  # skillli's rules ran
    assert any(rule.startswith("SKL8") for rule in rules)  # gibberish's rules ran


def test_fixes_over_a_copy_of_the_corpus(
    corpus: Path, skill_folders: list[str], report: list[dict[str, Any]], tmp_path: Path
) -> None:
    """``--unsafe-fixes`` over a copy of the corpus (never the corpus itself) with two faults
    put into every SKILL.md that can take them: a space after the opening ``---`` (SKL510)
    and the name in upper case (SKL102). Every fault is fixed back to the original bytes; the
    only other changes are the unsafe renames of the README (SKL104, the name set to the
    folder's); every changed file still parses and no skill lints worse than the original."""
    import shutil
    import stat

    from skillc_index import parse_frontmatter

    copy = tmp_path / "corpus"
    shutil.copytree(corpus, copy, symlinks=True)
    originals: dict[str, bytes] = {}
    injected = 0
    for folder in skill_folders:
        path = copy / folder / "SKILL.md"
        path.chmod(path.stat().st_mode | stat.S_IWUSR)
        data = originals[folder] = path.read_bytes()
        skill = folder.rpartition("/")[2]
        name, upper = (f"\nname: {n}".encode() for n in (skill, skill.upper()))
        if data[:4] in (b"---\n", b"---\r") and (name + b"\n" in data or name + b"\r" in data):
            path.write_bytes(b"--- " + data[3:].replace(name, upper, 1))
            injected += 1
    assert injected > 500
    proc = subprocess.run(
        [sys.executable, "-m", "skillc_lint", "--unsafe-fixes", "--format", "json", *skill_folders],
        cwd=str(copy),
        env=_outside_env(),
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=900,
        check=False,
    )
    assert "Traceback" not in proc.stderr and "error[" not in proc.stderr, proc.stderr[-3000:]
    after = {item["path"]: item for item in json.loads(proc.stdout)}
    renamed = []
    for item in report:
        folder = item["path"]
        fixed = after[folder]
        rules = Counter((d["rule"], d["severity"]) for d in fixed["diagnostics"])
        assert not rules - Counter((d["rule"], d["severity"]) for d in item["diagnostics"])
        text = (copy / folder / "SKILL.md").read_bytes()
        if text != originals[folder]:
            assert parse_frontmatter(text.decode("utf-8")).data is not None
            assert any(d["rule"] == "SKL104" for d in item["diagnostics"]), folder
            renamed.append(folder)
    assert len(renamed) == 16  # the README's SKL104 count: each renamed to its folder
    assert not list(copy.rglob(".*.tmp.*"))  # no temporary file left
