"""``skc find`` (the skills for a task, issue 15), made from its operation
(:data:`skillc_gateway.operations.FIND`): the function here only prints the answer, through
:mod:`skillc_gateway.find_output` as the quick path prints it.

A module of its own: ``skc find`` is what an agent runs before any other command, often once
per task, and its process time counts; importing it defines no other command. Module level
imports only click, the console conventions and the operation table. With a find server
running, the usual command lines do not get here: :mod:`skillc_gateway.find_quick` answers
them without click (and reads exactly what this command reads: a test holds them together).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from skillc_gateway._find_op import FIND, FindParams
from skillc_gateway.find_output import print_answer
from skillc_index.console import Call, TextCommand, command, is_verbose
from skillc_index.helppage import program_command

if TYPE_CHECKING:
    from skillc_gateway.catalog import FindResult


# A query may start with "-" ("-fno-strict-aliasing"): a word that is not exactly an option is
# taken as a word. The answer is printed by find_output in both formats, as the quick path
# prints it.
@command(FIND, cls=TextCommand, render_json=True)
def find_command(result: FindResult, call: Call[FindParams]) -> None:
    """Find the skills for a task.

    Ranks the installed skills for QUERY, a task in words, best first: the project and
    global stores, the agents' skills folders (project and home: .claude/skills,
    .agents/skills, ...) and installed Claude Code plugins; a deployed skill counts as its
    source. Each result names the skill's folder and the section to read first. The catalog
    (~/.skillc/catalog-<versions>.db) is brought up to date from file stats before every
    answer.

    When a find server runs for the skillc home (watch, with --detach), it answers instead:
    the same answer, without this process importing the catalog or looking at every folder
    again (it is told of changes as they happen). Without one, find answers itself; when
    it searched 1,000 skills or more, it then starts one in the background for the next
    finds (it stops after an idle hour; SKILLC_FIND_SERVER=0: never). When the catalog lacks
    200 skills or more of those searched (a first find), find answers from their files,
    the same answer, and leaves the indexing to the find server it starts. With -v, find
    says on stderr which answered, and with which ranker.

    \b
    Examples:
      skc find "fill in a PDF form"
      skc find "review this pull request" --limit 3 --format json
      skc find "deploy to kubernetes" --path .skillc/skills  # the project store only
    """
    if is_verbose():
        from skillc_index import counted

        where = f"the find server ({program_command('watch')})" if result.served else "this process"
        if not result.served:
            from skillc_gateway.catalog.client import declined

            why = declined(call.session.layout)
            where += f" ({why})" if why else ""
        if result.first:  # the catalog lacked many of the skills: the find server builds it
            where += ", from the skills' files"
        click.echo(f"find: answered by {where}; ranker: {result.ranker}", err=True)
        click.echo(
            f"find: {counted(result.searched, 'skill')} searched; {result.skipped} skipped "
            "(unreadable or invalid skills, folders that could not be listed)",
            err=True,
        )
    print_answer(call.session.layout, result, call.output_format, program_command)
