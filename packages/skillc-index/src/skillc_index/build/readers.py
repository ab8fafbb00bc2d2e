"""Which agents read the deployments one build makes (``skc build -t a,b,...``).

- Named targets whose agent folders are one real folder (``agents`` and ``codex`` share
  ``.agents/skills``; a ``.claude/skills`` that is a symlink to it) get one deployment there:
  :func:`one_per_folder` deploys it as the target whose dialect keeps the most fields
  (:func:`keeping_most`: Claude Code's copy keeps every field, which the other agents ignore),
  with the side files the others' dialects write (Codex's ``agents/openai.yaml``: a user-only
  skill stays user-only in Codex), and says, for each other target, what its agent misses
  there (a field its dialect writes, or writes otherwise: a description cut to its limit or
  with ``<``/``>`` rewritten; a side file; Codex refusing the skill) when the build deploys
  there anew. A copy's manifest records the others (``shared``): a build of any of
  them (the copy's targets join the folder's), a refresh (``copies``) and ``build --all``
  write it for them all again.
- An agent named that reads the skill through the folders of other targets deployed too
  (``AgentTarget.reads``: Copilot reads ``.claude/skills`` and ``.agents/skills``) lists it
  once per folder: :func:`read_twice` says so, naming the agent and the folders.
"""

from __future__ import annotations

import os
from collections.abc import Collection, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from skillc_index.diagnostics import Notice, SkillcError
from skillc_index.dialect import CODEX, codex_refusal
from skillc_index.layout import SKILL_FILE, Layout, Scope
from skillc_index.targets import KNOWN_TARGETS

if TYPE_CHECKING:
    from skillc_index.build.copies import Copy
    from skillc_index.build.deploy import DeployPlan
    from skillc_index.build.project import Projection

__all__ = ["claude_notices", "keeping_most", "one_per_folder", "read_twice"]

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
    """``codex (Codex)``; ``agents (Agent Skills)``: no parentheses within parentheses."""
    dialect = KNOWN_TARGETS[target].dialect if target in KNOWN_TARGETS else None
    return target if dialect is None else f"{target} ({dialect.agent.split(' (')[0]})"


def _quoted(fields: Sequence[str]) -> str:
    return ", ".join(f"'{field}'" for field in fields)


def _differences(
    name: str,
    read: Mapping[str, Any] | None,
    projections: Mapping[str, Projection],
    kept: str,
    skill: str,
) -> list[str]:
    """What matters to the agent of target ``name`` in the deployment made as target ``kept``
    (``projections``: the latter's given the others' side files; ``read``: the frontmatter
    it holds, None when it cannot be read): Codex refusing the skill
    (:func:`~skillc_index.dialect.codex_refusal`), a field its own dialect writes missing,
    a field of it held otherwise than its own dialect writes it (:func:`_written_otherwise`:
    the ``when_to_use`` text its dialect folds into the description, a description cut to
    its limit or with ``<``/``>`` rewritten...), a side file it needs missing or not as its
    own dialect writes it. Not a field it does not read."""
    other = projections.get(name)
    if other is None:  # no dialect (a folder, a [targets] entry): anything is its own
        return []
    said: list[str] = []
    dialect = KNOWN_TARGETS[name].dialect if name in KNOWN_TARGETS else None
    refusal = codex_refusal(read, skill) if dialect is CODEX and read is not None else None
    if refusal is not None:
        said.append(f"Codex refuses the skill: {refusal}")
    deployed = projections.get(kept)
    missing = (
        [] if deployed is None else [f for f in other.frontmatter if f not in deployed.frontmatter]
    )
    if missing:
        said.append(f"without {_quoted(missing)}")
    if read is not None and dialect is not None:
        reads = dialect.reads | dialect.shared
        said += _written_otherwise(other, read, reads, missing, refused=refusal is not None)
    written = {} if deployed is None else deployed.side_files
    for rel, text in other.side_files.items():
        if rel not in written:
            said.append(f"no {rel}")
        elif written[rel] != text:
            said.append(f"{rel} not as its own dialect writes it")
    return said


def _written_otherwise(
    other: Projection,
    read: Mapping[str, Any],
    reads: Collection[str],
    missing: Collection[str],
    *,
    refused: bool,
) -> list[str]:
    """Each change ``other`` (the projection of an agent's own dialect) makes to a field the
    agent reads (``reads``) that the deployment it reads (``read``: its frontmatter) does not
    hold: the one comparison of what each reader of a shared folder gets. A field folded into
    the description (``when_to_use``: the agent reads the description alone, so never the
    trigger phrases), moved under ``metadata``, cut to its limit, converted (``<`` and ``>``
    of a description, read as tags), dropped as a type it does not take; a field ``missing``
    there altogether is said apart, and a cut is left to Codex's refusal when ``refused``
    (it names the limit). Not a field the agent does not read, nor a side file."""
    unfolded: list[str] = []
    details: dict[str, list[str]] = {}
    for change in other.changes:
        if change.action == "side-file" or (refused and change.action == "cut"):
            continue
        key = {"folded": "description", "moved": "metadata"}.get(
            change.action, change.field.split(".", 1)[0]
        )
        if change.action == "dropped" and key not in reads:
            continue  # the agent ignores it
        if key in missing or read.get(key) == other.frontmatter.get(key):
            continue  # said as missing, or the deployment holds what its dialect writes
        if change.action == "folded":
            unfolded.append(change.field)
        else:
            details.setdefault(change.field, []).append(change.detail)
    said: list[str] = []
    if unfolded:  # the deployment holds the field apart, where this agent never reads it
        said.append(
            f"a description without the {_quoted(unfolded)} text its dialect folds in "
            "(put it in the description to reach both)"
        )
    said += [
        f"'{field}' not as its dialect writes it: {', '.join(texts)}"
        for field, texts in details.items()
    ]
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
    copies: Mapping[Path, Copy] | None = None,
    source: Path | None = None,
) -> tuple[list[str], dict[Path, list[str]], list[tuple[str, Notice]]]:
    """``targets`` ordered so that, of those sharing one real folder, the one deployed there
    (:func:`keeping_most`) comes first, where the first of them was
    (:func:`~skillc_index.build.deploy.plan_deployments` plans each folder once, for its
    first target, and records the others); its projection in ``projections`` is given the
    side files of the others that it does not write itself. A copy made before (``copies``,
    :func:`~skillc_index.build.copies.copy_deployments`) in the folder of a target given
    adds the targets its manifest records to that folder's (a build of one of them keeps it
    for the others); one in a folder of no target given is refreshed as the first of its
    targets (``refresh``: path -> its targets, ordered so). And, with the real folder it is
    about, a warning for each other target whose agent reads there what matters to it
    (:func:`_differences`; ``source``: the skill's folder, whose frontmatter a link holds),
    for the build to say when it deploys that folder anew."""
    groups = _groups(targets, scope, layout, configured)
    for path, held in (copies or {}).items():
        group = groups.get(os.path.realpath(path.parent))
        if group is not None and held.recorded:
            group += [(name, path.parent) for name in held.targets if name not in dict(group)]
    ordered: list[str] = []
    sharing: dict[str, Group] = {}
    for folder, group in groups.items():
        names = [target for target, _ in group]
        kept = keeping_most(names, projections)
        ordered += [kept, *(name for name in names if name != kept)]
        if len(group) > 1:
            sharing[folder] = [(kept, dict(group)[kept]), *(t for t in group if t[0] != kept)]
    refresh: dict[Path, list[str]] = {}
    for path, held in (copies or {}).items():
        kept = keeping_most(held.targets, projections)
        refresh[path] = [kept, *(name for name in held.targets if name != kept)]
        folder = os.path.realpath(path.parent)
        if len(held.targets) > 1 and folder not in groups:
            sharing[folder] = [(name, path.parent) for name in refresh[path]]
    notices: list[tuple[str, Notice]] = []
    for folder, group in sharing.items():
        _with_side_files([name for name, _ in group], projections)
        (kept, root), others = group[0], group[1:]
        deployed = projections.get(kept)
        read = deployed.frontmatter if deployed is not None else _frontmatter(source)
        for name, where in others:
            said = _differences(name, read, projections, kept, skill)
            if said:
                same = "" if where == root else f" ({layout.display(root)} is the same folder)"
                text = (
                    f"{_agent(name)} reads {layout.display(where / skill)}, deployed as "
                    f"{_agent(kept)} reads it{same}: {'; '.join(said)}"
                )
                notices.append((folder, Notice(text)))
    return ordered, refresh, notices


def _frontmatter(source: Path | None) -> Mapping[str, Any] | None:
    """The frontmatter of the skill in ``source`` as an agent loads it (a link to the
    runtime holds it as it is), or None."""
    from skillc_index.build.projections import source_frontmatter

    front = None if source is None else source_frontmatter(source)
    return None if front is None else front.data_12


def read_twice(
    named: Sequence[DeployPlan],
    plans: Sequence[DeployPlan],
    layout: Layout,
    scope: Scope,
    created: Collection[str],
) -> list[Notice]:
    """A warning for each built-in agent of the ``named`` targets' plans (the targets sharing
    a plan's folder too, :attr:`DeployPlan.shared`) that reads the skill in the folders of
    other ``plans`` too (``AgentTarget.reads``; the build's plans, a copy refreshed included):
    it lists the skill once per folder, each in the dialect written there. Said when the
    build created the deployment in one of those folders (``created``: their real paths), not
    again on each build after."""
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
                # the folder as documented: another agent knows no $CLAUDE_CONFIG_DIR
                base = layout.base(scope) if scope == "project" else layout.home
                folder = KNOWN_TARGETS[read].folder(scope, base, layout.home)
                if folder is None:
                    continue
                real = os.path.realpath(folder)
            except (ValueError, SkillcError):  # pragma: no cover - built-in targets resolve
                continue
            if real != own and real in folders:
                also.setdefault(real, folders[real])
        if also and any(folder in created for folder in (own, *also)):
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


def claude_notices(
    named: Sequence[DeployPlan],
    skill: str,
    source: Path,
    actions: Mapping[str, str],
    *,
    rebuilt: bool,
) -> list[Notice]:
    """The warnings of a deployment Claude Code loads (a ``claude``-dialect target of the
    ``named`` plans, or one sharing its folder), when it was made or changed (``actions``:
    by real folder) or its stub ``rebuilt`` (the source changed), so each is said once:
    ``skill``'s SKILL.md holds what Claude Code fills in when it loads the skill
    (``!`cmd```, ``$ARGUMENTS``: :func:`~skillc_index.markdown.preprocessing.claude_fills`),
    which the stub does not hold (nothing is run); its ``allowed-tools`` do not pre-approve
    the stub's ``skc`` commands (:func:`~.preprocessing.claude_allows_skc`): Claude Code
    asks before each. The frontmatter is the user's, never changed."""
    from skillc_index.dialect import CLAUDE_CODE

    claude = [
        plan
        for plan in named
        if any(
            name in KNOWN_TARGETS and KNOWN_TARGETS[name].dialect is CLAUDE_CODE
            for name in (plan.target, *plan.shared)
        )
        and (rebuilt or actions.get(os.path.realpath(plan.path.parent)) != "unchanged")
    ]
    if not claude:
        return []
    from skillc_index.files import open_in_root
    from skillc_index.markdown.frontmatter import parse_frontmatter
    from skillc_index.markdown.preprocessing import SKC_GRANT, claude_allows_skc, claude_fills
    from skillc_index.markdown.reading import read_parsed
    from skillc_index.text import split_lines

    try:
        with open_in_root(source, SKILL_FILE) as handle:
            text, _ = read_parsed(handle, count=False)
        front = parse_frontmatter(text)
    except (OSError, ValueError, SkillcError):
        return []
    data = front.data_12 if front.data else {}
    notices: list[Notice] = []
    fills = claude_fills(split_lines(text)[front.body_start - 1 :], data, front.body_start)
    if fills:
        commands = sum(fill.command for fill in fills)
        what = (
            "dynamic-context commands and argument placeholders"
            if commands and commands < len(fills)
            else "dynamic-context commands"
            if commands
            else "argument placeholders"
        )
        notices.append(
            Notice(
                f"Claude Code fills in the {what} of {skill}'s {SKILL_FILE} when it loads it "
                f"(line {fills[0].line}: {fills[0].form}), but the stub it loads holds none of "
                "them: they reach the model unfilled through skc show (nothing is run). To "
                "keep them, deploy this skill to Claude Code as its source (a plain copy in "
                "its skills folder)"
            )
        )
    if not claude_allows_skc(data.get("allowed-tools")):
        notices.append(
            Notice(
                f"{skill}'s allowed-tools do not pre-approve the stub's skc commands: Claude "
                f"Code asks before each one; add '{SKC_GRANT}' to allowed-tools in its "
                f"{SKILL_FILE} to let them run as the skill's own"
            )
        )
    return notices
