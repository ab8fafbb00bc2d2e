"""Path safety (issue 9): no skill ever reads or writes outside its root.

``open``, ``sources --dir``, ``show --file``, ``build`` and lint links, given ``..``, absolute
paths, symlinks (to files and folders, relative and absolute, chains, loops), case tricks,
look-alike spellings and very long names. Every answer is either content from inside the
skill or a clean diagnostic (exit 1, ``error[EXXX]`` lines only, no traceback); the text of
the file outside the skill never appears in any output.

NUL bytes cannot travel through a command line (``execve`` refuses them); they are tried where
they can arrive: through the MCP server (``skc_open``, ``skc_sources``, ``skc_show``), in
Markdown link targets (lint) and in search queries (test_model_properties.py).
"""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from stress_support import assert_clean_failure, assert_ok, skill_md, tree_snapshot, write_tree

Run = Callable[..., "subprocess.CompletedProcess[str]"]

SECRET = "TOPSECRET-7f3a"
LONG = "a" * 300  # longer than NAME_MAX (255)
DEEP = "/".join(["d" * 200] * 25)  # longer than PATH_MAX (4096)


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A folder next to the project holding what no skill may reveal."""
    folder = tmp_path / "outside"
    write_tree(
        folder,
        {
            "secret.txt": f"{SECRET}\n",
            "secret.md": f"# Secret\n\n{SECRET}\n\n## More\n\n{SECRET}\n",
        },
    )
    return folder.resolve()


def _link(link: Path, target: str | Path) -> None:
    link.parent.mkdir(parents=True, exist_ok=True)
    link.symlink_to(target)


@pytest.fixture
def hidden_links(demo: Path, outside: Path) -> Path:
    """Escaping symlinks under hidden names: not sources (the index stays current, so ``show``
    answers), but paths a caller can still name."""
    _link(demo / ".out.md", outside / "secret.md")
    _link(demo / ".outdir", outside)
    _link(demo / "references" / ".up", "../..")  # the store folder
    return demo


@pytest.fixture
def hostile(hidden_links: Path, outside: Path) -> Path:
    """Every kind of symlink, under source names (``open`` and ``sources`` need no index)."""
    demo = hidden_links
    _link(demo / "abs_out.txt", outside / "secret.txt")
    _link(demo / "rel_out.txt", os.path.relpath(outside / "secret.txt", demo))
    _link(demo / "outdir", outside)
    _link(demo / "chain1", "chain2")
    _link(demo / "chain2", "abs_out.txt")  # chain ending outside
    _link(demo / "in1", "in2")
    _link(demo / "in2", "references/gadgets.md")  # chain ending inside
    _link(demo / "abs_in.md", demo / "references" / "gadgets.md")  # absolute, inside
    _link(demo / "loop1", "loop2")
    _link(demo / "loop2", "loop1")
    _link(demo / "selfloop", "selfloop")
    _link(demo / "self", ".")
    _link(demo / "broken", "nothing-here")
    _link(demo / "parent", "..")
    return demo


# -- open ---------------------------------------------------------------------------------------

OPEN_REFUSED = {
    "../demo/../../../outside/secret.txt": "E012",
    "../../..": "E012",
    "references/../../x": "E012",
    "./../x": "E012",
    "abs_out.txt": "E012",
    "rel_out.txt": "E012",
    "outdir/secret.txt": "E012",
    "outdir": "E012",
    "chain1": "E012",
    ".out.md": "E012",
    ".outdir/secret.md": "E012",
    "references/.up/../../outside/secret.txt": "E012",
    "parent/../x": "E012",
    "broken": "E021",
    "SKILL.MD": "E021",  # case tricks on a case-sensitive file system
    "REFERENCES/gadgets.md": "E021",
    "..\\outside\\secret.txt": "E021",  # a backslash is a name character here
    "%2e%2e/outside/secret.txt": "E021",  # no percent-decoding of paths
    "\uff0e\uff0e/outside/secret.txt": "E021",  # fullwidth dots
    "....//secret.txt": "E021",
    "~/secret.txt": "E021",
    "references": "E021",  # a folder
    "": "E100",  # must not be empty, as show --file ''
}


@pytest.mark.parametrize("path", list(OPEN_REFUSED))
def test_open_refuses(skc: Run, hostile: Path, path: str) -> None:
    proc = skc("open", "demo", path)
    assert_clean_failure(proc, OPEN_REFUSED[path])
    assert SECRET not in proc.stdout + proc.stderr


def test_open_refuses_absolute_paths(skc: Run, hostile: Path, outside: Path) -> None:
    for path in (outside / "secret.txt", hostile / "SKILL.md", Path("/etc/passwd")):
        proc = skc("open", "demo", str(path))
        assert_clean_failure(proc, "E012")
        assert SECRET not in proc.stdout


@pytest.mark.parametrize(
    "path", [LONG, f"references/{LONG}", DEEP, "loop1", "selfloop", "loop1/x.md"]
)
def test_open_fails_cleanly_on_impossible_paths(skc: Run, hostile: Path, path: str) -> None:
    """Names too long for the file system and symlink loops: no such file (E021)."""
    proc = skc("open", "demo", path)
    assert_clean_failure(proc, "E021")
    assert str(hostile) not in proc.stderr  # the OS error's absolute path is not shown


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("in1", "# Gadgets"),
        ("abs_in.md", "# Gadgets"),
        ("self/self/references/gadgets.md", "# Gadgets"),
        ("references/../SKILL.md", "# Demo"),
        ("parent/demo/notes.txt", "sprockets"),  # leaves through '..', comes back in
        ("references/.up/demo/notes.txt", "sprockets"),
    ],
)
def test_open_follows_links_that_stay_inside(
    ok: Run, hostile: Path, path: str, expected: str
) -> None:
    # '.up' is hidden: served only when asked for (DECISIONS "Gateway and index")
    hidden = ("--hidden",) if "/." in f"/{path}" else ()
    assert expected in ok("open", "demo", path, *hidden).stdout


# -- sources --dir ------------------------------------------------------------------------------

DIR_REFUSED = {
    "..": "E012",
    "../..": "E012",
    "references/../..": "E012",
    "outdir": "E012",
    ".outdir": "E012",
    "parent": "E012",
    "references/.up": "E012",
    "loop1": "E022",
    "broken": "E022",
    "SKILL.md": "E022",
    "REFERENCES": "E022",
    "%2e%2e": "E022",
}


@pytest.mark.parametrize("directory", list(DIR_REFUSED))
def test_sources_dir_refuses(skc: Run, hostile: Path, directory: str) -> None:
    proc = skc("sources", "demo", "--dir", directory)
    assert_clean_failure(proc, DIR_REFUSED[directory])
    assert "secret" not in proc.stdout


def test_sources_dir_refuses_absolute_and_impossible(
    skc: Run, hostile: Path, outside: Path
) -> None:
    for directory in (str(outside), str(hostile), "/"):
        assert_clean_failure(skc("sources", "demo", "--dir", directory), "E012")
    for directory in (LONG, DEEP, "selfloop"):
        assert_clean_failure(skc("sources", "demo", "--dir", directory), "E022")


def test_sources_lists_no_file_outside(ok: Run, hostile: Path) -> None:
    data = json.loads(ok("sources", "demo", "--format", "json").stdout)
    names: list[str] = []

    def walk(node: dict[str, object]) -> None:
        names.append(str(node["path"]))
        for child in node.get("children", []):  # type: ignore[attr-defined]
            walk(child)

    walk(data["tree"])
    assert not any("secret" in name or name.startswith(("outdir", "parent")) for name in names)
    for directory in ("self", "references/..", "../demo", "self/references"):
        assert "secret" not in ok("sources", "demo", "--dir", directory).stdout


# -- show --file --------------------------------------------------------------------------------

FILE_REFUSED = {
    "../x.md": "E012",
    "references/../../x.md": "E012",
    ".out.md": "E012",
    ".outdir/secret.md": "E012",
    "references/.up/../../outside/secret.md": "E012",
    "nothing.md": "E021",
    "references": "E021",
    "REFERENCES/GADGETS.MD": "E021",
    "..\\x.md": "E021",
}


@pytest.mark.parametrize("file", list(FILE_REFUSED))
def test_show_file_refuses(skc: Run, hidden_links: Path, file: str) -> None:
    for section in ("Secret", "Gadgets"):
        proc = skc("show", "demo", "--section", section, "--file", file)
        assert_clean_failure(proc, FILE_REFUSED[file])
        assert SECRET not in proc.stdout


def test_show_file_refuses_absolute_and_impossible(
    skc: Run, hidden_links: Path, outside: Path
) -> None:
    for file in (outside / "secret.md", hidden_links / "references" / "gadgets.md"):
        assert_clean_failure(skc("show", "demo", "--section", "Secret", "--file", str(file)))
    for file in (LONG, DEEP):
        assert_clean_failure(skc("show", "demo", "--section", "Gadgets", "--file", file), "E021")


def test_show_file_inside_through_dots(ok: Run, hidden_links: Path) -> None:
    shown = ok(
        "show", "demo", "--section", "Gadget API", "--file", "references/../references/gadgets.md"
    )
    assert shown.stdout.startswith("## Gadget API")


# -- build --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "make",
    [
        pytest.param(lambda s, o: _link(s / "abs_out.txt", o / "secret.txt"), id="file-absolute"),
        pytest.param(
            lambda s, o: _link(s / "rel.txt", os.path.relpath(o / "secret.txt", s)),
            id="file-relative",
        ),
        pytest.param(lambda s, o: _link(s / "outdir", o), id="folder"),
        pytest.param(lambda s, o: _link(s / "references" / "deep", "../../../.."), id="folder-up"),
        pytest.param(
            lambda s, o: (_link(s / "c1", "c2"), _link(s / "c2", o / "secret.md")), id="chain"
        ),
        pytest.param(
            lambda s, o: (
                _link(s / "dirlink", "references"),
                _link(s / "references" / "x.md", o / "secret.md"),
            ),
            id="through-folder-link",
        ),
        pytest.param(lambda s, o: _link(s / "parent", ".."), id="parent-folder"),
        pytest.param(lambda s, o: _link(s / "dangling", o / "not-there"), id="dangling-outside"),
    ],
)
def test_build_refuses_escaping_symlinks(
    skc: Run,
    demo: Path,
    runtime: Path,
    outside: Path,
    project: Path,
    make: Callable[[Path, Path], object],
) -> None:
    before = tree_snapshot(runtime)
    make(demo, outside)
    proc = skc("build", "demo")
    assert_clean_failure(proc, "E012")
    after = tree_snapshot(runtime)
    after.pop(".skillc-meta/logs.db", None)
    before.pop(".skillc-meta/logs.db", None)
    assert after == before  # nothing written but the log row
    assert not list(runtime.parent.glob(".demo.build.*"))  # no staging left behind


def test_build_refuses_an_escaping_skill_md(skc: Run, project: Path, outside: Path) -> None:
    source = project / ".skillc" / "skills" / "evil"
    (project / ".skillc").mkdir()
    source.mkdir(parents=True)
    (outside / "SKILL.md").write_text(skill_md("evil", SECRET, "# Evil\n"), encoding="utf-8")
    _link(source / "SKILL.md", outside / "SKILL.md")
    proc = skc("build", "evil")
    assert_clean_failure(proc)
    assert SECRET not in proc.stdout
    assert not (project / ".skillc" / "runtime" / "evil" / "SKILL.md").exists()


def test_import_refuses_escaping_symlinks_before_copying(
    skc: Run, project: Path, outside: Path, tmp_path: Path
) -> None:
    (project / ".skillc").mkdir()
    draft = tmp_path / "drafts" / "drafty"
    write_tree(draft, {"SKILL.md": skill_md("drafty", "Use when drafting.", "# Drafty\n")})
    _link(draft / "leak", outside)
    assert_clean_failure(skc("build", str(draft)), "E012")
    assert not (project / ".skillc" / "skills" / "drafty").exists()
    runtime = project / ".skillc" / "runtime" / "drafty"
    assert not (runtime / "SKILL.md").exists()  # at most the log row of the failed build


def test_build_takes_inside_links_and_skips_loops(
    ok: Run, skc: Run, demo: Path, outside: Path
) -> None:
    _link(demo / "in.md", "references/gadgets.md")
    _link(demo / "refs", "references")
    _link(demo / "self", ".")
    _link(demo / "loop1", "loop2")
    _link(demo / "loop2", "loop1")
    _link(demo / "selfloop", "selfloop")
    _link(demo / "references" / "back", "..")
    _link(demo / ".hidden-out", outside)  # hidden: not a source, so no escape
    data = json.loads(ok("build", "demo", "--format", "json").stdout)
    assert data["files"] < 20  # loops walked once, not forever
    assert ok("search", "demo", "gadget").stdout
    assert ok("search", "demo", SECRET).stdout == f"No section matches '{SECRET}'.\n"
    assert_clean_failure(skc("open", "demo", ".hidden-out/secret.txt"), "E012")


# -- lint links (SKL303) ------------------------------------------------------------------------

ESCAPING_LINKS = [
    "../secret.md",
    "../../outside/secret.md",
    "./../secret.md",
    "references/../../secret.md",
    "%2e%2e/secret.md",
    "%2E%2E%2Fsecret.md",
    "..%2fsecret.md",
    "<../with space.md>",
    "../secret.md#anchor",
    "../secret.md?query",
    "references/../../../../../../../etc/passwd",
]


def test_lint_flags_every_escaping_link(skc: Run, demo: Path) -> None:
    body = "# Demo\n\n" + "".join(f"- [l{n}]({t})\n" for n, t in enumerate(ESCAPING_LINKS))
    body += "\n".join(
        [
            "",
            "![image](../../x.png)",
            "[ref link][r]",
            "",
            "[r]: ../ref-def.md",
            "",
        ]
    )
    (demo / "SKILL.md").write_text(skill_md("demo", "Use when linting.", body), encoding="utf-8")
    proc = skc("lint", "demo", "--format", "json")
    assert proc.returncode == 1, proc.stderr
    found = json.loads(proc.stdout)
    diagnostics = found["diagnostics"] if isinstance(found, dict) else found[0]["diagnostics"]
    escapes = [d for d in diagnostics if d["rule"] == "SKL303"]
    assert len(escapes) == len(ESCAPING_LINKS) + 2, json.dumps(diagnostics, indent=1)


def test_lint_survives_hostile_targets_and_symlinks(skc: Run, hostile: Path) -> None:
    body = "# Demo\n\n" + "".join(
        f"- [x]({t})\n"
        for t in ["a%00b.md", f"{LONG}.md", f"{DEEP}.md", "loop1", "selfloop", "self/SKILL.md"]
    )
    (hostile / "SKILL.md").write_text(skill_md("demo", "Use when linting.", body), encoding="utf-8")
    proc = skc("lint", "demo")
    assert proc.returncode in (0, 1) and "Traceback" not in proc.stderr, proc.stderr
    assert "error[E999]" not in proc.stdout + proc.stderr
    assert SECRET not in proc.stdout + proc.stderr


# Lexically inside the skill, really outside it (a symlink on the way points out).
THROUGH_ESCAPING_SYMLINKS = [
    "abs_out.txt",
    "rel_out.txt",
    "outdir/secret.txt",
    "outdir",
    "chain1",
    ".out.md",
    ".outdir/secret.md#secret",
    "references/.up/x.md",
]
# Through symlinks too, but ending inside the skill.
THROUGH_INSIDE_SYMLINKS = [
    "in1",
    "abs_in.md",
    "self/SKILL.md",
    "parent/demo/notes.txt",
    "references/.up/demo/references/gadgets.md",
]


def test_lint_flags_links_through_escaping_symlinks(skc: Run, hostile: Path) -> None:
    """Lint judges a link by where it really resolves (as build judges the skill, E012): SKL303
    for each link through an escaping symlink, and for each escaping symlink of the skill."""
    links = THROUGH_ESCAPING_SYMLINKS + THROUGH_INSIDE_SYMLINKS
    body = "# Demo\n\n" + "".join(f"- [l{n}]({t})\n" for n, t in enumerate(links))
    (hostile / "SKILL.md").write_text(skill_md("demo", "Use when linting.", body), encoding="utf-8")
    proc = skc("lint", "demo", "--format", "json")
    assert proc.returncode == 1, proc.stderr
    assert SECRET not in proc.stdout + proc.stderr
    found = json.loads(proc.stdout)
    diagnostics = found["diagnostics"] if isinstance(found, dict) else found[0]["diagnostics"]
    escapes = [d for d in diagnostics if d["rule"] == "SKL303"]
    assert [d["message"] for d in escapes if d["file"] == "SKILL.md"] == [
        f"link escapes the skill root: '{target}'" for target in THROUGH_ESCAPING_SYMLINKS
    ], json.dumps(diagnostics, indent=1)
    symlinks = ["abs_out.txt", "chain1", "chain2", "outdir", "parent", "rel_out.txt"]
    assert [(d["file"], d["message"]) for d in escapes if d["file"] != "SKILL.md"] == [
        (name, f"symlink escapes the skill root: '{name}'") for name in symlinks
    ]
    # inside links all resolve, but one through a second link to a folder (self -> .) and one
    # through a hidden one (references/.up): no part of the skill, never packaged
    assert [d["message"] for d in diagnostics if d["rule"] == "SKL301"] == [
        "link target is never packaged: 'self/SKILL.md' (reached through 'self', a second link"
        " to a folder the skill has)",
        "link target is never packaged: 'references/.up/demo/references/gadgets.md' (hidden)",
    ]
    text = skc("lint", "demo")
    assert text.returncode == 1 and "Traceback" not in text.stderr, text.stderr
    assert SECRET not in text.stdout + text.stderr


def test_lint_refuses_an_escaping_skill_md(skc: Run, project: Path, outside: Path) -> None:
    source = project / ".skillc" / "skills" / "evil"
    source.mkdir(parents=True)
    body = f"## {SECRET}\n\n[x]({SECRET}.md)\n"
    (outside / "SKILL.md").write_text(skill_md("evil", SECRET, body), encoding="utf-8")
    _link(source / "SKILL.md", outside / "SKILL.md")
    for args in (("lint", "evil"), ("lint", "evil", "--format", "json")):
        proc = skc(*args)
        assert_clean_failure(proc, "E012")
        assert SECRET not in proc.stdout + proc.stderr
    proc = skc("lint")  # every skill of the project store
    assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert "error[E012]: path escapes skill root: " in proc.stderr
    assert SECRET not in proc.stdout + proc.stderr


def test_no_command_printed_the_secret_in_logs(
    ok: Run, skc: Run, hostile: Path, runtime: Path
) -> None:
    for args in (("open", "demo", "outdir/secret.txt"), ("sources", "demo", "--dir", "outdir")):
        skc(*args)
    assert SECRET.encode() not in (runtime / ".skillc-meta" / "logs.db").read_bytes()
    assert_ok(ok("outline", "demo"))


# -- names that are not UTF-8 -------------------------------------------------------------------

LATIN1 = os.fsdecode(b"caf\xe9.md")  # the name as Python holds it: 'caf\udce9.md'


def test_file_names_that_are_not_utf8_are_built_and_served(ok: Run, demo: Path) -> None:
    """A Latin-1 file name: built (the index keeps its bytes), found by ``show`` (with and
    without ``--file``), ``open``, ``search``; JSON output (valid UTF-8) shows it with U+FFFD."""
    (demo / LATIN1).write_text("# Cafe\n\n## Menu\n\nespresso and croissants\n", "utf-8")
    (demo / os.fsdecode(b"n\xff.md")).write_text("no heading, just espresso\n", "utf-8")
    ok("build", "demo")
    assert "up to date" in ok("build", "demo").stdout
    assert ok("show", "demo", "--section", "Menu").stdout.startswith("## Menu\n")
    shown = ok("show", "demo", "--section", "Menu", "--file", LATIN1, "--format", "json")
    assert json.loads(shown.stdout)["file"] == "caf\ufffd.md"
    assert "croissants" in ok("open", "demo", LATIN1).stdout
    found = json.loads(ok("search", "demo", "espresso", "--format", "json").stdout)
    assert {hit["file"] for hit in found["results"]} == {"caf\ufffd.md", "n\ufffd.md"}
    assert "caf\ufffd.md" in ok("sources", "demo", "--format", "json").stdout
    assert "caf\ufffd.md" in ok("outline", "demo", "--format", "json").stdout
    assert ok("stats", "demo", "--format", "json").stdout  # valid UTF-8 JSON


def test_a_project_folder_that_is_not_utf8(ok: Run, skc: Run, tmp_path: Path) -> None:
    folder = tmp_path / os.fsdecode(b"proj\xe9")
    source = folder / ".skillc" / "skills" / "demo"
    write_tree(source, {"SKILL.md": skill_md("demo", "Use when testing.", "# Demo\n\ntext\n")})
    ok("build", "demo", cwd=folder)
    assert "up to date" in ok("build", "demo", cwd=folder).stdout
    assert "text" in ok("show", "demo", "--section", "Demo", cwd=folder).stdout
    assert ok("search", "demo", "text", cwd=folder).stdout.startswith("SKILL.md#Demo")
    stats = json.loads(ok("stats", "demo", "--format", "json", cwd=folder).stdout)
    assert stats, stats
