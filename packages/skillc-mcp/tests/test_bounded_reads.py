"""MCP ``skc_open`` and ``skc_show`` replies are bounded by default (issue 13): at most 500 lines
and 100,000 characters, with ``truncated`` and the ``next_offset`` to continue from; the CLI
is unchanged."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from mcp import Client

from skillc_mcp_testing import WireClient, call, sdk_session

# -- skc_open, skc_show: bounded replies -----------------------------------------------------


def test_open_and_show_replies_are_bounded_and_can_be_continued(
    server_command: list[str], project: Path, env: dict[str, str]
) -> None:
    skill = project / ".skillc" / "skills" / "demo"
    numbered = "".join(f"line {n}\n" for n in range(1, 1201))
    (skill / "references" / "long.txt").write_text(numbered, encoding="utf-8")
    wide = "".join(f"{n:05d}" + "w" * 9_994 + "\n" for n in range(1, 31))  # 30 x 10,000 chars
    (skill / "references" / "wide.txt").write_text(wide, encoding="utf-8")
    (skill / "references" / "one-line.txt").write_text("x" * 300_000, encoding="utf-8")
    section = "## Big\n\n" + "".join(f"row {n}\n" for n in range(1, 701))
    text = (skill / "SKILL.md").read_text(encoding="utf-8") + "\n" + section
    (skill / "SKILL.md").write_text(text, encoding="utf-8")

    async def body(client: Client) -> dict[str, Any]:
        seen: dict[str, Any] = {}
        assert not (await call(client, "skc_build", {"skill": "demo"}))[0]
        long = {"skill": "demo", "path": "references/long.txt"}
        seen["open"] = (await call(client, "skc_open", long))[1]
        parts = [seen["open"]["content"]]
        offset = seen["open"].get("next_offset")
        while offset is not None:
            _, more = await call(client, "skc_open", {**long, "offset": offset})
            parts.append(more["content"])
            offset = more.get("next_offset")
        seen["open_joined"] = "".join(parts)
        seen["open_small"] = (
            await call(client, "skc_open", {**long, "offset": 1190, "max_lines": 5})
        )[1]
        seen["open_all"] = (await call(client, "skc_open", {**long, "max_lines": 5000}))[1]
        for name in ("wide", "one-line", "notes"):
            path = {"skill": "demo", "path": f"references/{name}.txt"}
            seen[name] = (await call(client, "skc_open", path))[1]
        big = {"skill": "demo", "section": "Big"}
        seen["show"] = (await call(client, "skc_show", big))[1]
        seen["show_rest"] = (
            await call(client, "skc_show", {**big, "offset": seen["show"]["next_offset"]})
        )[1]
        return seen

    seen = sdk_session(server_command, project, env, body)
    first = seen["open"]
    assert first["truncated"] is True
    assert first["shown_lines"] == 500  # the default max_lines
    assert first["total_lines"] == 1200
    assert first["content"] == "".join(f"line {n}\n" for n in range(1, 501))
    assert first["offset"] == 0
    assert first["next_offset"] == 500
    assert seen["open_joined"] == numbered
    small = seen["open_small"]
    assert small["content"] == "".join(f"line {n}\n" for n in range(1191, 1196))
    assert (small["offset"], small["next_offset"], small["truncated"]) == (1190, 1195, True)
    everything = seen["open_all"]
    assert everything["content"] == numbered  # asked for: 12 KB is under the size cap
    assert everything["truncated"] is False
    assert "next_offset" not in everything
    wide_reply = seen["wide"]  # whole lines until the character cap
    assert wide_reply["truncated"] is True
    assert 0 < len(wide_reply["content"]) <= 100_000
    assert wide_reply["content"].endswith("\n")
    assert wide_reply["next_offset"] == wide_reply["shown_lines"]
    one = seen["one-line"]  # a single line longer than the cap is cut
    assert one["truncated"] is True
    assert len(one["content"]) == 100_000
    assert "next_offset" not in one  # nothing more to read line by line
    assert seen["notes"]["content"] == "one\ntwo\nthree\n"
    assert seen["notes"]["truncated"] is False
    show = seen["show"]
    assert show["section"] == "Big"
    assert show["truncated"] is True
    assert show["shown_lines"] == 500
    assert show["content"].startswith("## Big\n")
    rest = seen["show_rest"]
    assert rest["truncated"] is False
    assert rest["offset"] == 500
    assert rest["content"].endswith("row 700\n")
    assert show["content"] + rest["content"] == section


def test_the_cli_open_is_not_bounded(project: Path, cli: Any) -> None:
    """The bound is the MCP server's: ``open`` (skillc-gateway's CLI, which ``skc open`` runs)
    prints the whole file as before."""
    skill = project / ".skillc" / "skills" / "demo"
    numbered = "".join(f"line {n}\n" for n in range(1, 1201))
    (skill / "references" / "long.txt").write_text(numbered, encoding="utf-8")
    result = cli("skillc_gateway")("open", "demo", "references/long.txt")
    assert result.returncode == 0, result.stderr
    assert result.stdout == numbered


def test_an_outline_reply_is_bounded_with_a_warning(
    server_command: list[str], project: Path, env: dict[str, str]
) -> None:
    """A skill with thousands of headings (the corpus has one of 1,306: 150 KB of JSON) gets
    the first headings that fit in 100,000 characters, and a warning naming `level`."""
    skill = project / ".skillc" / "skills" / "demo"
    many = "".join(f"## Topic number {n} of a long reference\n\ntext\n\n" for n in range(3000))
    (skill / "references" / "many.md").write_text(f"# Many\n\n{many}", encoding="utf-8")

    async def body(client: Client) -> dict[str, Any]:
        return {
            "all": (await call(client, "skc_outline", {"skill": "demo"}))[1],
            "top": (await call(client, "skc_outline", {"skill": "demo", "level": 1}))[1],
        }

    seen = sdk_session(server_command, project, env, body)
    headings = seen["all"]["headings"]
    assert 500 < len(headings) < 3000
    assert len(str(headings)) < 110_000  # the JSON of the headings, about
    [warning] = seen["all"]["warnings"]
    assert f"outline cut at {len(headings):,} of " in warning and "`level`" in warning
    assert "warnings" not in seen["top"]  # the top level alone fits
    assert [h["text"] for h in seen["top"]["headings"]][-1] == "Many"


def test_an_outline_of_many_files_keeps_to_the_bound(wire: WireClient, project: Path) -> None:
    """``files`` was never cut: 3,000 long names made a reply of 218,142 characters. Then the
    files were fitted first and left no room for a heading: SKILL.md's were dropped too, as
    "too long alone", with advice (``level``) that changed nothing (audit bigskill, item 3).
    Files and headings are fitted together, the longer list trimmed first: the first files
    and headings that fit are kept, in order, SKILL.md's headings first of all (a
    ``GUIDE.md`` sorts before it), and one warning counts both."""
    skill = project / ".skillc" / "skills" / "demo"
    refs = skill / "refs"
    refs.mkdir()
    for n in range(3000):
        name = f"file-with-a-rather-long-name-for-testing-purposes-number-{n:04d}.md"
        (refs / name).write_text(f"# T {n}\n", encoding="utf-8")
    guide = "".join(f"# Guide part {n} of a long one\n\ntext\n\n" for n in range(3000))
    (skill / "GUIDE.md").write_text(guide, encoding="utf-8")

    wire.initialize()
    answer = wire.call("skc_outline", {"skill": "demo", "level": 1})
    reply = answer["structuredContent"]
    assert len(answer["content"][0]["text"]) <= 100_000  # its warning too (was 100,2xx)
    files, headings = reply["files"], reply["headings"]
    assert 300 < len(files) < 3000 and 300 < len(headings) < 6002
    every = sorted(
        [f"refs/{p.name}" for p in refs.iterdir()]
        + [p.relative_to(skill).as_posix() for p in skill.rglob("*.md") if p.parent != refs]
    )
    assert files == every[: len(files)]  # the first ones, in path order
    assert [h["text"] for h in headings if h["file"] == "SKILL.md"] == ["Demo"]
    [warning] = reply["warnings"]
    cut = f"outline cut at {len(files):,} of {len(every):,} files and {len(headings):,} of 6,002"
    assert warning.startswith(f"warning: {cut}") and "skc_sources" in warning
    assert "`level`" not in warning and "too long alone" not in warning
    reply = wire.call("skc_outline", {"skill": "demo"})["structuredContent"]
    texts = [h["text"] for h in reply["headings"] if h["file"] == "SKILL.md"]
    assert texts == ["Demo", "Install", "Usage", "Usage notes"]
    assert "`level`" in reply["warnings"][0]


def test_a_sources_reply_is_bounded_with_a_warning(
    server_command: list[str], project: Path, env: dict[str, str]
) -> None:
    """``limit: 0`` lists every entry (issue 32), as many as fit in 100,000 characters of
    JSON, SKILL.md first; a warning says it was cut."""
    skill = project / ".skillc" / "skills" / "demo"
    data = skill / "data"
    data.mkdir()
    for n in range(2500):
        (data / f"measurement-series-{n:05d}-of-the-long-running-experiment.csv").touch()

    async def body(client: Client) -> dict[str, Any]:
        return {
            "all": (await call(client, "skc_sources", {"skill": "demo", "limit": 0}))[1],
            "top": (await call(client, "skc_sources", {"skill": "demo", "depth": 1, "limit": 0}))[
                1
            ],
        }

    seen = sdk_session(server_command, project, env, body)
    tree = seen["all"]["tree"]
    assert [child["path"] for child in tree["children"]][:2] == ["SKILL.md", "data"]
    shown = len(tree["children"][1]["children"])
    assert 500 < shown < 2500
    assert tree["truncated"] == 2500 - shown + 3  # and references/ with its two files
    assert len(json.dumps(tree)) < 101_000
    [warning] = seen["all"]["warnings"]
    assert f"sources cut at {shown + 2:,} of 2,505 entries" in warning and "`depth`" in warning
    assert "warnings" not in seen["top"]  # the top level alone fits
    assert seen["top"]["tree"]["truncated"] == 0


def test_sources_of_a_chain_of_folders_600_deep(wire: WireClient, project: Path) -> None:
    """``skc_sources`` of a skill with a file 600 folders down was E999 RecursionError: the
    tree is collapsed 50 levels down, within what JSON parsers nest."""
    skill = project / ".skillc" / "skills" / "demo"
    deep = skill.joinpath(*["a"] * 600)
    deep.mkdir(parents=True)
    (deep / "b.md").write_text("# B\n", encoding="utf-8")
    wire.initialize()
    top = wire.call("skc_sources", {"skill": "demo", "depth": 1})
    assert not top.get("isError"), top
    assert top["structuredContent"]["tree"]["children"][1] == {
        "name": "a",
        "path": "a",
        "type": "directory",
        "file_count": 1,
    }
    every = wire.call("skc_sources", {"skill": "demo", "limit": 0})
    assert not every.get("isError"), every
    node, levels = every["structuredContent"]["tree"], 0
    while "children" in node:
        node, levels = node["children"][1 if levels == 0 else 0], levels + 1
    assert levels == 50 and node["file_count"] == 1


def test_lint_and_search_replies_are_bounded_with_a_warning(
    wire: WireClient, project: Path
) -> None:
    """``skc_lint`` of a skill with thousands of findings (8.6 MB for 30,300 broken links) and
    ``skc_search`` with a large ``limit`` (1.2 MB for 5,000 sections) hold the whole items
    that fit in 100,000 characters of JSON, as ``skc_outline`` does, and a warning saying how
    many were left out; lint's counts still count them all. (Lint shows at most 100 findings
    of a rule in one skill, then one counting the rest: long broken links make those 101
    findings larger than the bound.)"""
    skill = project / ".skillc" / "skills" / "demo"
    text = (skill / "SKILL.md").read_text(encoding="utf-8")
    links = "".join(f"See [x](nope{j}-{'x' * 1500}.md) here.\n" for j in range(200))
    (skill / "SKILL.md").write_text(f"{text}\n## Refs\n\n{links}", encoding="utf-8")
    many = "".join(f"## Widget topic {n}\n\nwidget text {n}\n\n" for n in range(1000))
    (skill / "references" / "many.md").write_text(f"# Many\n\n{many}", encoding="utf-8")
    wire.initialize()

    lint = wire.call("skc_lint", {"skill": "demo", "select": ["SKL301"]})["structuredContent"]
    shown = len(lint["diagnostics"])
    assert 20 < shown < 101
    assert len(json.dumps(lint["diagnostics"])) < 101_000
    assert lint["error_count"] + lint["warning_count"] == 101  # every finding counted
    [warning] = lint["warnings"]
    assert f"lint cut at {shown:,} of 101 diagnostics" in warning and "`select`" in warning
    asked = {"skill": "demo", "query": "widget", "limit": 900}
    search = wire.call("skc_search", asked)["structuredContent"]
    shown = len(search["results"])
    assert 100 < shown < 900
    assert len(json.dumps(search["results"])) < 101_000
    [warning] = search["warnings"]
    assert f"search cut at {shown:,} of 900 results" in warning and "`limit`" in warning
    few = wire.call("skc_search", {"skill": "demo", "query": "widget"})["structuredContent"]
    assert len(few["results"]) == 10
    assert "warnings" not in few


def test_a_binary_file_is_served_in_base64_and_as_an_embedded_resource(
    server_command: list[str], project: Path, env: dict[str, str]
) -> None:
    """``skc_open`` of a binary file was E999 (issue 32): its bytes come in base64 with its
    size, in the structured content (and its JSON text) and as an embedded resource `blob`
    with its MIME type; one larger than the reply holds (75,000 bytes of base64's 100,000
    characters) is E023."""
    import base64

    skill = project / ".skillc" / "skills" / "demo"
    picture = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR" + bytes(range(256)) * 4
    (skill / "logo.png").write_bytes(picture)
    (skill / "big.bin").write_bytes(b"\0" * 75_001)
    (skill / "fits.bin").write_bytes(b"\0" * 75_000)

    async def body(client: Client) -> dict[str, Any]:
        seen: dict[str, Any] = {}
        for name in ("logo.png", "fits.bin", "big.bin"):
            result = await client.call_tool("skc_open", {"skill": "demo", "path": name})
            seen[name] = result
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
        seen["schema"] = tools["skc_open"].output_schema
        return seen

    seen = sdk_session(server_command, project, env, body)
    logo = seen["logo.png"]
    assert not logo.is_error
    data = logo.structured_content
    import jsonschema

    jsonschema.Draft202012Validator(seen["schema"]).validate(data)
    assert data == {
        "skill": "demo",
        "path": "logo.png",
        "encoding": "base64",
        "mime_type": "image/png",
        "size": len(picture),
        "content": base64.b64encode(picture).decode("ascii"),
        "truncated": False,
    }
    text, embedded = logo.content
    assert json.loads(text.text) == data  # type: ignore[union-attr]
    resource = embedded.resource  # type: ignore[union-attr]
    assert (resource.mime_type, str(resource.uri)) == ("image/png", (skill / "logo.png").as_uri())
    assert base64.b64decode(resource.blob) == picture
    assert seen["fits.bin"].structured_content["size"] == 75_000
    big = seen["big.bin"]
    assert big.is_error
    assert big.content[0].text.startswith("error[E023]: file too large: 'big.bin'\nhint: ")


def test_a_find_reply_is_bounded_with_descriptions_cut(
    server_command: list[str], project: Path, env: dict[str, str]
) -> None:
    """``skc_find`` replies had no bound: 40 skills with long descriptions made 4.8 MB
    (issue 32). The JSON keeps to 100,000 characters: the longest descriptions are cut to
    what fits, with a marker, and a warning says so; short ones stay whole."""
    library = project / "library"  # a model searches the project's folders, not any
    for n in range(40):
        folder = library / f"widget-tool-{n:02d}"
        folder.mkdir(parents=True)
        words = " ".join(f"widget{n}x{k}" for k in range(4000)) if n else "Short gadget."
        (folder / "SKILL.md").write_text(
            f"---\nname: widget-tool-{n:02d}\ndescription: Widgets {words}\n---\n\n# Widgets\n",
            encoding="utf-8",
        )

    async def body(client: Client) -> dict[str, Any]:
        query = {"query": "widgets gadget", "limit": 40, "path": [str(library)]}
        result = await client.call_tool("skc_find", query)
        _, checked = await call(client, "skc_find", query)
        return {"result": result, "checked": checked}

    seen = sdk_session(server_command, project, env, body)
    data = seen["checked"]
    assert len(json.dumps(data, ensure_ascii=False)) <= 100_000
    by_name = {Path(skill["path"]).name: skill["description"] for skill in data["skills"]}
    long = {name: text for name, text in by_name.items() if name != "widget-tool-00"}
    assert len(long) >= 10  # (the ranker reads 20 rows of a word most skills hold)
    assert by_name["widget-tool-00"] == "Widgets Short gadget."  # short: whole
    for name, text in long.items():
        assert text.startswith(f"Widgets widget{int(name[-2:])}x0 ") and text.endswith("…")
        assert 1_000 < len(text) < 100_000 // len(long)
    [warning] = [w for w in data["warnings"] if "cut" in w]
    assert f"descriptions of {len(long)} skills cut to " in warning and "100,000" in warning
    text = seen["result"].content[0].text
    assert json.loads(text) == seen["result"].structured_content


def test_a_bounded_find_keeps_a_long_name_whole_that_reads_the_skill(
    server_command: list[str], project: Path, env: dict[str, str]
) -> None:
    """A reply cut to its bound cut each name over 200 characters (its ``path`` whole
    beside it): a skill ``--path`` finds is named by its path, often longer, and the name
    cut read no skill. The name stays whole (``skc list`` shows one whole too), and
    ``skc_outline`` of it reads that skill; only headings and descriptions are cut."""
    library = project / "library" / ("shelf-" + "s" * 120)
    for n in range(12):
        folder = library / (f"walrus-tool-{n:02d}-" + "w" * 60)
        folder.mkdir(parents=True)
        words = " ".join(f"walrus{n}x{k}" for k in range(3000))
        (folder / "SKILL.md").write_text(
            f"---\nname: {folder.name}\ndescription: Walrus {words}\n---\n\n# Walrus\n\n"
            f"## Tusks {n}\n\nwalrus tusks\n",
            encoding="utf-8",
        )

    async def body(client: Client) -> dict[str, Any]:
        query = {"query": "walrus tusks", "limit": 12, "path": [str(library)]}
        _, found = await call(client, "skc_find", query)
        first = found["skills"][0]["name"]
        return {"found": found, "outline": (await call(client, "skc_outline", {"skill": first}))}

    seen = sdk_session(server_command, project, env, body)
    data = seen["found"]
    assert any("descriptions of" in w for w in data["warnings"])  # the reply was cut
    names = [skill["name"] for skill in data["skills"]]
    assert names and all(len(name) > 201 for name in names)
    paths = [Path(skill["path"]).relative_to(project.resolve()) for skill in data["skills"]]
    assert names == [f"./{path}" for path in paths]  # whole: each its path
    failed, outline = seen["outline"]
    assert not failed, outline
    assert [h["text"] for h in outline["headings"]][-1].startswith("Tusks ")


def test_a_cut_find_reply_keeps_the_warnings_of_its_answer(
    server_command: list[str], project: Path, env: dict[str, str]
) -> None:
    """``skc_find`` cuts its reply with its own code (``_find_reply.fit_answer``: headings and
    descriptions cut, not ``Session.fit_parts``' masks of whole items): a reply cut to its
    bound keeps the warnings of the answer beside the cut's (here the project's lookup of
    nested ``.claude/skills`` stopped at 1,000 folders: ``partial``), within the bound."""
    store = project / ".skillc" / "skills"
    for n in range(12):
        folder = store / f"kettle-{n:02d}"
        folder.mkdir(parents=True)
        words = "Water and steam. " * 1_500
        (folder / "SKILL.md").write_text(
            f"---\nname: kettle-{n:02d}\ndescription: Boil kettles {n}. {words}\n---\n\n## Boil\n",
            encoding="utf-8",
        )
    for n in range(1_001):
        (project / "many" / f"d{n:04d}").mkdir(parents=True)

    async def body(client: Client) -> tuple[bool, Any]:
        return await call(client, "skc_find", {"query": "boil kettles water", "limit": 12})

    failed, data = sdk_session(server_command, project, env, body)
    assert not failed, data
    assert len(json.dumps(data, ensure_ascii=False)) <= 100_000
    assert len(data["skills"]) == 12 and data["partial"] is True
    nested, cut = data["warnings"]
    assert "holds more than 1,000 folders within 3 levels" in nested
    assert cut.startswith("warning: find's reply cut to its limit of 100,000 characters: ")
