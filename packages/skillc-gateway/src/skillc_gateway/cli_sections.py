"""The commands that read a skill by its sections, through the index ``skc build`` wrote:
``show`` (one section, RFC-0002:C-SHOW) and ``search`` (the sections that hold some words,
RFC-0004).

A module of their own: agents run them many times a session, and ``skc show`` or ``skc
search`` imports this module only, which defines no other command (a click command with its
options costs about a millisecond to define). The rest of the gateway's commands are in
:mod:`skillc_gateway.cli`, whose ``open`` shares the paging options and the text output of
``show``. Module level imports only click and the console conventions.
"""

from __future__ import annotations

import click

from skillc_index import printable
from skillc_index.console import (
    CONTEXT_SETTINGS,
    count_range,
    format_option,
    perform,
    verbose_option,
)

MAX_LINES_OPTION = click.option(
    "--max-lines", type=count_range(0), help="Show at most this many lines."
)
OFFSET_OPTION = click.option(
    "--offset",
    type=count_range(0),
    default=0,
    help="Skip this many lines first (the `next_offset` of a JSON reply reads on).",
)
HIDDEN_OPTION = click.option(
    "--hidden",
    is_flag=True,
    help="Also serve a hidden file (a dot-file or dot-folder: .env, .git/...).",
)


@click.command("show", context_settings=CONTEXT_SETTINGS)
@click.argument("skill")
@click.option("--section", required=True, help="The heading to show (case-insensitive).")
@click.option("--file", "file", metavar="PATH", help="Only look in this file.")
@MAX_LINES_OPTION
@OFFSET_OPTION
@HIDDEN_OPTION
@format_option()
@verbose_option
def show_command(
    skill: str,
    section: str,
    file: str | None,
    max_lines: int | None,
    offset: int,
    hidden: bool,
    output_format: str,
) -> None:
    """Retrieve section content.

    Prints the section under the heading SECTION: from the heading to the next heading of
    the same or a higher level. Matching ignores case; text after " — " is ignored, so a
    line copied from the skill's stub works. Needs a current index (`skc build SKILL`).

    \b
    Examples:
      skc show my-skill --section "Installation"
      skc show my-skill --section "Endpoints" --file references/api.md
      skc show my-skill --section "Clap Patterns — Advanced parsing" --max-lines 40
    """
    from skillc_gateway._section_ops import SHOW, ShowParams

    params = ShowParams(skill, section, file, max_lines, offset, hidden)
    result = perform(SHOW, params, output_format)
    if result is not None:
        echo_text(result.page.content, result.page.more_lines)


# A query may start with "-" ("-fno-strict-aliasing"): unknown options are taken as words
# (find too, in cli_find).
@click.command("search", context_settings={**CONTEXT_SETTINGS, "ignore_unknown_options": True})
@click.argument("skill")
@click.argument("query")
@click.option("--limit", type=count_range(1), default=10, show_default=True, help="Most results.")
@format_option()
@verbose_option
def search_command(skill: str, query: str, limit: int, output_format: str) -> None:
    """Search skill content.

    Full-text search (BM25) over every section of the skill's `.md` and `.txt` files. Every
    word of QUERY must appear (in any order); FTS5 operators are searched as plain words.
    Needs a current index (`skc build SKILL`). JSON is the stable format.

    \b
    Examples:
      skc search my-skill "error handling"
      skc search my-skill "configure auth" --limit 3 --format json
    """
    from skillc_gateway._section_ops import SEARCH, SearchParams

    result = perform(SEARCH, SearchParams(skill, query, limit), output_format)
    if result is None:
        return
    for hit in result.found.results:
        click.echo(printable(f"{hit.file}#{hit.section} (score: {hit.score:.2f})"))
        click.echo(printable(f"  {' '.join(hit.snippet.split())}"))


def echo_text(text: str, more_lines: int, *, as_is: bool = False) -> None:
    """``text``, ended by a newline unless ``as_is`` (``open``: the file's bytes, RFC-0002:C-OPEN),
    then the cut marker when lines were left out (a cut text ends with its last line's ending).
    ``as_is`` also keeps escape sequences, which click strips when stdout is not a terminal."""
    click.echo(text, nl=False, color=True if as_is else None)
    if text and not text.endswith("\n") and (not as_is or more_lines):
        click.echo()
    if more_lines:
        click.echo(f"... ({more_lines} more lines)")
