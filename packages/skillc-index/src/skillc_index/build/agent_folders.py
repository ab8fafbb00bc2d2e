"""The agent folders a skill's copies are looked for in (:class:`AgentFolders`): a scope's
deployment folders, or the parking folders of its routes, each resolved and listed once."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from skillc_index.layout import Layout, Scope

__all__ = ["AgentFolders"]


class AgentFolders:
    """The agent folders a scope deploys into (every built-in and ``configured`` target's,
    :meth:`Layout.target_root`), resolved once: a listing asks for each skill of the scope;
    or other folders given by name (:meth:`of_roots`). With ``listed``, each real folder's
    entries are read once (one listing: ``agents`` and ``codex`` share ``.agents/skills``),
    and a skill's copy is looked for only where an entry holds its name; without, one
    ``lstat`` per folder (a build asks for one skill)."""

    roots: dict[str, Path]

    def __init__(
        self,
        scope: Scope,
        layout: Layout,
        configured: Mapping[str, str] | None = None,
        *,
        listed: bool = False,
    ) -> None:
        from skillc_index.targets import agent_targets

        roots: dict[str, Path] = {}
        for target in agent_targets(configured):
            try:
                roots[target] = layout.target_root(target, scope, configured)
            except ValueError:  # a project scope with no project
                break
        self._use(roots, listed)

    @classmethod
    def of_roots(cls, roots: Mapping[str, Path], *, listed: bool = False) -> AgentFolders:
        """The folders ``roots`` (name -> folder) as given: the parking folders of a scope's
        routes (:func:`~skillc_index.route.place.parking_roots`: a deployment behind a
        router, by its agent)."""
        folders = cls.__new__(cls)
        folders._use(dict(roots), listed)
        return folders

    def _use(self, roots: dict[str, Path], listed: bool) -> None:
        self.roots = roots
        self._real: dict[str, str] = {}
        self._names: dict[str, frozenset[str]] | None = None  # by real folder
        if listed:
            self._names = {}
            for target, root in self.roots.items():
                real = self._real_root(target)
                if real not in self._names:
                    self._names[real] = _entries(root)

    def _real_root(self, target: str) -> str:
        """The real path of ``target``'s folder, resolved once."""
        real = self._real.get(target)
        if real is None:
            real = self._real[target] = os.path.realpath(self.roots[target])
        return real

    def sharing(self, folder: Path) -> tuple[str, ...]:
        """The targets whose folder is ``folder``, compared as real paths: ``agents`` and
        ``codex`` share ``.agents/skills``, and so does ``claude`` when ``.claude/skills`` is
        a symlink to it (every agent of them reads what is in it)."""
        real = os.path.realpath(folder)
        return tuple(target for target in self.roots if self._real_root(target) == real)

    def holding(self, name: str) -> dict[Path, tuple[str, ...]]:
        """``<folder>/<name>`` -> the targets whose folder that is, for the folders holding an
        entry ``name``: each real folder once, under its first target's path, with every
        target sharing it (``agents`` and ``codex`` share ``.agents/skills``, and so does
        ``claude`` when ``.claude/skills`` is a symlink to it)."""
        shared: dict[str, list[str]] = {}  # real folder -> the targets holding the entry
        for target, root in self.roots.items():
            if self._names is None and not os.path.lexists(root / name):
                continue  # an entry looked at before a folder is resolved (a build's one skill)
            real = self._real_root(target)
            if self._names is None or name in self._names[real]:
                shared.setdefault(real, []).append(target)
        return {self.roots[targets[0]] / name: tuple(targets) for targets in shared.values()}


def _entries(folder: Path) -> frozenset[str]:
    """The names in ``folder``; none when it cannot be read (no folder there)."""
    try:
        return frozenset(os.listdir(folder))  # noqa: PTH208
    except OSError:
        return frozenset()
