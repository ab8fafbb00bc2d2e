"""The RFC-0005 registry: every code, its template, and the one formatting function."""

from __future__ import annotations

import re

import pytest

import skillc_index as si
from skillc_index import command_errors, option_errors
from skillc_index import diagnostics as d
from skillc_index.accesslog import errors as log_errors

# RFC-0005:C-CODES, as the RFC prints each line.
RFC_LINES = {
    "E001": "error[E001]: skill '<skill>' not found",
    # not the RFC's "run 'skc build <skill>' to rebuild": the index is a cache (issue 34)
    "E002": "error[E002]: search index unusable for '<skill>': <reason>",
    "E003": "error[E003]: index hash collision; delete .skillc-meta/search-<hash16>.db and rebuild",
    "E004": "error[E004]: empty query",
    "E010": "error[E010]: not a valid skill: '<path>' (missing SKILL.md)",
    "E011": "error[E011]: missing frontmatter field '<field>' in SKILL.md",
    "E012": "error[E012]: path escapes skill root: '<path>'",
    "E020": "error[E020]: section not found: '<section>'",
    "E021": "error[E021]: file not found: '<path>'",
    "E022": "error[E022]: directory not found: '<path>'",
    # skillc's own (issue 32: a binary file larger than an MCP reply), in the gateway range
    "E023": "error[E023]: file too large: '<path>'",
    "E030": "error[E030]: invalid query type: '<type>'",
    "E031": "error[E031]: invalid filter: '<message>'",
    "E040": "error[E040]: no local logs found",
    "E041": "error[E041]: sync destination not writable: '<path>'",
    "E042": "error[E042]: sync source not readable: '<path>'",
    # skillc's own (issue 18: the team store), in the RFC's E040-E049 sync range
    "E043": "error[E043]: team store unavailable: '<url>'",
    "E044": "error[E044]: the PostgreSQL driver is not installed",
    "E050": "error[E050]: skill '<skill>' already exists",
    # skillc's own (issue 15: the find server, skc watch)
    "E060": "error[E060]: find server: <message>",
    "E061": "error[E061]: MCP HTTP server: <message>",
    # skillc's own (issue 39: the lint language server, skillc-lint server)
    "E062": "error[E062]: language server: <message>",
    # skillc's own (issue 37: skc package, a package its format refuses)
    "E070": "error[E070]: cannot package '<skill>' as <format>: <reason>",
    # skillc's own (issue 38: skc list --apply overrides, a settings file it cannot change)
    "E080": "error[E080]: invalid agent settings file '<path>': <reason>",
    "E100": "error[E100]: invalid option: '<message>'",
    "E300": "error[E300]: <rule-id> <rule-name>: <message>",
    "E999": "error[E999]: <message>",
    "W001": "warning[W001]: multiple matches for '<section>'; showing first",
    "W002": "warning[W002]: logging disabled; run 'skc sync' after session to merge logs",
    "W003": "warning[W003]: stale local logs for '<skill>'; run 'skc sync' to upload",
    "W300": "warning[W300]: <rule-id> <rule-name>: <message>",
}


def test_registry_is_exactly_the_rfc_table() -> None:
    assert set(d.TEMPLATES) == set(RFC_LINES)
    for code, line in RFC_LINES.items():
        assert si.format_diagnostic(si.Diagnostic(code)) == line


@pytest.mark.parametrize(
    ("error", "expected"),
    [
        (d.SkillNotFound("rust"), "error[E001]: skill 'rust' not found"),
        (
            si.IndexUnusable("rust", "cannot read 'a.md': Permission denied"),
            "error[E002]: search index unusable for 'rust': cannot read 'a.md': Permission denied",
        ),
        (
            d.IndexCollision("0123456789abcdef"),
            "error[E003]: index hash collision; "
            "delete .skillc-meta/search-0123456789abcdef.db and rebuild",
        ),
        (si.EmptyQuery(), "error[E004]: empty query"),
        (si.NotASkill("./x"), "error[E010]: not a valid skill: './x' (missing SKILL.md)"),
        (
            command_errors.MissingFrontmatterField("name"),
            "error[E011]: missing frontmatter field 'name' in SKILL.md",
        ),
        (si.PathEscapesRoot("../x"), "error[E012]: path escapes skill root: '../x'"),
        (si.SkillFileNotFound("a.md"), "error[E021]: file not found: 'a.md'"),
        (si.SkillDirectoryNotFound("refs"), "error[E022]: directory not found: 'refs'"),
        (si.InvalidQueryType("bogus"), "error[E030]: invalid query type: 'bogus'"),
        (log_errors.InvalidFilter("bad date"), "error[E031]: invalid filter: 'bad date'"),
        (si.NoLocalLogs(), "error[E040]: no local logs found"),
        (si.SyncDestinationNotWritable("/r"), "error[E041]: sync destination not writable: '/r'"),
        (si.SyncSourceNotReadable("/l"), "error[E042]: sync source not readable: '/l'"),
        (command_errors.SkillExists("rust"), "error[E050]: skill 'rust' already exists"),
        (  # a file that is no skill (a page of skc stats --html) is named by its path
            command_errors.ForeignFile("/p/notes.html", "it was not made by skillc"),
            "error[E050]: '/p/notes.html' already exists\nhint: it was not made by skillc",
        ),
        (
            si.InvalidOption("No such option: --x"),
            "error[E100]: invalid option: 'No such option: --x'",
        ),
        (si.InternalError("disk full"), "error[E999]: disk full"),
    ],
)
def test_typed_errors_format_their_template(error: si.SkillcError, expected: str) -> None:
    assert isinstance(error, si.SkillcError)
    assert error.diagnostic.code == type(error).code
    assert si.format_diagnostic(error.diagnostic) == expected
    assert str(error) == expected


def test_every_error_code_has_a_typed_exception() -> None:
    classes = {
        cls.code
        for module in (d, command_errors, log_errors)
        for cls in vars(module).values()
        if isinstance(cls, type) and issubclass(cls, d.SkillcError) and cls is not d.SkillcError
    }
    errors = {code for code in d.TEMPLATES if code.startswith("E") and code != "E300"}
    assert errors <= classes | {"E999"}


def test_section_not_found_lists_at_most_five_suggestions() -> None:
    error = si.SectionNotFound("Instal", [(f"Install {i}", "SKILL.md") for i in range(8)])
    lines = si.format_diagnostic(error.diagnostic).splitlines()
    assert lines[0] == "error[E020]: section not found: 'Instal'"
    assert lines[1] == "Did you mean one of these?"
    assert lines[2:] == [f"  - Install {i} (SKILL.md)" for i in range(5)]


def test_warnings_and_lint_diagnostics() -> None:
    assert si.format_diagnostic(si.multiple_matches("Usage")) == (
        "warning[W001]: multiple matches for 'Usage'; showing first"
    )
    assert d.logging_disabled().severity == "warning"
    assert si.format_diagnostic(d.stale_local_logs("rust")).startswith("warning[W003]: stale")
    assert (
        si.format_diagnostic(
            si.lint_diagnostic("SKL102", "name-format", "name contains invalid characters")
        )
        == "error[E300]: SKL102 name-format: name contains invalid characters"
    )
    assert (
        si.format_diagnostic(
            si.lint_diagnostic("SKL401", "no-orphans", "orphaned file 'old-draft.md'", "warning")
        )
        == "warning[W300]: SKL401 no-orphans: orphaned file 'old-draft.md'"
    )


def test_notice_has_no_code_and_unknown_codes_are_refused() -> None:
    assert si.format_diagnostic(si.Notice("config: x")) == "warning: config: x"
    assert si.format_diagnostic(si.Notice("skipping", "info")) == "info: skipping"
    with pytest.raises(ValueError, match="E777"):
        si.format_diagnostic(si.Diagnostic("E777"))


def test_every_message_has_the_bracketed_code() -> None:
    for code in d.TEMPLATES:
        assert re.match(
            r"^(error|warning)\[[EW]\d{3}\]: ", si.format_diagnostic(si.Diagnostic(code))
        )


def test_unexpected_exceptions_are_one_e999_line() -> None:
    from skillc_index.diagnostics import InternalError, SkillNotFound, error_line

    multi = OSError("disk\n  on fire")
    assert str(InternalError.unexpected(multi)) == "error[E999]: OSError: disk on fire"
    assert str(InternalError.unexpected(KeyError())) == "error[E999]: KeyError"
    assert error_line(multi) == "error[E999]: OSError: disk on fire"
    assert error_line(SkillNotFound("x")) == "error[E001]: skill 'x' not found"


def test_the_readmes_table_lists_every_code_with_its_message() -> None:
    """The README's "Diagnostic codes" table is where a user looks a code up (RFC-0005's
    table lacks skillc's own, E060 among them): it holds exactly the codes of ``TEMPLATES``,
    each with its message."""
    from pathlib import Path

    readme = (Path(__file__).parents[1] / "README.md").read_text(encoding="utf-8")
    section = readme.split("\n## Diagnostic codes\n", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| ([EW]\d{3}) \| `([^`]*)`", section, re.MULTILINE)
    assert [code for code, _ in rows] == sorted(d.TEMPLATES)
    assert dict(rows) == d.TEMPLATES


def test_the_extras_the_readmes_table_names_exist() -> None:
    """A code's meaning that names an extra (E044: the team store's driver) names one a
    package has: ``pip install 'skillc-stats[team]'`` installed no driver."""
    from pathlib import Path

    from skillc_index.config import _load_toml  # tomllib, or tomli on Python 3.10

    packages = Path(__file__).parents[2]
    extras = {
        extra
        for pyproject in packages.glob("*/pyproject.toml")
        for extra in _load_toml(pyproject)["project"].get("optional-dependencies", {})
    }
    readme = (Path(__file__).parents[1] / "README.md").read_text(encoding="utf-8")
    section = readme.split("\n## Diagnostic codes\n", 1)[1].split("\n## ", 1)[0]
    named = re.findall(r"the `([\w-]+)` extra", section)
    assert named and set(named) <= extras


def test_a_message_quotes_at_most_200_characters_of_each_value_it_was_given() -> None:
    """A value (a path, a section) and each quote inside a ``message`` or ``reason`` (and
    each run without white space) show at most ``MAX_SHOWN`` characters, the quote marks
    kept, its start and its end (100 characters, ``…``, 99: a path keeps its file's name);
    an apostrophe inside a word opens no quote; a lint rule's message is the linter's
    (E300); what fits is as it was."""
    long, spaced = "a" * 9999, "a b " * 2500
    cut = "a" * 100 + "\N{HORIZONTAL ELLIPSIS}" + "a" * 99
    assert d.Diagnostic("E020", {"section": long}).message == f"section not found: '{cut}'"
    head, tail = "a b " * 24 + "a b", "b " + "a b " * 24  # the spaces by the cut dropped
    assert d.Diagnostic("E020", {"section": spaced}).message == (
        f"section not found: '{head}\N{HORIZONTAL ELLIPSIS}{tail}'"
    )
    path = "/".join(["folder"] * 40) + "/target-skill"
    shown = path[:100] + "\N{HORIZONTAL ELLIPSIS}" + path[-99:]
    assert d.NotASkill(path).diagnostic.message.startswith(f"not a valid skill: '{shown}'")
    assert shown.endswith("/folder/target-skill")
    for given, shown in [
        (f"unknown target '{long}' (known: claude)", f"unknown target '{cut}' (known: claude)"),
        (f'value for --select: "{long}" is no rule', f'value for --select: "{cut}" is no rule'),
        (f"Got unexpected extra argument ({long})", f"Got unexpected extra argument ({cut})"),
        (f"cannot write '{long}/x.out': too long", f"cannot write '{cut[:-6]}/x.out': too long"),
        (f"bare {long} word", f"bare {cut} word"),
    ]:
        assert option_errors.InvalidOption(given).diagnostic.message == f"invalid option: '{shown}'"
    assert len(d.InternalError(f"--since '{spaced}' is bad").diagnostic.message) < 240
    words = "it's " + "x " * 150 + "isn't it"  # no quote: as it was
    assert option_errors.InvalidOption(words).diagnostic.message == f"invalid option: '{words}'"
    finding = d.lint_diagnostic("SKL1", "rule", f"value '{long}'")
    assert finding.message.endswith(f"'{long}'")
