"""Where ``skc_build`` may deploy when a model chooses the target (issue 13).

An agent name (``claude``, a ``[targets]`` key) is always accepted: it names an agent folder.
A folder path is accepted only when it is one of the agent folders (the built-in targets and
the ``[targets]`` of the home config, under the project and the home folder; a project's agent
folder only where its real path is in the project) or is in a folder the user allowed when
starting the server. The project's own config is not asked: a checkout
does not choose where the server writes.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from skillc_index import KNOWN_TARGETS, InvalidOption, load_config, parse_targets, within
from skillc_index.targets import is_folder_target
from skillc_index.text import NUL_REASON, nul_shown

if TYPE_CHECKING:
    from skillc_index import Layout


class TargetNotAllowed(InvalidOption):
    """E100: a ``skc_build`` target folder the server may not deploy to."""

    def __init__(self, target: str, agents: Iterable[str]) -> None:
        super().__init__(
            f"target '{nul_shown(target)}' is not an agent folder this server may deploy to; "
            f"name an agent ({', '.join(sorted(agents))}) or its folder (other folders need "
            "the user's permission when the server starts)",
            NUL_REASON if "\0" in target else "",
        )


def check_targets(layout: Layout, targets: Sequence[str], allowed: Sequence[str] = ()) -> None:
    """Raise :class:`TargetNotAllowed` for the first folder among ``targets`` (as
    ``skc_build`` takes them: comma-separated) that is neither an agent folder nor in one of
    ``allowed`` (canonical absolute folders)."""
    folders = [name for name in parse_targets(targets) if is_folder_target(name)]
    if not folders:
        return
    configured = dict(load_config(layout._replace(project_root=None)).targets)  # home only
    agents = {*KNOWN_TARGETS, *configured}
    known: set[str] = set()
    for scope in layout.scopes():
        for name in agents:
            real = os.path.realpath(layout.target_root(name, scope, configured))
            if _owned(real, layout, scope):
                known.add(real)
    for target in folders:
        folder = str(layout.target_root(target, "project"))  # a real path
        if folder not in known and not any(within(folder, base) for base in allowed):
            raise TargetNotAllowed(target, agents)


def _owned(folder: str, layout: Layout, scope: str) -> bool:
    """Whether an agent folder of ``scope`` really lies in its project (:func:`~skillc_index.
    inventory.folders.in_project`, as for what a model may read): a checkout's
    ``.gemini/skills -> /elsewhere`` does not make ``/elsewhere`` an agent folder. The home
    folder's links are the user's own."""
    from skillc_index.inventory.folders import in_project

    return scope != "project" or in_project(folder, layout)
