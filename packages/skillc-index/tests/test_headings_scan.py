"""The headings scanner (``skillc_index.markdown.headings``) against markdown-it.

``scan_headings`` must give exactly the headings our markdown-it parser gives, or None (the
caller then parses): checked on every ``.md`` file of the corpus (skipped when it is absent),
on bodies generated from the constructs that decide headings (Hypothesis), and on hand-written
cases, one per edge the scanner follows or refuses.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, reject, settings
from hypothesis import strategies as st

from skillc_index.markdown import heading_text
from skillc_index.markdown import headings as scanner
from skillc_index.markdown.block_state import BlockState
from skillc_index.markdown.blocks import scan_blocks
from skillc_index.markdown.document import (
    BOM,
    _markdown_parser,
    _parse_body,
    empty_heading_label,
    parse_markdown,
    parsed_end,
)
from skillc_index.markdown.frontmatter import split_frontmatter
from skillc_index.markdown.headings import scan_headings
from skillc_index.text import count_lines, normalize_newlines

Found = list[tuple[int, str, int]]


def markdown_it_headings(body: str) -> Found:
    """The headings markdown-it gives ``body`` (``(level, text, 0-based line)``)."""
    headings = _parse_body(body, 0, count_lines(body), links=True, scan=False)[0]
    return [(h.level, h.text, h.line - 1) for h in headings]


def scanned(body: str) -> Found | None:
    found = scan_headings(body)
    if found is None:
        return None
    return [(level, text or empty_heading_label(line + 1), line) for level, text, line in found]


def body_of(text: str) -> str:
    """What ``parse_markdown`` parses of a file's text."""
    text = normalize_newlines(text.removeprefix(BOM))
    offset = split_frontmatter(text, parse_yaml=False)[1]
    end = parsed_end(text)
    return text[offset:end] if offset < end else ""


def check(body: str) -> bool:
    """Scanner and markdown-it agree on ``body``; whether the scanner answered. A body whose
    own parse markdown-it cannot finish (:data:`NO_PARSE`) has nothing to compare with."""
    found = scanned(body)
    if found is not None:
        try:
            expected = markdown_it_headings(body)
        except IndexError:  # markdown-it-py's own bug (NO_PARSE): no reference to compare
            reject()
        assert found == expected, body
    return found is not None


#: A body markdown-it-py 4.3 cannot parse (``IndexError`` in its ``getLines``: an HTML block
#: opened in a list item inside two block quotes, the last line a bare ``>>``), found by
#: :func:`test_generated_bodies`; skillc reads it without that parse.
NO_PARSE = "* * *\n> > - <!-- c\n>>"


def test_a_body_markdown_it_cannot_parse_is_read() -> None:
    assert parse_markdown(NO_PARSE, metadata=False).headings == ()
    assert parse_markdown(NO_PARSE, links=False, metadata=False).headings == ()


# -- the parser the scanner follows ------------------------------------------------------------


def test_parser_is_what_the_scanner_follows() -> None:
    """The scanner follows these block and inline rules and options; a change of the parser's
    configuration must come with a change of the scanner."""
    from markdown_it.common.utils import MD_TRIM_CHARS

    parser = _markdown_parser()
    # the block-rule dispatchers stand in front of markdown-it's rules, whose tokens they keep
    # (skillc_index.markdown.block_rules; test_markdown_block_rules.py)
    assert parser.block.ruler.get_active_rules() == [
        "skillc_dispatch", "table", "code", "fence", "blockquote", "hr", "list", "reference",
        "html_block", "heading", "lheading", "paragraph", "skillc_paragraph",
        "skillc_reference", "skillc_blockquote", "skillc_list",
    ]  # fmt: skip
    assert parser.inline.ruler.get_active_rules() == [
        "text", "newline", "escape", "backticks", "emphasis", "link", "image", "autolink",
        "html_inline", "entity",
    ]  # fmt: skip
    pairs = ["balance_pairs", "emphasis", "fragments_join"]
    assert parser.inline.ruler2.get_active_rules() == pairs
    assert parser.core.ruler.get_active_rules() == ["normalize", "block", "inline", "text_join"]
    assert parser.options["maxNesting"] >= 2 * (scanner.MAX_LIST_DEPTH + 1)
    assert not parser.options.get("tasklists") and not parser.options.get("alerts")
    assert set(heading_text.TRIM) == set(MD_TRIM_CHARS)


# -- hand-written cases --------------------------------------------------------------------------

FOLLOWED = {
    "atx": "# One\n## Two ##\n### Three #\n#### Four#\n####### seven\n#no\n",
    "atx closing run": "# a # b ##   \n## #\n### ###\n# x#\n",
    "atx indented": " # a\n   ## b\n    # code\n",
    "atx empty": "#\n## \n###   ###\n",
    "atx tab": "#\tTab\n##\t\tTwo\t#\n",
    "setext": "Title\n=====\n\nSub\n---\n\nTwo\nlines\n===\n",
    "setext indented underline": "Title\n   ===\n\nNot\n    ===\n",
    "setext not underline": "Title\n= =\n\nText\n--- x\n",
    "setext trailing spaces": "a  \nb \n  c\t\n===\n",
    "hr not setext": "Text\n\n---\n\n***\nText\n***\n",
    "fence": "```\n# no\n```\n# yes\n~~~~\n# no\n~~~\n# no\n~~~~~\n",
    "fence unclosed": "```py\n# no\n",
    "fence backtick info": "``` a`b\n# yes\n",
    "fence indented close": "```\n    ```\n# no\n   ```\n# yes\n",
    "fence tabs": "```\n\t```\n# no\n```\n# yes\n",
    "fence short and other closers": "````\n```\n~~~~\n # no\n  ````` x\n# no\n   ````\n# yes\n",
    "fence in item ended by its indentation": "- a\n  ```\n  # no\n\n # out\n",
    "fence in item, tabs": "1. a\n   ```\n\t# no\n  \t```\n   # no\n \t```\n\t# yes\n",
    "fence in item, closer less indented": "- ```\n  # no\n```\n# yes\n",
    "fence in nested items": "- a\n  - ```\n    # no\n   # out\n  ```\n  # no\n",
    "indented code": "    # no\n\n    # no\ntext\n    # lazy\n# yes\n",
    "table": "| a | b |\n|---|---|\n| # x | y |\n# yes\n",
    "table then setext": "a | b\n--|--\nc | d\n---\n",
    "table escaped pipes": "a \\| b | c\n---|---\n# h\n",
    "table columns differ": "a | b | c\n---|---\nx\n===\n",
    "paragraph then table": "text\n| a | b |\n|---|---|\n===\n",
    "list": "- a\n- b\n  # in item\n- c\n\n# after\n",
    "list item heading": "- # a\n1. ## b\n* ### c\n",
    "list continuation": "1. step\n\n   ```bash\n   # no\n   ```\n\n   # yes\n",
    "list lazy": "- item\ntext\n===\n",
    "list underline in item": "- item\n  ===\n",
    "list deep indent": "- a\n      # code in item\n",
    "list ordered interrupt": "text\n2. no list\n===\n\ntext\n1. list\n===\n",
    "list empty item": "-\n\n  # after empty item\n",
    "list nested": "- a\n  - b\n    - c\n      # deep\n",
    "list code in item": "-     code\n  # yes\n",
    "blockquote": "> text\n> more\nlazy\n\n# yes\n",
    "blockquote ends": "> text\n>\nafter\n===\n",
    "blockquote then heading": "> text\n# yes\n",
    "blockquote in list": "- item\n  > quote\n  # yes\n",
    "blockquote list": "> 1. a\n>    # in item\n> 2. b\nlazy\n\n# after\n",
    "blockquote heading": "> # a\n> b\n> ---\n",
    "blockquote nested": "> > a\n> b\n>\n> > # c\n",
    "blockquote fence": "> ```\n> # no\n# yes\n",
    "blockquote lazy then break": "> a\n---\n",
    "blockquote in list item": "1. a\n   > - b\n   >   # c\n2. d\n",
    "blockquote code": ">     # code\n>  # yes\n",
    "blockquote fence to a last quoted blank": "``\n> ```\n> ",
    "emphasis pair": "# **Bold** text\n## *a*\n### a ***b***\n",
    "single emphasis run": "# UNSAFE_ prefix\n## (_config.yml)\n### read_*\n#### a * b\n",
    "escapes": "# C\\#\n## a\\q\n### a\\\n",
    "brackets": "# [Name]\n## Q&A\n### (< 1 day)\n#### a > b <\n",
    "comment": "<!-- a\n# no\n-->\n# yes\n<!-- one line -->\n## two\n",
    "comment in list": "- a\n  <!--\n  # no\n# yes\n",
    "code spans": "# `a` b\n## ``x ` y``\n### ` a `\n#### `  `\n##### `open\n",
    "underscores": "# snake_case_name\n## a__b\n",
    "ampersand": "# Q & A\n## A&\n",
    "setext code span": "`a\nb`\n===\n",
    "hard break": "a   \nb\n---\n",
    "html block": "<div>\n# no\n</div>\n",
    "html inline start": "<https://example.com>\n",
    "html blocks": "<details>\n<summary>a</summary>\n\n# yes\n</details>\n<b>\n# yes\n"
    "text\n<pre>\n\n# no\n</pre>\n- <div>\n# yes\n",
    "empty body": "",
    "blank last line": "# a\n   ",
    "no newline": "# a\ntext",
    # a line starting with ``[`` whose label (to the first bracket) no ``:`` follows
    "link then colon": "[a](b) c]: d\n# h\n",
    "items of links then colon": "- [a](u) x]: y\n- [b](v)\n# h\n",
    "label then text": "[a] b]: c\n===\n",
    "bracket in label": "[a[b]: /u\n# h\n",
    "blank in label": "[a\n\nb]: /u\n# h\n",
}

REFUSED = {
    "blockquote reference": "> [a]: /u\n> b\n",
    "blockquote tab": ">\ta\n",
    "reference": "[a]: /url\nText\n===\n",
    "reference over lines": "[a\nb]: /url\n# h\n",
    "reference escaped bracket": "[a\\]: x]: /url\n",
    "reference escaped opening": "[a\\[b]: /url\n",
    "reference escaped line end": "[a\\\nb]: /url\n",
    "reference in item over lines": "- [a\n  b]: /url\n",
    "blockquote reference over lines": "> [a\n> b]: /u\n",
    "blockquote reference lazy": "> [a\nb]: /u\n",
    "link": "# [a](b)\n",
    "underscore emphasis": "# _a_\n",
    "entity": "# a &amp; b\n",
    "inline html": "# a <b>\n",
    "emphasis pairs": "# **a** **b**\n",
    "emphasis in word": "# a**b**\n",
    "escape hard break": "a\\\nb\n===\n",
    "link after bracket": "# [a] [b](c)\n",
    "entity with semicolon": "# Q&A; more\n",
    "quote tab lazy": "> a\n\tb\n",
    "nul": "# a\0\n",
    "deep lists": "".join("  " * depth + "- x\n" for depth in range(12)),
}


@pytest.mark.parametrize("body", FOLLOWED.values(), ids=FOLLOWED.keys())
def test_followed(body: str) -> None:
    assert check(body), "the scanner should follow this body"


@pytest.mark.parametrize("body", REFUSED.values(), ids=REFUSED.keys())
def test_refused(body: str) -> None:
    assert scan_headings(body) is None


@pytest.mark.parametrize(
    "line",
    ["- [Item {}](https://example.com/{})\n", "- [\n", "#\n[\n", "> - [a{}](u)\n", "1. [a{}] b\n"],
)
def test_lines_starting_with_a_bracket_are_read_once(
    line: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A block starting with ``[`` is read as far as its label (to the next bracket), not to
    the next blank line: 2,000 of them in a row (``- [Item](url)`` lines) asked whether a
    line is blank about 2 million times (``skc show`` of 10,000 took 15 s); with the same
    headings as markdown-it."""
    calls = 0
    is_empty = BlockState.is_empty

    def counted(state: BlockState, number: int) -> bool:
        nonlocal calls
        calls += 1
        return is_empty(state, number)

    monkeypatch.setattr(BlockState, "is_empty", counted)
    body = "".join(line.format(i, i) for i in range(2000)) + "\n# After\n"
    assert scan_headings(body) is not None
    assert scan_blocks(body) is not None
    assert calls < 10 * 2000, calls
    monkeypatch.undo()
    small = "".join(line.format(i, i) for i in range(30)) + "\n# After\n"
    assert check(small)


def test_parse_markdown_headings_only_is_the_same() -> None:
    """``parse_markdown(links=False)`` (scanned) gives what the full parse gives, line
    numbers after a frontmatter and empty-heading labels included."""
    text = "---\nname: x\n---\r\n# A\r\n#\r\nB\r\n-\r\n" + "x\n" * 3
    fast = parse_markdown(text, links=False, metadata=False)
    assert scan_headings(body_of(text)) is not None
    assert fast.headings == parse_markdown(text).headings
    assert [h.line for h in fast.headings] == [4, 5, 6]


# -- the corpus ------------------------------------------------------------------------------------


@pytest.mark.corpus
def test_corpus_headings_are_markdown_its(corpus: Path) -> None:
    """Every ``.md`` file of the corpus: the scanner's headings are markdown-it's, and most
    files take the scanner (2,009 files: 19 refused, 0.9%, when this was written; 57 before
    HTML blocks were followed, 125 before block quotes held any block and more inline text
    was followed)."""
    files = sorted(path for path in corpus.rglob("*.md") if path.is_file())
    assert files
    refused: list[str] = []
    for path in files:
        body = body_of(path.read_bytes().decode("utf-8", errors="replace"))
        if not check(body):
            refused.append(path.relative_to(corpus).as_posix())
    print(f"\n{len(files)} files, {len(refused)} refused ({len(refused) / len(files):.1%})")
    assert len(refused) <= len(files) // 10, refused
    # the largest skill's 65 all take it (a list inside a block quote included)
    assert [rel for rel in refused if "/skills/claude-api/" in rel] == []


# -- generated bodies ----------------------------------------------------------------------------

INDENTS = st.sampled_from(["", "", "", " ", "  ", "   ", "    ", "     ", "\t", " \t", "  \t"])
WORDS = st.sampled_from(
    ["text", "a b", "x", "`code`", "``a`b``", "` a `", "`", "a_b", "_a", "a_", "*a*",
     "&amp;", "Q & A", "[a](b)", "\\#", "a  ", "a\t", "#", "# x", "<b>", "1.", "|", "a|b",
     "-", "=", ">", ":", "~", "é", "\u00a0", "**a**", "*a", "a*", "***a*** b", "a **b**",
     "\\*", "\\", "a\\", "\\q", "[a]", "a](b", "Q&A", "a;", "&a;", "< 1", "a>", "_a_",
     "a_ b", ""]
)  # fmt: skip
ATX = st.builds(
    lambda hashes, gap, text, close: "#" * hashes + gap + text + close,
    st.integers(1, 7),
    st.sampled_from(["", " ", "  ", "\t"]),
    WORDS,
    st.sampled_from(["", "", " #", " ##", "#", " \\#", " # ", "\t#"]),
)
FENCES = st.builds(
    lambda mark, count, info: mark * count + info,
    st.sampled_from(["`", "~"]),
    st.integers(2, 5),
    st.sampled_from(["", "", "py", " `x", " ~", "  "]),
)
UNDERLINES = st.builds(
    lambda mark, count, tail: mark * count + tail,
    st.sampled_from(["=", "-"]),
    st.integers(1, 4),
    st.sampled_from(["", "", " ", "  ", " x", " -", "\t"]),
)
BREAKS = st.sampled_from(["***", "* * *", "___", "- - -", "_ _", "**"])
MARKERS = st.sampled_from(
    ["- ", "* ", "+ ", "1. ", "2) ", "10. ", "1234567890. ", "-  ", "-     ", "-\t", "1.", "-"]
)
QUOTES = st.one_of(
    st.sampled_from(["> ", ">", ">  ", "> > ", ">\t", "    > ", ">     ", " > ", ">>"]),
    st.builds(lambda quote, marker: quote + marker, st.sampled_from(["> ", ">", "> > "]), MARKERS),
    st.builds(lambda marker, quote: marker + quote, MARKERS, st.sampled_from(["> ", ">"])),
)
HTML = st.sampled_from(
    ["<!-- c", "-->", "<!-- c -->", "<div>", "</div>", "<a href='x'>", "<https://x>", "< 1",
     "<pre>", "<?x", "<!X", "</pre>", "<script>", "<details>", "<b>", "<x-y a='1'>", "?>",
     "<![CDATA[", "]]>", "<3"]
)  # fmt: skip
TABLES = st.sampled_from(
    ["| a | b |", "a | b", "|---|---|", "--|--", ":-:|-:", "|-|", "| - | - |", "a \\| b | c",
     "---|---|---", "|", "x | y | z"]
)  # fmt: skip
REFERENCES = st.sampled_from(
    ["[a]: /url", "[a]:", '"title"', "[a]", "[a]: <b> 't'", "[a", "b]: /u", "[a\\]: /u",
     "[a\\", "\\]: /u", "]: /u", "[a] x]: /u", "[a[b]: /u", "[a](b) ]: /u"]
)  # fmt: skip
CONTENT = st.one_of(
    ATX, FENCES, UNDERLINES, BREAKS, HTML, TABLES, REFERENCES, WORDS, WORDS, st.just("")
)
LINES = st.builds(
    lambda indent, prefix, content: indent + prefix + content,
    INDENTS,
    st.one_of(st.just(""), st.just(""), st.just(""), MARKERS, QUOTES),
    CONTENT,
)


@st.composite
def bodies(draw: st.DrawFn) -> str:
    lines = draw(st.lists(LINES, max_size=20))
    newline = draw(st.sampled_from(["\n", "\n", "\n", "\r\n"]))
    text = newline.join(lines) + draw(st.sampled_from(["", newline]))
    if draw(st.booleans()):
        text = "---" + newline + "name: x" + newline + "---" + newline + text
    return text


@settings(
    max_examples=int(os.environ.get("SKILLC_SCAN_EXAMPLES", "1500")),
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(bodies())
def test_generated_bodies(text: str) -> None:
    """Wherever the scanner answers, it answers what markdown-it does; through
    ``parse_markdown`` too (frontmatter, CRLF)."""
    answered = check(body_of(text))
    event("scanned" if answered else "refused")
    fast = parse_markdown(text, links=False, metadata=False)
    assert fast.headings == parse_markdown(text, metadata=False).headings
