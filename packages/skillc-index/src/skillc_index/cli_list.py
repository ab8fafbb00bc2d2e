"""``skc list`` (RFC-0007:C-LIST), made from its operation
(:data:`skillc_index.operations.LIST`): the functions here only print the result as text
(:func:`echo_table`, its table, is ``route status``'s too). Module level imports only click,
the console conventions and the operation table; the work loads when the command runs.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import click

from skillc_index.columns import table_lines
from skillc_index.console import Call, command, is_verbose
from skillc_index.operations import LIST, ListParams
from skillc_index.text import counted, printable

if TYPE_CHECKING:
    from skillc_index.layout import Layout
    from skillc_index.listing.agents import ShownState
    from skillc_index.listing.budget_result import FolderBudget
    from skillc_index.listing.overrides import OverridePlan
    from skillc_index.listing.skills import SkillEntry, SkillList


@command(LIST)
def list_command(result: SkillList, call: Call[ListParams]) -> None:
    """List the installed skills.

    Skills come from the project store (`.skillc/skills/`, found by walking up from the
    current folder) and then the global store (`~/.skillc/skills/`), project first, each by
    name. STATUS is `normal` (built and current), `stale` (sources changed since the last
    build, `obsolete` with --check-obsolete, which hashes every file; or a stub of an older
    skillc, which `skc build` rewrites) or `not-built`. Then
    every other installed skill: the agents' skills folders of the project and of the home
    folder, and installed Claude Code plugins (`plugin:skill`), each once whatever the
    folders it is in; its STATUS is that of the search index reading it makes: `indexed`,
    `stale` or `not-indexed`. Every skill can be read (`skc show`, `search`...) built or
    not. MANAGED says whether skillc manages it, AGENTS who sees it, WHERE where it is
    (first in resolution order; `(+N)`: N more places).

    With --budget, a table per agent instead: the skills of every folder the agent reads
    (Claude Code: the project's, nested and home folders and its plugins'; --agent picks one
    agent), the estimated tokens of their names and descriptions (4 characters a token)
    against its one listing budget, and the skills whose descriptions the agent would drop,
    the first dropped first (the JSON adds a `budget` list, one object per agent, to the
    listing). --pattern and --limit then choose the rows shown; each heading prices the whole
    listing.

    --apply overrides applies the Claude Code suggestion: when its listing is over its
    budget, the skills whose descriptions it drops (the least used) are set to "name-only"
    in Claude Code's `skillOverrides`, in `.claude/settings.local.json` of the project (a
    project folder's skill) or `~/.claude/settings.json` (a home folder's; a plugin's skill
    has no such setting); every other setting, and any override the user set,
    is kept; the folders are then priced again (`--dry-run`: what would change, nothing
    written). Codex and the other agents have no such setting: nothing is applied to them.
    --reset undoes it: every entry --apply set (recorded in `~/.skillc/listing-overrides.json`)
    is taken out of those files and forgotten; the user's own are kept, and so is one the
    user changed since (named).

    \b
    Examples:
      skc list
      skc list --managed
      skc list --agent cursor --scope global
      skc list --scope global --pattern 'py*'
      skc list --status stale
      skc list --budget
      skc list --budget --apply overrides --dry-run
      skc list --budget --apply overrides --reset
      skc list --format json
    """
    layout = call.session.layout
    if result.budget is not None:
        _echo_budgets(result.budget, layout, call.params.pattern, call.params.limit)
        if result.overrides is not None and call.params.reset:
            _echo_reset(result.overrides, layout)
        elif result.overrides is not None:
            _echo_overrides(result.overrides, layout)
        return
    if not result.skills:
        if result.total == 0:
            click.echo("No skills found.")
        elif result.filtered:  # --limit 0: they match, none is shown
            verb = "matches" if result.filtered == 1 else "match"
            some = f"{counted(result.filtered, 'skill')} {verb}"
            click.echo(f"{some}; --limit 0 shows none of them.")
        else:
            click.echo("No skills match.")
        return
    verbose = is_verbose()
    header = ["SKILL", "SCOPE", "STATUS"] + (["SOURCE"] if verbose else [])
    header += ["MANAGED", "AGENTS", "WHERE"]
    rows = [
        [e.name, e.scope, e.status]
        + ([layout.display(e.source_path)] if verbose else [])
        + ["yes" if e.managed else "no", ",".join(e.agents) or "-", _where(e, layout)]
        for e in result.skills
    ]
    echo_table(header, rows)
    if result.filtered > len(result.skills):
        click.echo(f"... ({result.filtered - len(result.skills)} more)")


def _where(entry: SkillEntry, layout: Layout) -> str:
    """Where a skill is: its first place (a store skill: its store folder), ``(+N)`` for the
    others."""
    if not entry.locations:
        return layout.display(entry.source_path)
    first = layout.display(entry.locations[0].path)
    more = len(entry.locations) - 1
    return f"{first} (+{more})" if more else first


def echo_table(header: list[str], rows: Sequence[list[str]]) -> None:
    """Columns padded to their widest cell as a terminal shows it (the last one is not
    padded: :func:`~skillc_index.columns.table_lines`); a name's control characters shown as
    escapes."""
    for line in table_lines([header, *[[printable(cell) for cell in row] for row in rows]]):
        click.echo(line)


_MODELS = {"claude": "Claude Code", "codex": "Codex"}
_LISTED: tuple[tuple[ShownState, str], ...] = (
    ("shortened", "with a shortened description"),
    ("omitted", "not listed at all"),
)


def _echo_budgets(
    folders: Sequence[FolderBudget], layout: Layout, pattern: str | None, limit: int | None
) -> None:
    """``list --budget``'s text: a heading and a table per agent folder, its rows the skills
    that match ``pattern``, at most ``limit`` of them (the heading prices the whole folder)."""
    from skillc_index.glob import name_match
    from skillc_index.listing.budget_result import suggestions

    if not folders:
        click.echo("No agent skills folders found.")
        return
    for number, folder in enumerate(folders):
        if number:
            click.echo()
        parts = folder.folders
        if folder.error is not None and len(parts) <= 1:
            where = f"{folder.agent} ({folder.scope}) {layout.display(folder.path)}"
            click.echo(f"{where}: cannot be listed ({folder.error})")
            continue
        share = folder.tokens * 100 // max(folder.budget_tokens, 1)
        count = len(folder.entries)
        where = f"{folder.agent} ({folder.scope}) {layout.display(folder.path)}"
        if len(parts) > 1:  # one listing of every folder the agent reads
            where = f"{folder.agent}, {len(parts)} folders"
        click.echo(
            f"{where}: {counted(count, 'skill')}, ~{folder.tokens:,} tokens of "
            f"{folder.budget_tokens:,} ({share}%)"
            + ("" if folder.model == "claude" else f", as {_MODELS[folder.model]} lists it")
        )
        for part, tokens in zip(parts, folder.part_tokens, strict=True) if len(parts) > 1 else ():
            what = (
                f"cannot be listed ({part.error})"
                if part.error is not None
                else f"{counted(part.skills, 'skill')}, ~{tokens:,} tokens"
            )
            click.echo(f"  ({part.scope}) {layout.display(part.path)}: {what}")
        rows = [
            [entry.name, f"{tokens:,}", entry.kind, folder.state(index).replace("-", " ")]
            for index, (entry, tokens) in enumerate(zip(folder.entries, folder.shares, strict=True))
            if pattern is None or name_match(entry.name, pattern)
        ]
        shown = rows if limit is None else rows[:limit]
        if shown:
            echo_table(["SKILL", "TOKENS", "KIND", "LISTED"], shown)
        if len(shown) < count:
            click.echo(f"... ({count - len(shown)} more)")
        for item in folder.shadowed:  # a personal skill of its name wins
            where, by = layout.display(item.path), layout.display(item.by)
            click.echo(printable(f"not listed: {where} (shadowed by {by})"))
        name_only = folder.named("name-only")
        if name_only:  # listed by name only (omitted ones: below)
            n = len(name_only)
            said = f"{counted(n, 'description')} dropped, the first dropped first: "
            click.echo(said + _some(name_only))
        for state, what in _LISTED:
            names = folder.named(state)
            if names:
                click.echo(f"{counted(len(names), 'skill')} {what}: " + _some(names))
        for suggestion in suggestions(folder):
            click.echo(f"suggestion: {printable(suggestion)}")


#: The most skill names a line of ``--budget``'s or ``--apply``'s text names (the table has
#: each skill's ``LISTED`` state, the JSON has them all).
_NAMED = 20


def _some(names: Sequence[str]) -> str:
    """``a, b, c``, at most :data:`_NAMED` of them, ``and N more`` past that."""
    shown = ", ".join(names[:_NAMED])
    more = len(names) - _NAMED
    return printable(shown if more <= 0 else f"{shown} and {more:,} more")


def _echo_overrides(plans: Sequence[OverridePlan], layout: Layout) -> None:
    """``--apply overrides``' text: per over-budget folder what was (or would be) set, where,
    and the listing's tokens before and after; or why nothing applies to it."""
    click.echo()
    if not plans:
        click.echo("Nothing to apply: every agent skills folder is within its budget.")
        return
    for plan in plans:
        where = f"{plan.agent} ({plan.scope}) {layout.display(plan.folder)}"
        if plan.removed and plan.settings is not None:
            n = len(plan.removed)
            verb = "would take" if plan.dry_run else "took"
            click.echo(
                printable(
                    f"{where}: {verb} out {n:,} name-only set by skc from "
                    f"{layout.display(plan.settings)}, their descriptions fitting now: "
                )
                + _some(plan.removed)
            )
        if plan.settings is None or not plan.names:
            if not plan.removed:
                click.echo(f"{where}: nothing applied: {plan.reason}")
            continue
        n = len(plan.names)
        verb = "would set" if plan.dry_run else "set"
        click.echo(
            printable(
                f"{where}: {verb} {counted(n, 'skill')} to name-only in "
                f"{layout.display(plan.settings)} (skillOverrides), the least used first: "
            )
            + _some(plan.names)
        )
        fits = plan.tokens_after <= plan.budget_tokens
        click.echo(
            f"  listing ~{plan.tokens:,} -> ~{plan.tokens_after:,} tokens of "
            f"{plan.budget_tokens:,} ({'within' if fits else 'still over'} the budget)"
        )
        if not fits:  # the folder's own route: a home one's is --global
            from skillc_index.route.place import install_command

            click.echo(
                "  the names (and the descriptions the user keeps) do not fit: "
                f"{install_command(plan.agent, plan.scope)} lists one router skill instead of "
                "every skill"
            )
        if plan.kept:
            click.echo("  left as the user set them: " + _some(plan.kept))


def _echo_reset(plans: Sequence[OverridePlan], layout: Layout) -> None:
    """``--apply overrides --reset``'s text: per settings file the entries skc set that were
    (or would be) taken out, and those the user changed since, left as they are."""
    click.echo()
    if not plans:
        click.echo(
            "Nothing to reset: skc recorded no skillOverrides entry it set here "
            "(~/.skillc/listing-overrides.json)."
        )
        return
    for plan in plans:
        assert plan.settings is not None  # every reset plan is a settings file's
        where = f"{plan.agent} ({plan.scope}) {layout.display(plan.folder)}"
        settings = layout.display(plan.settings)
        if plan.removed:
            n = len(plan.removed)
            verb = "would take" if plan.dry_run else "took"
            click.echo(
                printable(f"{where}: {verb} out {n:,} name-only set by skc from {settings}: ")
                + _some(plan.removed)
            )
        if plan.kept:
            click.echo(
                printable(f"{where}: left as the user changed them since in {settings}: ")
                + _some(plan.kept)
            )
