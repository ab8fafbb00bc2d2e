"""What is installed: the agent skills folders skillc knows, project and home.

One table for deploy targets, ``skc find`` (which skills an agent may be given) and
``skc list --budget`` (what an agent's skill listing costs). Public module: the gateway's
catalog and skillc-index's listing both read it. Standard library only.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import NamedTuple

from skillc_index._layout import KNOWN_TARGETS, Layout, Scope

__all__ = ["AGENT_FOLDERS", "AgentFolder", "agent_folders"]

#: Agent skills folders that are not deploy targets of their own: ``.agents/skills`` is the
#: cross-agent folder (Codex, Cursor, Copilot, Gemini CLI and others read it).
AGENT_FOLDERS: dict[str, str] = {"agents": ".agents/skills", **KNOWN_TARGETS}


class AgentFolder(NamedTuple):
    """One agent skills folder: ``<project root or working directory>/<rel>`` (scope
    ``project``) or ``<home>/<rel>`` (scope ``global``)."""

    agent: str
    """The target name (``claude``, ``agents``, a ``[targets]`` name from config)."""
    scope: Scope
    path: Path
    """Absolute, not resolved: the folder as the agent names it (it may not exist)."""


def agent_folders(
    layout: Layout, configured: Mapping[str, str] | None = None
) -> tuple[AgentFolder, ...]:
    """Every known agent skills folder, project ones first, each path once.

    The project base is the skillc project root, else the working directory. ``configured``
    is the config's ``[targets]`` table: names there override or add to the built-in ones
    (ADR-0002); a value starting with ``~`` is a home folder only.
    """
    table = {**AGENT_FOLDERS, **(configured or {})}
    project_base = layout.project_root or layout.cwd
    seen: set[Path] = set()
    folders: list[AgentFolder] = []
    for scope, base in (("project", project_base), ("global", layout.home)):
        for agent, spec in table.items():
            if spec == "~" or spec.startswith("~/"):
                if scope == "project":
                    continue
                path = layout.home / spec[2:]
            else:
                relative = Path(spec)
                path = relative if relative.is_absolute() else base / relative
            if path not in seen:
                seen.add(path)
                folders.append(AgentFolder(agent, scope, path))  # type: ignore[arg-type]
    return tuple(folders)
