"""Config anywhere, as ruff finds it (issue 39): ``[tool.skillc]`` / ``[tool.skillc.lint]`` in
``pyproject.toml``, ``.skillc/config.toml``, ``--config PATH``; found upward from each linted
path, so one run over two repositories lints each with its own settings."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

Run = Callable[..., "subprocess.CompletedProcess[str]"]

NO_TRIGGER = "---\nname: {name}\ndescription: Formats tables.\n---\n\n# {name}\n"


def put(folder: Path, text: str = NO_TRIGGER) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "SKILL.md").write_text(text.format(name=folder.name), encoding="utf-8")
    return folder


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def findings(proc: subprocess.CompletedProcess[str]) -> dict[str, list[tuple[str, str]]]:
    data = json.loads(proc.stdout)
    items = data if isinstance(data, list) else [data]
    return {
        item["skill"]: [(d["rule"], d["severity"]) for d in item["diagnostics"]] for item in items
    }


def test_pyproject_tool_skillc_lint_is_read_from_a_repository(lint: Run, cwd: Path) -> None:
    repo = cwd / "repo"
    write(
        repo / "pyproject.toml", '[project]\nname = "r"\n\n[tool.skillc.lint]\nSKL108 = "error"\n'
    )
    put(repo / "skills" / "tables")
    proc = lint("repo/skills", "--format", "json")
    assert findings(proc) == {"tables": [("SKL108", "error")]}
    assert proc.returncode == 1
    # from inside the repository, and with the skill named alone, the same
    assert findings(lint("skills/tables", "--format", "json", cwd=repo)) == {
        "tables": [("SKL108", "error")]
    }


def test_a_skillc_folder_that_cannot_be_opened_is_passed_over(
    lint: Run, cwd: Path, unreadable: Callable[[Path], None]
) -> None:
    """Another user's ``.skillc/`` (mode 700) above a skill, or a working folder of mode 000:
    the lint was E999 ``PermissionError`` (``is_file`` raises on ``EACCES``); that folder has
    no config for it, the repository's ``pyproject.toml`` is read."""
    repo = cwd / "repo"
    write(repo / "pyproject.toml", '[tool.skillc.lint]\nSKL108 = "error"\n')
    write(repo / "work" / ".skillc" / "config.toml", "[lint]\n")
    skill = put(repo / "work" / "sub" / "tables")
    locked = repo / "work" / "sub" / "locked"
    locked.mkdir()
    unreadable(repo / "work" / ".skillc")
    unreadable(locked)
    for where in (skill.parent, locked):
        done = lint(str(skill), "--format", "json", cwd=where)
        assert "E999" not in done.stdout + done.stderr, done.stderr
        assert findings(done) == {"tables": [("SKL108", "error")]}  # the repository's config


def test_each_linted_path_uses_its_nearest_config(lint: Run, cwd: Path) -> None:
    write(cwd / "one" / "pyproject.toml", '[tool.skillc.lint]\nSKL108 = "off"\n')
    write(cwd / "two" / ".skillc" / "config.toml", '[lint]\nSKL108 = "error"\n')
    put(cwd / "one" / "skills" / "alpha")
    put(cwd / "two" / "skills" / "beta")
    put(cwd / "three" / "gamma")
    for jobs in ("1", "2"):
        proc = lint("one/skills", "two/skills", "three", "--format", "json", "-j", jobs)
        assert findings(proc) == {
            "alpha": [],
            "beta": [("SKL108", "error")],
            "gamma": [("SKL108", "warning")],  # no config above it: the defaults
        }


def test_a_submodule_skill_takes_the_config_of_the_working_folders_repository(
    lint: Run, cwd: Path
) -> None:
    """A skill that is a git submodule (or its own clone: ``.git``, a file or a folder): the
    walk for its config ends at its ``.git``, and the repository's ``pyproject.toml`` was
    passed over (the same setting in ``.skillc/config.toml`` applied). Nothing found above
    a skill, the config nearest the working folder is used, per-file-ignores included."""
    (cwd / ".git").mkdir()
    write(
        cwd / "pyproject.toml",
        '[tool.skillc.lint]\nSKL108 = "error"\n[tool.skillc.lint.per-file-ignores]\n'
        '"skills/c/**" = ["SKL108"]\n',
    )
    put(cwd / "skills" / "a")
    write(put(cwd / "skills" / "b") / ".git", "gitdir: ../../.git/modules/b\n")
    (put(cwd / "skills" / "c") / ".git").mkdir()  # a clone of its own
    want = {"a": [("SKL108", "error")], "b": [("SKL108", "error")], "c": []}
    assert findings(lint("skills", "--format", "json")) == want
    # the working folder inside the repository: its config is still the one found walking up
    assert findings(lint(".", "--format", "json", cwd=cwd / "skills")) == want
    # a skill's own config still wins for it
    write(cwd / "skills" / "b" / "pyproject.toml", '[tool.skillc.lint]\nSKL108 = "off"\n')
    assert findings(lint("skills", "--format", "json"))["b"] == []


def test_the_working_folders_config_configures_no_global_skill_nor_another_repository(
    lint: Run, cwd: Path, home: Path, tmp_path: Path
) -> None:
    """The fallback to the config nearest the working folder is for a skill inside the folder
    holding it (a submodule's) only: a ``pyproject.toml`` above ``$SKILLC_HOME`` (``/tmp``)
    configured a global skill from there (find_config's walk ends at the home), and one
    repository's ``pyproject.toml`` a skill of another repository linted from it. A
    submodule's skill named through a symlink to the repository takes its config."""
    write(tmp_path / "pyproject.toml", '[tool.skillc.lint]\nSKL108 = "error"\n')
    put(home / ".skillc" / "skills" / "shared")
    assert findings(lint("shared", "--format", "json", cwd=tmp_path)) == {
        "shared": [("SKL108", "warning")]
    }
    (cwd / ".git").mkdir()
    write(cwd / "pyproject.toml", '[tool.skillc.lint]\nSKL108 = "error"\n')
    (tmp_path / "other" / ".git").mkdir(parents=True)
    put(tmp_path / "other" / "skills" / "theirs")
    write(put(cwd / "mod" / "ours") / ".git", "gitdir: ../../.git/modules/ours\n")
    assert findings(lint("../other/skills/theirs", "mod/ours", "--format", "json")) == {
        "theirs": [("SKL108", "warning")],  # another repository's: the defaults
        "ours": [("SKL108", "error")],  # a submodule's: the repository's config
    }
    # the submodule named through a symlink to the repository is still its skill (the
    # spelled folders were compared with the real one: the defaults applied)
    (tmp_path / "alias").symlink_to(cwd, target_is_directory=True)
    assert findings(lint("../alias/mod/ours", "--format", "json", process=True)) == {
        "ours": [("SKL108", "error")]
    }


def test_a_rule_is_set_twice_only_within_one_config_file(lint: Run, cwd: Path, home: Path) -> None:
    """The global config's ``SKL108 = "off"`` and the project's ``description-triggers =
    "error"`` warned ``SKL108 is set twice`` on every run (the files were merged, then
    checked): each file's keys are checked alone, the project's after the global config's.
    Set twice in one file, it is warned, and that file's last line is used (the merged
    table had the key the global config also sets first)."""
    put(cwd / "skills" / "tables")
    write(cwd / ".skillc" / "config.toml", '[lint]\ndescription-triggers = "error"\n')
    for global_value in ("off", "warning"):
        write(home / ".skillc" / "config.toml", f'[lint]\nSKL108 = "{global_value}"\n')
        proc = lint("skills/tables", "--format", "json")
        assert (proc.stderr, findings(proc)) == ("", {"tables": [("SKL108", "error")]})
    write(
        cwd / ".skillc" / "config.toml", '[lint]\ndescription-triggers = "error"\nSKL108 = "off"\n'
    )
    proc = lint("skills/tables", "--format", "json")
    assert findings(proc) == {"tables": []}
    assert proc.stderr == (
        "warning: config [lint]: SKL108 is set twice ('description-triggers' and 'SKL108'); "
        "'SKL108' is used\n"
    )


def test_a_projects_lint_rules_table_merges_rule_by_rule(lint: Run, cwd: Path, home: Path) -> None:
    """RFC-0009:C-RESOLUTION is per key: a project's ``[lint.rules]`` turning one rule off
    replaced the global config's whole ``[lint.rules]`` (its ``SKL108 = "error"`` was lost);
    each rule of the table is now its own key, the project's over the global config's."""
    put(cwd / "skills" / "tables")
    put(cwd / "skills" / "huge", NO_TRIGGER + "line\n" * 20)
    write(
        home / ".skillc" / "config.toml",
        '[lint.rules]\nSKL108 = "error"\nSKL201 = { max-lines = 5 }\n',
    )
    write(cwd / ".skillc" / "config.toml", "[lint.rules]\nSKL201 = { max-lines = 50 }\n")
    proc = lint("skills", "--format", "json")
    assert (proc.stderr, findings(proc)) == (
        "",
        {"huge": [("SKL108", "error")], "tables": [("SKL108", "error")]},
    )
    # a rule the global table sets under another name is the project's, without a warning
    write(cwd / ".skillc" / "config.toml", '[lint.rules]\ndescription-triggers = "off"\n')
    proc = lint("skills/tables", "--format", "json")
    assert (proc.stderr, findings(proc)) == ("", {"tables": [("SKL201", "warning")]})


def test_tool_skillc_per_file_ignores_are_relative_to_the_pyproject(lint: Run, cwd: Path) -> None:
    repo = cwd / "repo"
    write(
        repo / "pyproject.toml",
        '[tool.skillc.lint.per-file-ignores]\n"skills/legacy/**" = ["SKL108"]\n',
    )
    put(repo / "skills" / "legacy")
    put(repo / "skills" / "fresh")
    assert findings(lint("repo/skills", "--format", "json")) == {
        "fresh": [("SKL108", "warning")],
        "legacy": [],
    }


def test_config_option_names_the_file(lint: Run, cwd: Path) -> None:
    write(cwd / "repo" / "pyproject.toml", '[tool.skillc.lint]\nSKL108 = "error"\n')
    write(cwd / "ci" / "lint.toml", '[lint]\nSKL108 = "off"\n')
    put(cwd / "repo" / "skills" / "tables")
    proc = lint("repo/skills", "--config", "ci/lint.toml", "--format", "json")
    assert findings(proc) == {"tables": []}
    listed = lint("--list-rules", "--config", "ci/lint.toml").stdout.splitlines()
    assert next(line for line in listed if line.startswith("SKL108")).split()[2] == "off"
    missing = lint("repo/skills", "--config", "nowhere.toml")
    assert (missing.returncode, missing.stdout) == (1, "")  # no other config is read instead
    assert missing.stderr.startswith("error[E100]: invalid option: ")
    assert (
        'invalid option: \'Invalid value for --config: the config file "nowhere.toml" is not '
        "found'" in missing.stderr
    )
    # a path that is there but no regular file says what it is (it said "not found")
    for path, kind in (("/dev/null", "a character device"), ("ci", "a folder")):
        other = lint("repo/skills", "--config", path)
        assert other.returncode == 1
        assert f'the config file "{path}" is {kind}, not a regular file\'' in other.stderr


def test_a_config_options_per_file_ignores_are_relative_to_the_project(
    lint: Run, cwd: Path
) -> None:
    """``--config ci/lint.toml``: its ``per-file-ignores`` hid nothing, silently (their
    patterns were relative to ``ci/``, where no skill lies, while its other settings applied).
    They are relative to the project found from the working folder, else the working folder,
    as the project's own config's are."""
    write(
        cwd / "ci" / "lint.toml",
        "[lint]\nSKL201 = { max-lines = 300 }\n[lint.per-file-ignores]\n"
        '"skills/legacy/**" = ["SKL108"]\n"**/references/*.md" = ["SKL401"]\n',
    )
    legacy = put(cwd / "skills" / "legacy")
    write(legacy / "references" / "orphan.md", "# orphan\n")
    put(cwd / "skills" / "fresh")
    want = {"fresh": [("SKL108", "warning")], "legacy": []}
    assert findings(lint("skills", "--config", "ci/lint.toml", "--format", "json")) == want
    # without the file, the orphan is found: the ignore above hid it
    assert ("SKL401", "warning") in findings(lint("skills", "--format", "json"))["legacy"]
    # from a folder of a project: relative to the project (the folder holding .skillc/)
    write(cwd / ".skillc" / "config.toml", "")
    inside = lint(
        "legacy", "fresh", "--config", "../ci/lint.toml", "--format", "json", cwd=cwd / "skills"
    )
    assert findings(inside) == want


def test_a_pyproject_with_a_toml_error_is_warned_not_passed_over(lint: Run, cwd: Path) -> None:
    """A duplicate key in another tool's table made the ``pyproject.toml`` silently no config:
    the team's ``SKL108 = "error"`` was dropped and the run went green. It is warned about
    and ignored, as a broken ``.skillc/config.toml`` is."""
    repo = cwd / "repo"
    write(
        repo / "pyproject.toml",
        '[tool.ruff]\nline-length = 1\nline-length = 2\n[tool.skillc.lint]\nSKL108 = "error"\n',
    )
    put(repo / "skills" / "tables")
    proc = lint("repo/skills", "--format", "json")
    assert f"warning: invalid TOML in config file {repo / 'pyproject.toml'}: " in proc.stderr
    assert findings(proc) == {"tables": [("SKL108", "warning")]}


def test_the_projects_pyproject_is_read_once(lint: Run, cwd: Path) -> None:
    """The project's ``pyproject.toml`` is its config for every command (and the session's):
    the lint uses it as the session's, its problems warned once."""
    (cwd / ".skillc" / "skills").mkdir(parents=True)
    write(
        cwd / "pyproject.toml",
        '[tool.skillc.lint]\nSKL108 = "error"\n[tool.skillc.search]\nx = 1\n',
    )
    put(cwd / ".skillc" / "skills" / "tables")
    proc = lint(".skillc/skills/tables", "--format", "json")
    assert findings(proc) == {"tables": [("SKL108", "error")]}
    assert proc.stderr.count("unknown key 'search.x'") == 1, proc.stderr


def test_a_config_option_naming_an_unusable_file_is_e100(lint: Run, cwd: Path) -> None:
    """``--config`` naming invalid TOML, or a ``pyproject.toml`` without ``[tool.skillc]``
    (a typo ``[tool.skilc.lint]``), linted on the defaults and exited 0: it is E100, as a
    missing file is, and nothing is linted."""
    write(cwd / "ci" / "lint.toml", '[lint]\nSKL108 = "error"\nSKL108 = "off"\n')
    write(cwd / "ci" / "pyproject.toml", '[tool.skilc.lint]\nSKL108 = "error"\n')
    put(cwd / "skills" / "tables")
    for name, why in (
        ("lint.toml", "invalid TOML in config file"),
        ("pyproject.toml", "has no [tool.skillc] table"),
    ):
        proc = lint("skills", "--config", f"ci/{name}")
        assert (proc.returncode, proc.stdout) == (1, ""), proc.stderr
        assert proc.stderr.startswith("error[E100]: ")
        assert f'the config file "ci/{name}" cannot be used: ' in proc.stderr
        assert why in proc.stderr


def test_the_tool_reads_the_config_nearest_the_skill(cwd: Path) -> None:
    from skillc_index import Layout
    from skillc_index.accesslog import AccessLog
    from skillc_index.operation import Session
    from skillc_lint.operations import LINT, LintParams

    write(cwd / "repo" / "pyproject.toml", '[tool.skillc.lint]\nSKL108 = "error"\n')
    folder = put(cwd / "repo" / "skills" / "tables")
    session = Session(
        Layout.discover(cwd, {"SKILLC_HOME": str(cwd / "home")}), AccessLog(lambda _: None)
    )
    run = LINT.run(session, LintParams(skill=str(folder)))
    data = run.to_dict()
    assert isinstance(data, dict)
    assert [(d["rule"], d["severity"]) for d in data["diagnostics"]] == [("SKL108", "error")]


def test_a_long_config_value_or_key_is_shown_cut(lint: Run, cwd: Path) -> None:
    """``[lint] SKL201 = "<200 KB>"`` printed a 200 KB warning on every run (an agent reads
    stderr too): each value and key a ``config [lint]:`` warning quotes is cut to its start
    and end (``layout.shown``), an option's, a rule's, a profile's, a target's and a
    per-file-ignores selector's too."""
    put(cwd / "skills" / "tables")
    big = "A" * 20_000
    many = '"a", ' * 5_000
    write(
        cwd / ".skillc" / "config.toml",
        f'[lint]\nprofiles = ["{big}"]\ntargets = ["{big}"]\n{big} = "off"\n'
        f'SKL201 = {{severity = "{big}", max-lines = "{big}", {big} = 1}}\n'
        f"SKL108 = [{many}]\n"
        f'[lint.per-file-ignores]\n"*.md" = ["{big}"]\n',
    )
    proc = lint("skills/tables", "--format", "json")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stderr.splitlines()
    assert len(lines) == 8, lines
    assert all(line.startswith("warning: config [lint]: ") for line in lines), lines
    assert all(len(line) < 600 and "…" in line for line in lines), [len(x) for x in lines]
    assert any("invalid severity 'AAAA" in line for line in lines)
    assert any("invalid setting ['a', 'a'" in line for line in lines)


def test_an_empty_or_blank_list_item_is_a_warning_not_a_stopped_run(lint: Run, cwd: Path) -> None:
    """``[lint.SKL108] patterns = ["  "]`` in one skill's own pyproject.toml stopped the run
    with E999 (IndexError) before the skills after it; now that option is refused, as every
    bad option is, and every skill is linted."""
    for name in ("s1", "s2", "s3"):
        put(cwd / "many" / name, "---\nname: {name}\ndescription: Use when x.\n---\n# {name}\n")
    write(cwd / "many" / "s2" / "pyproject.toml", '[tool.skillc.lint.SKL108]\npatterns = ["  "]\n')
    write(cwd / ".skillc" / "config.toml", '[lint.SKL401]\nexceptions = ["README.md", ""]\n')
    proc = lint("many", "--format", "json", script=True)
    assert proc.returncode == 0, proc.stderr
    assert findings(proc) == {"s1": [], "s2": [], "s3": []}
    assert "Traceback" not in proc.stderr and "E999" not in proc.stderr
    assert "SKL108: option 'patterns' must not hold an empty or blank string" in proc.stderr
    assert "SKL401: option 'exceptions' must not hold an empty or blank string" in proc.stderr
