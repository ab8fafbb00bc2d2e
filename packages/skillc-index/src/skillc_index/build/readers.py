"""Which agents read the deployments one build makes (``skc build -t a,b,...``).

- Named targets whose agent folders are one real folder (``agents`` and ``codex`` share
  ``.agents/skills``; a ``.claude/skills`` that is a symlink to it) get one deployment there:
  :func:`one_per_folder` deploys it as the target whose dialect keeps the most fields
  (:func:`keeping_most`: Claude Code's copy keeps every field, which the other agents ignore),
  with the side files the others' dialects write (Codex's ``agents/openai.yaml``: a user-only
  skill stays user-only in Codex), and says, for each other target, what its agent gets there
  that its own dialect would not have written. A copy's manifest records the others
  (``shared``): a refresh (``copies``) and ``build --all`` write it for them all again.
- An agent named that reads the skill through the folders of other targets deployed too
  (``AgentTarget.reads``: Copilot reads ``.claude/skills`` and ``.agents/skills``) lists it
  once per folder: :func:`read_twice` says so, naming the agent and the folders.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from skillc_index.diagnostics import Notice, SkillcError
from skillc_index.layout import KNOWN_TARGETS, Layout, Scope

if TYPE_CHECKING:
    from skillc_index.build.deploy import DeployPlan
    from skillc_index.build.project import Projection

__all__ = ["keeping_most", "one_per_folder", "read_twice"]

Group = list[tuple[str, Path]]
"""Named targets deploying into one real folder, each with its agent folder as resolved."""


def keeping_most(targets: Sequence[str], projections: Mapping[str, Projection]) -> str:
    """Of ``targets`` sharing one folder, the one whose projection keeps the most fields: the
    fewest dropped, then the fewest changed, Claude Code's first among equals, then the first
    given (a target with no dialect, a folder or a ``[targets]`` entry, changes nothing)."""

    def lost(target: str) -> tuple[int, int, bool]:
        changes = projections[target].changes if target in projections else ()
        dropped = sum(change.action == "dropped" for change in changes)
        return dropped, len(changes), target != "claude"

    return min(targets, key=lost)


def _groups(
    targets: Sequence[str], scope: Scope, layout: Layout, configured: Mapping[str, str] | None
) -> dict[str, Group]:
    """``targets`` grouped by the real folder they deploy into, in the order given. A target
    whose folder cannot be told (unknown: the plan says E100) is a group of its own."""
    groups: dict[str, Group] = {}
    for target in targets:
        try:
            root = layout.target_root(target, scope, configured)
        except (ValueError, SkillcError):
            groups[f"\0{target}"] = [(target, Path())]
            continue
        groups.setdefault(os.path.realpath(root), []).append((target, root))
    return groups


def _agent(target: str) -> str:
    dialect = KNOWN_TARGETS[target].dialect if target in KNOWN_TARGETS else None
    return target if dialect is None else f"{target} ({dialect.agent})"


def _quoted(fields: Sequence[str]) -> str:
    return ", ".join(f"'{field}'" for field in fields)


def _differences(
    other: Projection | None, kept: Projection | None, merged: Projection | None
) -> list[str]:
    """What the agent of the target projected as ``other`` gets in the deployment of the
    target projected as ``kept`` (``merged``: with the other targets' side files) that its own
    dialect would not have written (None: the source's frontmatter as it is)."""
    if other is None:  # no dialect (a folder, a [targets] entry): anything is its own
        return []
    if kept is None or merged is None:  # the source's frontmatter: what the agent reads
        if not other.changed:
            return []
        return ["the source's frontmatter as it is", *(f"no {rel}" for rel in other.side_files)]
    said: list[str] = []
    mine, theirs = other.frontmatter, kept.frontmatter
    if extra := [field for field in theirs if field not in mine]:
        said.append(f"with {_quoted(extra)}, which its own dialect leaves out")
    if missing := [field for field in mine if field not in theirs]:
        said.append(f"without {_quoted(missing)}")
    if changed := [field for field in mine if field in theirs and mine[field] != theirs[field]]:
        said.append(f"{_quoted(changed)} not as its own dialect writes it")
    for rel, text in other.side_files.items():
        if kept.side_files.get(rel) == text:
            continue
        done = merged.side_files.get(rel) == text
        said.append(f"{rel} {'written for it' if done else 'not as its own dialect writes it'}")
    return said


def _with_side_files(names: Sequence[str], projections: dict[str, Projection]) -> None:
    """The projection of ``names[0]``, deployed for all ``names``, given the side files of
    the others that it does not write itself (in ``projections``)."""
    projection = projections.get(names[0])
    if projection is None:  # no dialect: a link to the runtime
        return
    for name in names[1:]:
        other = projections.get(name)
        if other is not None:
            projection = projection._replace(
                side_files={**other.side_files, **projection.side_files}
            )
    projections[names[0]] = projection


def one_per_folder(
    targets: Sequence[str],
    projections: dict[str, Projection],
    *,
    skill: str,
    scope: Scope,
    layout: Layout,
    configured: Mapping[str, str] | None,
    copies: Mapping[Path, Sequence[str]] | None = None,
) -> tuple[list[str], dict[Path, list[str]], list[Notice]]:
    """``targets`` ordered so that, of those sharing one real folder, the one deployed there
    (:func:`keeping_most`) comes first, where the first of them was
    (:func:`~skillc_index.build.deploy.plan_deployments` plans each folder once, for its
    first target, and records the others); its projection in ``projections`` is given the
    side files of the others that it does not write itself. The same for each copy made
    before (``copies``: path -> the targets it may be refreshed as,
    :func:`~skillc_index.build.copies.copy_deployments`), in a folder of no target given:
    its targets, the one it is refreshed as first. And a warning for each other target given
    whose agent reads there what its own dialect would not have written."""
    ordered: list[str] = []
    notices: list[Notice] = []
    groups = _groups(targets, scope, layout, configured)
    for group in groups.values():
        names = [target for target, _ in group]
        kept = keeping_most(names, projections)
        ordered += [kept, *(name for name in names if name != kept)]
        if len(group) == 1:
            continue
        original = projections.get(kept)
        _with_side_files(ordered[-len(names) :], projections)
        roots = dict(group)
        for name in (name for name in names if name != kept):
            said = _differences(projections.get(name), original, projections.get(kept))
            if said:
                where = layout.display(roots[kept])
                same = "" if roots[name] == roots[kept] else f" ({where} is the same folder)"
                notices.append(
                    Notice(
                        f"{_agent(name)} reads {layout.display(roots[name] / skill)}, deployed "
                        f"as {_agent(kept)} reads it{same}: {'; '.join(said)}"
                    )
                )
    refresh: dict[Path, list[str]] = {}
    for path, held in (copies or {}).items():
        kept = keeping_most(held, projections)
        refresh[path] = [kept, *(name for name in held if name != kept)]
        if len(held) > 1 and os.path.realpath(path.parent) not in groups:
            _with_side_files(refresh[path], projections)
    return ordered, refresh, notices


def read_twice(
    named: Sequence[DeployPlan], plans: Sequence[DeployPlan], layout: Layout, scope: Scope
) -> list[Notice]:
    """A warning for each built-in agent of the ``named`` targets' plans (the targets sharing
    a plan's folder too, :attr:`DeployPlan.shared`) that reads the skill in the folders of
    other ``plans`` too (``AgentTarget.reads``; the build's plans, a copy refreshed included):
    it lists the skill once per folder, each in the dialect written there."""
    folders: dict[str, DeployPlan] = {}
    for plan in plans:
        folders.setdefault(os.path.realpath(plan.path.parent), plan)
    notices: list[Notice] = []
    readers = ((plan, agent) for plan in named for agent in (plan.target, *plan.shared))
    for plan, agent in readers:
        if agent not in KNOWN_TARGETS:
            continue
        own = os.path.realpath(plan.path.parent)
        also: dict[str, DeployPlan] = {}
        for read in KNOWN_TARGETS[agent].reads:
            try:
                real = os.path.realpath(layout.target_root(read, scope))
            except (ValueError, SkillcError):  # pragma: no cover - built-in targets resolve
                continue
            if real != own and real in folders:
                also.setdefault(real, folders[real])
        if also:
            shown = ", ".join(
                f"{layout.display(other.path)} ({other.target})" for other in also.values()
            )
            count = len(also) + 1
            notices.append(
                Notice(
                    f"{_agent(agent)} reads {plan.skill} in {shown} too: it lists the "
                    f"skill {count} times, each in the dialect written there"
                )
            )
    return notices
