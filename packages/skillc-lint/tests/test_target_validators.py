"""What each target and package holds, checked by validators no one here wrote (issue 37).

For every skill of the real-world corpus (``../shared/corpus``; ``$SKILLC_CORPUS`` moves it)
that lints clean (no error with the default rules) and that ``skc build`` takes (a valid
folder name):

- the Agent Skills reference validator ``skills-ref`` (PyPI) finds nothing in what the
  targets that read the standard get (``agents``/``codex``, ``gemini``, ``kiro``,
  ``opencode``, ``trae``), in the upload archive, the discovery index's artifacts and the
  Agent Plugins plugin; in what ``claude``, ``copilot`` and ``cursor`` get, nothing but the
  fields those agents read (they keep them on purpose); ``.agents/skills`` (and the discovery
  artifacts, which get what it gets) keeps the fields Copilot and Cursor act on there
  (``SHARED_FOLDER_FIELDS``), which the validators may name and nothing else;
- the checks of Anthropic's and OpenAI's skill-creator validators (restated in
  :mod:`skill_creator_checks`) pass: OpenAI's on ``codex``/``agents`` and the discovery
  artifacts, Anthropic's on ``agents``, the upload (and its layout) and the plugin (the
  shared folder's kept fields aside, as above);
- agnix (PyPI) with its per-client rules (``--target codex``, ``claude-code``, ``cursor``)
  finds no error in a target's folder that it does not find in the source itself.

A target's folder is what ``skc build`` deploys: the stub's text (:func:`render_stub`, its
section list left empty) under the frontmatter the build projects for the target
(:func:`skillc_index.project_frontmatter`, the folder's name given as the build gives it),
and the side files. The packages are made by ``package_skills`` itself. Without the corpus
the test is skipped; without skills-ref or agnix it is skipped, and fails under ``CI=1``
(tox's ``lint`` env installs both).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from skillc_index import (
    Layout,
    parse_frontmatter,
    project_frontmatter,
    skill_name_problem,
    target_dialects,
)
from skillc_index.build.project import side_sources
from skillc_index.build.stub import render_stub, with_frontmatter
from skillc_index.command_errors import PackageRefused
from skillc_index.dialect import SHARED_FOLDER_FIELDS, STANDARD_FIELDS
from skillc_index.markdown.frontmatter import as_yaml_12
from skillc_index.package.make import package_skills
from skillc_lint import default_registry, lint_skill

pytestmark = [pytest.mark.corpus, pytest.mark.xdist_group("target-validators")]


def _checks() -> Any:
    """:mod:`skill_creator_checks`, beside this file (pytest's importlib mode does not put
    the tests' folder on ``sys.path``)."""
    import importlib.util

    path = Path(__file__).with_name("skill_creator_checks.py")
    spec = importlib.util.spec_from_file_location("skill_creator_checks", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_CHECKS = _checks()
anthropic_problems = _CHECKS.anthropic_problems
openai_problems = _CHECKS.openai_problems
package_problems = _CHECKS.package_problems

#: Targets whose agents read the standard's fields only: skills-ref must find nothing.
STANDARD_TARGETS = ("agents", "codex", "gemini", "kiro", "opencode", "trae")
#: Targets that keep fields of their own agent: skills-ref may name only those.
SUPERSET_TARGETS = ("claude", "copilot", "cursor")
#: agnix's client for the folders it has rules for.
AGNIX_CLIENTS = {"agents": "codex", "claude": "claude-code", "cursor": "cursor"}


def _corpus() -> Path:
    custom = os.environ.get("SKILLC_CORPUS")
    if custom:
        return Path(custom)
    return Path(__file__).resolve().parents[3].parent / "shared" / "corpus"


def _needed(what: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"{what} is not installed (tox's lint env installs it)")
    pytest.skip(f"{what} is not installed")


def _validate(folder: Path) -> list[str]:
    try:
        from skills_ref.validator import validate
    except ImportError:
        _needed("skills-ref")
    return list(validate(folder))


@pytest.fixture(scope="module")
def clean() -> list[Path]:
    corpus = _corpus()
    if not corpus.is_dir():
        pytest.skip(f"corpus not found at {corpus} (set SKILLC_CORPUS to use another)")
    registry = default_registry()
    found = []
    for skill_md in sorted(corpus.rglob("SKILL.md")):
        folder = skill_md.parent
        if skill_name_problem(folder.name) is not None:
            continue  # skc build refuses it (E100)
        result = lint_skill(folder, registry=registry)
        if not any(d.severity == "error" for d in result.diagnostics):
            found.append(folder)
    assert len(found) > 400  # the corpus is there and most of it lints clean
    return found


def _frontmatter(folder: Path) -> tuple[str, dict[str, Any]]:
    text = (folder / "SKILL.md").read_text(encoding="utf-8", errors="replace")
    return text, as_yaml_12(parse_frontmatter(text))


def _deploy(skill: Path, target: str, root: Path) -> Path:
    """What ``skc build --target`` puts in ``root`` for ``skill``."""
    _text, data = _frontmatter(skill)
    stub = render_stub(skill=skill.name, frontmatter=data, headings=(), references=())
    dialect = target_dialects()[target]
    projection = project_frontmatter(data, dialect, target, side_sources(skill), skill.name)
    dest = root / target / skill.name
    dest.mkdir(parents=True)
    (dest / "SKILL.md").write_text(with_frontmatter(stub, projection.frontmatter), "utf-8")
    for rel, body in projection.side_files.items():
        (dest / rel).parent.mkdir(parents=True, exist_ok=True)
        (dest / rel).write_text(body, encoding="utf-8")
    return dest


@pytest.fixture(scope="module")
def by_folder(clean: list[Path]) -> dict[str, Path]:
    """One skill of a folder name (the first), as an agent folder holds one (skc build of
    another of that name is E050)."""
    return {skill.name: skill for skill in reversed(clean)}


@pytest.fixture(scope="module")
def deployed(by_folder: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("targets")
    for target in (*STANDARD_TARGETS, *SUPERSET_TARGETS):
        for skill in by_folder.values():
            _deploy(skill, target, root)
    return root


def _failures(found: dict[str, list[str]]) -> dict[str, list[str]]:
    return {name: problems for name, problems in found.items() if problems}


#: How skills-ref and the skill-creator checks name the keys they refuse (the text before
#: the list, and after it).
_REFUSED_KEYS = (("Unexpected fields in frontmatter: ", ". Only"), ("keys not allowed: ", "\0"))


def _not_kept(problems: list[str]) -> list[str]:
    """``problems`` but a refusal of fields ``.agents/skills`` keeps for Copilot and Cursor
    (:data:`SHARED_FOLDER_FIELDS`, on purpose: the README's "What each target gets")."""
    left = []
    for problem in problems:
        named: set[str] = set()
        for start, end in _REFUSED_KEYS:
            if problem.startswith(start):
                named = set(problem[len(start) :].split(end, 1)[0].split(", "))
        if not named or not named <= SHARED_FOLDER_FIELDS:
            left.append(problem)
    return left


def test_skills_ref_finds_nothing_in_the_standard_targets(deployed: Path) -> None:
    for target in STANDARD_TARGETS:
        found = {d.name: _not_kept(_validate(d)) for d in sorted((deployed / target).iterdir())}
        assert _failures(found) == {}, target


def test_skills_ref_names_only_fields_the_superset_targets_read(
    by_folder: dict[str, Path], deployed: Path
) -> None:
    """Copilot and Cursor get the standard and the fields they read; Claude Code gets the
    source's frontmatter as it is (it ignores what it does not read): skills-ref may name
    only those fields, and nothing the source does not hold."""
    dialects = target_dialects()
    sources = {name: _frontmatter(skill)[1] for name, skill in by_folder.items()}
    for target in SUPERSET_TARGETS:
        dialect = dialects[target]
        for folder in sorted((deployed / target).iterdir()):
            own = set(sources[folder.name]) - STANDARD_FIELDS
            allowed = own if dialect.keeps_others else own & dialect.reads
            for problem in _validate(folder):
                if problem.startswith("Unexpected fields in frontmatter: "):
                    named = problem.split(": ", 1)[1].split(". Only", 1)[0].split(", ")
                    assert set(named) <= allowed, (target, folder.name)
                else:  # Claude Code's own rules: a listing entry of 1,536 characters, and
                    # the folder's name as the command whatever the name field says
                    assert target == "claude", problem
                    assert problem.startswith(("Description exceeds", "Directory name")), problem


def test_the_skill_creator_checks_pass_on_the_targets(deployed: Path) -> None:
    for target, check in (("codex", openai_problems), ("agents", openai_problems)):
        found = {d.name: _not_kept(check(d)) for d in sorted((deployed / target).iterdir())}
        assert _failures(found) == {}, target
    agents = sorted((deployed / "agents").iterdir())
    found = {d.name: _not_kept(anthropic_problems(d)) for d in agents}
    assert _failures(found) == {}


def _agnix(paths: list[Path], client: str) -> set[tuple[str, str]]:
    """(skill folder name, rule) of each error agnix finds under ``paths``."""
    agnix = shutil.which("agnix", path=str(Path(sys.executable).parent)) or shutil.which("agnix")
    if agnix is None:
        _needed("agnix")
    done = subprocess.run(
        [str(agnix), "--format", "json", "--target", client, "--max-files", "0", *map(str, paths)],
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    report = json.loads(done.stdout)
    found = set()
    for diagnostic in report["diagnostics"]:
        if diagnostic["level"] != "error":
            continue
        path = Path(diagnostic["file"])
        while path.parent != path and not (path / "SKILL.md").is_file():
            path = path.parent
        found.add((path.name, diagnostic["rule"]))
    return found


def test_agnix_finds_no_error_the_source_does_not_have(
    by_folder: dict[str, Path], deployed: Path
) -> None:
    for target, client in AGNIX_CLIENTS.items():
        source = _agnix(list(by_folder.values()), client)
        made = _agnix([deployed / target], client)
        assert made - source == set(), target


def _unique(skills: list[Path]) -> Iterator[Path]:
    """One skill of each frontmatter name (a package holds one of a name)."""
    seen: set[str] = set()
    for skill in skills:
        name = _frontmatter(skill)[1].get("name")
        if isinstance(name, str) and name not in seen:
            seen.add(name)
            yield skill


def test_the_upload_archives(clean: list[Path], tmp_path: Path) -> None:
    from skillc_index import name_refusals
    from skillc_index.dialect import CLAUDE_UPLOAD

    layout = Layout.discover(tmp_path, {"SKILLC_HOME": str(tmp_path / "home")})
    out, unpacked = tmp_path / "out", tmp_path / "unpacked"
    failures: dict[str, list[str]] = {}
    for skill in _unique(clean):
        name = str(_frontmatter(skill)[1]["name"])
        try:
            package_skills([str(skill)], layout, fmt="upload", output=out)
        except PackageRefused:
            assert name_refusals(name, CLAUDE_UPLOAD), name  # refused for its name only
            continue
        archive = out / f"{name}.zip"
        with zipfile.ZipFile(archive) as opened:
            opened.extractall(unpacked)
        problems = package_problems(archive, name)
        problems += anthropic_problems(unpacked / name) + _validate(unpacked / name)
        failures[name] = problems
    assert _failures(failures) == {}
    assert len(failures) > 400


def test_the_discovery_index_and_the_plugin(clean: list[Path], tmp_path: Path) -> None:
    layout = Layout.discover(tmp_path, {"SKILLC_HOME": str(tmp_path / "home")})
    skills = [str(skill) for skill in _unique(clean)]
    site = tmp_path / "site"
    package_skills(skills, layout, fmt="well-known", output=site)
    index = json.loads((site / ".well-known/agent-skills/index.json").read_text())
    assert len(index["skills"]) == len(skills)
    failures: dict[str, list[str]] = {}
    for entry in index["skills"]:
        artifact = site / entry["url"].lstrip("/")
        assert entry["digest"] == "sha256:" + hashlib.sha256(artifact.read_bytes()).hexdigest()
        folder = tmp_path / "artifacts" / entry["name"]
        folder.mkdir(parents=True)
        if entry["type"] == "archive":
            with zipfile.ZipFile(artifact) as opened:
                opened.extractall(folder)
        else:
            shutil.copyfile(artifact, folder / "SKILL.md")
        failures[entry["name"]] = _not_kept(_validate(folder) + openai_problems(folder))
    assert _failures(failures) == {}
    package_skills(skills, layout, fmt="plugin", output=tmp_path / "plugins", name="corpus")
    plugin = tmp_path / "plugins" / "corpus"
    manifest = json.loads((plugin / "plugin.json").read_text())
    closed = {"$schema", "name", "version", "description", "author", "homepage", "repository"}
    assert set(manifest) <= closed | {"license", "keywords", "extensions"}
    found = {d.name: _validate(d) + anthropic_problems(d) for d in (plugin / "skills").iterdir()}
    assert _failures(found) == {}
    assert len(found) == len(skills)


def test_a_real_build_of_a_claude_code_skill_passes_them(tmp_path: Path) -> None:
    """The issue's example built for real (``build_skill``): the ``.agents/skills`` copy passes
    skills-ref and both skill-creator checks but for the fields Copilot and Cursor read there
    (kept: the skill stays user-only for them), and agnix for Codex; ``.claude/skills`` keeps
    every field."""
    from skillc_index.build.skill import build_skill

    project = tmp_path / "project"
    source = project / ".skillc" / "skills" / "deploy-app"
    source.mkdir(parents=True)
    (source / "SKILL.md").write_text(
        "---\nname: deploy-app\ndescription: Deploy the app <prod>.\n"
        "when_to_use: When asked to ship.\nargument-hint: '[env]'\n"
        "disable-model-invocation: true\npaths: ['src/**']\ncompatibility: Needs git.\n---\n\n"
        "# deploy-app\n\n## Steps\n\nShip it.\n",
        encoding="utf-8",
    )
    layout = Layout.discover(project, {"SKILLC_HOME": str(tmp_path / "home")})
    result = build_skill("deploy-app", layout, targets=["claude", "codex"])
    assert {(c.field, c.action) for c in result.fields} >= {
        ("disable-model-invocation", "side-file"),
        ("when_to_use", "folded"),
        ("compatibility", "moved"),
        ("description", "converted"),
    }
    agents = project / ".agents" / "skills" / "deploy-app"
    assert _validate(agents) == [
        "Unexpected fields in frontmatter: argument-hint, disable-model-invocation. Only "
        "['allowed-tools', 'compatibility', 'description', 'license', 'metadata', 'name'] are "
        "allowed."
    ]
    assert _not_kept(_validate(agents) + openai_problems(agents) + anthropic_problems(agents)) == []
    assert _frontmatter(agents)[1]["disable-model-invocation"] is True
    assert {rule for _skill, rule in _agnix([agents], "codex")} == set()
    claude = _frontmatter(project / ".claude" / "skills" / "deploy-app")[1]
    assert claude["disable-model-invocation"] is True and claude["paths"] == ["src/**"]
