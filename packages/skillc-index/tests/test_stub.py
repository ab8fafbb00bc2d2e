"""The stub's text (RFC-0001:C-STUB, C-SECTIONS, C-CONSTRAINTS, DECISIONS "Stub")."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from skillc_index.build.stub import REFERENCES_LABEL, Reference, render_stub
from skillc_index.markdown.frontmatter import MAX_FRONTMATTER_BYTES


def stub(
    headings: list[tuple[int, str]] | None = None,
    references: list[Reference] | None = None,
    *,
    skill: str = "demo",
    name: str = "demo",
    description: str = "A demo skill.",
) -> str:
    return render_stub(
        skill=skill,
        frontmatter={"name": name, "description": description},
        headings=headings or [],
        references=references or [],
    )


def frontmatter(text: str) -> dict[str, object]:
    assert text.startswith("---\n")
    block, _, _ = text[4:].partition("\n---\n")
    data = yaml.safe_load(block)
    assert isinstance(data, dict)
    return data


def top_sections(text: str) -> list[str]:
    return text.split("## Top Sections\n\n", 1)[1].rstrip("\n").split("\n")


@pytest.mark.parametrize(
    "description",
    [
        'Use when: "quoted" text, colons: and # hashes',
        "line one\nline two\n\nline four",
        "  leading and trailing spaces  ",
        "- looks like a list",
        "[looks, like, flow]",
        "{a: b}",
        "yes",
        "null",
        "123",
        "tab\there and backslash \\ and 'single' quotes",
        "unicode: é 中文 \u2028 separator \x85 next line \ufeff bom",
        "*not an alias* &anchor !tag %directive @at `back`",
        "---\nname: injected\n---",
    ],
)
def test_frontmatter_is_valid_yaml_whatever_the_description(description: str) -> None:
    text = stub(description=description, name="odd: name #1")
    data = frontmatter(text)
    assert data == {"name": "odd: name #1", "description": description}
    # name and description take one line each, whatever they hold
    assert text.split("\n")[3] == "---"
    assert len(text.splitlines()) == len(text.split("\n")) - 1


def test_gateway_notice_mcp_preference_and_cli_examples() -> None:
    text = stub(skill="my-skill")
    assert "Do not read its source files directly" in text
    for tool in ("skc_outline", "skc_show", "skc_search"):
        assert f"`{tool}`" in text
    assert "prefer its tools" in text
    for example in (
        "skc outline my-skill",
        "skc show my-skill --section '<heading>'",
        "skc open my-skill <path>",
        "skc sources my-skill",
        "skc search my-skill",
    ):
        assert example in text


def test_cli_examples_quote_an_unusual_skill_name() -> None:
    text = stub(skill="my skill's")
    assert "skc outline 'my skill'\"'\"'s'" in text


def test_skill_sections_h1_and_h2_only() -> None:
    headings = [(1, "Rust CLI"), (2, "Default Flow"), (3, "Too Deep"), (1, "Advanced"), (2, "Perf")]
    assert top_sections(stub(headings)) == [
        "- Rust CLI",
        "  - Default Flow",
        "- Advanced",
        "  - Perf",
    ]


def test_h2_without_a_preceding_h1_is_top_level() -> None:
    assert top_sections(stub([(2, "Alone"), (1, "Title"), (2, "Child")])) == [
        "- Alone",
        "- Title",
        "  - Child",
    ]


def test_at_most_15_entries_then_overflow() -> None:
    headings = [(1, "Title")] + [(2, f"Section {n}") for n in range(1, 61)]
    lines = top_sections(stub(headings))
    assert len(lines) == 16
    assert lines[0] == "- Title"
    assert lines[14] == "  - Section 14"
    assert lines[15] == "- ... (46 more)"


def test_at_most_12_top_level_headings() -> None:
    headings = [(1, f"Part {n}") for n in range(1, 15)]
    lines = top_sections(stub(headings))
    assert lines[:12] == [f"- Part {n}" for n in range(1, 13)]
    assert lines[12] == "- ... (2 more)"
    assert len(lines) == 13
    # H2s before any H1 are top-level too (at indent 0): 15 of them were listed
    alone = top_sections(stub([(2, f"Step {n}") for n in range(1, 21)]))
    assert alone == [f"- Step {n}" for n in range(1, 13)] + ["- ... (8 more)"]
    # near miss: under an H1 they are its children, 15 entries in all
    children = top_sections(stub([(1, "Guide")] + [(2, f"Step {n}") for n in range(1, 21)]))
    assert len(children) == 16 and children[-1] == "- ... (6 more)"


def test_empty_headings_are_not_listed() -> None:
    assert top_sections(stub([(1, ""), (2, "Kept")])) == ["- Kept"]


def test_references_group() -> None:
    long = "x" * 150
    references = [
        Reference("a.md", "Clap Patterns", "Advanced argument parsing examples"),
        Reference("b/c.md", None, None),
        Reference("d.md", "Long One", long),
        Reference("e.md", "Exactly", "y" * 120),
    ]
    lines = top_sections(stub([(1, "Title")], references))
    assert lines == [
        "- Title",
        f"- {REFERENCES_LABEL}",
        "  - Clap Patterns — Advanced argument parsing examples",
        "  - b/c.md (`skc open demo b/c.md`)",  # no H1: its path, and how to read it
        "  - Long One — " + "x" * 119 + "…",
        "  - Exactly — " + "y" * 120,
    ]


def test_references_overflow() -> None:
    references = [Reference(f"ref-{n:02d}.md", f"Ref {n}", None) for n in range(20)]
    lines = top_sections(stub([(1, "Title")], references))
    assert lines[1] == f"- {REFERENCES_LABEL}"
    assert lines[2:17] == [f"  - Ref {n}" for n in range(15)]
    assert lines[17] == "  - ... (5 more)"


def test_no_references_group_without_other_markdown() -> None:
    assert REFERENCES_LABEL not in stub([(1, "Title")])


def test_line_breaking_characters_never_add_lines() -> None:
    nasty = "a\u2028b\x0bc\x1cd\re\u0085f"
    text = stub(
        [(1, nasty)],
        [Reference("x.md", nasty, nasty)],
        name=nasty,
        description=nasty,
    )
    assert len(text.splitlines()) == len(text.split("\n")) - 1
    assert frontmatter(text)["description"] == nasty


def test_worst_case_stays_under_100_lines() -> None:
    headings = [(level, f"H {n}") for n in range(500) for level in (1, 2, 3)]
    references = [Reference(f"r{n}.md", f"R {n}", "d" * 500) for n in range(500)]
    text = stub(headings, references, description="long " * 1000)
    assert len(text.splitlines()) <= 100


def commands(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("- `skc ")]


def test_a_name_starting_with_a_hyphen_comes_after_double_dash() -> None:
    lines = commands(stub(skill="-x-y"))
    assert lines == [
        "- `skc outline -- -x-y`: list every section",
        "- `skc show --section '<heading>' -- -x-y`: read one section"
        " (or the command an entry gives)",
        "- `skc search -- -x-y '<query>'`: full-text search",
        "- `skc open -- -x-y <path>`: read one file",
        "- `skc sources -- -x-y`: list the files",
    ]


@pytest.mark.parametrize("skill", ["a\nb", "new\n# Injected", "a`b", "x\u2028y", "t\tab"])
def test_a_name_with_control_characters_stays_on_one_line(skill: str) -> None:
    text = stub(skill=skill, name="")
    lines = text.splitlines()
    assert len(lines) == len(text.split("\n")) - 1
    assert lines[5].startswith("# ")  # the title: the name on one line
    assert [line for line in lines if line.startswith("#")] == [lines[5], "## Top Sections"]
    assert "# Injected" not in lines
    assert all(line.count("`") == 2 for line in commands(text))
    assert len(commands(text)) == 5


def test_inserted_texts_cannot_inject_lines_or_pass_the_cap() -> None:
    nasty = "x\n# Injected\r\n---\u2028- item\x85"
    headings = [(level, nasty) for _ in range(200) for level in (1, 2)]
    references = [Reference(f"{nasty}{n}.md", nasty, nasty) for n in range(200)]
    text = stub(headings, references, skill=nasty, name=nasty, description=nasty)
    lines = text.splitlines()
    assert len(lines) == len(text.split("\n")) - 1 <= 100
    assert "# Injected" not in lines and "---" not in lines[4:]


BLOCK_LABELS = [
    *("# Config keys", "###### Six", "#", "> Quoted note", ">no space", "- dash", "+ plus"),
    *("* star", "1. First steps", "123456789) Paren", "```fence", "~~~ tilde", "***", "___"),
    *("- - -", "[x]: /url", "#hashtag", "1.5 release"),
]


@pytest.mark.parametrize("label", BLOCK_LABELS)
def test_a_label_starting_with_a_block_marker_is_one_list_item(label: str) -> None:
    """A heading text starting with ``#``, ``>``, ``1.``, a fence... was written verbatim as
    a list item, so the stub gained a heading, quote, list or fence (audit markdown, item 4):
    every such label now renders as one list item showing the label as written."""
    from markdown_it import MarkdownIt

    text = stub([(1, "Title"), (2, label)], [Reference("r.md", label, None)])
    tokens = MarkdownIt("commonmark").parse(text.split("## Top Sections\n", 1)[1])
    assert {token.type.rsplit("_", 1)[0] for token in tokens} == {
        *("bullet_list", "list_item", "paragraph", "inline")
    }
    inlines = [token for token in tokens if token.type == "inline"]
    assert len(inlines) == 4  # Title, the label, References, the reference's label
    for inline in (inlines[1], inlines[3]):
        shown = "".join(child.content for child in inline.children or ())
        assert shown.startswith(label), (label, inline.content)


def test_an_escaped_label_gives_the_command_that_reads_it() -> None:
    headings = [(2, "# Config keys"), (2, "1. First steps"), (2, "#hashtag"), (2, "<Name>")]
    assert top_sections(stub(headings)) == [
        "- \\# Config keys (`skc show demo --section '# Config keys'`)",
        "- 1\\. First steps (`skc show demo --section '1. First steps'`)",
        "- #hashtag",
        "- <Name>",  # raw HTML, in the stub as in the source heading (issue 14)
    ]


def test_a_label_escapes_what_reorders_or_shows_nothing_as_the_frontmatter_does() -> None:
    """A heading ``## Install <U+202E>(txt.hcs)<U+202C> now`` was listed as it is: ``cat`` of
    the stub showed it reordered (``Install (sch.txt) now``) while the frontmatter escaped
    its description (audit r6). ``stub_label`` escapes what hides where it stands (as SKL901
    finds it, ``deceptive.hides``); a joiner of an emoji sequence, an emoji's selector and a
    right-to-left mark of right-to-left text stay (s49 unifollow: the label showed
    ``Arabic نص\\u200f.``). ``show --section`` with the label as listed reads the heading
    (its own matching computes each entry's command)."""
    from skillc_index.index.queries import HeadingMatcher, IndexedHeading
    from skillc_index.text import one_line, stub_label

    texts = [
        "Install \u202e(txt.hcs)\u202c now",
        "Zero\u200bwidth",
        "Team \U0001f469\u200d\U0001f4bb \u2705\ufe0f",
        "Arabic \u0646\u0635\u200f.",
    ]
    matcher = HeadingMatcher(IndexedHeading("SKILL.md", t, 2, n, n) for n, t in enumerate(texts))
    text = render_stub(
        skill="demo",
        frontmatter={"name": "demo", "description": "d"},
        headings=[(2, t) for t in texts],
        references=[Reference("ref\u202e.md", "Ref \u2066x\u2069", "a\u200bb")],
        matcher=matcher,
    )
    assert top_sections(text) == [
        "- Install \\u202e(txt.hcs)\\u202c now",
        "- Zero\\u200bwidth",
        "- Team \U0001f469\u200d\U0001f4bb \u2705\ufe0f",
        "- Arabic \u0646\u0635\u200f.",
        f"- {REFERENCES_LABEL}",
        "  - Ref \\u2066x\\u2069 \u2014 a\\u200bb (`skc open demo $'ref\\u202e.md'`)",
    ]
    for heading in matcher.headings:  # each label, as listed, reads its heading
        assert matcher.matches(stub_label(heading.text)) == [heading]
    assert stub_label("a\u00adb\u3164 \t\n c") == "a\u00adb\\u3164 c"
    assert one_line("a\u202eb \t\n c") == "a\u202eb c"  # one line, nothing escaped


def test_a_label_keeps_what_is_its_script_s_own() -> None:
    """A zero-width space between two Thai, Chinese or Japanese letters (a word break), an
    ideographic variation selector after a CJK ideograph, a non-joiner between two Hebrew
    letters and a Mongolian vowel separator between two Mongolian letters are their
    script's own: the stub lists them as written (s50 unicode3: each was an escape); beside
    ASCII, doubled, after a second selector, between two Korean letters (s50 reva2: spaces
    separate Korean words) each is escaped still (``deceptive.hides``)."""
    from skillc_index.text import stub_label

    own = [
        "\u0e20\u0e32\u0e29\u0e32\u200b\u0e44\u0e17\u0e22",
        "\u65e5\u672c\u8a9e\u200b\u306e",
        "\u845b\U000e0100\u57ce",
        "\u05d5\u200c\u05d5",
        "\u1833\u180e\u1820",
    ]
    assert [stub_label(text) for text in own] == own
    assert stub_label("Zero\u200b\u0e44\u0e17\u0e22") == "Zero\\u200b\u0e44\u0e17\u0e22"
    assert stub_label("\u0e44\u200b\u200b\u0e44") == "\u0e44\\u200b\\u200b\u0e44"
    assert stub_label("\u845b\U000e0100\U000e0101") == "\u845b\U000e0100\\U000e0101"
    assert stub_label("x\u180e\u1820") == "x\\u180e\u1820"
    assert stub_label("\ud55c\uad6d\u200b\uc5b4") == "\ud55c\uad6d\\u200b\uc5b4"  # Korean: spaces


def _listed_description(description: str) -> str:
    """The description the stub's References list shows for a reference holding it."""
    text = render_stub(
        skill="demo",
        frontmatter={"name": "demo", "description": "d"},
        headings=[(1, "Demo")],
        references=[Reference("ref.md", "Ref", description)],
        matcher=None,
    )
    (listed,) = [line for line in top_sections(text) if line.startswith("  - Ref")]
    return listed.split(" \u2014 ", 1)[1].split(" (`skc ", 1)[0]


def test_a_description_is_cut_as_written_never_inside_an_escape() -> None:
    """A reference's description was escaped, then cut to 120 characters (s50 unicode3): an
    override at the cut was listed as ``\\u20…``, half an escape naming no character. Then it
    was cut, then escaped (s50 reva2): 300 overrides were listed in 715 characters. The
    escaped text is cut to the bound, each escape counted as written and never split (the
    cut goes before it): the escape is whole or past the cut, wherever it stands; a tag
    character (``\\U000e0041``) too."""
    import re

    from skillc_index.build.stub import MAX_DESCRIPTION

    for hidden, escape in (("\u202e", "\\u202e"), ("\U000e0041", "\\U000e0041")):
        for at in range(MAX_DESCRIPTION - 12, MAX_DESCRIPTION + 2):
            shown = _listed_description("x" * at + hidden + "y" * 20)
            assert re.fullmatch(f"x+(?:{re.escape(escape)}y*)?\u2026", shown), (at, shown)
            assert len(shown) <= MAX_DESCRIPTION, (at, shown)
            assert hidden not in shown
    shown = _listed_description("\u202e" * 300)
    assert shown == "\\u202e" * ((MAX_DESCRIPTION - 1) // 6) + "\u2026"
    shown = _listed_description("a\u202eb" * 60)  # 480 as written: 119 and the ellipsis
    assert shown == "a\\u202eb" * 14 + "a\\u202e\u2026"
    shown = _listed_description("a\u202eb" * 15)  # 120 as written: listed whole
    assert shown == "a\\u202eb" * 15


def test_a_built_stub_lists_a_bidi_heading_escaped(cli: Callable[..., Any], project: Path) -> None:
    """``skillc-index build`` of the audit's skill (r6): the deployed stub holds no
    bidirectional control or zero-width space, in its list as in its frontmatter, and keeps
    the right-to-left mark of an Arabic heading (s49 unifollow)."""
    source = project / ".skillc" / "skills" / "demo"
    source.mkdir(parents=True)
    (source / "SKILL.md").write_text(
        '---\nname: demo\ndescription: "Demo \\u202Eevil\\u202C. Use when testing."\n---\n'
        "# Demo\n\n## Install \u202e(txt.hcs)\u202c now\n\nx\n\n## Zero\u200bwidth\n\ny\n\n"
        "## Arabic \u0646\u0635\u200f.\n\nz\n",
        encoding="utf-8",
    )
    build = cli("skillc-index", script=True)
    done = build("build", "demo")
    assert done.returncode == 0, done.stderr
    stub = (project / ".claude/skills/demo/SKILL.md").read_text(encoding="utf-8")
    assert "\u202e" not in stub and "\u202c" not in stub and "\u200b" not in stub
    assert top_sections(stub) == [
        "- Demo",
        "  - Install \\u202e(txt.hcs)\\u202c now",
        "  - Zero\\u200bwidth",
        "  - Arabic \u0646\u0635\u200f.",
    ]


# -- the whole source frontmatter (issue 16) ------------------------------------------------

CLAUDE_CODE = {
    "name": "deploy-prod",
    "description": ("Deploy to production. " + "Only when the user asks. " * 10).strip(),
    "disable-model-invocation": True,
    "user-invocable": True,
    "allowed-tools": ["Bash(git:*)", "Read", "Grep"],
    "argument-hint": "[environment]",
    "context": "fork",
    "agent": "Explore",
    "model": "sonnet",
    "hooks": {
        "PreToolUse": [
            {"matcher": "Bash", "hooks": [{"type": "command", "command": "./check.sh $1"}]}
        ]
    },
    "license": "MIT",
    "metadata": {"version": "1.0", "tags": ["ops", "deploy"], "nested": {"deep": None}},
}


def render(frontmatter: dict[object, object], **options: object) -> str:
    return render_stub(
        skill="demo",
        frontmatter=frontmatter,  # type: ignore[arg-type]
        headings=[(1, "Title")],
        references=[],
        **options,  # type: ignore[arg-type]
    )


def split(text: str) -> tuple[object, str]:
    """The frontmatter as an agent reads it (up to the first ``---`` line) and the body."""
    assert text.startswith("---\n")
    block, found, body = text[4:].partition("\n---\n")
    assert found
    return yaml.safe_load(block), body


def test_every_frontmatter_field_is_kept_in_order() -> None:
    text = render(CLAUDE_CODE)
    data, body = split(text)
    assert data == CLAUDE_CODE
    assert isinstance(data, dict)
    assert list(data) == list(CLAUDE_CODE)  # the source's order
    assert body.startswith("\n# deploy-prod\n")
    # the description is the source's, never cut
    assert "description: Deploy to production." in text and "…" not in text


#: A value as big as a frontmatter holds: a source frontmatter over MAX_FRONTMATTER_BYTES
#: (64 KiB) is refused (SKL100), and the hostile test puts the value in twice. (It had 2,000
#: keys, a 300 KB block no skill can have, which PyYAML's Python loader took seconds to read.)
HUGE = {f"k{n}": {"v": list(range(5)), "s": "x\n---\n"} for n in range(400)}

HOSTILE: list[object] = [
    "a\n---\nname: injected\n---\n# Injected",
    "---",
    "...",
    "--- x",
    "\n---\n",
    "# not a heading",
    "key: value",
    "'\"`\\",
    "\u2028\x85\x00\x1b[31m\ufeff",
    ["---", "...", "- x", {"---": "---"}],
    {"a\n---\nb": "c", "": None, "yes": "no"},
    HUGE,
]


def test_the_huge_value_is_as_big_as_a_frontmatter_can_be() -> None:
    """Twice the huge value fills most of the largest frontmatter a skill may have, written
    as the stub writes it: as big as the hostile test can meet, and no bigger."""
    text = render({"name": "demo", "description": "A demo.", "evil": HUGE, "---": HUGE})
    block = text[4:].partition("\n---\n")[0]
    assert MAX_FRONTMATTER_BYTES // 2 < len(block.encode()) <= MAX_FRONTMATTER_BYTES


@pytest.mark.parametrize("value", HOSTILE)
def test_a_hostile_value_stays_inside_the_frontmatter(value: object) -> None:
    source = {"name": "demo", "description": "A demo.", "evil": value, "---": value}
    text = render(source)
    data, body = split(text)
    assert data == source
    assert body.startswith("\n# demo\n\nThis skill is served by skillc.")
    assert body.count("\n---\n") == 0
    # an agent that reads the frontmatter with a YAML loader sees the same mapping
    (document,) = list(yaml.safe_load_all(text.split("\n---\n\n# demo\n")[0] + "\n"))
    assert document == source


def test_the_stub_is_read_as_a_yaml_12_reader_reads_the_source() -> None:
    """PyYAML reads YAML 1.1 (`no` false, `012` ten, `1:20` eighty); the agents read YAML
    1.2. The stub carries what a 1.2 reader reads in the source, written so that both a 1.1
    and a 1.2 reader read it so: quoted where either would read a string otherwise."""
    from skillc_index.markdown.frontmatter import as_yaml_12, parse_frontmatter

    source = (
        "---\nname: y\ndescription: Use when y.\nuser-invocable: no\nx-num: 012\n"
        "x-oct: 0o17\nx-time: 1:20\nx-date: 2024-01-01\nx-quoted: '0o17'\nx-on: on\n"
        "x-list: [yes, 1, 2.5, ~]\n---\n# y\n"
    )
    agent = as_yaml_12(parse_frontmatter(source))
    assert agent == {
        "name": "y", "description": "Use when y.", "user-invocable": "no", "x-num": 12,
        "x-oct": 15, "x-time": "1:20", "x-date": "2024-01-01", "x-quoted": "0o17",
        "x-on": "on", "x-list": ["yes", 1, 2.5, None],
    }  # fmt: skip
    text = render(agent)
    stub = parse_frontmatter(text)
    assert stub.data == agent  # a YAML 1.1 reader (PyYAML)
    assert as_yaml_12(stub) == agent  # a YAML 1.2 reader


def test_a_shared_value_is_written_out_without_anchors() -> None:
    shared = {"a": 1}
    text = render({"name": "demo", "description": "d", "x": shared, "y": shared})
    assert "&" not in text.split("\n---\n")[0] and "*id" not in text
    assert split(text)[0] == {"name": "demo", "description": "d", "x": {"a": 1}, "y": {"a": 1}}


def test_emoji_and_cjk_extension_b_are_written_as_they_are() -> None:
    """libyaml escaped every character past U+FFFF (``"Writes \\U0001F680"``), and a joiner
    (👩‍💻) forced double quotes, where PyYAML escapes them too: the frontmatter reads as the
    source's, line by line (audit unicode, item 7). A control character is still escaped."""
    frontmatter = {
        "name": "demo",
        "description": "Release notes for the \U0001f469\u200d\U0001f4bb team with \U0001f680.",
        "metadata": {"author": "\U00020bb7\u91ce"},
        "x": "a\u202eb\tc",
    }
    text = render(frontmatter)
    block = text.split("\n---\n")[0]
    assert f"description: {frontmatter['description']}\n" in block
    assert "author: \U00020bb7\u91ce\n" in block
    assert "\\U" not in block and 'x: "' in block
    assert split(text)[0] == frontmatter


def test_bidirectional_controls_and_blank_characters_are_escaped_in_the_frontmatter() -> None:
    """PyYAML wrote a right-to-left override, a zero-width space or a word joiner as it is
    inside double quotes: a stub an agent loads read otherwise than the data it holds
    (``evil\u202egnp.exe``). Each is its escape; the data loads back the same."""
    frontmatter = {
        "name": "demo",
        "description": "Opens invoice\u202egnp.exe files and a\u200bb with \u2066isolate\u2069.",
        "metadata": {"tag\u200f": ["x\u2060y", "plain"]},
    }
    text = render(frontmatter)
    block = text.split("\n---\n")[0]
    assert block.isascii()
    assert '"Opens invoice\\u202egnp.exe files and a\\u200bb with \\u2066isolate\\u2069."' in block
    assert split(text)[0] == frontmatter


def test_the_body_stays_within_the_cap_whatever_the_frontmatter() -> None:
    headings = [(level, f"H {n}") for n in range(500) for level in (1, 2, 3)]
    references = [Reference(f"r{n}.md", f"R {n}", "d" * 500) for n in range(500)]
    big = {"name": "demo", "description": "d", **{f"k{n}": n for n in range(300)}}
    text = render_stub(
        skill="demo", frontmatter=big, headings=headings, references=references, has_files=True
    )
    data, body = split(text)
    assert data == big
    assert len(body.splitlines()) <= 100


def test_skc_exec_is_named_only_when_the_skill_has_other_files() -> None:
    assert "skc exec" not in render({"name": "demo", "description": "d"})
    text = render({"name": "demo", "description": "d"}, has_files=True)
    assert "`skc exec demo -- <command>`" in text
    assert "python" not in text  # no made-up example (`python scripts/x.py`: an audit)
    assert "/" not in text  # no path of any kind (RFC-0001:C-STUB: no file listings)
    # exec runs in the skill's folder: a user's relative out.json landed in the skill's source
    assert "a file of the user's\n(input or output) is given by its absolute path," in text
    # a shell empties an unquoted ${CLAUDE_SKILL_DIR} before skc exec could substitute it
    assert "a word holding `${CLAUDE_SKILL_DIR}`\nor `$SKILL_DIR` is single-quoted" in text
    odd = render_stub(
        skill="-x y",
        frontmatter={"name": "n", "description": "d"},
        headings=[],
        references=[],
        has_files=True,
    )
    assert "`skc exec -- '-x y' -- <command>`" in odd


def test_headings_told_apart_by_their_accents_each_take_their_own_label() -> None:
    """``## Resume`` and ``## Résumé``: ``show --section 'Résumé'`` reads the one with its
    accents, so the stub lists each by its label, with no ``--nth 2`` for the second (it
    listed one, as ``show`` then served ``Resume`` for either)."""
    from skillc_index import IndexedHeading
    from skillc_index.index.queries import HeadingMatcher

    texts = ["Resume", "Résumé", "CAFÉ", "Cafe"]
    matcher = HeadingMatcher(
        IndexedHeading("SKILL.md", text, 2, line, line + 1) for line, text in enumerate(texts, 1)
    )
    text = render_stub(
        skill="demo",
        frontmatter={"name": "demo", "description": "A demo skill."},
        headings=[(2, heading) for heading in texts],
        references=[],
        matcher=matcher,
    )
    assert top_sections(text) == ["- Resume", "- Résumé", "- CAFÉ", "- Cafe"]


def test_a_reference_path_and_a_name_escape_a_soft_hyphen_as_skl901_reports_it() -> None:
    """Review (s49 skl901b 4): ``references/deplo<U+00AD>all.md`` was listed raw in the stub
    (``stub_label`` read a path as prose, where a soft hyphen between two letters is a
    hyphenation hint) while SKL901 reports it. A path and a name are code: every hidden
    character escaped but an emoji's joiner; a heading's hyphenation hint stays as it is."""
    from skillc_index.text import stub_label

    text = render_stub(
        skill="deplo\u00adall",
        frontmatter={"description": "d"},
        headings=[(2, "Donaudampf\u00adschifffahrt")],
        references=[Reference("references/deplo\u00adall.md", None, None)],
    )
    assert "\n# deplo\\u00adall\n" in text
    assert "- Donaudampf\u00adschifffahrt" in top_sections(text)
    assert "  - references/deplo\\u00adall.md (" in text
    assert stub_label("\u0645\u06cc\u200c\u062e.md", code=True) == "\u0645\u06cc\u200c\u062e.md"
    assert stub_label("\u0645\u06cc\u200c.md", code=True) == "\u0645\u06cc\\u200c.md"
    assert stub_label("\U0001f469\u200d\U0001f4bb.md", code=True) == "\U0001f469\u200d\U0001f4bb.md"
