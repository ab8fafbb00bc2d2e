"""The dialect records (issue 37): one per built-in target, and the README's table says what
they hold."""

from __future__ import annotations

import re
from pathlib import Path

import skillc_index
from skillc_index.dialect import (
    PACKAGE_DIALECTS,
    STANDARD_FIELDS,
    codex_name_refusal,
    codex_refusal,
    folded_text,
)
from skillc_index.listing.agents import entry_description
from skillc_index.targets import KNOWN_TARGETS

README = Path(__file__).resolve().parents[1] / "README.md"


def _table() -> dict[str, list[str]]:
    text = README.read_text(encoding="utf-8")
    section = text[text.index("**What each agent reads**") :]
    rows: dict[str, list[str]] = {}
    for line in section.splitlines()[1:]:
        if line.startswith("| `"):
            cells = [cell.strip() for cell in line.strip("|").split("|")]
            rows[cells[0].strip("`")] = cells[1:]
        elif rows and not line.startswith("|"):
            break
    return rows


def test_every_built_in_target_has_a_dialect_with_a_source() -> None:
    for name, target in KNOWN_TARGETS.items():
        assert target.dialect is not None, name
        assert target.dialect.reads >= STANDARD_FIELDS - {"compatibility"}, name
        assert target.dialect.source, name
    for dialect in PACKAGE_DIALECTS.values():
        assert dialect.source


def test_the_readme_table_names_what_each_record_holds() -> None:
    rows = _table()
    assert set(rows) == set(KNOWN_TARGETS)
    for name, (agent, fields, others, limits, sides, source) in rows.items():
        dialect = KNOWN_TARGETS[name].dialect
        assert dialect is not None
        assert agent == dialect.agent
        written = set(re.findall(r"`([a-z_-]+)`", fields.partition("(")[0]))
        if fields.startswith("standard"):
            written |= STANDARD_FIELDS
        assert written == dialect.reads, name
        assert ("no `<`" in limits) == dialect.plain_description, name
        assert others.startswith("refused") == dialect.strict, name
        assert others.startswith("kept") == dialect.keeps_others, name
        assert ("description 1,024" in limits) == (dialect.description_limit == 1024), name
        short = "`metadata.short-description` 1,024" in limits
        assert short == (dialect.short_description_limit == 1024), name
        assert ("1,536" in limits) == (dialect.listing_limit == 1536), name
        assert set(re.findall(r"`([^`]+)`", sides)) == set(dialect.side_files), name
        assert source


def test_the_shared_folder_accepts_what_all_its_readers_accept() -> None:
    shared = KNOWN_TARGETS["agents"].dialect
    assert shared is not None
    for reader in shared.readers:
        dialect = KNOWN_TARGETS[reader].dialect
        assert dialect is not None
        # nothing the shared folder writes is refused by one of its readers
        assert shared.reads <= dialect.reads | (set() if dialect.strict else shared.reads)
        if dialect.description_limit is not None:
            assert shared.description_limit is not None
            assert shared.description_limit <= dialect.description_limit


def test_codex_folds_the_name_of_the_folder_as_it_folds_the_frontmatter_s() -> None:
    """codex-rs's ``default_skill_name`` folds the folder's name before the length check: 66
    characters with a run of three spaces are 64 to it."""
    spaced = "n" * 32 + "   " + "n" * 31
    assert codex_name_refusal(None, spaced) is None
    assert codex_name_refusal("", f" {'n' * 64}\t") is None
    assert codex_name_refusal(None, "n" * 65) == "the name is 65 characters long (at most 64)"
    assert entry_description("codex", {"description": "Does x."}, folder=spaced) == "Does x."


def test_codex_refuses_what_its_typed_parse_fails_on() -> None:
    """Codex's loader parses the frontmatter into strings and a ``metadata`` mapping: a list
    or a mapping where it wants text, or a ``metadata`` that is not a mapping, refuses the
    whole skill (not listed)."""
    base = {"name": "x", "description": "Does x."}
    refused = [
        ("metadata is not a mapping", {**base, "metadata": "v1"}),
        ("metadata is not a mapping", {**base, "metadata": ["a"]}),
        ("name is not text", {**base, "name": ["x"]}),
        ("description is not text", {**base, "description": {"a": "b"}}),
        (
            "metadata.short-description is not text",
            {**base, "metadata": {"short-description": ["a", "b"]}},
        ),
    ]
    for why, frontmatter in refused:
        assert codex_refusal(frontmatter) == why, frontmatter
        assert entry_description("codex", frontmatter) is None
    # what it takes: metadata set to nothing, other keys of any type, a mapping of strings
    for taken in ({"metadata": None}, {"metadata": {"tags": ["a"], "short-description": "y"}}):
        assert codex_refusal({**base, **taken}) is None, taken


def test_one_fold_of_white_space_for_what_the_agents_list() -> None:
    """``folded_text``: a text's runs of white space as one space, none at either end; ""
    for anything else. It has one home: no module of skillc-index writes it again."""
    assert folded_text("  Does\n\tx  and  y \u3000") == "Does x and y"
    assert [folded_text(value) for value in (None, 3, ["a"], {"a": "b"}, "  ")] == [""] * 5
    source = Path(skillc_index.__file__).parent
    copies = [
        path.relative_to(source).as_posix()
        for path in sorted(source.rglob("*.py"))
        if ".split()) if isinstance(" in path.read_text(encoding="utf-8")
    ]
    assert copies == ["dialect.py"]


def test_a_look_alike_is_a_dash_or_one_ascii_letter_or_digit_as_it_shows() -> None:
    """``looks_ascii`` took any dash of Unicode for a hyphen (a wave dash, the Hebrew maqaf)
    and any compatibility form of ASCII letters for a letter (``™`` is ``TM``, ``²`` is
    ``2``): messages named characters that look like no ASCII one (s49 unifollow). The
    dashes that look like one, and the forms that show one letter or digit, still count."""
    from skillc_index.deceptive import looks_ascii
    from skillc_index.dialect import name_faults

    alike = (
        "\u2010\u2011\u2013\u2014\u2015\u2212\ufe63\uff0d\u212a\uff50\U0001d429\u0440\u2160\u2113"
    )
    unlike = "\u301c\u30a0\u2e3a\u05be\u2122\u00b2\u2082\u2460\u00aa\u00e9\u00df-a1"
    assert [c for c in alike if not looks_ascii(c)] == []
    assert [c for c in unlike if looks_ascii(c)] == []
    assert name_faults("pdf\u00b2\u2122").form == ("contains invalid characters '\u00b2\u2122'",)
    assert name_faults("pdf\u2122\u212a").form == (
        "contains invalid characters '\u2122' and U+212A KELVIN SIGN",
    )
