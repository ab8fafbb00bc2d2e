"""``skc stats`` (RFC-0003), made from its operation (:data:`skillc_stats.operations.STATS`):
the function here only prints the result as text. Module level imports only click, the
console conventions and the operation table; the reports load when the command runs.
"""

from __future__ import annotations

from typing import Any

import click

from skillc_index import printable
from skillc_index.console import Call, command
from skillc_index.helppage import Command
from skillc_stats.operations import STATS, StatsParams, StatsReport

#: The key of a context's ``meta`` that says ``stats`` was given no word before the one a
#: TAB completes.
_NO_WORDS = "skillc_stats.no_words"


class _SkillOrAll(Command):
    """The command line's own rule: SKILL or ``--all``, one of them (the Python API and the
    MCP tool take a skill left out for every skill; a person who forgets SKILL gets an
    error, not a report on every skill)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for param in self.params:  # a TAB on SKILL offers `prune` too (click's own hook)
            if param.name == "skill":
                param._custom_shell_complete = _prune_or_skill

    def make_context(
        self,
        info_name: str | None,
        args: list[str],
        parent: click.Context | None = None,
        **extra: Any,
    ) -> click.Context:
        """``stats prune ...``: the context of ``skc stats prune`` (retention), which a skill
        named ``prune`` leaves to ``skc stats ./prune``."""
        if args[:1] == ["prune"]:
            from skillc_stats.cli_prune import prune_command

            return prune_command.make_context(
                f"{info_name} prune", args[1:], parent=parent, **extra
            )
        bare = not args  # (click's parser empties the list)
        ctx = super().make_context(info_name, args, parent, **extra)
        ctx.meta[_NO_WORDS] = bare  # a TAB then offers `prune` (:func:`_prune_or_skill`)
        return ctx

    def invoke(self, ctx: click.Context) -> Any:
        if ctx.command is not self:  # stats prune
            return ctx.command.invoke(ctx)
        if ctx.params.get("skill") is None and not ctx.params.get("all_"):
            raise click.UsageError("missing SKILL (or --all)", ctx)
        return super().invoke(ctx)


def _prune_or_skill(ctx: click.Context, param: click.Parameter, incomplete: str) -> Any:
    """What a TAB offers for SKILL: ``prune`` when it is the first word after ``stats`` (as
    :meth:`_SkillOrAll.make_context` takes it), then the installed skills' names (``skc
    stats pr<TAB>``)."""
    from click.shell_completion import CompletionItem

    from skillc_index.console import complete_skill

    offered: list[CompletionItem] = complete_skill(ctx, param, incomplete)
    if ctx.meta.get(_NO_WORDS) and "prune".startswith(incomplete):
        offered.insert(0, CompletionItem("prune"))
    return offered


@command(STATS, cls=_SkillOrAll)
def stats_command(result: StatsReport, call: Call[StatsParams]) -> None:
    """Usage analytics.

    Counts how agents used SKILL, from the access log in its runtime
    (`.skillc-meta/logs.db`): a summary (the default: totals, top sections, sections never
    read, accesses by command), or accesses grouped by section, file, command, project
    (the working directory of the access), error (failed lookups) or search query. Filters
    apply before counting; a log without matching accesses is an empty result, not an error.

    With --all instead of SKILL: one line per installed skill (stores, agent skills
    folders, plugins) with its uses, projects and last use, the skills nobody used first.
    With --from: the same reports over the team store that `skc sync --to` fills, a skill
    being every skill of its name, of every user and machine (or those of --user, --machine).
    `skc stats prune --before TIME` deletes the rows older than TIME (retention; it takes
    --help).

    \b
    Examples:
      skc stats my-skill
      skc stats my-skill --group-by sections
      skc stats my-skill --group-by search --since 7d
      skc stats my-skill --since 2026-01-01 --until 2026-01-31T23:59:59Z
      skc stats my-skill --project ~/code/webapp --project ~/code/cli --format json
      skc stats --all --since 30d
      skc stats --all --from team --user alice
      skc stats my-skill --from postgresql://stats@db.example.com/skills --machine ci-1
    """
    from skillc_stats._report import stats_lines

    for line in stats_lines(result):
        click.echo(printable(line))  # sections and skill names come from the logs
