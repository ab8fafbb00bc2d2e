"""The commands that read a skill's files: ``outline`` (the headings of every Markdown
file, RFC-0002:C-OUTLINE), ``open`` (one file, RFC-0002:C-OPEN) and ``sources`` (the tree of
files, RFC-0002:C-SOURCES), each made from its operation (:mod:`skillc_gateway.operations`);
the functions here only print the results as text. Module level imports only click, the
console conventions and the operation table.
"""

from __future__ import annotations

import click

from skillc_gateway.cli_sections import echo_text
from skillc_gateway.operations import (
    OPEN,
    OUTLINE,
    SOURCES,
    FileResult,
    OpenParams,
    OutlineParams,
    OutlineResult,
    SourcesParams,
    SourcesResult,
)
from skillc_index import printable
from skillc_index.console import Call, command


@command(OUTLINE)
def outline_command(result: OutlineResult, call: Call[OutlineParams]) -> None:
    """List all sections in a skill.

    Every `.md` file of the skill, in path order, with its headings indented by level. Read
    a section with `skc show SKILL --section '<heading>'`.

    \b
    Examples:
      skc outline my-skill
      skc outline my-skill --level 2
      skc outline ./path/to/skill --format json
    """
    by_file: dict[str, list[str]] = {file: [] for file in result.outline.files}
    for heading in result.outline.headings:  # a file not walked (none): listed all the same
        line = f"{'  ' * heading.level}{'#' * heading.level} {heading.text}"
        by_file.setdefault(heading.file, []).append(line)
    for file, lines in by_file.items():  # a file without headings too: `skc open` reads it
        click.echo(printable(file))
        for line in lines:
            click.echo(printable(line))


@command(OPEN)
def open_command(result: FileResult, call: Call[OpenParams]) -> None:
    """Retrieve file content.

    Prints PATH (relative to the skill root, any file type) exactly as it is: a binary file's
    bytes whole (--max-lines and --offset count lines of text files only; JSON carries them
    in base64, up to 16 MiB). Paths that lead
    outside the skill, by `..`, an absolute path or a symlink, are refused (E012). Only
    regular files are read (a FIFO, socket or device is E021); a hidden file (a dot-file or
    dot-folder, which `skc sources` does not list) only with --hidden.

    \b
    Examples:
      skc open my-skill references/api.md
      skc open my-skill data/terms.txt --max-lines 20
    """
    if result.binary is not None:  # its bytes as they are (lines mean nothing there)
        for chunk in result.binary.chunks():  # bounded memory, whatever its size
            click.echo(chunk, nl=False)
    elif result.page is not None:
        echo_text(result.page.content, result.page.more_lines, as_is=True)


@command(SOURCES)
def sources_command(result: SourcesResult, call: Call[SourcesParams]) -> None:
    """List source files (tree-style).

    SKILL.md first, then folders, then files, in path order; hidden files and folders are
    not sources.

    \b
    Examples:
      skc sources my-skill
      skc sources my-skill --depth 2
      skc sources my-skill --dir references --pattern '*.md'
      skc sources my-skill --format json
    """
    for line in result.tree.lines():
        click.echo(printable(line))
