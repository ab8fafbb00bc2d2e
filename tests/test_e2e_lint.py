"""``skc lint`` end to end (RFC-0008, RFC-0007:C-COMMANDS): the installed command over real
projects, stores and folders, and the standalone ``skillc-lint`` script."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

Run = Callable[..., "subprocess.CompletedProcess[str]"]
Script = Callable[[str], Run]

MARKER = "@@MODULES@@"
PROBE = f"""
import json, sys
sys.argv = ["skc", *json.loads(sys.argv[1])]
import skillc.cli
try:
    skillc.cli.main()
except SystemExit:
    pass
sys.stdout.flush()
print({MARKER!r} + json.dumps(sorted(sys.modules)))
"""

VALID = (
    "---\nname: {name}\ndescription: Formats tables. Use when tables need it.\n---\n\n# {name}\n"
)


def write(folder: Path, text: str = VALID, **files: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "SKILL.md").write_text(text.format(name=folder.name), encoding="utf-8")
    for rel, body in files.items():
        (folder / rel).write_text(body, encoding="utf-8")
    return folder


def test_lint_is_listed_with_its_rfc_summary(skc: Run) -> None:
    proc = skc("--help")
    rows = [line.split(None, 1) for line in proc.stdout.splitlines() if line.startswith("  lint ")]
    assert rows == [["lint", "Validate skill authoring quality."]]


def test_lint_help(skc: Run) -> None:
    proc = skc("lint", "--help")
    assert proc.returncode == 0
    assert proc.stdout.startswith("Usage: skc lint [OPTIONS] [SKILL]...")
    assert "Examples:" in proc.stdout


def test_lint_help_imports_no_parser(
    venv_python: Path, clean_env: dict[str, str], project: Path
) -> None:
    """Import discipline: ``skc lint --help`` loads neither markdown-it nor YAML."""
    proc = subprocess.run(
        [str(venv_python), "-c", PROBE, json.dumps(["lint", "--help"])],
        cwd=str(project),
        env=clean_env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    [line] = [line for line in proc.stdout.splitlines() if line.startswith(MARKER)]
    modules = {name.partition(".")[0] for name in json.loads(line[len(MARKER) :])}
    assert "skillc_lint" in modules
    heavy = modules & {"markdown_it", "yaml", "pathspec", "skillc_gateway", "skillc_stats"}
    assert not heavy, f"skc lint --help imported {sorted(heavy)}"


def test_new_project_skill_lints_with_the_template_warning(skc: Run, ok: Run) -> None:
    ok("init")
    ok("init", "hello-skill")
    proc = skc("lint")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stderr.splitlines()
    assert lines[:1] == [
        ".skillc/skills/hello-skill/SKILL.md:3:1: warning[W300]: SKL108 description-triggers: "
        "missing activation trigger (say when to use the skill, e.g. 'Use when ...')",
    ]
    assert [lines[1], lines[2][:14], lines[3]] == ["  |", "3 | descriptio", "  | ^"]
    assert proc.stdout == "hello-skill: 0 errors, 2 warnings\n"  # SKL108 and SKL526
    named = skc("lint", "hello-skill", "--format", "json")
    data = json.loads(named.stdout)
    assert data["skill"] == "hello-skill"
    # the template's description is a placeholder (SKL526, issue 39)
    assert [d["rule"] for d in data["diagnostics"]] == ["SKL108", "SKL526"]


def test_errors_exit_1_with_rfc_lines(skc: Run, ok: Run, project: Path) -> None:
    ok("init")
    write(
        project / ".skillc" / "skills" / "broken",
        "---\nname: Broken\ndescription: x. Use when y.\n---\n\n# Broken\n\n[gone](gone.md)\n",
    )
    proc = skc("lint", "broken")
    assert proc.returncode == 1
    assert proc.stderr.splitlines() == [
        ".skillc/skills/broken/SKILL.md:2:1: error[E300]: SKL102 name-format: name 'Broken' "
        "contains uppercase characters",
        "  |",
        "2 | name: Broken",
        "  | ^",
        ".skillc/skills/broken/SKILL.md:2:1: error[E300]: SKL104 name-match-dir: name "
        "'Broken' does not match directory 'broken'",
        "  |",
        "2 | name: Broken",
        "  | ^",
        ".skillc/skills/broken/SKILL.md:8:8: error[E300]: SKL301 link-file-exists: link target "
        "not found: 'gone.md'",
        "  |",
        "8 | [gone](gone.md)",
        "  |        ^",
        "info: 1 fix available with --fix; 1 fix available with --unsafe-fixes",
    ]
    assert proc.stdout == "broken: 3 errors, 0 warnings\n"


def test_explain_and_baseline_through_skc(skc: Run, project: Path) -> None:
    """``skc lint --explain`` and a baseline: the options of skillc-lint, through skc."""
    explained = skc("lint", "--explain", "SKL301")
    assert explained.returncode == 0
    assert explained.stdout.startswith("SKL301 link-file-exists (error; links)\n")
    write(project / "skills" / "broken", VALID + "\n[gone](gone.md)\n")
    assert skc("lint", "skills", "--write-baseline", "base.json").returncode == 0
    assert skc("lint", "skills", "--baseline", "base.json").returncode == 0
    assert skc("lint", "skills").returncode == 1


def test_global_skill_by_name_and_project_config(
    skc: Run, ok: Run, home: Path, project: Path
) -> None:
    ok("init")
    write(
        home / ".skillc" / "skills" / "shared",
        "---\nname: shared\ndescription: Formats tables.\n---\n\n# shared\n",
    )
    assert "SKL108" in skc("lint", "shared").stderr
    (project / ".skillc" / "config.toml").write_text('[lint]\nSKL108 = "off"\n', encoding="utf-8")
    proc = skc("lint", "shared")
    assert (proc.returncode, proc.stderr, proc.stdout) == (0, "", "shared: 0 errors, 0 warnings\n")


def test_no_project_no_argument_is_e100(skc: Run) -> None:
    proc = skc("lint")
    assert proc.returncode == 1
    assert proc.stderr.startswith("error[E100]: invalid option: 'no skill given")


def test_resolution_errors(skc: Run, project: Path) -> None:
    (project / "empty").mkdir()
    assert (
        skc("lint", "empty").stderr
        == "error[E010]: not a valid skill: 'empty' (missing SKILL.md)\n"
    )
    assert skc("lint", "ghost").stderr == "error[E001]: skill 'ghost' not found\n"


def test_compiled_runtime_is_skipped(
    skc: Run, project: Path, write_manifest: Callable[..., Path]
) -> None:
    runtime = write(project / "runtime" / "built", "---\nname: Bad\n---\n")
    write_manifest(runtime, "built", "0" * 64)
    proc = skc("lint", "runtime/built")
    assert (proc.returncode, proc.stderr) == (0, "info: skipping compiled skill 'built'\n")
    forced = skc("lint", "runtime/built", "--force")
    assert forced.returncode == 1
    assert "warning[W300]: SKL001 skip-compiled: linting compiled skill" in forced.stderr


def test_standalone_script_lints_a_folder_of_skills(script: Script, project: Path) -> None:
    write(project / "skills" / "one")
    write(project / "skills" / "two", "---\nname: two\n---\n\n# two\n")
    ci = {"GITHUB_WORKSPACE": str(project)}
    proc = script("skillc-lint")("skills/", "--format", "github", env_extra=ci)
    assert proc.returncode == 1
    assert proc.stdout == (
        "::error file=skills/two/SKILL.md,line=1,col=1,endLine=1,endColumn=3,"
        "title=SKL105 description-required::missing "
        "required frontmatter field: description\n"
    )
    assert proc.stderr == ""  # no "linting 2 skills" note in a CI log


def test_annotations_and_sarif_name_files_from_the_repository_root(
    script: Script, project: Path, tmp_path: Path
) -> None:
    """A step with ``working-directory: docs``: the runner takes a relative ``file=`` from
    the repository's root (only an absolute path below the workspace is made relative), and
    code scanning a SARIF ``uri`` too; ``skills/two/SKILL.md`` named a file that is not
    there. Both are relative to ``$GITHUB_WORKSPACE``; without it the annotation's file is
    absolute, and a file outside the workspace is absolute either way."""
    docs = project / "docs"
    write(docs / "skills" / "two", "---\nname: two\n---\n\n# two\n")
    lint = script("skillc-lint")
    sarif = tmp_path / "out.sarif"
    ci = {"GITHUB_WORKSPACE": str(project)}
    proc = lint("skills/", "--format", "github", "--sarif-file", str(sarif), cwd=docs, env_extra=ci)
    assert proc.returncode == 1
    assert proc.stdout.startswith("::error file=docs/skills/two/SKILL.md,line=1,"), proc.stdout
    [run] = json.loads(sarif.read_text(encoding="utf-8"))["runs"]
    location = run["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
    assert location == {"uri": "docs/skills/two/SKILL.md", "uriBaseId": "%SRCROOT%"}
    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == project.as_uri() + "/"
    plain = lint("skills/", "--format", "github", cwd=docs)
    absolute = (docs / "skills" / "two" / "SKILL.md").as_posix()
    assert plain.stdout.startswith(f"::error file={absolute},line=1,"), plain.stdout
    elsewhere = {"GITHUB_WORKSPACE": str(tmp_path / "other")}
    outside = lint("skills/", "--format", "github", cwd=docs, env_extra=elsewhere)
    assert outside.stdout == plain.stdout


def test_a_name_lints_the_folder_its_store_copy_was_imported_from(
    skc_installed: Run, project: Path
) -> None:
    """``skc build skills/bar`` once, then the folder edited: ``skc lint bar`` and bare
    ``skc lint`` check the folder (what the next ``skc build bar`` imports and deploys), not
    the older store copy, and ``--fix`` writes there (near miss: the path, linted as is)."""
    skc = skc_installed
    assert skc("init").returncode == 0
    bar = write(project / "skills" / "bar", VALID + "\n## A\n\ntext\n")
    assert skc("build", "skills/bar").returncode == 0
    copy = project / ".skillc" / "skills" / "bar" / "SKILL.md"
    assert copy.is_file()
    with (bar / "SKILL.md").open("a", encoding="utf-8") as out:
        out.write("See [missing](references/nope.md).\n")
    broken = "skills/bar/SKILL.md:11:15: error[E300]: SKL301 link-file-exists"
    for args in (("lint",), ("lint", "bar"), ("lint", "skills/bar")):
        proc = skc(*args)
        assert (proc.returncode, proc.stderr.startswith(broken)) == (1, True), (args, proc.stderr)
    # an unquoted ':' in the folder's description: fixed there, so the next build imports it
    text = (
        (bar / "SKILL.md")
        .read_text(encoding="utf-8")
        .replace("description: Formats tables.", "description: Formats tables: always.")
    )
    (bar / "SKILL.md").write_text(text.replace("See [missing](references/nope.md).\n", ""))
    fixed = skc("lint", "bar", "--fix")
    assert "applied 1 fix in 1 file" in fixed.stderr + fixed.stdout, fixed.stderr
    assert 'description: "Formats tables: always.' in (bar / "SKILL.md").read_text("utf-8")
    assert "always" not in copy.read_text(encoding="utf-8")
    assert skc("build", "bar").returncode == 0
    assert 'description: "Formats tables: always.' in copy.read_text(encoding="utf-8")


def test_a_store_copy_edited_in_place_is_linted_by_its_name(
    skc_installed: Run, project: Path
) -> None:
    """The folder unchanged since its import and the store copy edited: ``skc build bar``
    builds the copy as it is (build/origin.py), so ``skc lint bar`` checks the copy."""
    skc = skc_installed
    assert skc("init").returncode == 0
    write(project / "skills" / "bar")
    assert skc("build", "skills/bar").returncode == 0
    copy = project / ".skillc" / "skills" / "bar" / "SKILL.md"
    with copy.open("a", encoding="utf-8") as out:
        out.write("\nSee [missing](references/nope.md).\n")
    proc = skc("lint", "bar")
    assert proc.returncode == 1
    assert proc.stderr.startswith(".skillc/skills/bar/SKILL.md:8:15: error[E300]: SKL301"), (
        proc.stderr
    )
    assert skc("lint", "skills/bar").returncode == 0


def test_a_folder_its_build_cannot_import_is_still_the_one_linted(
    skc_installed: Run, project: Path
) -> None:
    """``skills/bar`` imported once, then given a ``.gitignore`` over its 64 KiB bound (the
    build's E070): ``skc lint bar`` printed that E070 and linted nothing, bare ``skc lint``
    linted the older store copy. Both lint the folder, what its author edits."""
    skc = skc_installed
    assert skc("init").returncode == 0
    bar = write(project / "skills" / "bar")
    assert skc("build", "skills/bar").returncode == 0
    assert (project / ".skillc" / "skills" / "bar" / "SKILL.md").is_file()
    with (bar / "SKILL.md").open("a", encoding="utf-8") as out:
        out.write("\nSee [missing](references/nope.md).\n")
    (bar / ".gitignore").write_text("a" * 99 + "\n" * 1 + ("b" * 99 + "\n") * 700)
    assert skc("build", "bar").stderr.startswith("error[E070]")  # the build refuses it
    for args in (("lint",), ("lint", "bar")):
        proc = skc(*args)
        assert proc.returncode == 1, (args, proc.stderr)
        assert proc.stderr.startswith("skills/bar/SKILL.md:8:15: error[E300]: SKL301"), (
            args,
            proc.stderr,
        )
        assert "E070" not in proc.stderr
