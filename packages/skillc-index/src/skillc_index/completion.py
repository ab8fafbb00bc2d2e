"""Shell completion of skill names: what a shell's TAB offers for a parameter that names a
skill (``skc show <TAB>``), through click's own completion (``_SKC_COMPLETE=bash_source skc``
prints the script a shell sources; the skillc README says how for bash, zsh and fish).

The names are those of every installed skill as the read commands take them
(:func:`~skillc_index.inventory.resolve.skill_names`: ``plugin:skill`` for a plugin's), the
set ``skc list`` shows. A word that looks like a path (it holds ``/`` or starts with ``.`` or
``~``) is left to the shell's own file completion. Completion never fails the shell: any
error leaves nothing offered and nothing on the terminal (the listing's warnings are a
command's to print, and no command runs). Imported only when a shell asks.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import click
    from click.shell_completion import CompletionItem

#: At most this many names are offered (a home with thousands of skills and an empty word).
MAX_NAMES = 2000


def skill_completions(
    ctx: click.Context, param: click.Parameter, incomplete: str
) -> list[CompletionItem]:
    """The installed skills whose name starts with ``incomplete`` (case-sensitive, as names
    resolve), sorted; a path-like word completes as a path (``type="file"``)."""
    from click.shell_completion import CompletionItem

    if incomplete.startswith((".", "~")) or "/" in incomplete:
        return [CompletionItem(incomplete, type="file")]
    try:
        names = _installed_names()
    except Exception:  # a TAB press never prints a traceback or an error
        return []
    matching = sorted(name for name in names if name.startswith(incomplete))
    return [CompletionItem(name) for name in matching[:MAX_NAMES]]


def _installed_names() -> set[str]:
    from skillc_index.config import load_config
    from skillc_index.inventory.entries import installed_skills
    from skillc_index.inventory.folders import trusted_targets
    from skillc_index.inventory.resolve import skill_names
    from skillc_index.layout import Layout

    layout = Layout.discover()
    inventory = installed_skills(layout, trusted_targets(layout, load_config(layout)))
    return set(skill_names(inventory.skills))
