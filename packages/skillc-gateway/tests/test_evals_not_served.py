"""A skill's ``evals/`` (its tests: the cases and their expected answers) is served to no agent:
``sources``, ``open``, ``show --file``, ``search``, ``outline`` and ``find`` leave it out or
refuse it, ``--hidden`` or not, through the installed ``skillc-gateway`` script; ``eval``
still reads the cases."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

Run = Callable[..., subprocess.CompletedProcess[str]]

#: What an agent under test must not read: in the expected answer and in a note of evals/.
SECRET = "zanzibarquokka"
TESTS_REFUSED = "is the skill's tests (evals/), not served to agents"


@pytest.fixture
def script(cli: Callable[..., Run]) -> Run:
    return cli("skillc-gateway", script=True)


@pytest.fixture
def tested(demo: Path) -> Path:
    """The demo skill with its tests: evals/evals.json (two cases), a Markdown note, a
    fixture skill, and a symlink of references/ leading into evals/."""
    evals = demo / "evals"
    (evals / "files" / "fixture").mkdir(parents=True)
    cases = [
        {"id": 1, "prompt": "install the demo", "expected_output": f"{SECRET} installed"},
        {"id": 2, "prompt": "use the demo skill", "expected_output": f"{SECRET} used"},
    ]
    (evals / "evals.json").write_text(json.dumps({"skill_name": "demo", "evals": cases}), "utf-8")
    (evals / "notes.md").write_text(f"# Expected\n\nThe answer is {SECRET}.\n", "utf-8")
    (evals / "files" / "fixture" / "SKILL.md").write_text(
        f"---\nname: fixture\ndescription: {SECRET} fixture. Use when testing.\n---\n# Fixture\n",
        "utf-8",
    )
    (demo / "references" / "cases.json").symlink_to("../evals/evals.json")
    return demo


def _refused(done: subprocess.CompletedProcess[str], message: str) -> None:
    assert done.returncode == 1, done
    assert done.stderr.startswith("error[E021]"), done.stderr
    assert message in done.stderr
    assert "Traceback" not in done.stderr and SECRET not in done.stdout + done.stderr


def test_sources_lists_no_test_file_and_refuses_the_folder(script: Run, tested: Path) -> None:
    done = script("sources", "demo")
    assert done.returncode == 0, done.stderr
    assert "SKILL.md" in done.stdout and "api.md" in done.stdout
    assert "evals" not in done.stdout and "cases.json" not in done.stdout
    listed = json.loads(script("sources", "demo", "--format", "json").stdout)
    assert "evals" not in json.dumps(listed)
    _refused(script("sources", "demo", "--dir", "evals"), "'evals' " + TESTS_REFUSED)


@pytest.mark.parametrize("hidden", [(), ("--hidden",)])
def test_open_and_show_refuse_a_test_file_hidden_or_not(
    script: Run, tested: Path, hidden: tuple[str, ...]
) -> None:
    _refused(script("open", "demo", "evals/evals.json", *hidden), TESTS_REFUSED)
    _refused(script("open", "demo", "./references/../evals/notes.md", *hidden), TESTS_REFUSED)
    leads = "'references/cases.json' leads to the skill's tests ('evals/evals.json')"
    _refused(script("open", "demo", "references/cases.json", *hidden), leads)
    show = ("show", "demo", "--file", "evals/notes.md", "--section", "Expected", *hidden)
    _refused(script(*show), TESTS_REFUSED)
    # the skill's own files are served as before
    done = script("open", "demo", "references/api.md", *hidden)
    assert done.returncode == 0 and done.stdout.startswith("# API"), done.stderr


def test_search_outline_and_find_leave_the_tests_out(
    script: Run, tested: Path, project: Path
) -> None:
    done = script("search", "demo", SECRET)
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"No section matches '{SECRET}'.\n"
    done = script("outline", "demo")
    assert done.returncode == 0 and "references/api.md" in done.stdout, done.stderr
    assert "evals/" not in done.stdout and "Expected" not in done.stdout
    # a fixture skill in a skill's evals/ is no skill of the catalog
    done = script("find", "--path", str(project), f"{SECRET} fixture")
    assert "fixture" not in done.stdout and "evals" not in done.stdout, done


def test_eval_still_reads_the_cases(script: Run, tested: Path, project: Path) -> None:
    store = project / ".skillc" / "skills"
    done = script("eval", "--path", str(store), "--format", "json")
    assert done.stdout, done.stderr
    (demo,) = [one for one in json.loads(done.stdout)["skills"] if one["name"] == "demo"]
    assert demo["cases"] == 2
