"""The reading commands as operations (``skillc_gateway.operations``): the same result for
the CLI and the MCP server, paging, and the access row each logs (issue 14)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from skillc_gateway.operations import (
    OPEN,
    SEARCH,
    SHOW,
    SOURCES,
    OpenParams,
    SearchParams,
    ShowParams,
    SourcesParams,
)
from skillc_index import Layout, ResolvedSkill, counted
from skillc_index.accesslog import AccessLog
from skillc_index.build.skill import build_skill
from skillc_index.operation import Session


@pytest.fixture
def session(demo: Path, project: Path, home: Path) -> tuple[Session, list[str]]:
    """A session in the project; the warnings it reports, as text."""
    from skillc_index import format_diagnostic

    warned: list[str] = []

    def warn(diagnostics: Any) -> None:
        warned.extend(format_diagnostic(d) for d in diagnostics)

    layout = Layout.discover(project, {"SKILLC_HOME": str(home)})
    build_skill("demo", layout)
    return Session(layout, AccessLog(warn)), warned


def rows(skill: ResolvedSkill | Path, command: str) -> list[tuple[dict[str, Any], str | None]]:
    runtime = skill.runtime if isinstance(skill, ResolvedSkill) else skill
    with closing(sqlite3.connect(runtime / ".skillc-meta" / "logs.db")) as db, db:
        found = db.execute(
            "SELECT args, error FROM access_log WHERE command = ? ORDER BY id", (command,)
        ).fetchall()
    return [(json.loads(args), error) for args, error in found]


def test_show_pages_from_an_offset(session: tuple[Session, list[str]]) -> None:
    run, _ = session
    whole = SHOW.run(run, ShowParams("demo", "Install"))
    assert whole.page.offset == 0 and whole.page.next_offset is None
    lines = whole.page.content.splitlines(keepends=True)
    first = SHOW.run(run, ShowParams("demo", "Install", max_lines=2))
    assert first.page.content == "".join(lines[:2])
    assert first.to_dict()["next_offset"] == 2
    second = SHOW.run(run, ShowParams("demo", "Install", max_lines=2, offset=2))
    assert second.page.content == "".join(lines[2:4])
    assert second.to_dict()["offset"] == 2 and second.page.shown_lines == 2
    assert second.page.more_lines == len(lines) - 4
    # no line asked for: how long it is, and no offset to read on that would never move
    none = SHOW.run(run, ShowParams("demo", "Install", max_lines=0))
    assert (none.page.content, none.page.truncated, none.page.total_lines) == ("", True, len(lines))
    assert "next_offset" not in none.to_dict()


def test_a_path_in_the_skill_may_be_a_path_object(
    session: tuple[Session, list[str]], resolved: ResolvedSkill
) -> None:
    """``ShowParams(file=Path(...))``, ``OpenParams(path=Path(...))`` and
    ``SourcesParams(dir=Path(...))`` were E100 "must be a string, not an object", and
    ``open_file(skill, Path(...))`` a bare TypeError: a path inside the skill (``Param``'s
    ``in_skill``) takes an ``os.PathLike``, read as its ``str``; still confined to the skill."""
    from skillc_gateway import open_file, show_section, source_tree
    from skillc_index import PathEscapesRoot

    run, _ = session
    api = Path("references/api.md")
    shown = SHOW.run(run, ShowParams("demo", "Endpoints", file=api)).to_dict()
    assert (shown["file"], shown["section"]) == ("references/api.md", "Endpoints")
    assert SHOW.run(run, ShowParams("demo", "Endpoints", file=str(api))).to_dict() == shown
    opened = OPEN.run(run, OpenParams("demo", api)).to_dict()
    assert (opened["path"], opened["content"]) == ("references/api.md", api_text(resolved))
    listed = SOURCES.run(run, SourcesParams("demo", dir=Path("references"))).to_dict()
    assert [child["path"] for child in listed["tree"]["children"]] == [
        "references/api.md",
        "references/notes.txt",
    ]
    assert open_file(resolved, api).text == api_text(resolved)
    assert show_section(resolved, "GET", file=api).file == "references/api.md"
    tree = source_tree(resolved, directory=Path("references"))
    assert tree == source_tree(resolved, directory="references")
    assert [entry.node.path for entry in tree.entries] == [
        "references/api.md",
        "references/notes.txt",
    ]
    with pytest.raises(PathEscapesRoot):
        OPEN.run(run, OpenParams("demo", Path("../demo/../../x.md")))


def api_text(skill: ResolvedSkill) -> str:
    return (skill.source / "references" / "api.md").read_text(encoding="utf-8")


def test_a_reply_limit_cuts_whole_lines(demo: Path, project: Path, home: Path) -> None:
    layout = Layout.discover(project, {"SKILLC_HOME": str(home)})
    (demo / "big.txt").write_text("a" * 40 + "\n" + "b" * 40 + "\n", encoding="utf-8")
    limited = Session(layout, AccessLog(lambda d: None), reply_chars=50)
    result = OPEN.run(limited, OpenParams("demo", "big.txt"))
    assert result.page.content == "a" * 40 + "\n"
    assert result.page.truncated and result.page.next_offset == 1
    tiny = Session(layout, AccessLog(lambda d: None), reply_chars=10)
    cut = OPEN.run(tiny, OpenParams("demo", "big.txt", offset=1))
    assert cut.page.content == "b" * 10 and cut.page.truncated


def test_open_of_a_git_lfs_pointer_warns_and_serves_it_as_it_is(
    demo: Path, project: Path, home: Path, gateway: Any
) -> None:
    """A checkout without ``git lfs pull`` holds 130-byte pointers where its files should be:
    ``open`` served one silently (build and package warn). It is served byte for byte, with
    the warning build and package give: on stderr for the CLI, in the result's warnings (the
    MCP reply's ``warnings``) for the server. A file merely quoting one is no pointer."""
    pointer = f"version https://git-lfs.github.com/spec/v1\noid sha256:{'a' * 64}\nsize 99\n"
    (demo / "form.pdf").write_text(pointer, encoding="utf-8")
    (demo / "notes.txt").write_text(f"{pointer}more\n", encoding="utf-8")
    warning = "demo: form.pdf is a Git LFS pointer (served as it is): `git lfs pull` fetches its"
    layout = Layout.discover(project, {"SKILLC_HOME": str(home)})
    from skillc_index import format_diagnostic

    served = Session(layout, AccessLog(lambda d: None), reply_chars=100_000)
    result = OPEN.run(served, OpenParams("demo", "form.pdf"))
    assert result.page.content == pointer
    assert [format_diagnostic(d) for d in result.warnings] == [f"warning: {warning} content"]
    assert OPEN.run(served, OpenParams("demo", "notes.txt")).warnings == ()
    cli = gateway("open", "demo", "form.pdf")
    assert cli.returncode == 0 and cli.stdout == pointer
    assert cli.stderr == f"warning: {warning} content\n"


def test_search_json_names_the_skill_and_logs_its_count(
    session: tuple[Session, list[str]],
) -> None:
    run, _ = session
    result = SEARCH.run(run, SearchParams("demo", "installer"))
    data = result.to_dict()
    assert data["skill"] == "demo" and data["query"] == "installer"
    assert data["results"]
    from skillc_index import resolve_skill

    skill = resolve_skill("demo", run.layout)
    assert rows(skill, "search")[-1] == (
        {"query": "installer", "limit": 10, "result_count": len(data["results"])},
        None,
    )


def test_a_failed_show_logs_its_error_and_arguments(session: tuple[Session, list[str]]) -> None:
    run, _ = session
    from skillc_index import SectionNotFound, resolve_skill

    with pytest.raises(SectionNotFound):
        SHOW.run(run, ShowParams("demo", "Nowhere", offset=3, hidden=True))
    args, error = rows(resolve_skill("demo", run.layout), "show")[-1]
    assert args == {
        "section": "Nowhere",
        "file": None,
        "max_lines": None,
        "offset": 3,
        "hidden": True,
    }
    assert error is not None and error.startswith("error[E020]")


def test_stale_log_warning_is_given_once_per_access_log(
    session: tuple[Session, list[str]], project: Path
) -> None:
    """W003 (fallback logs over an hour old) once per AccessLog, however many rows."""
    import os
    import time

    from skillc_index import resolve_skill
    from skillc_index.accesslog import fallback_log

    run, warned = session
    skill = resolve_skill("demo", run.layout)
    fallback = fallback_log(run.layout, skill.name)
    fallback.parent.mkdir(parents=True, exist_ok=True)
    fallback.touch()
    old = time.time() - 7200
    os.utime(fallback, (old, old))
    for _ in range(3):
        SHOW.run(run, ShowParams("demo", "Install"))
    assert sum(line.startswith("warning[W003]") for line in warned) == 1


def test_cli_offset_reads_on(
    gateway: Callable[..., Any], session: tuple[Session, list[str]]
) -> None:
    """``skc show --offset``/``skc open --offset`` page like the MCP tools."""
    shown = gateway("show", "demo", "--section", "Install", "--max-lines", "1", "--offset", "1")
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.splitlines()[0] == ""  # line 2 of the section: the blank after it
    data = json.loads(
        gateway(
            "open",
            "demo",
            "references/notes.txt",
            "--offset",
            "1",
            "--max-lines",
            "1",
            "--format",
            "json",
        ).stdout
    )
    assert (data["content"], data["offset"], data["next_offset"]) == ("two\n", 1, 2)
    text = gateway("open", "demo", "references/notes.txt", "--offset", "2")
    assert text.stdout == "three\n"


def test_a_bounded_find_cuts_folders_then_skills(project: Path, home: Path, tmp_path: Path) -> None:
    """Past the descriptions, a reply bound cuts each skill's lists of other folders to 10,
    then leaves the last skills out, and says so (issue 32)."""
    from skillc_gateway.operations import FIND, FindParams

    library = tmp_path / "library"
    for n in range(6):
        for copy in range(15):  # the same skill 15 times: 14 duplicates
            folder = library / f"copy-{copy:02d}-{'x' * 60}" / f"gadget-{n}"
            folder.mkdir(parents=True)
            (folder / "SKILL.md").write_text(
                f"---\nname: gadget-{n}\ndescription: Gadget number {n}.\n---\n\n# Use\n",
                encoding="utf-8",
            )
    layout = Layout.discover(project, {"SKILLC_HOME": str(home)})
    params = FindParams("gadget", 6, (str(library),))
    whole = FIND.run(Session(layout, AccessLog(print)), params).to_dict()
    assert [len(s["duplicates"]) for s in whole["skills"]] == [14] * 6
    size = len(json.dumps(whole, ensure_ascii=False))
    bounded = FIND.run(Session(layout, AccessLog(print), reply_chars=size // 2), params)
    data = bounded.to_dict()
    assert len(json.dumps(data, ensure_ascii=False)) <= size // 2
    assert 0 < len(data["skills"]) < 6
    assert all(len(s["duplicates"]) == 10 for s in data["skills"])
    assert [s["name"] for s in data["skills"]] == [s["name"] for s in whole["skills"]][
        : len(data["skills"])
    ]
    [warning] = data["warnings"]
    assert "the other folders of 6 skills (`duplicates`, `deployed_to`) cut to 10" in warning
    left = counted(6 - len(data["skills"]), "skill")
    assert f"{left} left out (ask for fewer with `limit`)" in warning


def test_a_bounded_find_cuts_long_headings_never_names(
    project: Path, home: Path, tmp_path: Path
) -> None:
    """A skill whose heading is longer than the whole reply emptied it: the loop stopped at
    it and dropped every skill after, and the hint said to ask for fewer even at limit 1.
    Headings are cut to 200 characters, like descriptions, and the rest keep their rank. A
    name is never cut: it was, past 200 characters, its ``path`` whole beside it, and a name
    cut reads no skill (here each name is the skill's path, as ``--path`` names one not
    installed; ``skc list`` shows a name whole too)."""
    from skillc_gateway.operations import FIND, FindParams

    library = tmp_path / "library"
    heading = "walrus " + "x" * 110_000
    name = "walrus-" + "y" * 240  # a folder's name, as find names a skill: at most 255 bytes
    for folder, text in (
        (
            "walrus-heading",
            f"name: walrus-heading\ndescription: Walrus tusk.\n---\n# W\n\n## {heading}",
        ),
        (name, f"name: {name}\ndescription: Walrus tusk walrus.\n---\n# Walrus\n"),
        *(
            (f"gadget-{n}", f"name: gadget-{n}\ndescription: Walrus gadget {n}.\n---\n# Use\n")
            for n in range(4)
        ),
    ):
        (library / folder).mkdir(parents=True)
        (library / folder / "SKILL.md").write_text(f"---\n{text}\n", encoding="utf-8")
    layout = Layout.discover(project, {"SKILLC_HOME": str(home)})
    run = Session(layout, AccessLog(print), reply_chars=100_000)
    whole = FIND.run(
        Session(layout, AccessLog(print)), FindParams("walrus tusk", 6, (str(library),))
    )
    names = [skill.name for skill in whole.skills]  # paths: folders only --path searched
    folders = [Path(n).name for n in names]
    assert len(names) == 6 and {folders[0], folders[1]} == {"walrus-heading", name}
    data = FIND.run(run, FindParams("walrus tusk", 6, (str(library),))).to_dict()
    assert len(json.dumps(data, ensure_ascii=False)) <= 100_000
    assert max(len(n) for n in names) > 201
    assert [s["name"] for s in data["skills"]] == names
    by_name = {Path(s["path"]).name: s for s in data["skills"]}
    assert by_name["walrus-heading"]["sections"][0]["heading"] == heading[:200] + "…"
    assert by_name["gadget-0"]["description"] == "Walrus gadget 0."  # short: whole
    [warning] = data["warnings"]
    assert "the section headings of 1 skill cut to 200 characters" in warning
    assert "name" not in warning
    assert "left out" not in warning and "descriptions" not in warning
    for top in (1, 2):
        data = FIND.run(run, FindParams("walrus tusk", top, (str(library),))).to_dict()
        # (the two walrus skills tie: at limit 1 the one of a long name fits whole)
        assert len(data["skills"]) == top
        assert not any("ask for fewer" in warning for warning in data["warnings"])


def test_a_skill_too_long_alone_is_left_out_not_the_rest() -> None:
    """A skill that cannot fit even alone (a path past the limit) is left out, the ones after
    it kept, and the warning does not ask for fewer skills: fewer would not help."""
    from skillc_gateway._find_reply import fit_answer
    from skillc_gateway.catalog import FindResult, FoundSkill

    def skill(name: str, path: str) -> FoundSkill:
        return FoundSkill(name, "A skill.", path, (), 1.0, (), ())

    found = FindResult(
        "q", (skill("huge", "/" + "p" * 5_000), skill("a", "/a"), skill("b", "/b")), 3, 0, False
    )
    data = fit_answer(found, 4_000).to_dict()
    assert [s["name"] for s in data["skills"]] == ["a", "b"]
    [warning] = data["warnings"]
    assert "1 skill left out: each alone is longer than the limit" in warning
    assert "ask for fewer" not in warning


def test_a_heading_that_fits_with_the_ellipsis_is_whole() -> None:
    """Headings and descriptions are cut as the kit cuts text
    (:func:`skillc_index.text.cut`): to 200 characters and the ellipsis, so a heading of 201
    is whole and not counted as cut (it was cut to 200 and the ellipsis, as long); a name of
    2,000 characters (a path) is whole."""
    from skillc_gateway._find_reply import fit_answer
    from skillc_gateway.catalog import FindResult, FoundSkill, SectionHit

    edge, long, name = "e" * 201, "l" * 5_000, "/" + "n" * 2_000
    found = FindResult(
        "q",
        (
            *(
                FoundSkill(f"s{n}", "A skill.", f"/{n}", (), 1.0, (SectionHit("A.md", h, 1),), ())
                for n, h in enumerate((edge, long))
            ),
            FoundSkill(name, "A skill.", name, (), 1.0, (), ()),
        ),
        3,
        0,
        False,
    )
    data = fit_answer(found, 9_000).to_dict()
    assert [s["sections"][0]["heading"] for s in data["skills"][:2]] == [edge, "l" * 200 + "…"]
    assert data["skills"][2]["name"] == name
    [warning] = data["warnings"]
    assert "the section headings of 1 skill cut to 200 characters (`…`" in warning


def test_an_item_too_long_alone_leaves_out_only_itself(project: Path, home: Path) -> None:
    """A 110,000-character heading first in a skill emptied ``skc_outline`` and
    ``skc_search`` (the reply's bound kept the items before it, none): it alone is left out,
    the headings and results after it kept, and the warning says how many were left out."""
    from skillc_gateway.operations import OUTLINE, OutlineParams

    root = project / ".skillc" / "skills" / "big"
    root.mkdir(parents=True)
    body = "".join(f"## walrus {h}\n\nwalrus text\n\n" for h in ("x" * 110_000, "one", "two"))
    (root / "SKILL.md").write_text(f"---\nname: big\ndescription: Big.\n---\n{body}", "utf-8")
    layout = Layout.discover(project, {"SKILLC_HOME": str(home)})
    run = Session(layout, AccessLog(print), reply_chars=100_000)
    outline = OUTLINE.run(run, OutlineParams("big"))
    assert [h["text"] for h in outline.to_dict()["headings"]] == ["walrus one", "walrus two"]
    [warning] = outline.warnings
    assert "outline cut at 2 of 3 headings" in str(warning) and "1 too long alone" in str(warning)
    found = SEARCH.run(run, SearchParams("big", "walrus", limit=3))
    assert {r["section"] for r in found.to_dict()["results"]} == {"walrus one", "walrus two"}
    [warning] = found.warnings
    assert "search cut at 2 of 3 results" in str(warning) and "1 too long alone" in str(warning)


def test_a_plugins_skill_is_named_in_each_reply_by_the_name_that_reads_it(
    session: tuple[Session, list[str]], demo: Path, home: Path
) -> None:
    """``outline devkit:demo`` (show, search, open, sources: the MCP tools' replies too)
    said ``"skill": "demo"``, the name of the store skill: an agent chaining the reply's
    name read another skill. It is ``devkit:demo``, as ``skc list`` names it."""
    from skillc_gateway.operations import OUTLINE, SOURCES, OutlineParams, SourcesParams

    run, _ = session
    plugin = home / ".claude/plugins/cache/mkt/devkit/1.0"
    (plugin / "skills/demo").mkdir(parents=True)
    (plugin / "skills/demo/SKILL.md").write_text((demo / "SKILL.md").read_text(), "utf-8")
    records = home / ".claude/plugins/installed_plugins.json"
    records.write_text(
        json.dumps({"version": 2, "plugins": {"devkit@mkt": [{"installPath": str(plugin)}]}}),
        encoding="utf-8",
    )
    (home / ".claude/settings.json").write_text('{"enabledPlugins": {"devkit@mkt": true}}')
    named = {"devkit:demo": "devkit:demo", "demo": "demo"}
    # by its path (find's hint reads it so) or its skill:// URI too: the name reads it again
    named |= {str(plugin / "skills/demo"): "devkit:demo", "skill://devkit/demo": "devkit:demo"}
    for given, name in named.items():
        replies = [
            OUTLINE.run(run, OutlineParams(given)),
            SHOW.run(run, ShowParams(given, "Install")),
            SEARCH.run(run, SearchParams(given, "install")),
            OPEN.run(run, OpenParams(given, "SKILL.md")),
            SOURCES.run(run, SourcesParams(given)),
        ]
        assert {reply.to_dict()["skill"] for reply in replies} == {name}


def test_a_skill_its_name_does_not_read_is_named_in_each_reply_by_its_path(
    gateway: Callable[..., Any], demo: Path, project: Path
) -> None:
    """``skc outline .claude/skills/demo --format json`` (a copy other than the project
    store's ``demo``; by its ``skill://`` URI too) said ``"skill": "demo"``: an agent that
    chained it (``skc show demo --section "Clash Only"``) read the store's skill, E020 here,
    the wrong text when both have the section. Each reply names it by its path, which reads
    it again."""
    clash = project / ".claude/skills/demo"
    clash.mkdir(parents=True)
    text = (demo / "SKILL.md").read_text("utf-8")
    (clash / "SKILL.md").write_text(text + "\n## Clash Only\n\nOnly in the copy.\n", "utf-8")
    for given in (".claude/skills/demo", "skill://project-claude/demo/SKILL.md"):
        replies = [
            gateway("outline", given, "--format", "json"),
            gateway("show", given, "--section", "Install", "--format", "json"),
            gateway("search", given, "install", "--format", "json"),
            gateway("open", given, "SKILL.md", "--format", "json"),
            gateway("sources", given, "--format", "json"),
        ]
        assert {json.loads(done.stdout)["skill"] for done in replies} == {".claude/skills/demo"}
    again = gateway("show", ".claude/skills/demo", "--section", "Clash Only", "--format", "json")
    assert "Only in the copy." in json.loads(again.stdout)["content"], again.stderr
    store = gateway("outline", ".skillc/skills/demo", "--format", "json")
    assert json.loads(store.stdout)["skill"] == "demo"  # the store's: its name reads it
