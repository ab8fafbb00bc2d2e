"""``skc build`` (RFC-0001, RFC-0007 ``build``), made from its operation
(:data:`skillc_index.operations.BUILD`): one skill, or the batch that several skills, a
folder of skills or ``--all`` stand for (which the operation runs). The functions here only
print the result; the exit status is 1 when a skill of a batch failed, in every format.
Module level imports only click, the console conventions and the operation table; the work
loads when the command runs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from skillc_index.columns import table_lines
from skillc_index.console import (
    Call,
    command,
    is_verbose,
    print_json,
    report,
)
from skillc_index.operations import BUILD, BuildParams
from skillc_index.progress import DelayedProgress
from skillc_index.streams import INTERRUPTED
from skillc_index.text import counted, printable

if TYPE_CHECKING:
    from collections.abc import Iterable

    from skillc_index.build.batch import BatchResult
    from skillc_index.build.skill import BuildResult
    from skillc_index.layout import Layout
    from skillc_index.operation import Session


def _progress(params: BuildParams, session: Session) -> DelayedProgress:
    """The bar of what the build counts: a batch's skills built (``Building``, after half a
    second), or one skill's files indexed (``Indexing``, after a second)."""
    from skillc_index.build.jobs import is_batch

    if is_batch(params, session):
        return DelayedProgress("Building", delay=0.5)
    return DelayedProgress("Indexing")


def _status(result: BuildResult | BatchResult) -> int:
    """1 when a skill of a batch failed (the others are built), 130 when Ctrl-C stopped the
    batch, in every format."""
    from skillc_index.build.batch import BatchResult

    if not isinstance(result, BatchResult):
        return 0
    return INTERRUPTED if result.interrupted else int(bool(result.failed))


@command(BUILD, progress=_progress, status=_status, render_json=True)
def build_command(result: BuildResult | BatchResult, call: Call[BuildParams]) -> None:
    """Compile skill to runtime format.

    SKILL is a skill name (looked up in the project store, then the global store) or a path to
    a folder holding SKILL.md; a path outside the stores is first imported (copied) into the
    project store, or the global store outside a project. The runtime
    (`.skillc/runtime/SKILL/`) gets the stub SKILL.md that points agents to the gateway, the
    manifest and the search index; each target agent folder then gets a symlink to it (a copy
    with --copy, which later builds keep a copy). Building an unchanged skill only re-checks
    it.

    Several skills, a folder of skills (`skills/`: every skill folder under it, down to 8
    levels and 250,000 folders, hidden ones such as skills/.curated/ included; version control,
    virtual environments, node_modules, caches and skillc's runtime left out) or --all are
    built in parallel, one process per core, with a summary; one failure does not stop the
    others, and the exit status is 1 when any failed.

    \b
    Examples:
      skc build my-skill                      # .claude/skills/my-skill -> the runtime
      skc build ./drafts/my-skill             # import into .skillc/skills/, then build
      skc build my-skill --target claude,cursor
      skc build my-skill --global --copy
      skc build my-skill --format json
      skc build skills/                       # every skill under skills/
      skc build --all                         # every skill of the stores
    """
    from skillc_index.build.batch import BatchResult

    if isinstance(result, BatchResult):
        _echo_batch(result, call.session.layout, call.output_format)
    elif call.output_format == "json":
        print_json(result.to_dict())
    else:
        _echo_build(result, call.session.layout)


def _echo_build(result: BuildResult, layout: Layout) -> None:
    """One skill: where it came from, its runtime and its deployments, each line through
    :func:`printable` (a folder name may hold an escape sequence or a newline)."""
    compiled = result.compiled
    index = compiled.index
    if result.imported_from is not None:
        action = {"copy": "imported", "replace": "replaced", "unchanged": "already imported"}
        click.echo(
            printable(
                f"Import:  {layout.display(result.imported_from)} -> "
                f"{layout.display(compiled.source)} ({action[result.import_action or 'copy']})"
            )
        )
    click.echo(printable(f"Source:  {layout.display(compiled.source)} ({result.scope})"))
    if compiled.up_to_date:
        state = "up to date"
    elif index.counts is None:
        state = "built; index up to date"
    else:
        count = index.counts.sections
        state = f"built; index {index.action}: {counted(count, 'section')}"
    click.echo(printable(f"Runtime: {layout.display(compiled.runtime)} ({state})"))
    if is_verbose():
        click.echo(printable(f"Index:   {layout.display(index.path)} ({index.tokenizer})"))
        if index.reason:
            click.echo(printable(f"         reason: {index.reason}"))
    for deployment in result.deployments:
        unchanged = ", unchanged" if deployment.action == "unchanged" else ""
        click.echo(
            printable(
                f"Deploy:  {deployment.target} -> {layout.display(deployment.path)} "
                f"({deployment.method}{unchanged})"
            )
        )
    for line in gitignore_lines([result]):
        click.echo(line)


_STATUS = {"built": "built", "up-to-date": "up to date", "failed": "failed"}


def _echo_batch(result: BatchResult, layout: Layout, output_format: str) -> None:
    """Several skills: each failure an error line naming the skill (stderr), then the JSON,
    or one line per skill and the summary."""
    for item in result.items:
        if item.error is not None:
            report(item.error._replace(subject=item.job.label))
    if output_format == "json":
        print_json(result.to_dict())
        return
    rows = []
    for item in result.items:
        where = (
            layout.display(item.result.compiled.runtime)
            if item.result is not None
            else item.job.label
        )
        deployed = ", ".join(
            f"{d.target} -> {layout.display(d.path)} ({d.method}, {d.action})"
            for d in item.redeployed
        )
        if deployed:
            where += f"; deployed: {deployed}"
        if item.imported_again is not None:
            where += f"; imported again from {layout.display(item.imported_again)}"
        if item.deployed_nowhere is not None:
            where += f"; deployed nowhere: {item.deployed_nowhere}"
        rows.append([f"{_STATUS[item.status]:<10}", printable(item.job.name), printable(where)])
    for line in table_lines(rows):  # the names padded as a terminal shows them (CJK: 2 columns)
        click.echo(line)
    summary = result.summary()
    redeployed = sum(1 for item in result.items if item.redeployed)
    imported = sum(1 for item in result.items if item.imported_again is not None)
    said = [f"{redeployed} redeployed"] if redeployed else []
    said += [f"{imported} imported again"] if imported else []
    again = f" ({', '.join(said)})" if said else ""
    skills = summary["skills"] if result.total is None else result.total
    done = "" if result.total is None else f"{summary['skills']} of "
    stopped = "; interrupted (the rest not built)" if result.interrupted else ""
    click.echo(
        f"{done}{counted(skills, 'skill')}: {summary['built']} built, "
        f"{summary['up_to_date']} up to date{again}, {summary['failed']} failed{stopped}"
    )
    for line in gitignore_lines([item.result for item in result.items if item.result]):
        click.echo(line)


def gitignore_lines(results: Iterable[BuildResult]) -> list[str]:
    """``Added to <file>: <lines>``, once for each ``.gitignore`` the builds added lines to
    (a nested project's own in a batch run from the outer one), named from the working
    folder; each line once."""
    added: dict[str, dict[str, None]] = {}
    for result in results:
        if result.gitignore and result.gitignore_shown is not None:
            added.setdefault(result.gitignore_shown, {}).update(dict.fromkeys(result.gitignore))
    return [printable(f"Added to {file}: {', '.join(lines)}") for file, lines in added.items()]
