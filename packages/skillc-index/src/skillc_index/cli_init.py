"""``skc init`` (RFC-0006:C-INIT), made from its operation
(:data:`skillc_index.operations.INIT`): the function here only prints the result as text.
Module level imports only click, the console conventions and the operation table; the work
loads when the command runs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from skillc_index.console import Call, command
from skillc_index.operations import INIT, InitParams

if TYPE_CHECKING:
    from skillc_index.build.scaffold import InitResult


@command(INIT)
def init_command(result: InitResult, call: Call[InitParams]) -> None:
    """Initialize project or create skill.

    Without NAME, create `.skillc/skills/` in the current folder (safe to repeat). With NAME,
    create `.skillc/skills/NAME/SKILL.md` in the project (or, with --global, in
    `~/.skillc/skills/`), from a minimal template. An existing SKILL.md is never overwritten.
    A new project's `.gitignore` gets `.skillc/runtime/`, `.skillc/logs/` and, in a git work
    tree, `.claude/skills/` (where builds put symlinks), each only where git tracks nothing in
    it (`.claude/skills/` only where it holds no skill but skillc's deployments).

    \b
    Examples:
      skc init                   # make this folder a skillc project
      skc init my-skill          # .skillc/skills/my-skill/SKILL.md
      skc init my-skill --global # ~/.skillc/skills/my-skill/SKILL.md
    """
    layout = call.session.layout
    if result.kind == "project":
        where = layout.display(result.path.parent)
        if result.created:
            click.echo(
                f"Initialized skillc project: {where}/ (skill sources go in {where}/skills/)"
            )
        else:
            click.echo(f"skillc project already initialized: {where}/")
    elif result.kind == "global":
        where = layout.display(result.path)
        click.echo(
            f"This is the skillc home, not a project: its store {where}/ is the global store "
            f"({'created' if result.created else 'already there'}); run 'skc init' in a "
            "project folder to make a project"
        )
    else:
        click.echo(
            f"Created {result.scope} skill '{call.params.name}': "
            f"{layout.display(result.path)}/SKILL.md"
        )
    if result.gitignore:
        click.echo(f"Added to .gitignore: {', '.join(result.gitignore)}")
