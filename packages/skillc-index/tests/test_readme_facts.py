"""What skillc-index's README states of its own code, held to the code: the "Layout" section
names every module, and the index's SQL block is the DDL a build runs, at its schema version
(it said ``schema_version (7)`` at version 15, without ``path`` and ``originals``)."""

from __future__ import annotations

import re
from pathlib import Path

import skillc_index
from skillc_index.index.schema import SCHEMA_SQL
from skillc_index.index.version import SCHEMA_VERSION

README = Path(__file__).resolve().parents[1] / "README.md"
SOURCES = Path(skillc_index.__file__).resolve().parent


def section(text: str, heading: str) -> str:
    """The text of the ``## heading`` section, up to the next heading of its level."""
    return text.partition(f"\n## {heading}\n")[2].partition("\n## ")[0]


def test_the_layout_section_names_every_module() -> None:
    layout = section(README.read_text(encoding="utf-8"), "Layout (what lives where)")
    assert "| module | what lives there |" in layout
    unnamed = [
        rel
        for path in sorted(SOURCES.rglob("*.py"))
        if (rel := path.relative_to(SOURCES).as_posix()) == "__init__.py"
        or path.name != "__init__.py"
        if f"`{rel}`" not in layout and ("/" not in rel or f"`{path.name}`" not in layout)
    ]
    assert unnamed == [], "modules the README's Layout section does not name"


def test_the_index_sql_block_is_the_schema_a_build_writes() -> None:
    text = README.read_text(encoding="utf-8")
    block = text.partition("**The index** (")[2].partition("```sql\n")[2].partition("```")[0]
    assert block, "the README shows no index SQL block"
    statements = re.sub(r"--[^\n]*", "", block)
    words = re.findall(r"\w+|[^\w\s]", statements)
    assert words == re.findall(r"\w+|[^\w\s]", SCHEMA_SQL.format(tokenize="porter unicode61"))
    assert f"schema_version (SCHEMA_VERSION: {SCHEMA_VERSION})" in block


def test_the_python_api_example_runs_in_a_new_folder(
    tmp_path: Path, clean_env: dict[str, str]
) -> None:
    """The headline example of "Python API", run as written in a new empty folder (as a
    user's script, in a process of its own): it failed with E001 at ``resolve_skill``, the
    layout having been discovered before ``init_skill`` made the folder a project; it now
    takes ``init_skill``'s ``layout``. Every line runs: the skill made, built and deployed,
    its index read, and the last line's E001 printed for ``nope``."""
    import subprocess
    import sys

    example = re.findall(
        r"```python\n(.*?)```", section(README.read_text("utf-8"), "Python API"), re.S
    )[0]
    assert "init_skill(" in example and "resolve_skill(" in example
    project = tmp_path / "new"  # no project yet (this package's `project` fixture is one)
    user_home = tmp_path / "user-home"
    project.mkdir()
    user_home.mkdir()
    done = subprocess.run(
        [sys.executable, "-c", example],
        cwd=project,
        env={**clean_env, "HOME": str(user_home)},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "my-skill"  # read_skill_metadata(doc).name
    assert "my-skill project" in done.stdout  # list_skills
    assert "error[E001]: skill 'nope' not found" in lines
    assert (project / ".skillc" / "skills" / "my-skill" / "SKILL.md").is_file()
