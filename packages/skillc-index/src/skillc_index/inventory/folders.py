"""Where installed skills are: the folders of the inventory, in the order names resolve.

1. the source stores (kind ``store``): the project's, then the global one;
2. the project's agent skills folders (kind ``agent``, or ``config`` for a ``[targets]`` name of
   the config that is no built-in agent): each agent's folder under the project root (the
   working directory outside projects), then the ``.agents/skills`` and ``.claude/skills``
   folders Codex and Claude Code read from the working directory up to the repository or
   project root (:func:`parent_folders`),
   then the ``.claude/skills`` folders Claude Code finds in the project's subfolders
   (:func:`~.nested.nested_folders`);
3. the home folder's agent skills folders, then Claude Code's ``$CLAUDE_CONFIG_DIR/skills``
   (:func:`claude_home_folders`) and Codex's ``$CODEX_HOME/skills`` (:func:`codex_home_folders`);
4. the ``skills`` folder of each installed Claude Code plugin that Claude Code loads, then the
   skills folders of each Codex plugin Codex loads (kind ``plugin``:
   :func:`~.plugins.plugin_folders`);
5. last, the system skills Codex bundles, ``$CODEX_HOME/skills/.system``
   (:func:`codex_system_folder`): Codex ranks them after the user's, so a bundled copy never
   takes a name over from a skill the user installed.

Each folder is a :class:`Root`. The skills of a store, an agent folder or a plugin are its
entries (what the agent reads: ``<folder>/<name>/SKILL.md``); only a folder given to ``skc find
--path`` (kind ``path``) is searched at every depth. One table (:data:`KNOWN_TARGETS`: each
agent's project and home folder) serves deploy targets, the inventory and ``skc list
--budget``. Codex's own folders (:data:`CODEX_FOLDER`, :func:`codex_home_folders`,
:func:`codex_system_folder`) are read, never deployed to: no target names them, so they are in
the inventory and ``list --budget`` (:func:`installed_folders`) and never where a build or a
route writes (``agent_folders(nested=False)``, the targets). Standard library only.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from skillc_index.layout import Layout, Scope
from skillc_index.record import Record
from skillc_index.targets import KNOWN_TARGETS, AgentTarget, agent_targets

if TYPE_CHECKING:
    from skillc_index.config import Config

__all__ = [
    "AGENT_VARIABLES",
    "CLAUDE_HOME_VARIABLE",
    "CODEX_FOLDER",
    "CODEX_HOME_VARIABLE",
    "MANAGED_SETTINGS_VARIABLE",
    "NESTED_AGENT",
    "PARENT_AGENT",
    "PARENT_AGENTS",
    "ROUTING_ROOTS_VARIABLE",
    "KnownRoots",
    "Root",
    "RootKind",
    "agent_folders",
    "agent_home_folder",
    "agent_variable",
    "check_write_place",
    "claude_home",
    "claude_home_folders",
    "codex_home",
    "codex_home_folders",
    "codex_system_folder",
    "folders_of_agent",
    "holds_home",
    "in_project",
    "installed_folders",
    "moved_home_folders",
    "opencode_home",
    "parent_folders",
    "routing_roots",
    "search_roots",
    "trusted_targets",
    "write_places",
]

RootKind = Literal["store", "agent", "config", "plugin", "path"]


class Root(Record):
    """A folder of installed skills (or, kind ``path``, one ``skc find --path`` searches)."""

    path: Path
    """Absolute, not resolved: the folder as the agent names it (it may not exist)."""
    kind: RootKind
    scope: Scope | None = None
    """``project`` or ``global``: where the folder is (a plugin: its install record's)."""
    agent: str | None = None
    """The agent that reads it: a target name (``claude``, ``agents``, a ``[targets]`` name);
    ``claude`` for a plugin's skills; None for a store or a ``path``."""
    plugin: str | None = None
    """A plugin's name (``name`` of its ``name@marketplace`` record): ``name:skill`` names
    its skills."""
    marketplace: str | None = None
    """A plugin's marketplace (``marketplace`` of its record): ``name@marketplace:skill``
    names its skills when another plugin has its name."""
    unloaded: str | None = None
    """A plugin Claude Code fails to load (its manifest is bad), and why: none of its
    entries is a skill (:func:`~.plugins.plugin_folders`)."""

    allowed: tuple[Path, ...] = ()
    """A ``path`` root a model gave (MCP ``path``): the folders it may read
    (:func:`~skillc_index.inventory.reads.model_folders`), where its linked entries must
    really lie (a project's deployed links into ``.skillc/runtime`` do); ``()``: ``skc find
    --path``'s, followed anywhere."""

    @property
    def confined_to(self) -> tuple[Path, ...]:
        """The folders its entries must really lie in (symlinks followed), else they are no
        skills of it: a plugin's own folder, its ``skills`` folder's parent (Agent Plugins
        §4.1: a skill that does not resolve within the plugin root is skipped); a ``path``
        root's :attr:`allowed`; ``()`` for the others (an agent folder's entries are links to
        the skills deployed there; a folder given on the command line is the user's)."""
        return (self.path.parent,) if self.kind == "plugin" else self.allowed

    def link_out(self, real: str) -> str:
        """Why its entry leading to ``real`` (out of :attr:`confined_to`) is skipped."""
        from skillc_index.layout import shown

        out = "the plugin" if self.kind == "plugin" else "the folders this server reads"
        return f"a link out of {out}, to {shown(real)}"

    @property
    def nested(self) -> bool:
        """Whether skills are searched below its entries (only a ``path`` root): a store, an
        agent folder or a plugin holds its skills as entries, as an agent reads them."""
        return self.kind == "path"


def trusted_targets(layout: Layout, config: Config) -> dict[str, str]:
    """The config's ``[targets]`` that the commands reading agent folders (``find``, ``list``,
    ``stats``, resolution) take: every one of the home config, and of the project's own
    ``config.toml`` only those whose folder is really inside the project. A checkout is
    somebody else's: its ``evil = "/"`` must not make every ``skc find`` walk the disk, as it
    may not make a build write there. Each entry's folder is the one its value names (a
    ``~/`` one is the home's, never inside the project), whatever its key says. A project's
    entry kept is its folder in the project, an absolute path: a relative value
    (``agents/claude``) names no folder of the home (it hung off the home folder too, and
    ``list`` read ``~/agents/claude``), as ``build`` refuses it there."""
    targets = dict(config.targets)
    project = layout.project_root
    untrusted = [name for name in config.project_targets if name in targets]
    if untrusted:
        from skillc_index.files import within  # only for a project that sets targets

        for name in untrusted:  # the folder a build of a project skill would deploy to
            spec = AgentTarget.parse(targets[name])
            root = None if project is None else spec.folder("project", project, layout.home)
            if root is None or project is None or not within(root, project):
                del targets[name]
            else:
                targets[name] = str(root)
    return targets


def project_base(layout: Layout) -> Path | None:
    """The folder project agent folders hang off: the skillc project root, else the working
    directory; None in the home folder (never a project: its folders are the home's)."""
    base = layout.project_root or layout.cwd
    return None if base == layout.home else base  # no stat: find runs this on every query


def check_project_write(path: Path, layout: Layout) -> None:
    """E012 (``PathEscapesProject``) when ``path``, in the project as written, leads out of
    it once its symlinks are followed: a project's files (a checkout's ``dist`` or agent
    folder entry that is a symlink) never direct a write outside the project (DECISIONS).
    A path outside the project as written is the user's own choice, and not checked."""
    from skillc_index.command_errors import PathEscapesProject
    from skillc_index.files import inside

    base = project_base(layout)
    if base is None or not inside(os.path.normpath(path), str(base)):
        return
    real = os.path.realpath(path)
    if not inside(real, os.path.realpath(base)):
        raise PathEscapesProject(layout.display(path), real)


def in_project(path: Path | str, layout: Layout) -> bool:
    """Whether ``path``, a folder of the project (its store, an agent folder of it), really
    lies (symlinks followed) in the project: below :func:`project_base` or the top of the
    folders agents read from the working directory up (:func:`parent_folders`: a
    repository's root above it). One that leads out of it is a link the checkout made
    (``.gemini/skills -> /elsewhere``): ``/elsewhere`` is no folder of the project's, where
    a model may read (:mod:`~skillc_index.inventory.reads`) or a server deploy. False
    outside projects (the home folder's links are the user's own)."""
    from skillc_index.files import inside, real_path

    base = project_base(layout)
    if base is None:
        return False
    real = real_path(path)
    # a repository's top above (none in `/`: nothing is walked up) only when its .git is the
    # user's: another local user's `/tmp/.git` makes no project of all of /tmp
    tops = {base, *(top for top in _walked_up(layout)[-1:] if _own_top(top, layout))}
    return any(inside(real, real_path(top)) for top in tops if not holds_home(top, layout))


def _own_top(top: Path, layout: Layout) -> bool:
    """Whether ``top``, the top of :func:`_walked_up`, is the skillc project's root or holds
    a ``.git`` of the user's own (its owner this process's user)."""
    if top == layout.project_root:
        return True
    try:
        return os.lstat(top / ".git").st_uid == os.getuid()
    except (OSError, AttributeError):  # (no .git: the working folder itself, the base)
        return False


def holds_home(folder: Path, layout: Layout) -> bool:
    """Whether ``folder`` is ``/`` or holds the user's home folder (``/home``): no project,
    whatever it holds (DECISIONS), for what a model may read (:mod:`~.reads`): a server
    that Claude Desktop or another client started in ``/`` read the whole disk as its
    working folder's. The home itself is the home, not this."""
    from skillc_index.files import real_path
    from skillc_index.homes import user_home

    real = Path(real_path(folder))
    home = Path(real_path(layout.own_home or user_home()))
    return real == real.parent or (home != real and home.is_relative_to(real))


def write_places(layout: Layout) -> tuple[Path, ...]:
    """Where a write that the project's files direct may land (DECISIONS): the project
    (:func:`project_base`) and the skillc home. A skill found by its name (in a store, an
    agent folder, a library of the config) may be written only there: a checkout's entry
    linked out of them directs no write; a folder the user names on the command line may."""
    base = project_base(layout)
    return (layout.home,) if base is None else (base, layout.home)


def check_write_place(path: Path, layout: Layout) -> None:
    """E012 (``PathEscapesProject``) when ``path`` really (symlinks followed) lies in none of
    the :func:`write_places`; E100 when it is in an installed Claude Code or Codex plugin's
    copy (:func:`~.plugins.check_not_plugin_copy`: the home is a write place, Claude Code's
    plugins folder and Codex's plugin cache are not)."""
    from skillc_index.command_errors import PathEscapesProject
    from skillc_index.files import within
    from skillc_index.inventory.plugins import check_not_plugin_copy

    check_not_plugin_copy(path, layout)

    if not any(within(path, place) for place in write_places(layout)):
        raise PathEscapesProject(layout.display(path), os.path.realpath(path))


def agent_folders(
    layout: Layout, configured: Mapping[str, str] | None = None, *, nested: bool = False
) -> tuple[Root, ...]:
    """Every known agent skills folder (:data:`KNOWN_TARGETS`), project ones first, each
    path once (under the first name that has it: ``agents`` and ``codex`` share one); with
    ``nested``, the folders agents read that are no target's too: after the project's own,
    the folders agents find around it: Codex's and
    Claude Code's between the working directory and the repository or project root
    (:func:`parent_folders`), then
    the nested Claude Code folders (:func:`~.nested.nested_folders`; in a project only: a skillc
    project's root or a repository's top); after the home's, Claude Code's and Codex's own
    (:func:`claude_home_folders`, :func:`codex_home_folders`; Codex's system skills come
    after the plugins, :func:`installed_folders`). Without ``nested``, the targets' folders
    alone: where builds and routes write.

    ``configured`` is the config's ``[targets]`` table: names there override or add to the
    built-in ones (ADR-0002; an added name's folders are of kind ``config``); a value
    starting with ``~`` is a home folder only.
    """
    table = agent_targets(configured)
    base = project_base(layout)
    seen: set[Path] = set()
    folders: list[Root] = []
    scopes: tuple[Scope, ...] = ("global",) if base is None else ("project", "global")
    for scope in scopes:
        for agent, target in table.items():
            path = target.folder(scope, base or layout.home, layout.home, layout)
            if path is not None and path not in seen:
                seen.add(path)
                kind: RootKind = "agent" if agent in KNOWN_TARGETS else "config"
                folders.append(Root(path, kind, scope, agent))
        around: tuple[Root, ...] = ()
        if scope == "project" and nested and base is not None:
            around = parent_folders(layout)
            if _walkable(base, layout):
                from skillc_index.inventory.nested import nested_roots

                around += nested_roots(layout, base)  # walked once for a command
        elif scope == "global" and nested:
            around = (
                *claude_home_folders(layout),
                *moved_home_folders(layout),
                *codex_home_folders(layout),
            )
        for root in around:
            if root.path not in seen:
                seen.add(root.path)
                folders.append(root)
    return tuple(folders)


def folders_of_agent(
    agent: str, layout: Layout, configured: Mapping[str, str] | None = None
) -> frozenset[Path]:
    """The skills folders ``agent`` reads (its project folder and its home folder, and those of
    the targets it reads too, ``AgentTarget.reads``): a folder shared by several agents
    (``agents``, ``codex``, ``cursor``... read ``.agents/skills``) is each one's, though the
    inventory names it after the first. E100 (:class:`UnknownTarget`) for a name
    that is neither a built-in agent nor a ``[targets]`` name of ``configured``."""
    table = agent_targets(configured)
    target = table.get(agent)
    if target is None:
        from skillc_index.option_errors import UnknownTarget

        raise UnknownTarget(agent, tuple(sorted(table)))
    base = project_base(layout)
    found: set[Path | None] = set()
    found.add(target.folder("global", layout.home, layout.home, layout))
    for read in (target, *(table[name] for name in target.reads)):
        if read is not target:  # another's folder as documented: no variable of it is read
            found.add(read.folder("global", layout.home, layout.home))
        if base is not None:
            found.add(read.folder("project", base, layout.home))
    return frozenset(path for path in found if path is not None)


# -- Claude Code's nested project folders ---------------------------------------------------

#: The agent that reads the skills folders of a project's subfolders: Claude Code finds
#: ``<subfolder>/.claude/skills`` when it works with files there (its skills documentation,
#: "Automatic discovery from nested directories"); the other agents read the project's own.
NESTED_AGENT = "claude"


def _walkable(base: Path, layout: Layout) -> bool:
    """Whether the project's subfolders are searched for nested agent folders: only in a
    project, a skillc project's root or a repository's top (a folder holding ``.git``), not
    in any working directory (``/``, where the find server runs, or a folder of checkouts)."""
    return base == layout.project_root or os.path.lexists(base / ".git")


#: The agent that reads ``.agents/skills`` in the working directory and in each folder above
#: it up to the repository root (Codex's skills documentation, "REPO" scope:
#: ``$CWD/.agents/skills``, ``$CWD/../.agents/skills``, ``$REPO_ROOT/.agents/skills``).
PARENT_AGENT = "codex"
#: The agents that read their project folder in the working directory and in each folder
#: above it up to the repository root: Codex, and Claude Code (its skills documentation,
#: "Automatic discovery from parent and nested directories": ``.claude/skills/`` "in your
#: starting directory and in every parent directory up to the repository root", quoted in
#: anthropics/claude-code#62237).
PARENT_AGENTS = (PARENT_AGENT, NESTED_AGENT)
#: Codex's own project folder, read, never deployed to (no target names it: ``codex``
#: deploys into ``.agents/skills``): Codex reads the ``skills`` folder of each ``.codex``
#: folder from the repository root to the working directory, its project config layers
#: (openai/codex ``codex-rs/core-skills/src/loader.rs``, ``skill_roots_from_layer_stack_inner``:
#: ``ConfigLayerSource::Project``, ``config_folder.join("skills")``, untrusted layers too).
CODEX_FOLDER = ".codex/skills"


def parent_folders(layout: Layout) -> tuple[Root, ...]:
    """The folders :data:`PARENT_AGENTS` read from the working directory up
    (``.agents/skills`` and :data:`CODEX_FOLDER` for Codex, ``.claude/skills`` for Claude
    Code), nearest first, as roots of their agent, scope ``project`` (whether they exist or
    not):
    the working directory's and each folder's above it up to the skillc project root or the
    repository root (the nearest folder holding ``.git``, a folder or a file), whichever comes
    first, that one included. Outside both, only the working directory's. The walk never
    reaches the home folder or a folder holding it (the home's folders are the global ones).
    No file is read: an ``lstat`` of ``.git`` a level, none at the project root (``find``
    runs this on every query)."""
    folders = _walked_up(layout)
    read = [(agent, KNOWN_TARGETS[agent].project) for agent in PARENT_AGENTS]
    read.insert(1, (PARENT_AGENT, CODEX_FOLDER))
    return tuple(
        Root(path / relative, "agent", "project", agent)
        for path in folders
        for agent, relative in read
        if relative is not None
    )


def _walked_up(layout: Layout) -> list[Path]:
    """The folders :func:`parent_folders` looks in, the working directory first: up to the
    skillc project root or the repository root, else the working directory alone."""
    folders: list[Path] = []
    folder = layout.cwd
    while folder != folder.parent and not layout.home.is_relative_to(folder):
        folders.append(folder)
        if folder == layout.project_root or os.path.lexists(folder / ".git"):
            return folders
        folder = folder.parent
    return folders[:1]  # neither a project nor a repository below the home


# -- the agents' own folders ---------------------------------------------------------------

#: The environment variable naming Codex's home folder (openai/codex
#: ``codex-rs/utils/home-dir``, ``find_codex_home``: when set and not empty; else ``~/.codex``).
CODEX_HOME_VARIABLE = "CODEX_HOME"
#: The environment variable naming Claude Code's folder (its settings, plugins, transcripts).
CLAUDE_HOME_VARIABLE = "CLAUDE_CONFIG_DIR"
#: The environment variable naming OpenCode's config base (``xdg-basedir``'s ``xdgConfig``:
#: OpenCode's global folder is ``$XDG_CONFIG_HOME/opencode``, else ``~/.config/opencode``).
OPENCODE_HOME_VARIABLE = "XDG_CONFIG_HOME"
#: The environment variable naming the Claude Code managed settings file skillc reads in
#: place of the platform's (``plugins.managed_settings_file``): for tests and admins.
MANAGED_SETTINGS_VARIABLE = "SKILLC_CLAUDE_MANAGED_SETTINGS"
#: The variables naming an agent's own folder or file, which ``Layout.discover(cwd, env)``
#: keeps (and a find server is sent: it reads the client's).
AGENT_VARIABLES = (
    CLAUDE_HOME_VARIABLE,
    CODEX_HOME_VARIABLE,
    OPENCODE_HOME_VARIABLE,
    MANAGED_SETTINGS_VARIABLE,
)


def agent_variable(layout: Layout, name: str, env: Mapping[str, str] | None = None) -> str | None:
    """The variable ``name`` of :data:`AGENT_VARIABLES`: ``env``'s, else the one the layout
    was discovered with (``Layout.discover(cwd, env)``: an embedder's ``env`` moves the
    agent's folder), else the process's."""
    if env is not None:
        return env.get(name)
    if layout.agent_env is not None:
        return dict(layout.agent_env).get(name)
    return os.environ.get(name)


def codex_home(layout: Layout, env: Mapping[str, str] | None = None) -> Path:
    """Codex's home folder: ``$CODEX_HOME`` (:func:`agent_variable`) when set and not empty
    (a relative one from the working directory, as Codex takes it), else ``.codex`` in the
    home folder (``$SKILLC_HOME`` when set, as for every agent folder)."""
    value = agent_variable(layout, CODEX_HOME_VARIABLE, env)
    return layout.cwd / value if value else layout.home / ".codex"


def codex_home_folders(layout: Layout) -> tuple[Root, ...]:
    """Codex's own user folder of its home (:func:`codex_home`), read, never deployed to (no
    target names it: builds and ``route install -t codex`` write ``~/.agents/skills``), as a
    root of the ``codex`` agent, scope ``global``: ``$CODEX_HOME/skills``, where ``npx skills
    add -g -a codex`` installs (vercel-labs/skills ``src/agents.ts``), which Codex still reads
    ("Deprecated user skills location (`$CODEX_HOME/skills`), kept for backward
    compatibility"). Its ``.``-named entries are no skills of it (Codex skips them too):
    ``.system`` is :func:`codex_system_folder`."""
    return (Root(codex_home(layout) / "skills", "agent", "global", PARENT_AGENT),)


def codex_system_folder(layout: Layout) -> Root:
    """``$CODEX_HOME/skills/.system``, the system skills Codex bundles and lists to the model
    like the others (openai/codex ``core-skills/src/loader.rs``,
    ``skill_roots_from_layer_stack_inner``; ``render.rs`` lists every scope), as a root of the
    ``codex`` agent, scope ``global``, read, never deployed to. Codex ranks it after the
    user's skills, so it is the last folder of :func:`installed_folders`: a bare name a
    plugin's skill has too (Codex bundles ``skill-creator``) resolves to the plugin's."""
    return Root(codex_home(layout) / "skills" / ".system", "agent", "global", PARENT_AGENT)


# -- Claude Code's own folder --------------------------------------------------------------


def claude_home(layout: Layout, env: Mapping[str, str] | None = None) -> Path:
    """Claude Code's own folder, where it keeps its user skills (:func:`claude_home_folders`),
    settings, plugins and transcripts: ``$CLAUDE_CONFIG_DIR`` when set and not empty (``~``
    expanded, a relative one from the working directory), else ``.claude`` in the home folder
    (``$SKILLC_HOME`` when set, as for every agent folder). The variable is
    :func:`agent_variable`'s. Every reader of those files asks it."""
    from skillc_index.layout import expand_user

    value = agent_variable(layout, CLAUDE_HOME_VARIABLE, env)
    return layout.cwd / expand_user(value) if value else layout.home / ".claude"


def claude_home_folders(layout: Layout) -> tuple[Root, ...]:
    """Claude Code's user skills folder, ``skills`` of :func:`claude_home`, as a root of the
    ``claude`` agent, scope ``global``: ``$CLAUDE_CONFIG_DIR/skills`` when the variable is
    set (Claude Code then reads its user skills there, not in ``~/.claude/skills``), the
    ``claude`` target's global folder (:func:`agent_home_folder`: builds deploy there)."""
    return (Root(claude_home(layout) / "skills", "agent", "global", NESTED_AGENT),)


def opencode_home(layout: Layout, env: Mapping[str, str] | None = None) -> Path:
    """OpenCode's global folder: ``opencode`` in ``$XDG_CONFIG_HOME`` (:func:`agent_variable`)
    when set and not empty (anomalyco/opencode ``src/global``, through ``xdg-basedir``; a
    relative one from the working directory), else ``.config/opencode`` in the home folder
    (``$SKILLC_HOME`` when set, as for every agent folder)."""
    value = agent_variable(layout, OPENCODE_HOME_VARIABLE, env)
    return (layout.cwd / value if value else layout.home / ".config") / "opencode"


def agent_home_folder(agent: str, layout: Layout) -> Path:
    """The global skills folder of ``agent``, a built-in target whose home an environment
    variable moves (``AgentTarget.own_home``): ``claude``'s is ``skills`` of
    :func:`claude_home`, ``opencode``'s ``skills`` of :func:`opencode_home`. Builds and
    routes deploy there and the inventory reads it, so both name the folder the agent reads.
    Under ``$SKILLC_HOME`` (the home of every global path, agent folders included:
    DECISIONS), a folder the variable leads out of it is not followed: the home's own."""
    opencode = agent == "opencode"
    folder = (opencode_home(layout) if opencode else claude_home(layout)) / "skills"
    default = layout.home / (".config/opencode" if opencode else ".claude") / "skills"
    own = layout.own_home
    if folder != default and own is not None and layout.home != own:  # moved, $SKILLC_HOME set
        from skillc_index.files import inside

        if not inside(str(folder), str(layout.home)):  # as written: no file looked at
            return default
    return folder


def moved_home_folders(layout: Layout) -> tuple[Root, ...]:
    """The documented global folders (``~/.claude/skills``, ``~/.config/opencode/skills``)
    of the agents whose folder an environment variable moved elsewhere, still read so a
    skill deployed there before (or put there by hand) is listed: as a root of the first
    agent that reads it as another's folder (Copilot, Cursor and OpenCode read
    ``~/.claude/skills`` whatever ``$CLAUDE_CONFIG_DIR`` says), never of the moved agent,
    which does not read it; of no agent when none does. None when nothing moved."""
    roots: list[Root] = []
    for agent, target in KNOWN_TARGETS.items():
        if target.own_home is None:
            continue
        default = target.folder("global", layout.home, layout.home)
        moved = target.folder("global", layout.home, layout.home, layout)
        if default is not None and (  # as written first: a real path only when they differ
            moved is None
            or (default != moved and os.path.realpath(default) != os.path.realpath(moved))
        ):
            reader = next((name for name, t in KNOWN_TARGETS.items() if agent in t.reads), None)
            roots.append(Root(default, "agent", "global", reader))
    return tuple(roots)


# -- the inventory's folders, in resolution order -------------------------------------------

#: The environment variable holding the default of ``skc find --path``: folders separated
#: by ``os.pathsep`` (the skill-routing benchmark sets it to its library folders).
ROUTING_ROOTS_VARIABLE = "SKILL_ROUTING_ROOTS"


def installed_folders(
    layout: Layout,
    configured: Mapping[str, str] | None = None,
    plugins: Sequence[Root] | None = None,
) -> tuple[Root, ...]:
    """The folders of installed skills past the stores, in the order names resolve (the
    module's list, 2 to 5): the agent folders (the project's, its nested Claude Code folders,
    the home's; ``configured`` being the config's ``[targets]``), the skills folders of the
    installed Claude Code and Codex plugins (``plugins`` when the caller has them already), then
    Codex's system skills (:func:`codex_system_folder`)."""
    if plugins is None:
        from skillc_index.inventory.plugins import plugin_folders

        plugins = plugin_folders(layout)
    folders = (*agent_folders(layout, configured, nested=True), *plugins)
    system = codex_system_folder(layout)
    return folders if any(root.path == system.path for root in folders) else (*folders, system)


def search_roots(layout: Layout, configured: Mapping[str, str] | None = None) -> tuple[Root, ...]:
    """Every folder of installed skills, in the order names resolve (the module's list): the
    project and global stores, then :func:`installed_folders`; each path once."""
    roots = [Root(layout.store(scope), "store", scope) for scope in layout.scopes()]
    roots += installed_folders(layout, configured)
    seen: set[Path] = set()
    unique: list[Root] = []
    for root in roots:
        if root.path not in seen:
            seen.add(root.path)
            unique.append(root)
    return tuple(unique)


def routing_roots(env: Mapping[str, str] | None = None) -> tuple[str, ...]:
    """The folders of ``$SKILL_ROUTING_ROOTS`` (``os.pathsep``-separated, empty parts
    dropped); ``()`` when it is unset or empty."""
    value = (os.environ if env is None else env).get(ROUTING_ROOTS_VARIABLE, "")
    return tuple(part for part in value.split(os.pathsep) if part)


class KnownRoots:
    """The folders of installed skills (:func:`search_roots`), built once for a command:
    :meth:`get`, the one a folder given to ``find --path`` really is (a symlinked alias, a
    home reached through a link), resolving only what it must (a warm find: nothing)."""

    def __init__(self, layout: Layout, configured: Mapping[str, str] | None) -> None:
        self.roots = search_roots(layout, configured)
        self._named: dict[str, Root] = {}
        for root in self.roots:  # the first of two that are one folder
            self._named.setdefault(str(root.path), root)
        self._real: dict[str, Root] | None = None

    def get(self, path: Path, link: bool) -> Root | None:
        """The known folder ``path`` (absolute; ``link``: a symlink) really is, else None."""
        named = str(path)
        if named in self._named:
            return self._named[named]
        # (really one only when its name is a known folder's, or it is a symlink itself)
        if not any(root.path.name == path.name for root in self.roots) and not link:
            return None
        real = os.path.realpath(named)
        if real in self._named:
            return self._named[real]
        if self._real is None:
            self._real = {}
            for root in self.roots:
                self._real.setdefault(os.path.realpath(root.path), root)
        return self._real.get(real)
