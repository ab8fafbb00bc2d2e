"""Every RFC-0008 rule: a case that triggers it and the near miss that must stay silent.

Skills are real folders written to a temporary directory and linted through the public API.
"""

from __future__ import annotations

import json
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skillc_index.dialect import name_faults, skill_name_problem
from skillc_lint import LintDiagnostic, LintResult, default_registry, lint_skill

Writer = Callable[..., Path]
Found = Callable[..., list[LintDiagnostic]]
Run = Callable[..., "subprocess.CompletedProcess[str]"]

TRIGGER = "Use when testing."


def messages(diagnostics: list[LintDiagnostic]) -> list[str]:
    return [d.message for d in diagnostics]


# -- a clean skill ----------------------------------------------------------------------------


def test_a_valid_skill_has_no_diagnostic(skill: Writer) -> None:
    folder = skill(
        body="See [the guide](references/guide.md#usage).\n\n## Usage\n\nText.\n",
        files={"references/guide.md": "# Guide\n\n## Usage\n\nMore.\n", "README.md": "# Read\n"},
    )
    result = lint_skill(folder)
    assert result.diagnostics == ()
    assert result.ok and result.errors == 0 and result.warnings == 0
    assert result.skill == "my-skill"
    assert result.skipped is None


# -- SKL001 skip-compiled ---------------------------------------------------------------------


def compile_marker(folder: Path) -> None:
    meta = folder / ".skillc-meta"
    meta.mkdir()
    (meta / "manifest.json").write_text(json.dumps({"skill": folder.name}), encoding="utf-8")


def test_skl001_compiled_skill_is_skipped(skill: Writer) -> None:
    folder = skill(frontmatter="name: BAD\n")  # would have errors if linted
    compile_marker(folder)
    result = lint_skill(folder)
    assert result.skipped == "compiled"
    assert result.diagnostics == () and result.ok


def test_skl001_force_lints_and_warns(skill: Writer, found: Found) -> None:
    folder = skill(frontmatter="name: BAD\n")
    compile_marker(folder)
    result = lint_skill(folder, force=True)
    assert result.skipped is None
    [warning] = [d for d in result.diagnostics if d.rule == "SKL001"]
    assert warning.severity == "warning"
    assert warning.message == "linting compiled skill; results may not be meaningful"
    assert any(d.rule == "SKL102" for d in result.diagnostics)


def test_skl001_near_miss_other_meta_files_do_not_mark_compiled(
    skill: Writer, found: Found
) -> None:
    folder = skill()
    (folder / ".skillc-meta").mkdir()
    (folder / ".skillc-meta" / "logs.db").write_bytes(b"")
    assert lint_skill(folder).skipped is None
    assert found(folder, "SKL001", force=True) == []


# -- SKL100 frontmatter-valid -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "message", "line"),
    [
        ("# my-skill\n", "missing frontmatter: file does not start with ---", 1),
        ("---\nname: my-skill\n# my-skill\n", "missing frontmatter: no closing --- found", 1),
        (
            "---\nname: my-skill\ndescription: [unclosed\n---\n# my-skill\n",
            "invalid frontmatter YAML: ",
            4,
        ),
        ("---\n- a list\n---\n# my-skill\n", "invalid frontmatter YAML: expected a mapping", 1),
    ],
)
def test_skl100_invalid_frontmatter(
    skill: Writer, found: Found, text: str, message: str, line: int
) -> None:
    [d] = found(skill(skill_md=text), "SKL100")
    assert d.message.startswith(message)
    assert d.severity == "error"
    assert d.file == "SKILL.md"
    assert d.line == line


def test_skl100_invalid_frontmatter_silences_the_field_rules(skill: Writer) -> None:
    result = lint_skill(skill(skill_md="# my-skill\n"))
    assert {d.rule for d in result.diagnostics} == {"SKL100"}


def test_skl100_near_miss_trailing_blanks_are_fine(skill: Writer, found: Found) -> None:
    text = "---  \nname: my-skill\ndescription: x. Use when y.\n---\n# my-skill\n"
    assert found(skill(skill_md=text), "SKL100") == []


def test_skl100_a_bom_before_the_opening_is_an_error(skill: Writer, found: Found) -> None:
    """The file must begin with ``---`` (RFC-0008); an agent skipped skills starting with a
    BOM, the reference validator refuses them. skillc's readers still read the frontmatter,
    so the other rules run."""
    text = "\ufeff---\nname: my-skill\ndescription: x. Use when y.\n---\n# my-skill\n"
    folder = skill(skill_md=text)
    [d] = found(folder, "SKL100")
    assert (d.message, d.line, d.severity) == (
        "SKILL.md starts with a UTF-8 BOM, not ---: some agents skip the skill",
        1,
        "error",
    )
    assert found(folder, "SKL101") == []


def test_a_given_text_starting_with_a_lone_surrogate_is_linted(skill: Writer) -> None:
    """A text given to lint (an editor's, ``texts=``) starting with a lone surrogate was a
    UnicodeEncodeError (its first character encoded to look for a BOM): it is linted as its
    file holding that undecodable byte is (not UTF-8, the disk's UTF-8 file not asked), a
    BOM before ``---`` still noted."""
    folder = skill()
    text = "---\nname: my-skill\ndescription: x. Use when y.\n---\n# my-skill\n"
    result = lint_skill(folder, texts={"SKILL.md": "\udc80" + text})
    [d] = [d for d in result.diagnostics if d.rule == "SKL100"]
    assert d.message == "SKILL.md is not UTF-8: save it as UTF-8"
    (folder / "SKILL.md").write_bytes(b"\x80" + text.encode())
    assert [d.message for d in lint_skill(folder).diagnostics if d.rule == "SKL100"] == [d.message]
    result = lint_skill(folder, texts={"SKILL.md": "\ufeff" + text})
    assert [d.message for d in result.diagnostics if d.rule == "SKL100"] == [
        "SKILL.md starts with a UTF-8 BOM, not ---: some agents skip the skill"
    ]


def test_a_markdown_file_that_is_not_utf8_is_one_finding(skill: Writer, found: Found) -> None:
    """A UTF-16 SKILL.md was SKL100 "does not start with ---" (it does, in its author's
    editor) and an SKL901 NUL in every line; a UTF-16 or cp1252 reference an SKL901 per line
    or nothing (its letters U+FFFD for every reader). One finding each, naming the cause:
    SKL100 for SKILL.md, SKL901 for another Markdown file."""
    text = "---\nname: my-skill\ndescription: Café. Use when y.\n---\n# my-skill\n"
    folder = skill(skill_md=text, files={"a.md": "# A\n", "b.md": "# B\n"})
    (folder / "a.md").write_bytes("# A\n\nOne.\n\nTwo.\n".encode("utf-16"))
    (folder / "b.md").write_bytes("# Café\n".encode("cp1252"))
    assert found(folder, "SKL100") == []
    assert [(d.file, d.line, d.message) for d in found(folder, "SKL901")] == [
        ("a.md", 1, "a.md is UTF-16 (BOM FF FE): save it as UTF-8"),
        ("b.md", 1, "b.md is not UTF-8: save it as UTF-8"),
    ]
    (folder / "SKILL.md").write_bytes(text.encode("utf-16"))
    assert [(d.line, d.message) for d in found(folder, "SKL100")] == [
        (1, "SKILL.md is UTF-16 (BOM FF FE): save it as UTF-8")
    ]
    assert [d.file for d in found(folder, "SKL901")] == ["a.md", "b.md"]
    (folder / "SKILL.md").write_bytes(text.encode("cp1252"))
    assert [d.message for d in found(folder, "SKL100")] == [
        "SKILL.md is not UTF-8: save it as UTF-8"
    ]


def test_skl100_a_key_written_twice_is_an_error(skill: Writer, found: Found) -> None:
    """YAML 1.2 forbids a repeated key; readers keep one value (the last, here and in
    PyYAML), the reference validator refuses the file. An empty second description is
    reported as written twice too, not only as empty."""
    folder = skill(
        frontmatter="name: wrong-name\ndescription: x. Use when y.\nname: my-skill\ndescription:\n"
    )
    assert [(d.message, d.line) for d in found(folder, "SKL100")] == [
        ("key 'name' written twice (lines 2 and 4): YAML forbids it", 4),
        ("key 'description' written twice (lines 3 and 5): YAML forbids it", 5),
    ]


def test_skl100_a_nested_key_written_twice_is_an_error(skill: Writer, found: Found) -> None:
    """YAML 1.2 forbids a repeated key in any mapping (skills-ref refuses the file): one under
    ``metadata``, or in a list's mapping, is reported by its path."""
    folder = skill(
        frontmatter="name: my-skill\ndescription: x. Use when y.\nmetadata:\n  author: a\n"
        "  author: b\nhooks:\n  Stop:\n  - {type: a, type: b}\n"
    )
    assert [(d.message, d.line) for d in found(folder, "SKL100")] == [
        ("key 'metadata.author' written twice (lines 5 and 6): YAML forbids it", 6),
        ("key 'hooks.Stop[0].type' written twice (lines 9 and 9): YAML forbids it", 9),
    ]


# -- SKL101 name-required ---------------------------------------------------------------------


def test_skl101_missing_name(skill: Writer, found: Found) -> None:
    [d] = found(skill(frontmatter=f"description: x. {TRIGGER}\n"), "SKL101")
    assert d.message == "missing required frontmatter field: name"
    assert (d.severity, d.line) == ("error", 1)


def test_skl101_null_name_counts_as_missing(skill: Writer, found: Found) -> None:
    assert len(found(skill(frontmatter=f"name:\ndescription: x. {TRIGGER}\n"), "SKL101")) == 1


def test_skl101_near_miss_name_present(skill: Writer, found: Found) -> None:
    assert found(skill(), "SKL101") == []


# -- SKL102 name-format -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "problem"),
    [
        ("My-Skill", "contains uppercase characters"),
        ("skill_name", "contains invalid characters '_'"),
        ("-skill", "starts with a hyphen"),
        ("skill-", "ends with a hyphen"),
        ("my--skill", "contains consecutive hyphens"),
        ("café", "contains invalid characters 'é'"),
        # a combining mark by its code point: quoted, it stacked on the quote mark
        ("i\u0307stanbul", "contains invalid characters U+0307 COMBINING DOT ABOVE"),
        ("a\u0301_b", "contains invalid characters '_' and U+0301 COMBINING ACUTE ACCENT"),
        # a look-alike of an ASCII letter by its name: quoted, 'р' read as the p it is not
        ("\u0440df2", "contains invalid characters U+0440 CYRILLIC SMALL LETTER ER"),
        ("my\u2010skill", "contains invalid characters U+2010 HYPHEN"),
        ("\uff50df", "contains invalid characters U+FF50 FULLWIDTH LATIN SMALL LETTER P"),
        # the Kelvin sign was "uppercase" (its lower case is k): it is no ASCII letter
        ("\u212aelvin", "contains invalid characters U+212A KELVIN SIGN"),
        (
            "caf\u00e9-\u0440df",
            "contains invalid characters '\u00e9' and U+0440 CYRILLIC SMALL LETTER ER",
        ),
        ("\u00c9cole", "contains invalid characters '\u00c9'"),
        ("Caf\u00c9", "contains uppercase characters, contains invalid characters '\u00c9'"),
    ],
)
def test_skl102_bad_names(skill: Writer, found: Found, name: str, problem: str) -> None:
    folder = skill("folder", frontmatter=f"name: {name}\ndescription: x. {TRIGGER}\n")
    [d] = found(folder, "SKL102")
    assert d.message == f"name '{name}' {problem}"
    assert (d.severity, d.line) == ("error", 2)


def test_an_unsafe_name_fix_keeps_the_letters_without_their_accents() -> None:
    """The name SKL102's unsafe fix makes: ``café`` was ``caf``, ``größe-prüfen``
    ``gr-e-pr-fen`` (every letter outside a-z a hyphen); nothing when no letter is Latin."""
    from skillc_lint._rules.fixes import name_from

    assert name_from("café") == "cafe"
    assert name_from("Größe-Prüfen") == "grosse-prufen"
    assert name_from("re\u0301sume\u0301 tips") == "resume-tips"
    assert name_from("i\u0307stanbul") == "istanbul"
    assert name_from("ＰＤＦ_tools") == "pdf-tools"
    assert name_from("日本語") == ""
    assert name_from("My_Skill") == "my-skill"


def test_skl102_rfc_example_message(skill: Writer, found: Found) -> None:
    folder = skill("folder", frontmatter=f"name: My-Skill\ndescription: x. {TRIGGER}\n")
    assert messages(found(folder, "SKL102")) == ["name 'My-Skill' contains uppercase characters"]


def test_skl102_name_must_be_a_string(skill: Writer, found: Found) -> None:
    folder = skill("folder", frontmatter=f"name: 123\ndescription: x. {TRIGGER}\n")
    assert messages(found(folder, "SKL102")) == ["name must be a string, not a number"]


@pytest.mark.parametrize("name", ["my-skill", "skill123", "a", "a-b-c", "9lives"])
def test_skl102_near_miss_valid_names(skill: Writer, found: Found, name: str) -> None:
    assert found(skill(name), "SKL102") == []


# write_skill is a plain function: one per test is the same for every example
@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.one_of(
        st.text(alphabet="abz09-A_. \u00e9\u212a", max_size=70),
        st.text(alphabet="ab-", min_size=60, max_size=70),
        st.text(st.characters(max_codepoint=0xFFFF, exclude_categories=("Cs", "Cc")), max_size=8),
    )
)
def test_lint_takes_its_name_verdict_from_the_one_name_rule(write_skill: Writer, name: str) -> None:
    """Design audit, item 7: SKL102 and SKL103 had their own tests of a name's characters
    and length beside ``skill_name_problem``; they say the one rule's faults now
    (``name_faults``). Whatever the name, lint finds it wrong (SKL102 or SKL103) exactly when
    ``skill_name_problem`` does, on a real SKILL.md (the name quoted: YAML reads it back)."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = write_skill(
            Path(tmp) / "my-skill",
            frontmatter=f"name: {json.dumps(name)}\ndescription: About it. {TRIGGER}\n",
        )
        findings = [d for d in lint_skill(folder).diagnostics if d.rule in ("SKL102", "SKL103")]
    assert bool(findings) == (skill_name_problem(name) is not None)
    assert bool(name_faults(name).form) == any(d.rule == "SKL102" for d in findings)


# -- SKL103 name-length -----------------------------------------------------------------------


def test_skl103_too_long(skill: Writer, found: Found) -> None:
    name = "a" * 65
    [d] = found(skill(name), "SKL103")
    assert d.message == "name is 65 characters long (1-64 allowed)"
    assert d.severity == "error"


def test_skl103_empty(skill: Writer, found: Found) -> None:
    folder = skill(frontmatter=f"name: ''\ndescription: x. {TRIGGER}\n")
    assert messages(found(folder, "SKL103")) == ["name is empty (1-64 characters required)"]


def test_skl103_near_miss_exactly_64(skill: Writer, found: Found) -> None:
    assert found(skill("a" * 64), "SKL103") == []


# -- SKL104 name-match-dir --------------------------------------------------------------------


def test_skl104_name_differs_from_folder(skill: Writer, found: Found) -> None:
    folder = skill("bar", frontmatter=f"name: foo\ndescription: x. {TRIGGER}\n")
    [d] = found(folder, "SKL104")
    assert d.message == "name 'foo' does not match directory 'bar'"
    assert (d.severity, d.line) == ("error", 2)  # the standard's MUST (DECISIONS.md)


def test_skl104_names_a_look_alike_of_an_ascii_letter(skill: Writer, found: Found) -> None:
    """``name 'pdf' does not match directory 'рdf'`` compared two texts that look the same
    (a Cyrillic ``р``, audit r4): the look-alike is named after the message."""
    folder = skill("\u0440df", frontmatter=f"name: pdf\ndescription: x. {TRIGGER}\n")
    [d] = found(folder, "SKL104")
    assert d.message == (
        "name 'pdf' does not match directory '\u0440df' "
        "('\u0440' is U+0440 CYRILLIC SMALL LETTER ER)"
    )


def test_skl104_near_miss_same_name(skill: Writer, found: Found) -> None:
    assert found(skill("foo"), "SKL104") == []


def test_skl104_a_folder_composed_otherwise_is_the_name(skill: Writer, found: Found) -> None:
    """A folder copied from a Mac is decomposed (NFD) where the name was typed composed
    (NFC): the same name, as skills-ref compares them (it said ``name 'café-notes' does not
    match directory 'café-notes'``)."""
    folder = skill(
        "cafe\u0301-notes", frontmatter=f"name: caf\u00e9-notes\ndescription: x. {TRIGGER}\n"
    )
    assert found(folder, "SKL104") == []


# -- SKL105 description-required / SKL106 description-nonempty --------------------------------


def test_skl105_missing_description(skill: Writer, found: Found) -> None:
    folder = skill(frontmatter="name: my-skill\n")
    [d] = found(folder, "SKL105")
    assert d.message == "missing required frontmatter field: description"
    assert d.severity == "error"
    assert found(folder, "SKL106") == []


def test_skl105_near_miss_empty_description_is_skl106(skill: Writer, found: Found) -> None:
    folder = skill(frontmatter="name: my-skill\ndescription: ''\n")
    assert found(folder, "SKL105") == []
    assert messages(found(folder, "SKL106")) == ["description is empty"]


@pytest.mark.parametrize("value", ["''", "'   '", "", "|\n  \n"])
def test_skl106_empty_or_blank(skill: Writer, found: Found, value: str) -> None:
    folder = skill(frontmatter=f"name: my-skill\ndescription: {value}\n")
    [d] = found(folder, "SKL106")
    assert (d.severity, d.line) == ("error", 3)


def test_skl106_not_a_string(skill: Writer, found: Found) -> None:
    folder = skill(frontmatter="name: my-skill\ndescription: [a, b]\n")
    assert messages(found(folder, "SKL106")) == ["description must be a string, not a list"]


@pytest.mark.parametrize("value", ["No", "Yes", "on", "2024-01-01"])
def test_skl106_reads_the_value_as_yaml_1_2(skill: Writer, found: Found, value: str) -> None:
    """``description: No`` is the text "No" to YAML 1.2, as skc build, the agents and skills-ref
    read it (PyYAML's YAML 1.1 reads a boolean): no finding, as for any short text."""
    folder = skill(frontmatter=f"name: my-skill\ndescription: {value}\n")
    assert found(folder, "SKL106") == []
    folder = skill("on", frontmatter="name: on\ndescription: x\n")
    assert found(folder, "SKL102") == found(folder, "SKL104") == []


def test_skl106_near_miss_short_text(skill: Writer, found: Found) -> None:
    assert found(skill(frontmatter="name: my-skill\ndescription: x\n"), "SKL106") == []


# -- SKL107 description-length ----------------------------------------------------------------


def test_skl107_too_long(skill: Writer, found: Found) -> None:
    text = "Use when " + "x" * 1100
    [d] = found(skill(frontmatter=f"name: my-skill\ndescription: {text}\n"), "SKL107")
    assert d.message == f"description is {len(text)} characters long (at most 1024 recommended)"
    assert d.severity == "warning"


def test_skl107_near_miss_exactly_1024(skill: Writer, found: Found) -> None:
    text = ("Use when " + "x" * 1100)[:1024]
    assert found(skill(frontmatter=f"name: my-skill\ndescription: {text}\n"), "SKL107") == []


# -- SKL108 description-triggers --------------------------------------------------------------


def test_skl108_no_trigger(skill: Writer, found: Found) -> None:
    folder = skill(frontmatter="name: my-skill\ndescription: Formats tables.\n")
    [d] = found(folder, "SKL108")
    assert d.message.startswith("missing activation trigger")
    assert (d.severity, d.line) == ("warning", 3)


@pytest.mark.parametrize(
    "description",
    [
        "Formats tables. USE WHEN a table is ugly.",
        "When to use: tables.",
        "Use for tables.",
        "Triggers on table requests.",
        "Triggers: table, grid.",
        "Activate when tables appear.",
        "Formats tables. Use\n  when tables are ugly.",  # folded over two lines
    ],
)
def test_skl108_near_miss_each_rfc_pattern(skill: Writer, found: Found, description: str) -> None:
    value = json.dumps(description)
    folder = skill(frontmatter=f"name: my-skill\ndescription: {value}\n")
    assert found(folder, "SKL108") == []


@pytest.mark.parametrize(
    "description",
    [
        "Formats tables. Use this skill when a table is ugly.",
        "Use this skill whenever a table is ugly.",
        "Use this skill for ugly tables.",
        "Formats tables; use it when they are ugly.",
        "This skill should be used when the user asks for tables.",
        "Formats tables. Use whenever a table is ugly.",
        # how real skills say it (the corpus)
        "Activate this skill when the user asks for a table.",
        "Use this when the user asks for a table.",
        "Load this skill when asked to build a table.",
        "Formats tables. Trigger for: make a table, tabulate.",
        "Reference for tables. TRIGGER — read it first — whenever: a table is asked for.",
        "Use this skill any time a table is asked for.",
        "You MUST use this before any table work.",
        # the corpus's other explicit triggers (an adverb between; "trigger on", "phrases")
        "Makes posters. Use this skill ONLY when the user asks for PowerPoint.",
        "Table helper. Load this skill first when connecting an agent to a table.",
        "Lists tables. Use only for aggregated views.",
        "Audits tables. Trigger on 'table audit' or 'grid check'.",
        "Fixes tables. Trigger phrases: 'fix this table', 'align columns'.",
        "When the user asks which table to pick, this helps choose one.",
        "Whenever a table is ragged, align it.",
    ],
)
def test_skl108_accepts_the_usual_phrasings_of_a_trigger(
    skill: Writer, found: Found, description: str
) -> None:
    folder = skill(frontmatter=f"name: my-skill\ndescription: {json.dumps(description)}\n")
    assert found(folder, "SKL108") == []


@pytest.mark.parametrize(
    "description",
    [
        "Formats tables because when rendered they look nice.",
        "Reuse formats; misuse for fun.",
        "Formats tables. When rendered, they align.",  # "^when": the description's start only
        "Whenevery formats tables.",
    ],
)
def test_skl108_a_pattern_counts_as_whole_words(
    skill: Writer, found: Found, description: str
) -> None:
    """``use when`` is not in ``because when``, nor ``use for`` in ``misuse for``."""
    folder = skill(frontmatter=f"name: my-skill\ndescription: {json.dumps(description)}\n")
    assert len(found(folder, "SKL108")) == 1


@pytest.mark.parametrize(
    ("description", "warned"),
    [
        ("用于填写PDF表单。当用户需要提取表格数据时使用。", False),
        ("GitHubでPRを作成するときに使用する。", False),
        ("エラーが出た場合に参照する。", False),
        ("엑셀 파일을 읽고 차트를 만들 때 사용합니다.", False),
        ("보고서가 필요한 경우에 사용하세요.", False),
        ("Используйте, когда нужно развернуть сервис.", False),
        ("Dùng khi người dùng cần phân tích dữ liệu Excel.", False),
        ("Úsalo cuando el usuario necesite convertir un PDF.", False),
        ("Utiliser lorsqu'un tableau est illisible.", False),
        ("Verwenden, wenn eine Tabelle unlesbar ist.", False),
        ("Use quando o usuário pedir um relatório.", False),
        ("Cuando el PDF no se lee, conviértelo.", False),
        ("Wenn eine Tabelle unlesbar ist: neu formatieren.", False),
        ("Outil à utiliser pour les tableaux.", False),
        ("Khi người dùng cần biểu đồ.", False),
        ("Sử dụng khi cần đọc tệp PDF.", False),
        # near misses: no trigger in any language, nor a pattern cut out of a word; a bare
        # "for" or "when" (English "when" counts at the start only), nor a purpose
        ("PDF表格处理工具。", True),
        ("표를 만듭니다.", True),
        ("Convierte archivos PDF a Word.", True),
        ("Formats paragraphs; pours tables; fürther.", True),
        ("Werkzeug für PDF-Dateien.", True),
        ("Helps pour data into tables.", True),
        ("Herramienta para convertir PDF.", True),
        ("Formatiert Tabellen, wenn nötig.", True),
        ("Converte PDF quando possível.", True),
        ("Формирует отчёт, когда готов.", True),
        ("데이터가 많은 경우 차트를 만듭니다.", True),
        ("Vẽ biểu đồ khi có dữ liệu.", True),
    ],
)
def test_skl108_other_languages_say_when_too(
    skill: Writer, found: Found, description: str, warned: bool
) -> None:
    """Every description in another language warned, though it said when to use the skill."""
    folder = skill(frontmatter=f"name: my-skill\ndescription: {json.dumps(description)}\n")
    assert len(found(folder, "SKL108")) == warned


def test_skl108_a_purpose_is_not_a_trigger(skill: Writer, found: Found) -> None:
    folder = skill(frontmatter="name: my-skill\ndescription: Use this skill to format tables.\n")
    assert len(found(folder, "SKL108")) == 1


def test_skl108_trigger_in_the_body_does_not_count(skill: Writer, found: Found) -> None:
    folder = skill(
        frontmatter="name: my-skill\ndescription: Formats tables.\n",
        body="## When to use this skill\n\nUse when tables are ugly.\n",
    )
    assert len(found(folder, "SKL108")) == 1


def test_skl108_claude_code_reads_when_to_use_with_the_description(
    skill: Writer, found: Found
) -> None:
    """Claude Code lists ``when_to_use`` with the description: under its profile a trigger
    there counts (it did not); without the profile, which no other agent reads, it does not."""
    folder = skill(
        frontmatter="name: my-skill\ndescription: Formats tables.\n"
        "when_to_use: Use when the user asks to align a Markdown table.\n"
    )
    claude = default_registry(profiles=("claude-code",))
    assert found(folder, "SKL108", registry=claude) == []
    assert len(found(folder, "SKL108")) == 1
    bare = skill(name="bare", frontmatter="name: bare\ndescription: Formats tables.\n")
    assert len(found(bare, "SKL108", registry=claude)) == 1  # near miss: no when_to_use


def test_skl108_when_anchors_at_the_start_of_when_to_use(skill: Writer, found: Found) -> None:
    """``^when`` anchors at the start of each field read: a ``when_to_use`` starting "When"
    is a trigger under the claude-code profile (it was joined after the description, and
    warned); "When" later in the field is not."""
    claude = default_registry(profiles=("claude-code",))
    front = "name: my-skill\ndescription: Formats tables.\nwhen_to_use: {}\n"
    folder = skill(frontmatter=front.format("When the user asks to demo something"))
    assert found(folder, "SKL108", registry=claude) == []
    later = skill(name="later", frontmatter=front.format("Tables. When rendered, they align."))
    assert len(found(later, "SKL108", registry=claude)) == 1


# -- SKL109 frontmatter-known -----------------------------------------------------------------


def test_skl109_unknown_field_with_hint(skill: Writer, found: Found) -> None:
    folder = skill(frontmatter=f"name: my-skill\ndescripton: typo\ndescription: x. {TRIGGER}\n")
    [d] = found(folder, "SKL109")
    assert d.message == "unknown frontmatter field 'descripton' (did you mean 'description'?)"
    assert (d.severity, d.line) == ("warning", 3)


def test_skl109_hints_a_typo_not_a_far_name(skill: Writer) -> None:
    registry = default_registry()  # with claude-code's fields, 'authors' was 'paths'?
    registry.set_options("SKL109", **{"known-fields": ["name", "description", "paths"]})
    folder = skill(frontmatter=f"name: my-skill\ndescription: x. {TRIGGER}\nauthors: a\npath: b\n")
    assert messages(
        [d for d in lint_skill(folder, registry=registry).diagnostics if d.rule == "SKL109"]
    ) == [
        "unknown frontmatter field 'authors'",
        "unknown frontmatter field 'path' (did you mean 'paths'?)",
    ]


def test_skl109_one_diagnostic_per_unknown_field(skill: Writer, found: Found) -> None:
    folder = skill(frontmatter=f"name: my-skill\ndescription: x. {TRIGGER}\nmodel: x\ncolour: y\n")
    assert messages(found(folder, "SKL109")) == [
        "unknown frontmatter field 'model' (read by Claude Code: --profile claude-code, "
        "--target claude)",
        "unknown frontmatter field 'colour'",
    ]


def test_skl109_names_the_agents_that_read_a_field(skill: Writer, found: Found) -> None:
    """A field an agent reads (its dialect record in skillc-index) says which agents, and the
    profile and targets that know it, rather than a typo hint (``when_to_use`` is no typo of
    anything); a registry's field (skillli's ``version``) and a typo (``descriptionn``) near
    misses: no agent reads them."""
    folder = skill(
        frontmatter=(
            f"name: my-skill\ndescription: x. {TRIGGER}\nargument-hint: '[n]'\n"
            "disable-model-invocation: true\nwhen_to_use: y\nversion: 1.0.0\ndescriptionn: z\n"
        )
    )
    assert messages(found(folder, "SKL109")) == [
        "unknown frontmatter field 'argument-hint' (read by Claude Code, GitHub Copilot: "
        "--profile claude-code, --target claude, --target copilot)",
        "unknown frontmatter field 'disable-model-invocation' (read by Claude Code, GitHub "
        "Copilot, Cursor: --profile claude-code, --target claude, --target copilot, "
        "--target cursor)",
        "unknown frontmatter field 'when_to_use' (read by Claude Code: --profile claude-code, "
        "--target claude)",
        "unknown frontmatter field 'version'",
        "unknown frontmatter field 'descriptionn' (did you mean 'description'?)",
    ]
    registry = default_registry(profiles=("claude-code",))
    assert messages(
        [d for d in lint_skill(folder, registry=registry).diagnostics if d.rule == "SKL109"]
    ) == [
        "unknown frontmatter field 'version'",
        "unknown frontmatter field 'descriptionn' (did you mean 'description'?)",
    ]


def test_skl109_near_miss_the_six_standard_fields(skill: Writer, found: Found) -> None:
    folder = skill(
        frontmatter=(
            f"name: my-skill\ndescription: x. {TRIGGER}\nlicense: MIT\n"
            "compatibility: Requires git\nmetadata:\n  author: me\nallowed-tools: Read Grep\n"
        )
    )
    assert found(folder, "SKL109") == []


# -- SKL201 skill-size ------------------------------------------------------------------------


def test_skl201_too_many_lines(skill: Writer, found: Found) -> None:
    folder = skill(body="line\n" * 500)
    [d] = found(folder, "SKL201")
    assert d.message.startswith("SKILL.md is 50") and d.message.endswith(
        "(at most 500 recommended)"
    )
    assert (d.severity, d.line) == ("warning", None)


def test_skl201_near_miss_exactly_500_lines(skill: Writer, found: Found) -> None:
    header = f"---\nname: my-skill\ndescription: x. {TRIGGER}\n---\n# my-skill\n"
    text = header + "line\n" * (500 - header.count("\n"))
    assert text.count("\n") == 500
    assert found(skill(skill_md=text), "SKL201") == []


# -- SKL202 heading-h1 / SKL203 heading-match-name / SKL204 heading-first-h1 ------------------


def test_skl202_no_h1(skill: Writer, found: Found) -> None:
    text = f"---\nname: my-skill\ndescription: x. {TRIGGER}\n---\n\n## Only H2\n"
    [d] = found(skill(skill_md=text), "SKL202")
    assert (d.message, d.severity) == ("no H1 heading", "warning")


def test_skl202_near_miss_h1_inside_a_fence_is_not_a_heading(skill: Writer, found: Found) -> None:
    text = f"---\nname: my-skill\ndescription: x. {TRIGGER}\n---\n\n```sh\n# comment\n```\n"
    assert len(found(skill(skill_md=text), "SKL202")) == 1
    text_with_setext = text + "\nMy Skill\n========\n"
    assert found(skill(skill_md=text_with_setext), "SKL202") == []


def test_skl203_h1_without_the_name(skill: Writer, found: Found) -> None:
    text = f"---\nname: my-skill\ndescription: x. {TRIGGER}\n---\n\n# Table Tools\n"
    [d] = found(skill(skill_md=text), "SKL203")
    assert d.message == "first H1 'Table Tools' does not contain the skill name 'my-skill'"
    assert (d.severity, d.line) == ("warning", 6)
    for title in ("My Tools: Skill", "Skill My"):  # the letters in another order
        text = f"---\nname: my-skill\ndescription: x. {TRIGGER}\n---\n\n# {title}\n"
        assert len(found(skill(skill_md=text), "SKL203")) == 1


@pytest.mark.parametrize(
    "title",
    [
        "My Skill Guide",
        "my-skill",
        "The MY SKILL handbook",
        # the name with punctuation or joined words (the corpus: 17 such H1s were reported)
        "My: Skill",
        "My.Skill Tools",
        "MySkill",
    ],
)
def test_skl203_near_miss_name_in_heading(skill: Writer, found: Found, title: str) -> None:
    text = f"---\nname: my-skill\ndescription: x. {TRIGGER}\n---\n\n# {title}\n"
    assert found(skill(skill_md=text), "SKL203") == []


def test_skl204_first_heading_not_h1_in_any_file(skill: Writer, found: Found) -> None:
    folder = skill(
        body="[ref](ref.md)\n",
        files={"ref.md": "Intro\n\n## Details\n\n# Late title\n"},
    )
    [d] = found(folder, "SKL204")
    assert (d.file, d.line, d.severity) == ("ref.md", 3, "warning")
    assert d.message == "first heading 'Details' is H2, not H1"


def test_skl204_near_miss_comment_in_fence_and_no_headings(skill: Writer, found: Found) -> None:
    folder = skill(
        body="[a](a.md) [b](b.md)\n",
        files={
            "a.md": "```bash\n## not a heading\n```\n\n# Real title\n",
            "b.md": "No heading at all.\n",
        },
    )
    assert found(folder, "SKL204") == []


# -- SKL205 heading-hierarchy -----------------------------------------------------------------


def test_skl205_skipped_levels(skill: Writer, found: Found) -> None:
    folder = skill(
        body="### Too deep\n\n## Section\n\n#### Deeper\n",
        files={"ref.md": "## Section\n\n#### Deep\n"},
    )
    result = found(folder, "SKL205")
    assert [(d.file, d.message) for d in result] == [
        ("SKILL.md", "heading 'Too deep' skips from H1 to H3"),
        ("SKILL.md", "heading 'Deeper' skips from H2 to H4"),
        ("ref.md", "heading 'Deep' skips from H2 to H4"),
    ]


def test_skl205_near_miss_going_up_is_free(skill: Writer, found: Found) -> None:
    folder = skill(body="## A\n\n### B\n\n#### C\n\n# D\n\n## E\n\n```\n#### in a fence\n```\n")
    assert found(folder, "SKL205") == []


# -- SKL301 link-file-exists ------------------------------------------------------------------


def test_skl301_missing_file(skill: Writer, found: Found) -> None:
    folder = skill(body="See [api](references/missing.md) and ![logo](img/logo.png).\n")
    result = found(folder, "SKL301")
    assert messages(result) == [
        "link target not found: 'references/missing.md'",
        "link target not found: 'img/logo.png'",
    ]
    assert {(d.severity, d.line) for d in result} == {("error", 8)}


def test_skl301_a_placeholder_target_is_no_link(skill: Writer, found: Found) -> None:
    """Example text, "Supported: [links](url) and ![images](url)", was an error per target:
    the bare placeholders ``url``, ``URL``, ``link``, ``path``, ``...`` or ``<...>`` are no
    link, in any Markdown file; a missing file named like one (``url.md``,
    ``references/url``) still is, and so is a missing folder named otherwise (``your-notes``,
    ``Path``: ``fields.placeholder``'s wider words are SKL522's and SKL523's)."""
    folder = skill(
        body=(
            "Supported: [links](url), ![images](URL), [click here](link), [p](path), "
            "[e](...) and [f](<...>).\n\nSee [guide](references/guide.md), [u](url.md).\n\n"
            "Notes: [n](your-notes), [P](Path), [h](href).\n"
        ),
        files={"references/guide.md": "# Guide\n\n[x](url) [y](link) [z](references/url)\n"},
    )
    assert messages(found(folder, "SKL301")) == [
        "link target not found: 'url.md'",
        "link target not found: 'your-notes'",
        "link target not found: 'Path'",
        "link target not found: 'href'",
        "link target not found: 'references/url'",
    ]


def test_skl301_names_the_file_composed_otherwise(skill: Writer, found: Found) -> None:
    """A link typed composed (NFC) to a file written decomposed (NFD, copied from a Mac) is
    broken where names are bytes (Linux): the message names that file, escaped, instead of
    leaving two identical-looking names to compare."""
    folder = skill(
        body="See [cv](references/r\u00e9sum\u00e9.md).\n",
        files={"references/re\u0301sume\u0301.md": "# CV\n"},
    )
    assert messages(found(folder, "SKL301")) == [
        "link target not found: 'references/r\u00e9sum\u00e9.md' "
        "('references/re\\u0301sume\\u0301.md' differs only in Unicode normalisation)"
    ]


def test_skl301_a_link_to_what_the_gitignore_excludes_is_not_bundled(
    skill: Writer, found: Found
) -> None:
    """A link to a file (or folder) the skill's ``.gitignore`` excludes found the file on
    disk and said nothing, though ``skc package`` never ships it: it is SKL301, saying why.
    So is a hidden file, which no package holds either."""
    folder = skill(
        body="See [s](secrets.txt), [log](out/build.log), [out](out/) and [env](.env).\n",
        files={"secrets.txt": "k\n", "out/build.log": "l\n", ".env": "E=1\n"},
    )
    (folder / ".gitignore").write_text("out/\nsecrets.txt\n", encoding="utf-8")
    why = " (the skill's .gitignore excludes it)"
    assert messages(found(folder, "SKL301")) == [
        f"link target is never packaged: 'secrets.txt'{why}",
        f"link target is never packaged: 'out/build.log'{why}",
        f"link target is never packaged: 'out/'{why}",
        "link target is never packaged: '.env' (hidden)",
    ]


def test_skl301_a_link_to_what_every_package_leaves_out_is_never_packaged(
    skill: Writer, found: Found
) -> None:
    """A link to a hidden file (``.notes/x.md``, ``.env.example``), into ``evals/``, to a
    ``.pyc`` or into ``node_modules/`` found the file on disk and said nothing (a hidden one
    "still counts as existing"), though ``skc package`` leaves each out: the link is broken in
    every package. It is SKL301, saying why, as for what the ``.gitignore`` excludes; a
    symlink is judged by where it leads. A link of ``evals/`` (no package holds the file
    linking) links where it likes; a hidden file that is not there is not found, no more."""
    body = (
        "[n](.notes/x.md) [e](.env.example) [c](evals/evals.json) [t](evals/)\n"
        "[p](scripts/m.pyc) [m](node_modules/x/index.js) [l](notes.md) [b](compiled.bin)\n"
        "[r](references/r.md) [g](.gone.md) [w](https://example.com/.x.md)\n"
    )
    files = {
        ".notes/x.md": "# X\n",
        ".env.example": "E=1\n",
        "evals/evals.json": '{"evals": []}\n',
        "evals/README.md": "See [cases](evals.json), [n](../.notes/x.md), [s](../SKILL.md).\n",
        "scripts/m.pyc": b"\x00pyc",
        "node_modules/x/index.js": "x\n",
        "references/r.md": "# R\n\nSee [notes](../.notes/x.md).\n",
    }
    folder = skill(body=body, files=files)
    (folder / "notes.md").symlink_to(".notes/x.md")
    (folder / "compiled.bin").symlink_to("scripts/m.pyc")
    said = [(d.file, d.line, d.message, d.severity) for d in found(folder, "SKL301")]
    never = "link target is never packaged"
    assert said == [
        ("SKILL.md", 8, f"{never}: '.notes/x.md' (hidden)", "error"),
        ("SKILL.md", 8, f"{never}: '.env.example' (hidden)", "error"),
        (
            "SKILL.md",
            8,
            f"{never}: 'evals/evals.json' (the skill's tests, evals/)",
            "error",
        ),
        (
            "SKILL.md",
            8,
            f"{never}: 'evals/' (the skill's tests, evals/)",
            "error",
        ),
        (
            "SKILL.md",
            9,
            f"{never}: 'scripts/m.pyc' (compiled Python)",
            "error",
        ),
        (
            "SKILL.md",
            9,
            f"{never}: 'node_modules/x/index.js' (in node_modules/, a folder skillc skips)",
            "error",
        ),
        (
            "SKILL.md",
            9,
            f"{never}: 'notes.md' (leads to '.notes/x.md', hidden)",
            "error",
        ),
        (
            "SKILL.md",
            9,
            f"{never}: 'compiled.bin' (leads to 'scripts/m.pyc', compiled Python)",
            "error",
        ),
        ("SKILL.md", 10, "link target not found: '.gone.md'", "error"),
        (
            "references/r.md",
            3,
            f"{never}: '../.notes/x.md' (hidden)",
            "error",
        ),
    ]
    # compiled.bin leads to a .pyc: no package holds it, so it needs no Markdown to name it
    assert [d.file for d in found(folder, "SKL521")] == []


def test_skl301_a_link_through_a_second_link_to_a_folder_is_not_bundled(
    skill: Writer, found: Found
) -> None:
    """A link through a second symlink to a folder (``mirror -> docs``, skipped by the walk:
    each folder is walked once) found the file on disk and said nothing, though ``skc
    package`` never ships it under that path: it is SKL301, naming the link it goes through
    ("is never packaged", as ``skc package`` says: one function,
    :func:`~skillc_index.skill_files.never_packaged`). A file not there is "not found" and
    nothing more (it said "... no part of the skill, never packaged" of it). The same file by
    the folder's own path is fine."""
    folder = skill(
        body="See [g](mirror/guide.md), [m](mirror/), [d](docs/guide.md), [x](mirror/x.md).\n",
        files={"docs/guide.md": "# Guide\n"},
    )
    (folder / "mirror").symlink_to("docs", target_is_directory=True)
    why = " (reached through 'mirror', a second link to a folder the skill has)"
    assert messages(found(folder, "SKL301")) == [
        f"link target is never packaged: 'mirror/guide.md'{why}",
        f"link target is never packaged: 'mirror/'{why}",
        # not there at all: not found, whatever the path it takes
        "link target not found: 'mirror/x.md'",
    ]


def test_link_findings_point_at_their_own_destination_as_written(
    skill: Writer, found: Found
) -> None:
    """The column was the first place the decoded target stood on the line: the link text
    (``[gone.md](gone.md)``), an earlier link to the same file, or column 1 for
    ``my%20guide.md``, whose message quoted ``my guide.md`` (not in the file)."""
    folder = skill(
        body="See [a](x.md) and [b](x.md).\n"
        "Read [gone.md](gone.md) and [#top](#top).\n"
        "Open [the guide](my%20guide.md).\n"
        "See [b](gone/x.md) and [c](gone/).\n"  # gone/ is not the start of gone/x.md
    )
    links = [*found(folder, "SKL301"), *found(folder, "SKL302")]
    assert [(d.line, d.column, d.message) for d in links] == [
        (8, 9, "link target not found: 'x.md'"),
        (8, 23, "link target not found: 'x.md'"),
        (9, 16, "link target not found: 'gone.md'"),
        (10, 18, "link target not found: 'my%20guide.md'"),
        (11, 9, "link target not found: 'gone/x.md'"),
        (11, 28, "link target not found: 'gone/'"),
        (9, 36, "anchor not found: '#top'"),
    ]


def test_a_reference_style_link_points_at_its_own_start(skill: Writer, found: Found) -> None:
    """``gone.md is in [the guide][g]`` pointed at the prose's ``gone.md`` (column 10), then
    at the line's start (column 1): the link's text does not hold its destination, its
    definition does. Its finding points at the link itself, its ``[`` (an image's ``!``), in
    each form (full, collapsed, shortcut), in a block quote, a list item or a table cell,
    on a paragraph's later line, and at the second of two alike on a line."""
    body = (
        "The file gone.md is in [the guide][g] and [x.md].\n"
        "Then [see][g] and ![chart][c] and [x.md][] and [see][g].\n"
        "> Quoted: read [the notes][n].\n\n"
        "- item: see [up][u]\n\n"
        "| a | b |\n|---|---|\n| x | [cell][g] |\n\n"
        "[g]: gone.md\n[x.md]: <x.md>\n[c]: img/chart.png\n[n]: notes.md\n[u]: ../../up.md\n"
    )
    folder = skill(body=body)
    assert [(d.line, d.column) for d in found(folder, "SKL301")] == [
        (8, 24),
        (8, 43),
        (9, 6),
        (9, 19),
        (9, 35),
        (9, 48),
        (10, 16),
        (16, 7),
    ]
    assert [(d.line, d.column) for d in found(folder, "SKL303")] == [(12, 13)]
    inline = skill(name="inline", body="The file gone.md is in [the guide](gone.md).\n")
    assert [(d.line, d.column) for d in found(inline, "SKL301")] == [(8, 36)]  # near miss


def test_a_reference_style_link_after_a_link_of_the_same_text(skill: Writer, found: Found) -> None:
    """``See [gone](ok.md) then [gone] here.``: the reference-style ``[gone]`` was placed at
    the inline link's ``[gone`` (column 5), its text looked for from the line's start. A
    link is looked for after the last one found on its line, in both orders; a link holding
    an image (``[![badge](ok.md)][gone]``, found after the image) still at its ``[``."""
    body = (
        "See [gone](ok.md) then [gone] here.\n\n"
        "See [gone] then [gone](ok.md) here.\n\n"
        "A [gone](gone.md) and [gone] and [gone](gone.md).\n\n"
        "Badge [![badge](ok.md)][gone] and [![b](ok.md)][gone].\n\n"
        "[gone]: missing.md\n"
    )
    folder = skill(body=body, files={"ok.md": "x\n"})
    assert [(d.line, d.column, d.message.split(": ")[-1]) for d in found(folder, "SKL301")] == [
        (8, 24, "'missing.md'"),
        (10, 5, "'missing.md'"),
        (12, 10, "'gone.md'"),
        (12, 23, "'missing.md'"),
        (12, 41, "'gone.md'"),
        (14, 7, "'missing.md'"),
        (14, 35, "'missing.md'"),
    ]


def test_a_link_split_over_lines_points_at_its_destination(skill: Writer, found: Found) -> None:
    """``[the guide](`` then ``gone.md)`` on the next line pointed at column 1 of the link's
    first line: the finding is on the line its destination is written on, at it (a later
    link there placed after it); never past the paragraph's end (near miss)."""
    body = (
        "Read the intro, then [the guide](\n  gone.md) and [b](gone.md) for [c](\n#nowhere).\n"
        '\nAnd [x](gone.md "gone.md\n title")\n'
    )
    links = [*found(skill(body=body), "SKL301"), *found(skill(name="b", body=body), "SKL302")]
    assert [(d.line, d.column, d.message) for d in links] == [
        (9, 3, "link target not found: 'gone.md'"),
        (9, 20, "link target not found: 'gone.md'"),
        (12, 9, "link target not found: 'gone.md'"),
        (10, 1, "anchor not found: '#nowhere'"),
    ]


def test_a_link_in_a_table_cell_stays_on_its_row(
    skill: Writer, found: Found, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``[x](a\\|b.md)`` in a table's cell (parsed ``a|b.md``, not on its line as parsed)
    was looked for on each next line to the table's end: found on a later row (``see
    a|b.md``, line 11), and a 3,000-row table took 29 s. The parse says which line the
    destination is on: the link's own row, one line read a link, at its column (the
    destination looked for as the cell writes it, ``a\\|b.md``)."""
    from skillc_lint._skill import Skill

    rows = "".join(f"| [x](a\\|b.md) | r{i} |\n" for i in range(90))
    body = f"| a | b |\n|---|---|\n| [x](a\\|b.md) | one |\n| see a|b.md | two |\n{rows}"
    folder = skill(body=body + "\nRead [the guide](\n  gone.md) end.\n")
    read = Skill.line_text
    calls: list[int] = []

    def counted(self: Skill, rel: str, line: int) -> str | None:
        calls.append(line)
        return read(self, rel, line)

    monkeypatch.setattr(Skill, "line_text", counted)
    links = [(d.line, d.column) for d in found(folder, "SKL301")]
    assert links == [(10, 7), *((line, 7) for line in range(12, 102)), (104, 3)]
    assert len(calls) < 3 * 90  # one line a link (the walk read over 4,000)


def test_a_link_after_an_escaped_pipe_in_a_cell_points_at_its_destination(
    skill: Writer, found: Found
) -> None:
    """A table's cell writing ``\\|`` before a link's destination (``p\\|q.md``, ``#no\\|pe``)
    was reported at column 1: the parse reads the cell's ``\\|`` as ``|``, and ``p|q.md`` is
    not on the line. Near miss: a link after an escaped pipe of the cell's text, its
    destination without one, had its column already."""
    body = (
        "| a | b |\n|---|---|\n"
        "| x \\| y | [y](p\\|q.md) [z](r.md) |\n"
        "| x | [s](#no\\|pe) and [t](gone\\|x.md) |\n"
    )
    folder = skill(body=body)
    links = [*found(folder, "SKL301"), *found(folder, "SKL302")]
    assert [(d.line, d.column, d.message) for d in links] == [
        (10, 16, "link target not found: 'p|q.md'"),
        (10, 29, "link target not found: 'r.md'"),
        (11, 28, "link target not found: 'gone|x.md'"),
        (11, 11, "anchor not found: '#no|pe'"),
    ]


def test_skl301_relative_to_the_linking_file(skill: Writer, found: Found) -> None:
    folder = skill(
        body="[a](docs/a.md)\n",
        files={
            "docs/a.md": "# A\n\n[b](b.md) [up](../SKILL.md) [gone](c.md)\n",
            "docs/b.md": "# B\n",
        },
    )
    [d] = found(folder, "SKL301")
    assert (d.file, d.message) == ("docs/a.md", "link target not found: 'c.md'")


def test_skl301_near_misses(skill: Writer, found: Found) -> None:
    body = (
        "```md\n[broken](missing.md)\n```\n\n"  # in a fenced block: not a link
        "`[broken](missing.md)`\n\n"  # in a code span
        "    [broken](indented.md)\n\n"  # indented code
        "[web](https://example.com/x.md) [mail](mailto:a@b.c) <https://example.com>\n"
        "[abs](/etc/hosts.md) [top](#my-skill) [folder](scripts/) [here](./)\n"
        "[spaced](my%20file.md) [query](data.md?raw=1)\n"
        # near a hidden target, not one: a dotted name, a hidden folder normalised away
        "[env](env.example) [back](.notes/../data.md)\n"
    )
    folder = skill(
        body=body,
        files={
            "scripts/run.sh": "echo\n",
            "my file.md": "# F\n",
            "data.md": "# D\n",
            "env.example": "E=1\n",
        },
    )
    assert found(folder, "SKL301") == []


def test_skl301_a_percent_encoded_question_mark_or_hash_is_part_of_the_name(
    skill: Writer, found: Found
) -> None:
    """``[q](q%3F.md)`` to ``q?.md`` and ``[h](c%23sharp.md)`` to ``c#sharp.md`` were broken
    links (the whole destination was decoded before it was split at ``?`` and ``#``: the path
    ``q.``... ``c``), and the files orphans. Split first, then decoded; a real query and
    anchor still split off (near misses), and a file missing is still reported."""
    body = (
        "[q](q%3F.md) [h](c%23sharp.md#top) [s](with%20space.md) [r](r.md?x=%23y#top)\n"
        "[i](%3F.md) [gone](gone%3F.md)\n"
    )
    files = {"q?.md": "# Q\n", "c#sharp.md": "# Top\n", "with space.md": "# S\n"}
    folder = skill(body=body, files={**files, "r.md": "# Top\n", "?.md": "# I\n"})
    assert messages(found(folder, "SKL301")) == ["link target not found: 'gone%3F.md'"]
    assert found(folder, "SKL302") == [] and found(folder, "SKL401") == []


def test_skl301_skill_folder_substitutions_in_the_claude_code_profile(
    skill: Writer, found: Found
) -> None:
    """``{baseDir}`` and ``${CLAUDE_SKILL_DIR}`` are the skill folder (from any file) and a
    link holding a run-time value (``$ARGUMENTS``) is not checked, with ``claude-code``; a
    missing file behind the placeholder is still an error, and without the profile the
    placeholder is a path like any other (near misses)."""
    body = (
        "[a]({baseDir}/references/x.md) [b](${CLAUDE_SKILL_DIR}/references/x.md)\n"
        "[c]({baseDir}/references/gone.md) [d]($ARGUMENTS.md) [e](out/${CLAUDE_SESSION_ID}.md)\n"
    )
    folder = skill(
        body=body,
        files={"references/x.md": "# X\n\n[back]({baseDir}/SKILL.md) [up]({baseDir}/../y.md)\n"},
    )
    claude = default_registry(profiles=("claude-code",))
    assert [(d.file, d.message) for d in found(folder, "SKL301", registry=claude)] == [
        ("SKILL.md", "link target not found: '{baseDir}/references/gone.md'")
    ]
    assert messages(found(folder, "SKL303", registry=claude)) == [
        "link escapes the skill root: '{baseDir}/../y.md'"
    ]
    assert found(folder, "SKL401", registry=claude) == []  # x.md is reached through {baseDir}
    plain = messages(found(folder, "SKL301"))
    assert len(plain) == 7 and "link target not found: '{baseDir}/references/x.md'" in plain


# -- SKL302 link-anchor-exists ----------------------------------------------------------------


def test_skl302_missing_anchors(skill: Writer, found: Found) -> None:
    folder = skill(
        body="[a](#nowhere) [b](ref.md#nope)\n\n## Setup\n",
        files={"ref.md": "# Ref\n"},
    )
    result = found(folder, "SKL302")
    assert messages(result) == ["anchor not found: '#nowhere'", "anchor not found: 'ref.md#nope'"]
    assert {d.severity for d in result} == {"warning"}


def test_skl302_near_misses_slugs_duplicates_and_other_files(skill: Writer, found: Found) -> None:
    body = (
        "[a](#setup) [b](#setup-1) [c](#setup-2) [d](#whats-new-in-v2) [e](#c-and-go)\n"
        "[f](ref.md#api-reference) [g](ref.md#custom) [h](script.py#L10) [i](#Setup)\n"
        "[j](#a---b)\n\n"
        "## Setup\n\n## Setup\n\n## Setup\n\n## What's New in v2?\n\n## C++ and Go\n\n## A - B\n"
    )
    folder = skill(
        body=body,
        files={"ref.md": "# Ref\n\n## API Reference\n\n## Other {#custom}\n", "script.py": "x\n"},
    )
    assert found(folder, "SKL302") == []


def test_skl302_heading_in_a_fence_is_no_anchor(skill: Writer, found: Found) -> None:
    folder = skill(body="[a](#hidden)\n\n```\n## Hidden\n```\n")
    assert messages(found(folder, "SKL302")) == ["anchor not found: '#hidden'"]


def test_skl302_html_anchors(skill: Writer, found: Found) -> None:
    """``<a id>`` and ``<a name>`` (any quoting) are anchors; a fragment naming none still
    warns (near miss), as does a name only written in prose."""
    body = (
        "[a](#step-1) [b](ref.md#Legacy) [c](#bare) [d](#missing) [e](#prose)\n\n"
        '<a id="step-1"></a>\n\n<a name=bare></a> and id="prose" in text\n'
    )
    folder = skill(body=body, files={"ref.md": "# Ref\n\n<a name='legacy'></a>\n"})
    assert messages(found(folder, "SKL302")) == [
        "anchor not found: '#missing'",
        "anchor not found: '#prose'",
    ]


def test_skl302_non_ascii_anchors(skill: Writer, found: Found) -> None:
    """A heading beyond ASCII is slugged as GitHub slugs it (its letters, digits and marks
    kept, composed), so a fragment naming no heading warns in any script; an emoji (with its
    variation selector) is dropped, and a heading of none of these names nothing."""
    body = (
        "[a](#安装) [b](#配置) [c](#pdf处理) [d](#pdf) [e](#откат-релиза) [f](#несуществующий)\n"
        "[g](#%E5%AE%89%E8%A3%85) [h](#-architecture) [i](#caf\u00e9) [j](#hindi-\u0939\u093f)\n"
        "[k](#🚀) [l](ref.md#概要) [m](ref.md#不存在)\n\n"
        "## 安装\n\n## PDF处理\n\n## Откат релиза\n\n## 🏗\ufe0f Architecture\n\n"
        "## Cafe\u0301\n\n## Hindi \u0939\u093f\n\n## 🚀\n"
    )
    folder = skill(body=body, files={"ref.md": "# 参考\n\n## 概要\n"})
    assert messages(found(folder, "SKL302")) == [
        f"anchor not found: '{written}'"
        for written in ("#配置", "#pdf", "#несуществующий", "#🚀", "ref.md#不存在")
    ]


def test_skl302_no_html_anchor_in_code_or_a_comment(skill: Writer, found: Found) -> None:
    """An ``id``/``name`` in a fenced block, a code span or an HTML comment is no anchor (a
    rendered page has none); one in an HTML block or inline tag, a heading's too, still is."""
    body = (
        "[a](#email) [b](#setup) [c](#config) [d](#old) [e](#gone) [f](#real) [g](#inline)\n"
        "[h](#head)\n\n"
        '```html\n<input type="email" name="email">\n<section id="setup"></section>\n```\n\n'
        'Use `<div id="config">` here. <!-- <a id="old"></a> -->\n\n'
        '<!--\n<a name="gone"></a>\n-->\n\n<div>\n<a id="real"></a>\n</div>\n\n'
        'Text <span id=inline>x</span>.\n\n## Title <a name="head"></a>\n'
    )
    assert messages(found(skill(body=body), "SKL302")) == [
        f"anchor not found: '#{name}'" for name in ("email", "setup", "config", "old", "gone")
    ]


# -- SKL303 link-no-escape --------------------------------------------------------------------


def test_skl303_escaping_links(skill: Writer, found: Found) -> None:
    folder = skill(
        body="[a](../other/SKILL.md) [b](refs/../../x.md)\n",
        files={"refs/r.md": "# R\n\n[c](../../y.md)\n"},
    )
    (folder.parent / "other").mkdir()
    (folder.parent / "other" / "SKILL.md").write_text("x", encoding="utf-8")
    result = found(folder, "SKL303")
    assert [(d.file, d.severity, d.message) for d in result] == [
        # a sibling skill that exists: a portability warning (test_lint_defaults.py)
        ("SKILL.md", "warning", "link to sibling skill 'other': '../other/SKILL.md'"),
        ("SKILL.md", "error", "link escapes the skill root: 'refs/../../x.md'"),
        ("refs/r.md", "error", "link escapes the skill root: '../../y.md'"),
    ]
    assert found(folder, "SKL301") == []  # an escape is reported once, as SKL303


def test_skl303_near_miss_dotdot_staying_inside(skill: Writer, found: Found) -> None:
    folder = skill(
        body="[r](refs/r.md)\n",
        files={"refs/r.md": "# R\n\n[home](../SKILL.md) [self](../refs/r.md)\n"},
    )
    assert found(folder, "SKL303") == []


def test_skl303_links_through_symlinks_leaving_the_skill(
    skill: Writer, found: Found, tmp_path: Path
) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.md").write_text("# Secret\n\nTOPSECRET\n", encoding="utf-8")
    folder = skill(
        body="[a](abs.md) [b](rel.md#secret) [c](outdir/secret.md) [d](outdir) [e](chain)\n"
        "[f](.hidden.md) ![g](outdir/x.png)\n",
        files={"refs/r.md": "# R\n\n[h](../outdir/secret.md)\n"},
    )
    (folder / "abs.md").symlink_to(outside / "secret.md")
    (folder / "rel.md").symlink_to("../outside/secret.md")
    (folder / "outdir").symlink_to(outside)
    (folder / "chain").symlink_to("abs.md")
    (folder / ".hidden.md").symlink_to(outside / "secret.md")
    result = lint_skill(folder)
    escapes = [(d.file, d.line, d.message) for d in result.diagnostics if d.rule == "SKL303"]
    assert escapes == [
        ("SKILL.md", 8, "link escapes the skill root: 'abs.md'"),
        ("SKILL.md", 8, "link escapes the skill root: 'rel.md#secret'"),
        ("SKILL.md", 8, "link escapes the skill root: 'outdir/secret.md'"),
        ("SKILL.md", 8, "link escapes the skill root: 'outdir'"),
        ("SKILL.md", 8, "link escapes the skill root: 'chain'"),
        ("SKILL.md", 9, "link escapes the skill root: '.hidden.md'"),
        ("SKILL.md", 9, "link escapes the skill root: 'outdir/x.png'"),
        # each symlink of the skill leading out of it (hidden ones are out of scope)
        ("abs.md", None, "symlink escapes the skill root: 'abs.md'"),
        ("chain", None, "symlink escapes the skill root: 'chain'"),
        ("outdir", None, "symlink escapes the skill root: 'outdir'"),
        ("refs/r.md", 3, "link escapes the skill root: '../outdir/secret.md'"),
        ("rel.md", None, "symlink escapes the skill root: 'rel.md'"),
    ]
    assert {d.severity for d in result.diagnostics if d.rule == "SKL303"} == {"error"}
    assert found(folder, "SKL301") == []  # an escape is reported once, as SKL303
    assert found(folder, "SKL302") == []
    assert "TOPSECRET" not in json.dumps(result.to_dict())
    assert "Secret" not in json.dumps(result.to_dict())  # its heading was not read either


def test_skl303_near_miss_symlinks_staying_inside(skill: Writer, found: Found) -> None:
    """Symlinks staying inside are no escape (SKL303); a link through a second link to a
    folder (``refs``, ``self``: their folders are walked by their own paths) is SKL301,
    never packaged so, and so is a hidden one (``.hidden-in.md``); one to a file through a
    link (``in.md``) is a file of the skill."""
    folder = skill(
        body="[a](in.md#part) [b](refs/r.md) [c](self/SKILL.md) [d](abs.md) [e](refs)\n"
        "[f](refs/back/in.md) [g](.hidden-in.md)\n",
        files={"references/r.md": "# R\n\n## Part\n"},
    )
    (folder / "in.md").symlink_to("references/r.md")
    (folder / "refs").symlink_to("references")
    (folder / "self").symlink_to(".")
    (folder / "abs.md").symlink_to(folder / "references" / "r.md")
    (folder / "references" / "back").symlink_to("..")
    (folder / ".hidden-in.md").symlink_to("SKILL.md")
    assert found(folder, "SKL303") == []
    never, why = "link target is never packaged", "a second link to a folder the skill has"
    assert messages(found(folder, "SKL301")) == [
        f"{never}: 'refs/r.md' (reached through 'refs', {why})",
        f"{never}: 'self/SKILL.md' (reached through 'self', {why})",
        f"{never}: 'refs' (reached through 'refs', {why})",
        f"{never}: 'refs/back/in.md' (reached through 'refs', {why})",
        f"{never}: '.hidden-in.md' (hidden)",
    ]
    assert found(folder, "SKL302") == []


def test_skl303_broken_symlink_leaving_the_skill(
    skill: Writer, found: Found, tmp_path: Path
) -> None:
    """A dangling symlink still points out of the skill (as the compiler judges it)."""
    folder = skill(body="[a](gone.md) [b](broken.md)\n")
    (folder / "gone.md").symlink_to(tmp_path / "nowhere.md")
    (folder / "broken.md").symlink_to("nowhere.md")  # inside, missing: SKL301
    assert [(d.file, d.message) for d in found(folder, "SKL303")] == [
        ("SKILL.md", "link escapes the skill root: 'gone.md'"),
        ("gone.md", "symlink escapes the skill root: 'gone.md'"),
    ]
    assert messages(found(folder, "SKL301")) == ["link target not found: 'broken.md'"]


# -- SKL401 no-orphans ------------------------------------------------------------------------


def test_skl401_orphans(skill: Writer, found: Found) -> None:
    folder = skill(
        body="[a](a.md)\n",
        files={"a.md": "# A\n", "old-notes.md": "# Old\n", "deep/z.md": "# Z\n"},
    )
    result = found(folder, "SKL401")
    assert [(d.file, d.message) for d in result] == [
        ("deep/z.md", "orphaned file: 'deep/z.md'"),
        ("old-notes.md", "orphaned file: 'old-notes.md'"),
    ]
    assert {(d.severity, d.line) for d in result} == {("warning", None)}


def test_skl401_leaves_the_tests_out(skill: Writer, found: Found) -> None:
    # evals/ at the root is the skill's tests, refused to agents: no link to it is asked for
    folder = skill(
        body="Start here.\n",
        files={
            "evals/notes.md": "# Notes\n",
            "evals/evals.json": "[]\n",
            "sub/evals/x.md": "# X\n",
        },
    )
    assert [(d.file, d.message) for d in found(folder, "SKL401")] == [
        ("sub/evals/x.md", "orphaned file: 'sub/evals/x.md'"),  # not at the root: the skill's
    ]


def test_skl401_says_when_a_file_is_named_in_another_case(skill: Writer, found: Found) -> None:
    # scientific-skills' pdf: "read FORMS.md and follow its instructions" for forms.md
    folder = skill(
        body="Read FORMS.md, then `Guides/` and [a](a.md).\n",
        files={
            "forms.md": "# Forms\n",
            "guides/x.md": "# X\n",
            "a.md": "# A\n\nSee NOTES.md.\n",
            "notes.md": "# Notes\n",
            "lost.md": "# Lost\n\nSee LOST-TOO.md.\n",  # named by an orphan: no help
            "lost-too.md": "# Lost too\n",
        },
    )
    differs = ": the case differs; agents on case-sensitive file systems will not find it)"
    assert [(d.file, d.message) for d in found(folder, "SKL401")] == [
        ("forms.md", f"orphaned file: 'forms.md' (SKILL.md names it as 'FORMS.md'{differs}"),
        ("guides/x.md", f"orphaned file: 'guides/x.md' (SKILL.md names it as 'Guides/'{differs}"),
        ("lost-too.md", "orphaned file: 'lost-too.md'"),
        ("lost.md", "orphaned file: 'lost.md'"),
        ("notes.md", f"orphaned file: 'notes.md' (a.md names it as 'NOTES.md'{differs}"),
    ]


def test_skl401_reachability_is_transitive(skill: Writer, found: Found) -> None:
    folder = skill(
        body="[a](a.md#part)\n",
        files={
            "a.md": "# A\n\n## Part\n\n[b](sub/b.md)\n",
            "sub/b.md": "# B\n\n[c](../c.md)\n",
            "c.md": "# C\n",
        },
    )
    assert found(folder, "SKL401") == []


def test_skl401_near_misses_exceptions_hidden_and_folder_links(skill: Writer, found: Found) -> None:
    folder = skill(
        body="See [the references](references/).\n",
        files={
            "README.md": "# Readme\n",
            "LICENSE.md": "# License\n",
            "docs/changelog.md": "# Changes\n",
            "CONTRIBUTING.md": "# Contributing\n",
            "references/one.md": "# One\n",
            "references/deep/two.md": "# Two\n",
            ".github/notes.md": "# Hidden\n",
        },
    )
    assert found(folder, "SKL401") == []


def test_skl401_links_in_code_are_no_links_but_name_the_file(skill: Writer, found: Found) -> None:
    folder = skill(
        body="Read `guide.md` and\n\n```\n[g](guide.md)\n```\n",
        files={"guide.md": "# G\n\n`[x](lost.md)` is no link\n"},
    )
    assert found(folder, "SKL301") == []  # code is not a link
    assert found(folder, "SKL401") == []  # but it names the file (test_lint_defaults.py)


# -- SKL402 lfs-pointer (agentskills profile) ------------------------------------------------

LFS = "version https://git-lfs.github.com/spec/v1\noid sha256:" + "4d7a" * 16 + "\nsize 48213\n"


def test_skl402_a_git_lfs_pointer_is_a_warning(
    skill: Writer, found: Found, cli: Callable[..., Run], tmp_path: Path
) -> None:
    """A checkout made without ``git lfs pull`` holds a pointer where each LFS file should
    be: build and package warned of it, lint linted it as content without a word. Each
    bundled file that is a pointer (a Markdown file too) is an SKL402 warning, as the
    installed ``skc lint`` reports it. Near misses: a text quoting a pointer's first line,
    a pointer whose oid is no SHA-256 (skillc-index's ``lfs_pointer`` takes neither), a
    pointer the skill's ``.gitignore`` leaves out (no file of the skill)."""
    folder = skill(
        body="See [the form](assets/form.pdf) and [the guide](references/guide.md).\n",
        files={
            "assets/form.pdf": LFS,
            "references/guide.md": LFS,
            "references/notes.md": "# Notes\n\n" + LFS,
            "assets/bad.bin": LFS.replace("4d7a", "xyz!"),
            "build/out.bin": LFS,
            ".gitignore": "build/\n",
        },
    )
    hits = found(folder, "SKL402")
    message = "a Git LFS pointer, not the file: run git lfs pull"
    assert [(d.file, d.line, d.severity, d.message) for d in hits] == [
        ("assets/form.pdf", None, "warning", message),
        ("references/guide.md", None, "warning", message),
    ]
    proc = cli("skillc-lint", script=True)(str(folder), "--format", "json", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr  # warnings alone
    shown = [(d["rule"], d["file"]) for d in json.loads(proc.stdout)["diagnostics"]]
    assert [rel for rule, rel in shown if rule == "SKL402"] == [
        "assets/form.pdf",
        "references/guide.md",
    ]
    assert found(folder, "SKL402", registry=default_registry(profiles=())) == []  # a profile's


# -- scope and ordering -----------------------------------------------------------------------


def test_hidden_files_are_out_of_scope(skill: Writer) -> None:
    folder = skill(files={".drafts/x.md": "## no h1\n[b](missing.md)\n", ".x.md": "### z\n"})
    assert lint_skill(folder).diagnostics == ()


def test_diagnostics_are_ordered_skill_md_first_then_by_file_and_line(skill: Writer) -> None:
    folder = skill(
        "folder",
        frontmatter="name: Bad\ndescription: x\n",
        body="[a](a.md) [m](missing.md)\n",
        files={"a.md": "## A\n", "b.md": "## B\n"},
    )
    result: LintResult = lint_skill(folder)
    keys = [(d.file, d.line or 0) for d in result.diagnostics]
    assert keys[0][0] == "SKILL.md"
    skill_md = [k for k in keys if k[0] == "SKILL.md"]
    assert skill_md == sorted(skill_md)
    assert [k[0] for k in keys if k[0] != "SKILL.md"] == ["a.md", "b.md", "b.md"]


def test_missing_skill_md_is_e010(tmp_path: Path) -> None:
    from skillc_index import NotASkill

    with pytest.raises(NotASkill) as caught:
        lint_skill(tmp_path)
    assert caught.value.diagnostic.code == "E010"


def test_a_path_with_nothing_there_is_e001_as_on_the_command_line(tmp_path: Path) -> None:
    """DECISIONS: E010 when something is found without a SKILL.md (a folder, a file: the
    CLI's E010 too), E001 when nothing is: ``lint_skill`` of a missing path (a typo, a
    dangling link) said E010 where ``skillc-lint`` says E001."""
    from skillc_index import NotASkill
    from skillc_index.diagnostics import SkillNotFound

    (tmp_path / "afile.txt").write_text("x", encoding="utf-8")
    (tmp_path / "dangling").symlink_to(tmp_path / "gone")
    for missing in ("no-such-folder", "dangling", "afile.txt/x"):
        with pytest.raises(SkillNotFound) as caught:
            lint_skill(tmp_path / missing)
        assert str(caught.value) == f"error[E001]: skill '{tmp_path / missing}' not found"
    with pytest.raises(NotASkill):
        lint_skill(tmp_path / "afile.txt")


@pytest.mark.parametrize("target", ["absolute", "relative", "dangling"])
def test_skill_md_symlink_leaving_the_skill_is_e012_and_never_read(
    tmp_path: Path, target: str
) -> None:
    from skillc_index import PathEscapesRoot

    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "SKILL.md").write_text(
        "---\nname: TOPSECRET\ndescription: TOPSECRET\n---\n## TOPSECRET\n[x](TOPSECRET.md)\n",
        encoding="utf-8",
    )
    folder = tmp_path / "evil"
    folder.mkdir()
    link = {
        "absolute": outside / "SKILL.md",
        "relative": Path("../outside/SKILL.md"),
        "dangling": outside / "missing.md",
    }[target]
    (folder / "SKILL.md").symlink_to(link)
    with pytest.raises(PathEscapesRoot) as caught:
        lint_skill(folder)
    assert caught.value.diagnostic.code == "E012"
    assert caught.value.path == str(folder / "SKILL.md")
    assert "TOPSECRET" not in str(caught.value)


def test_skill_md_symlink_staying_inside_is_linted(skill: Writer) -> None:
    folder = skill(body="[guide](refs/guide.md)\n", files={"refs/guide.md": "# Guide\n"})
    (folder / "main.md").write_bytes((folder / "SKILL.md").read_bytes())
    (folder / "SKILL.md").unlink()
    (folder / "SKILL.md").symlink_to("main.md")
    result = lint_skill(folder)
    assert [(d.rule, d.file) for d in result.diagnostics] == [("SKL401", "main.md")]


def test_find_skill_folders_survives_symlink_loops(tmp_path: Path) -> None:
    from skillc_lint import find_skill_folders

    (tmp_path / "good").mkdir()
    (tmp_path / "good" / "SKILL.md").write_text("---\nname: good\n---\n", encoding="utf-8")
    (tmp_path / "loop").symlink_to("loop")
    (tmp_path / "cycle").symlink_to(".", target_is_directory=True)
    assert find_skill_folders(tmp_path) == [tmp_path / "good"]
