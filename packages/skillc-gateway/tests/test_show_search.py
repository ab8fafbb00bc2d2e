"""``show`` and ``search`` over a real index built by skillc-index (RFC-0002:C-SHOW, RFC-0004)."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import time
from collections.abc import Callable
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from skillc_gateway import normalize_query, search_skill, show_section
from skillc_index import (
    EmptyQuery,
    IndexUnusable,
    InvalidOption,
    Layout,
    PathEscapesRoot,
    ResolvedSkill,
    SectionNotFound,
    SkillFileNotFound,
    index_path,
    load_config,
    resolve_skill,
)
from skillc_index.build.skill import build_skill
from skillc_index.diagnostics import IndexCollision

Run = Callable[..., subprocess.CompletedProcess[str]]


@pytest.fixture
def built(resolved: ResolvedSkill, project: Path, home: Path) -> ResolvedSkill:
    build_skill("demo", Layout.discover(project, {"SKILLC_HOME": str(home)}))
    return resolved


def test_query_normalisation() -> None:
    assert normalize_query("  Install  ") == "Install"
    assert normalize_query("Clap Patterns — Advanced parsing") == "Clap Patterns"
    assert normalize_query("## Usage") == "Usage"
    assert normalize_query("Pre—post") == "Pre—post"  # an em-dash without spaces is kept


def test_show_returns_the_section_with_its_fence(built: ResolvedSkill) -> None:
    found = show_section(built, "install")
    assert (found.file, found.heading, found.level) == ("SKILL.md", "Install", 2)
    assert found.text.startswith("## Install\n")
    assert "# not a heading\nmake install\n```\n" in found.text  # the fence did not split it
    assert "## Usage" not in found.text
    assert found.matches == 1 and found.warnings == ()


def test_show_includes_subsections_and_cuts_lines(built: ResolvedSkill) -> None:
    found = show_section(built, "API")
    assert found.file == "references/api.md"
    assert "### GET" in found.text
    cut = show_section(built, "Demo", max_lines=2)
    assert cut.shown_lines == 2 and cut.more_lines == cut.total_lines - 2


def test_a_files_bom_is_no_part_of_its_first_section(
    resolved: ResolvedSkill, project: Path, home: Path
) -> None:
    """A reference saved "UTF-8 with BOM": its first section began with U+FEFF (the index,
    outline and search drop it); a hidden file's too. ``open`` keeps the file's bytes."""
    from skillc_gateway import open_file

    text = "\ufeff# Guide\n\nFirst.\n"
    (resolved.source / "references" / "bom.md").write_text(text, "utf-8")
    (resolved.source / ".bom.md").write_text(text, "utf-8")
    build_skill("demo", Layout.discover(project, {"SKILLC_HOME": str(home)}))
    assert show_section(resolved, "Guide").text == "# Guide\n\nFirst.\n"
    hidden = show_section(resolved, "Guide", file=".bom.md", hidden=True)
    assert hidden.text == "# Guide\n\nFirst.\n"
    assert show_section(resolved, "Guide", skip=1).text == "\nFirst.\n"
    assert open_file(resolved, "references/bom.md").text == text


def test_show_refuses_a_hidden_or_gitignored_file_before_building_the_index(
    resolved: ResolvedSkill, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``show --file`` of a file the skill's ``.gitignore`` excludes built the skill's index
    (no index holds that file) and only then said E021: it is refused first, as a hidden
    file is, with no index built (``--hidden`` still reads it, from its own headings)."""
    import skillc_gateway._show
    from skillc_index.diagnostics import HiddenPath, IgnoredPath

    (resolved.source / ".gitignore").write_text("out/\n", encoding="utf-8")
    (resolved.source / "out").mkdir()
    (resolved.source / "out" / "notes.md").write_text("# Notes\n\n## Private\n\nx\n", "utf-8")
    (resolved.source / ".notes.md").write_text("# Notes\n", "utf-8")

    def no_index(*args: object, **kwargs: object) -> None:
        raise AssertionError("the index was built for a file that is no part of the skill")

    monkeypatch.setattr(skillc_gateway._show, "ensure_index", no_index)
    with pytest.raises(IgnoredPath, match=r"excluded by the skill's \.gitignore"):
        show_section(resolved, "Private", file="out/notes.md")
    with pytest.raises(HiddenPath):
        show_section(resolved, "Notes", file=".notes.md")
    found = show_section(resolved, "Private", file="out/notes.md", hidden=True)
    assert found.text == "## Private\n\nx\n"


def test_a_utf16_reference_is_read_as_its_text(
    resolved: ResolvedSkill, project: Path, home: Path
) -> None:
    """A reference saved as UTF-16 with its BOM (Windows PowerShell 5.1's ``>``) had no
    headings in ``outline``, E020 in ``show``, no words in ``search``, and ``open`` served it
    as binary base64: each reads its text, as UTF-8, the BOM dropped (``files.decoded`` and
    ``text.as_utf8``, the lines the index numbers). A file whose text holds NULs is binary."""
    from skillc_gateway import FileBytes, FileText, open_file, outline

    text = "# Guide\r\n\r\n## Install\r\n\r\nInstall gizmo widgets.\r\n\r\n## Last\r\n\r\nEnd.\r\n"
    refs = resolved.source / "references"
    (refs / "le.md").write_bytes(text.encode("utf-16"))  # FF FE, little-endian
    (refs / "be.md").write_bytes(b"\xfe\xff" + text.replace("Guide", "Tome").encode("utf-16-be"))
    (refs / "nul.md").write_bytes("\0\0\0# Not text\n".encode("utf-16"))
    build_skill("demo", Layout.discover(project, {"SKILLC_HOME": str(home)}))
    found = [(h.file, h.text) for h in outline(resolved).headings if "/" in h.file]
    for file in ("references/be.md", "references/le.md"):
        assert [heading for name, heading in found if name == file][1:] == ["Install", "Last"]
    install = show_section(resolved, "Install", file="references/le.md")
    assert install.text == "## Install\r\n\r\nInstall gizmo widgets.\r\n\r\n"
    assert show_section(resolved, "Tome").text == text.replace("Guide", "Tome")
    hits = {(hit.file, hit.section) for hit in search_skill(resolved, "gizmo").results}
    assert {("references/le.md", "Install"), ("references/be.md", "Install")} <= hits
    opened = open_file(resolved, "references/be.md", skip=2, max_lines=1)
    assert isinstance(opened, FileText)
    assert (opened.text, opened.total_lines) == ("## Install\r\n", 9)
    assert isinstance(open_file(resolved, "references/nul.md"), FileBytes)


def test_headings_with_an_em_dash_can_be_shown(built: ResolvedSkill, project: Path) -> None:
    (built.source / "c.md").write_text(
        "# Step 1 — Checks\n\nfirst\n\n# Step 2\n\nsecond\n", "utf-8"
    )
    build_skill("demo", Layout.discover(project, {"SKILLC_HOME": str(project.parent / "home")}))
    assert show_section(built, "Step 1 — Checks").text.startswith("# Step 1 — Checks")
    assert show_section(built, "step 2 — from the stub").heading == "Step 2"


def test_a_line_copied_from_the_stub_finds_its_heading(built: ResolvedSkill, project: Path) -> None:
    """A References line whose title holds " — " itself found the part before the first
    dash (E020, or a heading of that text); a heading with a run of spaces is listed with
    one, and that label was E020."""
    (built.source / "c.md").write_text(
        "# Playbook — Claude Code\n\nthe one\n\n# Playbook\n\nnot this\n\n"
        "## Part 2  React  APIs\n\nspaced\n",
        "utf-8",
    )
    build_skill("demo", Layout.discover(project, {"SKILLC_HOME": str(project.parent / "home")}))
    line = "Playbook — Claude Code — Run a review — with care"
    assert show_section(built, line).text.startswith("# Playbook — Claude Code\n")
    assert show_section(built, "part 2 react apis").heading == "Part 2  React  APIs"


def test_a_heading_whose_text_begins_with_marks_is_shown_as_outline_lists_it(
    built: ResolvedSkill, project: Path, gateway: Run
) -> None:
    """``### `## Setup``` (a template's heading, found in a public skill) has the text ``##
    Setup``: the query with its marks dropped (``Setup``) matches nothing, so the query as
    typed is tried; a heading ``Setup`` would still come first."""
    (built.source / "t.md").write_text("# Templates\n\n### `## Setup`\n\nsteps\n", "utf-8")
    build_skill("demo", Layout.discover(project, {"SKILLC_HOME": str(project.parent / "home")}))
    found = show_section(built, "## Setup")
    assert (found.file, found.heading, found.text) == (
        "t.md",
        "## Setup",
        "### `## Setup`\n\nsteps\n",
    )
    assert show_section(built, "## Install").heading == "Install"  # the marks dropped first
    with pytest.raises(SectionNotFound) as caught:
        show_section(built, "## Setu")
    assert caught.value.section == "Setu"
    assert caught.value.suggestions == [("## Setup", "t.md")]
    shown = gateway("show", "demo", "--section", "## Setup", "--file", "t.md")
    assert (shown.returncode, shown.stdout) == (0, "### `## Setup`\n\nsteps\n"), shown.stderr


def test_unicode_case_folding_and_multiple_matches(built: ResolvedSkill, project: Path) -> None:
    (built.source / "b.md").write_text("# Über Uns\n\ntext\n\n# Install\n\nagain\n", "utf-8")
    build_skill("demo", Layout.discover(project, {"SKILLC_HOME": str(project.parent / "home")}))
    assert show_section(built, "über uns").heading == "Über Uns"
    found = show_section(built, "INSTALL")
    assert found.file == "SKILL.md"  # bytewise file order: "SKILL.md" < "b.md"
    assert found.matches == 2
    assert [w.code for w in found.warnings] == ["W001"]
    assert show_section(built, "install", file="b.md").file == "b.md"


def test_nth_shows_another_of_the_matching_headings(
    built: ResolvedSkill, project: Path, gateway: Run
) -> None:
    """Two headings of one text (``Examples`` under two H1s) could not both be read: W001
    and the first, whatever was asked. ``nth`` picks one, in file then line order, in one
    file with ``file``, in a hidden file too; past the last is E020 saying how many match."""
    (built.source / "b.md").write_text("# Install\n\nagain\n\n# install\n\nthird\n", "utf-8")
    (built.source / ".notes.md").write_text("# Tip\n\none\n\n# Tip\n\ntwo\n", "utf-8")
    build_skill("demo", Layout.discover(project, {"SKILLC_HOME": str(project.parent / "home")}))
    second = show_section(built, "install", nth=2)
    assert (second.file, second.start_line, second.text) == ("b.md", 1, "# Install\n\nagain\n\n")
    assert (second.matches, second.warnings) == (3, ())  # no "showing first": it is not
    assert show_section(built, "install", file="b.md", nth=2).text == "# install\n\nthird\n"
    assert show_section(built, "tip", file=".notes.md", hidden=True, nth=2).text == "# Tip\n\ntwo\n"
    with pytest.raises(SectionNotFound) as caught:
        show_section(built, "install", file="b.md", nth=3)
    assert str(caught.value) == (
        "error[E020]: section not found: 'install'\nhint: only 2 headings match it"
    )
    shown = gateway("show", "demo", "--section", "Install", "--nth", "3")
    assert (shown.returncode, shown.stdout, shown.stderr) == (0, "# install\n\nthird\n", "")
    # an explicit first is asked for, not taken: no W001 (CLI, API and MCP alike)
    first = gateway("show", "demo", "--section", "Install", "--nth", "1")
    assert (first.returncode, first.stderr) == (0, "")
    assert show_section(built, "install", nth=1).warnings == ()
    assert [w.code for w in show_section(built, "install").warnings] == ["W001"]
    from skillc_gateway._section_ops import SHOW

    asked = {"skill": "demo", "section": "Install"}
    assert (SHOW.parse(asked).nth, SHOW.parse({**asked, "nth": 1}).nth) == (None, 1)


def test_a_section_is_found_however_its_accents_are_composed(
    built: ResolvedSkill, project: Path
) -> None:
    """A heading and a ``--section`` compare composed (NFC) and case folded: a name typed
    decomposed (e and U+0300, as some keyboards and file systems give it) was E020 while the
    precomposed one was found; so was a precomposed query for a decomposed heading. Both
    lookups: SQLite's (the first) and the snapshot's (the next)."""
    from unicodedata import normalize

    text = "# Crème Brûlée\n\nSugar.\n\n# " + normalize("NFD", "Café Olé") + "\n\nMilk.\n"
    (built.source / "b.md").write_text(text, "utf-8")
    build_skill("demo", Layout.discover(project, {"SKILLC_HOME": str(project.parent / "home")}))
    for _ in range(2):
        assert show_section(built, normalize("NFD", "crème brûlée")).heading == "Crème Brûlée"
        assert show_section(built, normalize("NFC", "café olé")).text.endswith("Milk.\n")


def test_arabic_and_hebrew_are_found_with_or_without_their_vowel_marks(
    built: ResolvedSkill, project: Path
) -> None:
    """Arabic harakat and Hebrew points were word separators to ``search``'s tokenizer
    (``تَرْجَمَةُ`` was five letters): a word was found by no query, vowelled or not. Both
    are folded out of text and query; ``search`` shows the section and its snippet as written,
    with them, and ``show`` finds the heading by that text as by the text without them."""
    text = "# تَرْجَمَةُ الكِتَابِ\n\nنص.\n\n# תִּרְגּוּם מִסְמָכִים\n\nטקסט.\n"
    (built.source / "marks.md").write_text(text, "utf-8")
    build_skill("demo", Layout.discover(project, {"SKILLC_HOME": str(project.parent / "home")}))
    for query in ("ترجمة", "تَرْجَمَةُ", "ترجمة الكتاب"):
        hits = search_skill(built, query).results
        assert [(hit.file, hit.section) for hit in hits] == [("marks.md", "تَرْجَمَةُ الكِتَابِ")]
        assert hits[0].snippet.startswith("# [MATCH]تَرْجَمَةُ[/MATCH] ")
    for query in ("תרגום מסמכים", "תִּרְגּוּם"):
        hits = search_skill(built, query).results
        assert [hit.section for hit in hits] == ["תִּרְגּוּם מִסְמָכִים"]
        assert hits[0].snippet.startswith("# [MATCH]תִּרְגּוּם[/MATCH]")
    for _ in range(2):  # SQLite's lookup, then the snapshot's
        for heading in ("تَرْجَمَةُ الكِتَابِ", "ترجمة الكتاب"):
            assert show_section(built, heading).heading == "تَرْجَمَةُ الكِتَابِ"
        for heading in ("תִּרְגּוּם מִסְמָכִים", "תרגום מסמכים"):
            assert show_section(built, heading).heading == "תִּרְגּוּם מִסְמָכִים"


def test_a_turkish_heading_is_found_whichever_i_the_query_writes(
    built: ResolvedSkill, project: Path
) -> None:
    """``İ`` case folds to i and U+0307, and ``ı`` to itself: ``istanbul rehberi`` and
    ``ISTANBUL REHBERI`` were E020 for ``## İstanbul Rehberi``, ``ışık ayarları`` (Turkish
    lower case) for ``## Işık Ayarları``, while ``search`` and ``find`` found them (audit
    unicode, item 4). Both lookups: SQLite's (the first) and the snapshot's (the next)."""
    text = "# İstanbul Rehberi\n\nGezi.\n\n# Işık Ayarları\n\nIşık.\n"
    (built.source / "tr.md").write_text(text, "utf-8")
    build_skill("demo", Layout.discover(project, {"SKILLC_HOME": str(project.parent / "home")}))
    for _ in range(2):
        for query in ("istanbul rehberi", "ISTANBUL REHBERI", "İSTANBUL REHBERİ"):
            assert show_section(built, query).heading == "İstanbul Rehberi"
        for query in ("ışık ayarları", "IŞIK AYARLARI", "işik ayarlari"):
            assert show_section(built, query).heading == "Işık Ayarları"


#: Skills of the audit of unicode text (s49, items 1 and 2): name, description, headings.
FOLD_SKILLS = {
    "aa": ("Işık ölçümü. Use when measuring.", ["Işık"]),
    "bb": ("DİYARBAKIR raporu. Use when reporting.", ["DİYARBAKIR"]),
    "multi": (
        "Multilingual notes. Use when testing.",
        ["Straße und Maß", "Ελληνικά", "Emoji 🚀 launch"],
    ),
}


def test_show_search_and_find_fold_a_text_alike(cli: Callable[..., Run], project: Path) -> None:
    """One fold for all three: ``search`` found ``## Işık`` by ``Işık`` only (not ``ışık``
    nor ``IŞIK``) and ``## DİYARBAKIR`` by no ``diyarbakır``, nor ``find`` either, while
    ``show --section`` found both; ``show`` found ``## Straße und Maß`` by ``STRASSE UND MASS``
    but ``search`` and ``find`` not by ``strasse``; ``search`` found ``## Ελληνικά`` by
    ``ΕΛΛΗΝΙΚΑ`` but ``show`` did not (E020), nor ``## Emoji 🚀 launch`` by the emoji with
    U+FE0F, as an emoji picker types it. The installed script, as a user runs it."""
    gateway = cli("skillc-gateway", script=True)
    for name, (description, headings) in FOLD_SKILLS.items():
        folder = project / ".claude" / "skills" / name
        folder.mkdir(parents=True)
        body = "".join(f"## {heading}\n\nBody of {name}.\n\n" for heading in headings)
        text = f"---\nname: {name}\ndescription: {description}\n---\n# {name}\n\n{body}"
        (folder / "SKILL.md").write_text(text, "utf-8")
    cases = [
        ("aa", "ışık", "Işık"),
        ("aa", "IŞIK", "Işık"),
        ("bb", "diyarbakır", "DİYARBAKIR"),
        ("bb", "Diyarbakır", "DİYARBAKIR"),
        ("multi", "STRASSE UND MASS", "Straße und Maß"),
        ("multi", "strasse und mass", "Straße und Maß"),
        ("multi", "ΕΛΛΗΝΙΚΑ", "Ελληνικά"),
        ("multi", "ελληνικα", "Ελληνικά"),
        ("multi", "Emoji \U0001f680\ufe0f launch", "Emoji 🚀 launch"),
        ("multi", "Emoji \U0001f680\ufe0e launch", "Emoji 🚀 launch"),
    ]
    for skill, query, heading in cases:
        shown = gateway("show", skill, "--section", query)
        assert (shown.returncode, shown.stderr) == (0, ""), (query, shown.stderr)
        assert shown.stdout.startswith(f"## {heading}\n\nBody of {skill}.\n"), query
        found = gateway("search", skill, query, "--format", "json")
        assert found.returncode == 0, found.stderr
        sections = [hit["section"] for hit in json.loads(found.stdout)["results"]]
        assert sections[:1] == [heading], (query, sections)
    for skill, query in (
        ("multi", "strasse"),
        ("aa", "ışık"),
        ("aa", "IŞIK"),
        ("bb", "diyarbakır"),
    ):
        found = gateway("search", skill, query, "--format", "json")
        assert found.returncode == 0, found.stderr
        assert json.loads(found.stdout)["results"], query
        asked = gateway("find", query, "--format", "json")  # the words alone (clean_env)
        assert asked.returncode == 0, asked.stderr
        assert [hit["name"] for hit in json.loads(asked.stdout)["skills"]][:1] == [skill], query


def test_the_heading_with_the_query_s_accents_is_served_alone(
    cli: Callable[..., Run], project: Path
) -> None:
    """``show --section`` ignores accents (``ΕΛΛΗΝΙΚΑ`` finds ``## Ελληνικά``), and served
    ``## Resume`` for ``Résumé`` with W001 when both headings were there: the one with the
    query's accents is served, with no warning, whichever comes first; the other only when
    none has them, in the file asked for too (``--file``), in a hidden file too; E020
    suggests the headings with the accents typed. The installed script, as a user runs it."""
    gateway = cli("skillc-gateway", script=True)
    folder = project / ".claude" / "skills" / "cv"
    folder.mkdir(parents=True)
    sections = "## Resume\n\nplain\n\n## Résumé\n\naccented\n\n## Ελληνικά\n\ngreek\n"
    text = f"---\nname: cv\ndescription: Resumes. Use when writing one.\n---\n# CV\n\n{sections}"
    (folder / "SKILL.md").write_text(text, "utf-8")
    (folder / "b.md").write_text("# Café\n\nfirst\n\n# Cafe\n\nsecond\n\n# Naive\n\nb\n", "utf-8")
    (folder / "c.md").write_text("# Naïve\n\nc\n", "utf-8")
    (folder / ".d.md").write_text("# Resume\n\nhidden\n\n# Résumé\n\nhidden é\n", "utf-8")
    cases = [
        (["Résumé"], "## Résumé\n\naccented\n"),
        (["résumé"], "## Résumé\n\naccented\n"),
        (["RÉSUMÉ"], "## Résumé\n\naccented\n"),
        (["Resume"], "## Resume\n\nplain\n"),
        (["resume"], "## Resume\n\nplain\n"),
        (["Cafe"], "# Cafe\n\nsecond\n"),
        (["CAFÉ"], "# Café\n\nfirst\n"),
        (["Naïve"], "# Naïve\n\nc\n"),
        (["naive"], "# Naive\n\nb\n"),
        (["Naïve", "--file", "b.md"], "# Naive\n\nb\n"),
        (["RÉSUMÉ", "--file", ".d.md", "--hidden"], "# Résumé\n\nhidden é\n"),
        (["resume", "--file", ".d.md", "--hidden"], "# Resume\n\nhidden\n"),
        (["ΕΛΛΗΝΙΚΑ"], "## Ελληνικά\n\ngreek\n"),
    ]
    for args, expected in cases:
        shown = gateway("show", "cv", "--section", *args)
        assert (shown.returncode, shown.stderr) == (0, ""), (args, shown.stderr)
        assert shown.stdout.rstrip("\n") == expected.rstrip("\n"), args
    for query, suggested in (("Résu", "Résumé (SKILL.md)"), ("resu", "Resume (SKILL.md)")):
        missing = gateway("show", "cv", "--section", query)
        assert (missing.returncode, missing.stdout) == (1, ""), query
        listed = [line for line in missing.stderr.splitlines() if line.startswith("  - ")]
        assert listed == [f"  - {suggested}"], missing.stderr
    missing = gateway("show", "cv", "--section", "Na")  # none typed: both, in order
    assert "  - Naive (b.md)\n  - Naïve (c.md)\n" in missing.stderr


def test_the_heading_as_written_is_served_beside_its_folded_twin(
    cli: Callable[..., Run], project: Path
) -> None:
    """``show --section '⚠️ Warnung'`` (U+FE0F) served ``## ⚠ Warnung`` with W001 once the
    fold dropped the selector, and no query reached ``## Maße`` beside ``## Masse`` (the fold
    writes ``ß`` as ``ss``) without ``--nth`` (s49 unifollow): the heading as written wins,
    alone, with no warning, and E020 suggests the headings as written. The installed script,
    as a user runs it."""
    gateway = cli("skillc-gateway", script=True)
    folder = project / ".claude" / "skills" / "de"
    folder.mkdir(parents=True)
    sections = "## Masse\n\nkg\n\n## Maße\n\nmm\n\n## \u26a0 Warnung\n\ntext\n\n"
    sections += "## \u26a0\ufe0f Warnung\n\nemoji\n"
    text = f"---\nname: de\ndescription: Units. Use when measuring.\n---\n# Units\n\n{sections}"
    (folder / "SKILL.md").write_text(text, "utf-8")
    cases = [
        ("Maße", "## Maße\n\nmm"),
        ("MASSE", "## Masse\n\nkg"),
        ("\u26a0\ufe0f Warnung", "## \u26a0\ufe0f Warnung\n\nemoji"),
        ("\u26a0 warnung", "## \u26a0 Warnung\n\ntext"),
    ]
    for query, expected in cases:
        shown = gateway("show", "de", "--section", query)
        assert (shown.returncode, shown.stderr) == (0, ""), (query, shown.stderr)
        assert shown.stdout.rstrip("\n") == expected, query
    # E020's suggestions are chosen by the same tiers (s50 unicode3: by the accents only,
    # ``Maß`` suggested ``Masse`` first, ``⚠️ Warn`` both warnings): the ones as written
    suggested = [
        ("Ma\u00df", ["Maße"]),
        ("Mass", ["Masse"]),
        ("\u26a0\ufe0f Warn", ["\u26a0\ufe0f Warnung"]),
        ("\u26a0 Warn", ["\u26a0 Warnung"]),
        ("MASS", ["Masse"]),
        ("Ma", ["Masse", "Maße"]),  # both as written: in order
    ]
    for query, headings in suggested:
        missing = gateway("show", "de", "--section", query)
        assert (missing.returncode, missing.stdout) == (1, ""), query
        listed = [line for line in missing.stderr.splitlines() if line.startswith("  - ")]
        assert listed == [f"  - {heading} (SKILL.md)" for heading in headings], missing.stderr


def test_a_heading_is_found_whatever_the_width_of_its_letters(
    built: ResolvedSkill, project: Path
) -> None:
    """``ＰＤＦ ｍｅｒｇｅ`` (typed by a Japanese input method) finds ``## PDF merge``, and the
    other way round (it was E020; audit unicode, item 5); so does half-width katakana
    (``ﾚﾋﾞｭｰ`` for ``## レビュー``, and the other way round; audit cjk, item 7)."""
    text = "# PDF merge\n\nqpdf.\n\n# ＣＳＶ変換\n\nRead.\n\n# レビュー\n\nR.\n\n# ﾌﾟﾙﾘｸｴｽﾄ\n"
    (built.source / "fw.md").write_text(text, "utf-8")
    build_skill("demo", Layout.discover(project, {"SKILLC_HOME": str(project.parent / "home")}))
    for _ in range(2):
        assert show_section(built, "ＰＤＦ　ｍｅｒｇｅ").heading == "PDF merge"
        assert show_section(built, "csv変換").heading == "ＣＳＶ変換"
        assert show_section(built, "ﾚﾋﾞｭｰ").heading == "レビュー"
        assert show_section(built, "プルリクエスト").heading == "ﾌﾟﾙﾘｸｴｽﾄ"


def test_show_errors(built: ResolvedSkill) -> None:
    with pytest.raises(SectionNotFound) as caught:
        show_section(built, "Instal")
    assert caught.value.suggestions == [("Install", "SKILL.md")]
    with pytest.raises(SectionNotFound) as none:
        show_section(built, "zzz")
    assert none.value.suggestions == []
    with pytest.raises(PathEscapesRoot):
        show_section(built, "Install", file="../../x.md")
    with pytest.raises(SkillFileNotFound):
        show_section(built, "Install", file="missing.md")
    for query in ("Instal\udcff", "\udcff\udcfe"):  # bytes of no UTF-8 on a command line
        for _ in range(2):  # the first lookup asks SQLite, the next reads every heading
            with pytest.raises(SectionNotFound):  # was E999: SQLite cannot take them
                show_section(built, query)


def test_show_serves_an_edited_skill_without_a_build(built: ResolvedSkill) -> None:
    """The index is a cache (issue 34): an edit is read by the next ``show`` and ``search``
    (the index is built again in the runtime), never served stale; the build's stub and
    manifest stay what the build wrote."""
    manifest = built.runtime / ".skillc-meta" / "manifest.json"
    stub = built.runtime / "SKILL.md"
    written = (manifest.read_bytes(), stub.read_bytes())
    skill_md = built.source / "SKILL.md"
    time.sleep(0.01)
    skill_md.write_text(skill_md.read_text("utf-8").replace("Run the", "Now run the"), "utf-8")
    assert "Now run the installer." in show_section(built, "Install").text
    assert [hit.section for hit in search_skill(built, "now").results] == ["Install", "Demo"]
    assert (manifest.read_bytes(), stub.read_bytes()) == written


def test_show_serves_a_skill_updated_with_the_same_size_and_time(built: ResolvedSkill) -> None:
    """A SKILL.md replaced by one of the same size and modification time (a skill updated by
    unzipping a ``skc package`` zip, whose entries are all dated 1980-01-01) kept its old
    index: ``show Usage`` printed the lines now under ``## Setup``, ``Setup`` was E020."""
    skill_md = built.source / "SKILL.md"
    assert show_section(built, "Usage").text.startswith("## Usage\n")
    before = skill_md.stat()
    new = built.source / "SKILL.md.new"
    new.write_text(skill_md.read_text("utf-8").replace("## Usage", "## Setup"), "utf-8")
    os.utime(new, ns=(before.st_atime_ns, before.st_mtime_ns))
    new.replace(skill_md)  # as unzip does
    assert (skill_md.stat().st_size, skill_md.stat().st_mtime_ns) == (
        before.st_size,
        before.st_mtime_ns,
    )
    assert show_section(built, "Setup").text == "## Setup\n\nUse it.\n"
    with pytest.raises(SectionNotFound):
        show_section(built, "Usage")


@pytest.mark.parametrize(
    ("touch", "checks"),
    [
        (None, 1),  # untouched: the file read has the stats the build recorded
        (-5.0, 1),  # touched before the check: hashed by it, its stats then describe the file
        (+5.0, 2),  # a time the check could not trust: the bytes read hashed after the read
    ],
)
def test_show_checks_the_index_once(
    built: ResolvedSkill, monkeypatch: pytest.MonkeyPatch, touch: float | None, checks: int
) -> None:
    import skillc_gateway._show as show_module
    from skillc_index.index.schema import RACY_WINDOW_NS

    calls: list[str] = []
    for name in ("ensure_index", "_holds_indexed_bytes"):
        original = getattr(show_module, name)

        def counting(*args: object, _original: Any = original, **kwargs: object) -> object:
            calls.append(_original.__name__)
            return _original(*args, **kwargs)

        monkeypatch.setattr(show_module, name, counting)
    if touch is not None:
        when = time.time() + touch
        os.utime(built.source / "SKILL.md", (when, when))  # same content, another time
        if touch < 0:  # its change time is now: trusted once older than the racy window
            time.sleep(RACY_WINDOW_NS / 1e9)
    found = show_section(built, "Install")
    assert found.text.startswith("## Install\n")
    assert len(calls) == checks


def test_show_reads_the_index_it_checked_not_one_built_after_it(
    built: ResolvedSkill, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another reader may build the index again (the file was saved anew) between this
    show's check and its read of the file: the digests then read by the path are of the new
    index, and the file's new bytes hashed as those must not be served at the place the
    checked index gave (seen once under an editor saving every millisecond, in
    ``tests/stress``). The show reads again, through the new index."""
    import skillc_gateway._show as show_module
    from skillc_index.index.cache import ensure_index

    skill_md = built.source / "SKILL.md"
    moved = skill_md.read_text("utf-8").replace("## Install", "Filler.\n\nFiller.\n\n## Install")
    chosen = show_module._chosen

    def saved_meanwhile(*args: Any, **kwargs: Any) -> Any:
        found = chosen(*args, **kwargs)
        if skill_md.read_text("utf-8") != moved:  # once: an editor's save, a reader's build
            temporary = skill_md.with_name(".SKILL.md.tmp")
            temporary.write_text(moved, "utf-8")
            temporary.replace(skill_md)
            ensure_index(built, "ascii")
        return found

    monkeypatch.setattr(show_module, "_chosen", saved_meanwhile)
    found = show_section(built, "Install")
    assert found.text.startswith("## Install\n")
    assert found.start_line == moved.splitlines().index("## Install") + 1


def test_show_without_an_index_builds_it(resolved: ResolvedSkill) -> None:
    """Never built: the index is built on demand in the runtime, alone (no stub, no
    manifest: nothing was built), and ``show`` answers."""
    found = show_section(resolved, "Install")
    assert found.text.startswith("## Install\n")
    assert sorted(p.name for p in resolved.runtime.rglob("*") if p.is_file()) == [
        index_path(resolved.runtime, resolved.source).name,
        index_path(resolved.runtime, resolved.source).with_suffix(".lock").name,
    ]


def test_a_skill_too_large_to_index_on_demand_is_e002(resolved: ResolvedSkill) -> None:
    """E002 remains for a skill that cannot be indexed, and says why (a sparse file: its
    size is all that is looked at)."""
    with (resolved.source / "big.txt").open("wb") as handle:
        handle.truncate(33 << 20)
    with pytest.raises(IndexUnusable) as caught:
        show_section(resolved, "Install")
    assert str(caught.value) == (
        "error[E002]: search index unusable for 'demo': too large to index "
        "(33.0 MiB of Markdown and text, more than 32 MiB)"
    )
    assert not index_path(resolved.runtime, resolved.source).exists()


def test_search_ranks_and_snippets(built: ResolvedSkill) -> None:
    found = search_skill(built, "installer")
    assert found.results
    top = found.results[0]
    assert (top.file, top.section) == ("SKILL.md", "Install")
    assert "[MATCH]" in top.snippet and top.score > 0
    assert [r.score for r in found.results] == sorted(
        (r.score for r in found.results), reverse=True
    )
    text = search_skill(built, "three")  # the .txt file is one document with section ""
    assert [(r.file, r.section) for r in text.results] == [("references/notes.txt", "")]
    data = found.to_dict()
    assert set(data) == {"query", "results"}
    assert set(data["results"][0]) == {"file", "section", "snippet", "score"}  # type: ignore[index]


@pytest.mark.parametrize(
    "query",
    [
        '"',
        "*",
        "(",
        ")",
        "NEAR",
        "AND",
        "OR",
        "NOT",
        "-x",
        "a:b",
        "^x",
        'say "hi"',
        "日本語",
        "x*",
        "NEAR(a b)",
    ],
)
def test_fts_syntax_is_searched_as_text(built: ResolvedSkill, query: str) -> None:
    found = search_skill(built, query)
    data = json.loads(json.dumps(found.to_dict()))
    assert data["query"] == query
    assert all(
        r["file"] in {"SKILL.md", "references/api.md", "references/notes.txt"}
        for r in data["results"]
    )


def test_search_errors(built: ResolvedSkill) -> None:
    with pytest.raises(EmptyQuery):
        search_skill(built, " \t\n")
    path = index_path(built.runtime, built.source)
    db = sqlite3.connect(path)
    db.execute("UPDATE index_meta SET value = '/elsewhere' WHERE key = 'skill_path'")
    db.commit()
    db.close()
    with pytest.raises(IndexCollision):
        search_skill(built, "install")
    path.write_bytes(b"garbage")  # corrupt: built again
    assert [hit.section for hit in search_skill(built, "installer").results] == ["Install", "Demo"]


def test_cli_show_prints_the_sections_escape_sequences_in_a_pipe(gateway: Run, demo: Path) -> None:
    """click strips CSI sequences when stdout is not a terminal, unless told: the section is
    the file's text (RFC-0002:C-SHOW), so a link target ``r\\x1b[1mx.md`` never reads as
    ``rx.md``."""
    line = "See [ref](references/r\x1b[1mx.md) and \x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\.\n"
    (demo / "esc.md").write_text(f"# Esc\n\n{line}", encoding="utf-8")
    shown = gateway("show", "demo", "--section", "Esc")
    assert (shown.returncode, shown.stdout) == (0, f"# Esc\n\n{line}")


def test_cli_show_and_search(gateway: Run, built: ResolvedSkill, project: Path) -> None:
    shown = gateway("show", "demo", "--section", "Usage")
    assert (shown.returncode, shown.stdout) == (0, "## Usage\n\nUse it.\n")
    missing = gateway("show", "demo", "--section", "Instal")
    assert missing.returncode == 1
    assert missing.stderr.splitlines() == [
        "error[E020]: section not found: 'Instal'",
        "Did you mean one of these?",
        "  - Install (SKILL.md)",
    ]
    result = gateway("search", "demo", "-x", "--format", "json")
    assert result.returncode == 0 and json.loads(result.stdout)["query"] == "-x"
    empty = gateway("search", "demo", "  ")
    assert (empty.returncode, empty.stderr.strip()) == (1, "error[E004]: empty query")
    # over the bound the MCP tool's schema has (maxLength): the same E100, nothing searched
    # or logged (it exited 0 with no results, the query logged in full)
    for what, command in [
        ("query", ["search", "demo", "x" * 10_001]),
        ("section", ["show", "demo", "--section", "x" * 10_001]),
    ]:
        long = gateway(*command)
        assert (long.returncode, long.stderr.strip()) == (
            1,
            f"error[E100]: invalid option: 'the {what} has 10,001 characters; at most 10,000 "
            "are allowed'",
        )
    with closing(sqlite3.connect(project / ".skillc/runtime/demo/.skillc-meta/logs.db")) as db:
        rows = db.execute("SELECT command, args, error FROM access_log ORDER BY id").fetchall()
    assert [r[0] for r in rows] == ["show", "show", "search", "search"]
    assert json.loads(rows[2][1]) == {"query": "-x", "limit": 10, "result_count": 0}
    assert rows[1][2] == "error[E020]: section not found: 'Instal'"
    assert rows[3][2] == "error[E004]: empty query"


def test_a_search_that_matches_nothing_says_so(gateway: Run, built: ResolvedSkill) -> None:
    """RFC-0004's "no results" is an empty result set and exit 0; the text output printed
    nothing, which a person could not tell from a command that did not run."""
    text = gateway("search", "demo", "zzzqqq")
    assert (text.returncode, text.stdout, text.stderr) == (
        0,
        "No section matches 'zzzqqq'.\n",
        "",
    )
    data = gateway("search", "demo", "zzzqqq", "--format", "json")
    assert (data.returncode, json.loads(data.stdout)["results"]) == (0, [])


def test_a_cjk_query_under_the_default_tokenizer_says_how_to_find_it(
    gateway: Run, project: Path, home: Path, demo: Path
) -> None:
    """``skc search pdf-zh 表格`` said "No section matches" though the word is in the skill,
    with nothing to say that the default ``ascii`` tokenizer keeps a CJK run whole (audit
    cjk, item 6): a query holding such characters gets a ``hint`` (text and JSON) when the
    index was not made with ``cjk``; none with ``cjk``, nor for another query."""
    from skillc_gateway._search import SPACELESS_HINT

    (demo / "zh.md").write_text("# 指南\n\n使用表格数据。\n", encoding="utf-8")
    text = gateway("search", "demo", "表格")
    assert (text.returncode, text.stdout) == (
        0,
        f"No section matches '表格'.\nhint: {SPACELESS_HINT}\n",
    )
    data = json.loads(gateway("search", "demo", "PDF 表格", "--format", "json").stdout)
    assert (data["results"], data["hint"]) == ([], SPACELESS_HINT)
    assert 'tokenizer = "cjk"' in SPACELESS_HINT
    assert "hint" not in json.loads(gateway("search", "demo", "zzz", "--format", "json").stdout)
    skill = resolve_skill("demo", Layout.discover(project, {"SKILLC_HOME": str(home)}))
    assert search_skill(skill, "ข้อมูล").hint == SPACELESS_HINT  # Thai
    found = search_skill(skill, "表格", tokenizer_setting="cjk")
    assert (len(found.results), found.hint) == (1, "")


def test_a_query_starting_with_a_dash_is_searched_as_written(
    gateway: Run, project: Path, write_skill: Callable[..., Path]
) -> None:
    """A word that is not exactly one of the command's options is the query: an ``h`` in it
    printed the help, and a ``v`` turned on -v and was dropped (``-save-temps`` searched
    ``-sae-temps``). Options around it, and an exact ``-h``, keep their meaning."""
    body = "## Visibility\n\nUse -fvisibility=hidden.\n\n## Saving temps\n\nUse -save-temps.\n"
    write_skill(project / ".skillc/skills/gcc", body=body)
    for query, section in [("-fvisibility=hidden", "Visibility"), ("-save-temps", "Saving temps")]:
        result = gateway("search", "gcc", query, "--format", "json", "--limit", "1")
        assert result.returncode == 0, result.stderr
        data = json.loads(result.stdout)
        assert data["query"] == query
        assert [hit["section"] for hit in data["results"]] == [section]
    before = gateway("search", "gcc", "--format=json", "-vsecret")
    assert json.loads(before.stdout)["query"] == "-vsecret"
    assert gateway("search", "gcc", "-save-temps", "-h").stdout.startswith("Usage:")
    for command in (("search", "gcc", "-save-temps"), ("find",)):  # their own pre-scan's
        missing = gateway(*command, "--limit")
        assert (missing.returncode, missing.stderr.splitlines()) == (
            1,
            [
                "error[E100]: invalid option: 'Option \"--limit\" requires an argument.'",
                f"Try 'skillc-gateway {command[0]} --help' for help.",
            ],
        )
    db = sqlite3.connect(project / ".skillc" / "runtime" / "gcc" / ".skillc-meta" / "logs.db")
    logged = [json.loads(args)["query"] for (args,) in db.execute("SELECT args FROM access_log")]
    db.close()
    assert logged == ["-fvisibility=hidden", "-save-temps", "-vsecret"]


def test_cjk_search_after_a_cjk_build(project: Path, home: Path, demo: Path) -> None:
    (demo / "zh.md").write_text("# 指南\n\n我们使用数据库来保存记录。\n", encoding="utf-8")
    layout = Layout.discover(project, {"SKILLC_HOME": str(home)})
    build_skill("demo", layout, config=load_config(layout, env={"SKILLC_TOKENIZER": "cjk"}))
    skill = resolve_skill("demo", layout)
    found = search_skill(skill, "数据", tokenizer_setting="cjk")
    assert [(r.file, r.section) for r in found.results] == [("zh.md", "指南")]
    assert "使用[MATCH]数据[/MATCH]库" in found.results[0].snippet
    # built for cjk: stale for the ascii setting, which builds its own (no CJK splitting)
    assert search_skill(skill, "数据", tokenizer_setting="ascii").results == ()
    assert [r.section for r in search_skill(skill, "我们使用数据库来保存记录").results] == ["指南"]


@pytest.mark.parametrize(
    "char", ["\r", "\r\n", "\x0c", "\x0b", "\x85", "\u2028", "\u2029", "\x1c"], ids=repr
)
def test_show_and_outline_count_lines_as_the_reader_does(
    resolved: ResolvedSkill, project: Path, home: Path, char: str
) -> None:
    """A CR, FF, VT, NEL, U+2028, U+2029 or FS before a heading: the index, outline and the
    reader agree on where each heading is (lines end at \\n, \\r\\n and a lone \\r only)."""
    from skillc_gateway import open_file, outline

    (resolved.source / "references" / "odd.md").write_bytes(
        f"# Odd\n\nbefore{char}after\n\n## Target\n\nbody{char}more\n\n## Next\n".encode()
    )
    build_skill("demo", Layout.discover(project, {"SKILLC_HOME": str(home)}))
    found = show_section(resolved, "Target")
    assert found.text == f"## Target\n\nbody{char}more\n\n"
    assert found.total_lines == 4 + (1 if char in ("\r", "\r\n") else 0)
    heading = next(h for h in outline(resolved).headings if h.text == "Target")
    assert heading.line == found.start_line
    whole = open_file(resolved, "references/odd.md")
    lines = whole.text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    assert lines[found.start_line - 1] == "## Target"
    assert whole.total_lines == found.end_line  # '## Next' is the last line


def test_a_heading_of_only_inline_html_is_listed_and_shown(
    gateway: Run, resolved: ResolvedSkill, project: Path, home: Path
) -> None:
    """``## <Connector Name>``: outline, the index (show), and the stub's section list all use
    its source text (issue 14: it was listed empty and could not be shown)."""
    skill_md = resolved.source / "SKILL.md"
    skill_md.write_text(
        skill_md.read_text(encoding="utf-8") + "\n## <Connector Name>\n\nConnect it.\n",
        encoding="utf-8",
    )
    result = build_skill("demo", Layout.discover(project, {"SKILLC_HOME": str(home)}))
    assert "- <Connector Name>\n" in result.compiled.stub.read_text(encoding="utf-8")
    listed = gateway("outline", "demo", "--format", "json")
    assert listed.returncode == 0, listed.stderr
    texts = [h["text"] for h in json.loads(listed.stdout)["headings"]]
    assert "<Connector Name>" in texts and "" not in texts
    assert "  ## <Connector Name>\n" in gateway("outline", "demo").stdout
    shown = gateway("show", "demo", "--section", "<Connector Name>")
    assert (shown.returncode, shown.stdout) == (0, "## <Connector Name>\n\nConnect it.\n")


def test_a_failed_search_logs_no_results(
    gateway: Run, resolved: ResolvedSkill, project: Path, home: Path
) -> None:
    """RFC-0004:C-LOGGING: a search row always has ``result_count``; a failed one found 0."""
    with (resolved.source / "big.txt").open("wb") as handle:
        handle.truncate(33 << 20)  # too large to index: E002
    too_large = gateway("search", "demo", "install")
    assert too_large.returncode == 1 and too_large.stderr.startswith("error[E002]")
    (resolved.source / "big.txt").unlink()
    empty = gateway("search", "demo", "  ")
    assert empty.returncode == 1 and empty.stderr.startswith("error[E004]")
    db = sqlite3.connect(project / ".skillc" / "runtime" / "demo" / ".skillc-meta" / "logs.db")
    rows = db.execute(
        "SELECT args, error FROM access_log WHERE command = 'search' ORDER BY id"
    ).fetchall()
    db.close()
    assert [json.loads(args)["result_count"] for args, _ in rows] == [0, 0]
    assert [error.split("]")[0] for _, error in rows] == ["error[E002", "error[E004"]


def test_an_empty_heading_has_a_label_that_outline_prints_and_show_takes(
    gateway: Run, demo: Path, project: Path, home: Path
) -> None:
    """A bare ``#`` (or ``##   ``) heading was listed with empty text and could not be shown
    (``show --section ""`` is E020; issue 32): it is labelled by its line."""
    (demo / "references" / "bare.md").write_text(
        "#\n\nFirst.\n\n## Named\n\nSecond.\n\n##   \n\nThird.\n", encoding="utf-8"
    )
    listed = gateway("outline", "demo")
    assert listed.returncode == 0, listed.stderr
    lines = listed.stdout.splitlines()
    at = lines.index("references/bare.md")
    assert lines[at + 1 : at + 4] == [
        "  # (empty heading, line 1)",
        "    ## Named",
        "    ## (empty heading, line 9)",
    ]
    build_skill("demo", Layout.discover(project, {"SKILLC_HOME": str(home)}))
    assert gateway("outline", "demo").stdout.splitlines() == lines  # from the index: the same
    shown = gateway("show", "demo", "--section", "(empty heading, line 9)")
    assert (shown.returncode, shown.stdout) == (0, "##   \n\nThird.\n"), shown.stderr
    first = json.loads(
        gateway("show", "demo", "--section", "(Empty heading, line 1)", "--format", "json").stdout
    )
    assert (first["section"], first["start_line"], first["end_line"]) == (
        "(empty heading, line 1)",
        1,
        12,
    )


@pytest.mark.parametrize("limit", ["ten", 0, -1, 10**30, True, None])
def test_a_limit_that_is_no_count_is_e100_and_the_index_is_left_alone(
    built: ResolvedSkill, limit: object
) -> None:
    """An embedder's bad ``limit`` failed the read, which was taken for a corrupt index: it
    was built again (E002 for ``"ten"``, an OverflowError for 10**30, every section for -1)."""
    search_skill(built, "installer")
    index = index_path(built.runtime, built.source)
    before = index.stat().st_ino, index.stat().st_mtime_ns
    with pytest.raises(
        InvalidOption,  # the value inside, not at the end: no quote doubled before E100's
        match=r"^error\[E100\]: invalid option: 'limit must be .*'$",
    ):
        search_skill(built, "installer", limit=limit)  # type: ignore[arg-type]
    assert (index.stat().st_ino, index.stat().st_mtime_ns) == before


def test_the_first_of_duplicate_headings_is_outlines_with_a_name_not_utf8(
    built: ResolvedSkill, project: Path
) -> None:
    """Paths that are not UTF-8 are stored as bytes, which SQLite sorted after every text:
    ``show`` took ``b.md``'s heading where ``outline`` lists ``a\\xe9.md``'s first."""
    import os

    (built.source / os.fsdecode(b"a\xe9.md")).write_text("# Same\n\nlatin\n", "utf-8")
    (built.source / "b.md").write_text("# Same\n\nbee\n", "utf-8")
    build_skill("demo", Layout.discover(project, {"SKILLC_HOME": str(project.parent / "home")}))
    found = show_section(built, "Same")
    assert (found.file, found.matches) == (os.fsdecode(b"a\xe9.md"), 2)
