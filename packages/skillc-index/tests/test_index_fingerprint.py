"""The index's schema version covers what the parse stores (RFC-0004:C-INDEX, DECISIONS "the
index is a cache ... they never serve wrong lines"): an index that older code built, of the
same version, is current to every reader, so a parser change that moves a heading or section
row must bump :data:`~skillc_index.index.schema.SCHEMA_VERSION`. The guard below fails when
the rows of a fixed set of tricky Markdown files change without a bump; the upgrade test shows
what an index of the version before the last parser fix becomes."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Callable
from pathlib import Path

from skillc_index import Layout, index_path, resolve_skill
from skillc_index.build.compiler import compile_skill
from skillc_index.index.freshness import check_index
from skillc_index.index.fts import prepare_fts_text
from skillc_index.index.rows import parse_rows
from skillc_index.index.schema import SCHEMA_VERSION
from skillc_index.markdown.document import MARKDOWN_LINE_LIMIT

WriteSkill = Callable[..., Path]

#: The SHA-256 of :func:`stored_rows` over :data:`INPUTS`, by the schema version it belongs
#: to. A parser change that changes it bumps SCHEMA_VERSION and records the new fingerprint
#: under the new version (never edit an old one).
FINGERPRINTS = {
    6: "69f1be2a71221c576f7056460d8d64162aa14746959f4f48a3f24648c5f6278c",
    7: "69f1be2a71221c576f7056460d8d64162aa14746959f4f48a3f24648c5f6278c",  # the files' stats
    8: "69f1be2a71221c576f7056460d8d64162aa14746959f4f48a3f24648c5f6278c",  # the tokenizer
    9: "69f1be2a71221c576f7056460d8d64162aa14746959f4f48a3f24648c5f6278c",  # Thai SARA AM
    10: "69f1be2a71221c576f7056460d8d64162aa14746959f4f48a3f24648c5f6278c",  # UTF-16 files
    11: "d3f63d3e1bc7f93d39ca2a4dea8e7e4632b82de9b4f2857a2add61e81c38b19e",  # folded text
    12: "d3f63d3e1bc7f93d39ca2a4dea8e7e4632b82de9b4f2857a2add61e81c38b19e",  # .MD files
    13: "d3f63d3e1bc7f93d39ca2a4dea8e7e4632b82de9b4f2857a2add61e81c38b19e",  # sections.path
    14: "69363d27960943f509192c06524867bfae5123693e9e9695a49156491ff1d1f5",  # narrowed
    15: "69363d27960943f509192c06524867bfae5123693e9e9695a49156491ff1d1f5",  # originals
    16: "69363d27960943f509192c06524867bfae5123693e9e9695a49156491ff1d1f5",  # ı, ß, U+FE0F
}


def deep_list(depth: int) -> str:
    return "".join("  " * level + f"- level {level}\n" for level in range(depth))


FRONT = "---\nname: tricky\ndescription: Tricky Markdown. # not a heading\n---\n"

#: Markdown the parser has been wrong about, or could be: each is a file of its own.
INPUTS = {
    "deep-list.md": "# Deep\n\n## Before\n\nIntro.\n\n"
    + deep_list(12)
    + "\n## After\n\nzanzibar.\n\n## Last\n\nEnd.\n",
    "deep-quote.md": "# Q\n\n" + "> " * 30 + "quoted\n\n## After the quote\n",
    "deep-mixed.md": "# M\n\n"
    + "".join("  " * level + ("1. " if level % 2 else "- ") + "x\n" for level in range(14))
    + "  - back\n\nText.\n\n### Third\n",
    "comments.md": "# C\n\n<!--\n# not a heading\n## nor this\n-->\n\n## Real\n\n"
    "<!-- # inline --> text\n",
    "html.md": "# H\n\n<div>\n\n# inside a div, a heading\n\n</div>\n\n<pre>\n# no\n</pre>\n",
    "setext.md": "Title\n=====\n\nSub\n---\n\nText\n- not setext\n\n## ATX ##\n\n#hashtag\n",
    "fences.md": "# F\n\n```md\n# fenced\n```\n\n~~~~\n```\n# still fenced\n~~~~\n\n"
    "    # indented code\n\n## After fences\n",
    "front.md": FRONT + "Preamble.\n\n# Title\n\n## A\n\n### A.1\n\n## B\n",
    "front-only.md": FRONT,
    "crlf.md": "---\r\nname: x\r\n---\r\n# Crlf\r\n\r\n## Two\r\n\r\ntext\r\n",
    "cr.md": "# Cr\r## Two\rtext\r",
    "tabs.md": "#\tTab heading\n\n\t# code, not a heading\n\n##\tTwo\t#\t\n\n -\t# in a list\n",
    "nbsp.md": "#\u00a0not a heading\n\n# No\u00a0break space\u00a0\n\n## \u00a0lead\n",
    "empty.md": "#\n\n##   \n\n### #\n\ntext\n",
    "quote.md": "> # Quoted heading\n>\n> text\n\n- # List heading\n\n  ## In item\n",
    "inline.md": "# **Bold** and `code` [link](x.md) &amp; \\# esc\n\n## Ref [x]\n\n"
    "[x]: http://example.com\n",
    "table.md": "# T\n\n| a | b |\n|---|---|\n| # | x |\n\n## After table\n",
    "none.md": "Just text, no heading.\n\n```\n# fenced\n```\n",
    "unicode.md": "# Ünïcödé 見出し\n\n## 中文标题\n\n内容，包含中文。\n",
    "notes.txt": "# a text file is one row\n\nplain\n",
    "long.md": "# Long\n\n" + "line\n" * MARKDOWN_LINE_LIMIT + "## Past the limit\n\nlate.\n",
}


def stored_rows(rel: str, text: str) -> list[object]:
    """What the index stores of one file: its ``sections`` rows (as the ``cjk`` tokenizer
    prepares them too), ``headings`` rows and lines parsed."""
    parsed = parse_rows(rel, text)
    documents = [list(document) for document in parsed.documents]
    cjk = [[prepare_fts_text(part, "cjk") for part in document] for document in documents]
    return [documents, cjk, [list(row) for row in parsed.headings], parsed.parsed_lines]


def fingerprint() -> str:
    rows = {rel: stored_rows(rel, text) for rel, text in INPUTS.items()}
    return hashlib.sha256(json.dumps(rows, ensure_ascii=False).encode()).hexdigest()


def test_the_rows_a_parse_stores_are_those_of_this_schema_version() -> None:
    """An index records its schema version only, never the code that parsed it (a read
    hashes nothing): rows that change without a bump would leave every index built before
    current, serving the old parse after an upgrade."""
    recorded = FINGERPRINTS.get(SCHEMA_VERSION)
    assert fingerprint() == recorded, (
        f"the index rows of the test inputs changed (or schema version {SCHEMA_VERSION} has "
        "no fingerprint): bump SCHEMA_VERSION and record the new fingerprint "
        f"{fingerprint()!r} under it in FINGERPRINTS"
    )


def test_the_deep_list_keeps_its_headings() -> None:
    """The fix of the version before this one: a list nested past markdown-it's limit lost
    every heading after it."""
    parsed = parse_rows("deep-list.md", INPUTS["deep-list.md"])
    assert [row[1] for row in parsed.headings] == ["Deep", "Before", "After", "Last"]


def test_an_index_of_the_version_before_is_built_again(
    layout: Layout, project: Path, write_skill: WriteSkill
) -> None:
    """An index the code before the deep-list fix (180c55af) built, of schema version 5, its
    headings after the deep list missing, is stale: a build makes it again (it said "index up
    to date" and rewrote the stub from the old rows), whose headings and stub are the parse
    of today."""
    write_skill(project / ".skillc" / "skills" / "deep", body=INPUTS["deep-list.md"])
    skill = resolve_skill("deep", layout)
    compile_skill(skill)
    db = index_path(skill.runtime, skill.source)
    connection = sqlite3.connect(db)
    with connection:  # what the old parse stored: nothing after the deep list
        connection.execute("DELETE FROM headings WHERE text IN ('After', 'Last')")
        connection.execute("DELETE FROM sections WHERE section IN ('After', 'Last')")
        connection.execute("UPDATE index_meta SET value = '5' WHERE key = 'schema_version'")
    connection.close()
    assert check_index(skill.runtime, skill.source, "ascii").status == "stale"
    again = compile_skill(skill)
    assert again.index.action != "up-to-date"
    connection = sqlite3.connect(db)
    headings = [text for (text,) in connection.execute("SELECT text FROM headings ORDER BY id")]
    connection.close()
    assert headings == ["deep", "Deep", "Before", "After", "Last"]
    assert "After" in (skill.runtime / "SKILL.md").read_text(encoding="utf-8")
