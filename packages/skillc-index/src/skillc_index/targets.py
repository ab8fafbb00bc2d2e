"""The agents' folders a build deploys to: :class:`AgentTarget` (a project folder and a home
folder), the built-in ones (:data:`KNOWN_TARGETS`, each with its agent's dialect) and those
a config's ``[targets]`` adds (:func:`agent_targets`). :mod:`skillc_index.layout` names
:data:`KNOWN_TARGETS` and :class:`AgentTarget` too (its documented API); the other names are
imported from here only.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from skillc_index.dialect import (
    AGENT_SKILLS,
    CLAUDE_CODE,
    CODEX,
    COPILOT,
    CURSOR,
    GEMINI,
    KIRO,
    OPENCODE,
    TRAE,
    Dialect,
)
from skillc_index.record import Record

if TYPE_CHECKING:
    from skillc_index.layout import Layout, Scope

__all__ = [
    "KNOWN_TARGETS",
    "AgentTarget",
    "agent_targets",
    "home_relative",
    "is_folder_target",
    "target_name_problem",
]


class AgentTarget(Record):
    """Where one agent reads skills: a folder relative to the project root (``None``: the
    agent reads none there) and one relative to the home folder. The skillc-index README's
    table "Agent folders" names the page of each agent's documentation that says so.
    ``dialect``: what the agent reads of a SKILL.md (:mod:`skillc_index.dialect`; the
    README's table "What each agent reads"); None for a folder named in the config, which
    gets the source's frontmatter as it is. ``reads``: the other built-in targets whose
    folders the agent reads too, as its documentation says (Copilot reads ``.claude/skills``
    and ``.agents/skills``): what ``skc list --agent`` counts as seen by it."""

    project: str | None
    home: str
    dialect: Dialect | None = None
    reads: tuple[str, ...] = ()
    own_home: str | None = None
    """A built-in agent whose home folder an environment variable moves (``claude``:
    ``$CLAUDE_CONFIG_DIR``, ``opencode``: ``$XDG_CONFIG_HOME``): its global folder is
    :func:`~skillc_index.inventory.folders.agent_home_folder`'s, where the agent reads."""

    @classmethod
    def parse(cls, spec: str) -> AgentTarget:
        """A ``[targets]`` value of the config (ADR-0002): ``~/x`` is a home folder only, an
        absolute path is that folder for both scopes, anything else hangs off the project
        root for project skills and off the home folder for global ones."""
        home = home_relative(spec)
        if home is not None:
            return cls(None, home)
        return cls(spec, spec)

    def folder(
        self, scope: Scope, project: Path, home: Path, layout: Layout | None = None
    ) -> Path | None:
        """The agent folder of ``scope`` (``project``: under ``project``; ``global``: under
        ``home``), or None when the agent has none there. With ``layout``, a global folder
        an environment variable moves (``own_home``) is where the agent reads it then
        (``$CLAUDE_CONFIG_DIR/skills``); without, the documented default (what another
        agent reading this one's folder reads: Copilot knows no ``$CLAUDE_CONFIG_DIR``)."""
        if scope == "global":
            if layout is not None and self.own_home is not None:
                from skillc_index.inventory.folders import agent_home_folder

                return agent_home_folder(self.own_home, layout)
            return home / self.home
        return None if self.project is None else project / self.project


#: Built-in deployment targets (DECISIONS "Paths and resolution"): each agent's project and
#: home folder, as its documentation says (the sources are in the skillc-index README), and
#: what its agent reads of a SKILL.md (its dialect; ``agents``: what all its readers accept).
#: ``agents`` is the cross-agent folder (Codex, Cursor, Gemini CLI, Copilot, OpenCode read it);
#: Codex documents no folder of its own any more.
KNOWN_TARGETS: dict[str, AgentTarget] = {
    "agents": AgentTarget(".agents/skills", ".agents/skills", AGENT_SKILLS),
    "claude": AgentTarget(".claude/skills", ".claude/skills", CLAUDE_CODE, own_home="claude"),
    "codex": AgentTarget(".agents/skills", ".agents/skills", CODEX),
    "copilot": AgentTarget(".github/skills", ".copilot/skills", COPILOT, ("claude", "agents")),
    "cursor": AgentTarget(".cursor/skills", ".cursor/skills", CURSOR, ("agents", "claude")),
    "gemini": AgentTarget(".gemini/skills", ".gemini/skills", GEMINI, ("agents",)),
    "kiro": AgentTarget(".kiro/skills", ".kiro/skills", KIRO),
    "opencode": AgentTarget(
        ".opencode/skills",
        ".config/opencode/skills",
        OPENCODE,
        ("claude", "agents"),
        own_home="opencode",
    ),
    "trae": AgentTarget(".trae/skills", ".trae/skills", TRAE),
}


def home_relative(spec: str) -> str | None:
    """What follows ``~/`` in a path of the config (``[targets]``, ``[libraries]``): a folder
    of the home folder, ``$SKILLC_HOME`` when set, as for every global path (DECISIONS);
    ``""`` for ``~`` itself; None for any other path (``~name`` is no home folder here)."""
    if spec == "~" or spec.startswith("~/"):
        return spec[2:]
    return None


def target_name_problem(name: str) -> str | None:
    """Why ``name``, a key of ``[targets]``, can name no target (``--target NAME``), or None:
    an empty name, one with spaces around it or a comma (``--target`` splits on commas and
    strips), a path separator (a target holding one is a folder path) or a control
    character (a NUL is in no file name)."""
    if not name or name != name.strip():
        return "is empty or has spaces around it"
    if "/" in name or os.sep in name:
        return "holds '/', which makes a target a folder path, never a name"
    if "," in name:
        return "holds ',', which separates target names"
    if any(ord(c) < 0x20 or ord(c) == 0x7F for c in name):
        return "holds a control character"
    return None


def agent_targets(configured: Mapping[str, str] | None = None) -> dict[str, AgentTarget]:
    """The built-in targets, with the config's ``[targets]`` adding or overriding names."""
    if not configured:
        return KNOWN_TARGETS
    return {**KNOWN_TARGETS, **{name: AgentTarget.parse(spec) for name, spec in configured.items()}}


def is_folder_target(target: str) -> bool:
    """Whether a deployment target (``--target``) is a folder path, not an agent's name: it
    holds a path separator (:meth:`Layout.target_root` reads it from the working folder)."""
    return "/" in target or os.sep in target
