"""The commands that read a skill by its sections, through the skill's index (a cache,
built on demand: :func:`skillc_index.ensure_index`): ``show`` (one section, RFC-0002:C-SHOW)
and ``search`` (the sections that hold some words, RFC-0004).

A module of their own: agents run them many times a session, and ``skc show`` or ``skc
search`` imports this module only, which defines no other command (a click command with its
options costs about a millisecond to define). The rest of the gateway's commands are in
modules of their own (:mod:`skillc_gateway.cli`), among them :mod:`skillc_gateway.cli_files`,
whose ``open`` shares the text output of ``show``. Module level imports only click and the
console conventions.
"""

from __future__ import annotations

import click

from skillc_gateway._section_ops import (
    SEARCH,
    SHOW,
    SearchParams,
    SearchResults,
    SectionResult,
    ShowParams,
)
from skillc_index import printable
from skillc_index.console import Call, TextCommand, command


@command(SHOW)
def show_command(result: SectionResult, call: Call[ShowParams]) -> None:
    """Retrieve section content.

    Prints the section under the heading SECTION: from the heading to the next heading of
    the same or a higher level. Matching ignores case; text after " — " is ignored, so a
    line copied from the skill's stub works. When several headings match, the first in file
    then line order is shown (W001); --nth N shows the Nth. Any skill can be read, built or
    not: its index is (re)built on demand when missing or stale.

    \b
    Examples:
      skc show my-skill --section 'Installation'
      skc show my-skill --section 'Endpoints' --file references/api.md
      skc show my-skill --section 'Examples' --nth 2
      skc show my-skill --section 'Clap Patterns — Advanced parsing' --max-lines 40
    """
    echo_text(result.page.content, result.page.more_lines)


# A query may start with "-" ("-fno-strict-aliasing"): a word that is not exactly an option is
# taken as a word (find's too, in cli_find).
@command(SEARCH, cls=TextCommand)
def search_command(result: SearchResults, call: Call[SearchParams]) -> None:
    """Search skill content.

    Full-text search (BM25) over every section of the skill's `.md` and `.txt` files. Every
    word of QUERY must appear (in any order); FTS5 operators are searched as plain words.
    Words of Chinese, Japanese, Korean or Thai are found inside a sentence only with
    `[search] tokenizer = "cjk"`. Built or not, the skill's index is (re)built on demand
    when missing or stale. JSON is the stable format.

    \b
    Examples:
      skc search my-skill "error handling"
      skc search my-skill "configure auth" --limit 3 --format json
    """
    if not result.found.results:  # one line, as find and list say it: not a silent exit 0
        click.echo(printable(f"No section matches '{call.params.query}'."))
    for hit in result.found.results:
        click.echo(printable(f"{hit.file}#{hit.section} (score: {hit.score:.2f})"))
        click.echo(printable(f"  {' '.join(hit.snippet.split())}"))
    if result.found.hint:
        click.echo(f"hint: {result.found.hint}")


def echo_text(text: str, more_lines: int, *, as_is: bool = False) -> None:
    """``text``, ended by a newline unless ``as_is`` (``open``: the file's bytes, RFC-0002:C-OPEN),
    then the cut marker when lines were left out (a cut text ends with its last line's ending).
    Escape sequences are kept whatever stdout is (click strips them off a terminal): a file's
    or a tool's text is data, not the kit's styling (RFC-0002:C-SHOW, C-OPEN)."""
    click.echo(text, nl=False, color=True)
    if text and not text.endswith("\n") and (not as_is or more_lines):
        click.echo()
    if more_lines:
        click.echo(f"... ({more_lines} more lines)")
