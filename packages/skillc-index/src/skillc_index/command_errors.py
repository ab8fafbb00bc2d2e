"""The errors of the commands that write (``init``, ``build`` and its deployments, imports,
``route``) and of a skill's frontmatter: typed exceptions of the RFC-0005 registry, as in
:mod:`skillc_index.diagnostics`, which holds the registry, the base classes and the errors of
finding and reading a skill. The usage logs' errors (``stats``, ``sync``: E030, E031,
E040-E044) are :mod:`skillc_index.accesslog.errors`', a tool's (``run``)
:mod:`skillc_index.tools.errors`', imported from there only.

A module of their own: the commands agents run many times a session (``skc show``, ``skc
search``, the MCP server's calls) define none of these classes, and a class costs about as
much to define as a record (bench/RESULTS.md, issue 32). Import them from here, or from
``skillc_index``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from skillc_index.diagnostics import (
    Diagnostic,
    InternalError,
    PathEscapesRoot,
    SkillcError,
    SkillNotFound,
    _hint,
)
from skillc_index.option_errors import InvalidOption, WordedOption
from skillc_index.spelling import PARAMETER_NAMES, Spelling

if TYPE_CHECKING:
    from collections.abc import Sequence
    from pathlib import Path

    from skillc_index._git import GitUnanswered
    from skillc_index.walk import SkillFolders

__all__ = [
    "CannotCreate",
    "CannotWrite",
    "CompiledSkillGiven",
    "EmptyTargetName",
    "FolderNotWritable",
    "ForeignFile",
    "ForeignFolder",
    "ForeignHome",
    "GitCannotTell",
    "ImportRefused",
    "InstalledPluginCopy",
    "InvalidSkillName",
    "MissingFrontmatterField",
    "NameInSeveralFolders",
    "NoSkillBeforeCut",
    "NoSkillGiven",
    "PackageRefused",
    "PathEscapesProject",
    "RuntimeEntryInTheWay",
    "RuntimeNotAFolder",
    "SkillExists",
    "SkillNotInStores",
    "StoreCopyDiffers",
    "TargetInsideSkill",
    "TargetOutsideProject",
    "TrackedDestination",
]


class MissingFrontmatterField(SkillcError):
    """E011; ``cause``: why the field could not be read when the frontmatter itself is
    invalid (its YAML error), printed as the hint line."""

    code = "E011"

    def __init__(self, field_name: str, cause: str | None = None) -> None:
        super().__init__(Diagnostic(self.code, {"field": field_name}, _hint(cause or "")))
        self.field = field_name
        self.cause = cause


class _Worded(SkillcError):
    """An error of a ``<message>`` code (E031, E100) whose message names a parameter of the
    command or another command: :meth:`worded` writes the message for a :class:`Spelling`."""

    def worded(self, spelling: Spelling) -> str:
        raise NotImplementedError

    def spelled(self, spelling: Spelling) -> Diagnostic:
        return self.diagnostic._replace(params={"message": self.worded(spelling)})


def written_by_newer(what: str, found: object, reads: object, tool: str = "skillc") -> str:
    """Why a file a newer version of ``tool`` wrote is left as it is: ``written by a newer
    skillc (<what> <found>; this skillc reads <reads>): upgrade skillc``. The one wording of
    every such file (an access log, the listing overrides' record, a route manifest, a lint
    baseline): never rewritten to this version's format, nor removed. When the newer version
    is the one installed and this process is older (started before an upgrade), it says to
    restart the process instead (:func:`~skillc_index.installed.stale_process`)."""
    from skillc_index.installed import stale_process

    remedy = stale_process(tool) or f"upgrade {tool}"
    return f"written by a newer {tool} ({what} {found}; this {tool} reads {reads}): {remedy}"


class SkillExists(SkillcError):
    """E050; ``hint`` says what is there, ``force_does`` what the command would do with its
    ``force`` parameter (each front end names that parameter its own way: :meth:`spelled`)."""

    code = "E050"

    def __init__(self, skill: str, hint: str = "", force_does: str = "") -> None:
        self.skill = skill
        self.hint = hint
        self.force_does = force_does
        super().__init__(self.spelled(PARAMETER_NAMES))

    def spelled(self, spelling: Spelling) -> Diagnostic:
        hint = self.hint
        if self.force_does:
            use = f"use {spelling.option('force')} to {self.force_does}"
            hint = f"{hint}; {use}" if hint else use
        return Diagnostic(self.code, {"skill": self.skill}, _hint(hint))


class ForeignFolder(SkillExists):
    """E050: a deployment would replace ``path``, a folder skillc did not make; with
    ``force_does`` when ``force`` would move it aside (empty once ``force`` was given)."""

    def __init__(self, skill: str, path: str, force_does: str = "") -> None:
        super().__init__(skill, f"{path} exists and was not made by skillc", force_does)
        self.path = path


class ForeignFile(SkillExists):
    """E050 naming the file: writing a file that is no skill (the page of ``skc stats --html``)
    would replace ``path``, which skillc did not write (``hint``: what is there); with
    ``force_does`` when ``force`` would move it aside (empty once ``force`` was given)."""

    def __init__(self, path: str, hint: str, force_does: str = "") -> None:
        self.path = path
        super().__init__(path, hint, force_does)

    def spelled(self, spelling: Spelling) -> Diagnostic:
        return Diagnostic(self.code, {"path": self.path}, super().spelled(spelling).detail)


class TrackedDestination(SkillExists):
    """E050: a deployment would replace ``path``, which git tracks (a source of the
    project): refused whatever ``force`` says."""

    def __init__(self, skill: str, path: str) -> None:
        hint = (
            f"git tracks {path}: a deployment never replaces the project's sources; deploy "
            "to another target, or remove it from git first"
        )
        super().__init__(skill, hint)
        self.path = path


class GitCannotTell(SkillExists):
    """E050: a deployment or ``route install`` would replace or move ``path``, and git cannot
    say whether it tracks it (:class:`~skillc_index._git.GitUnanswered`: a checkout of another
    user, git not on ``PATH``): refused whatever ``force`` says, as if git tracked it (fail
    closed), worded ``cannot ask git whether it tracks <path>: <reason>; <what to do>``."""

    def __init__(self, skill: str, path: str, unanswered: GitUnanswered) -> None:
        super().__init__(skill, unanswered.asking(f"whether it tracks {path}"))
        self.path = path


class DeploysOverOrigin(SkillExists):
    """E050: a deployment would replace ``path``, the very folder the build imports (an agent
    folder's own skill built by its path or name): refused whatever ``force`` says, as a store
    copy whose origin is its own deployment could never be built again. The hint names
    ``route install`` (with ``global`` when ``global_``) and the ``target`` parameter as the
    front end spells them."""

    def __init__(self, skill: str, path: str, global_: bool) -> None:
        self.path = path
        self.global_ = global_
        super().__init__(skill)

    def spelled(self, spelling: Spelling) -> Diagnostic:
        route = spelling.command("route install", "global" if self.global_ else "")
        hint = (
            f"{self.path} is the folder being built: a deployment there would replace its own "
            f"source; {route} moves the agent folder's skills into the store and builds them, "
            f"or deploy to another target ({spelling.option('target')})"
        )
        return Diagnostic(self.code, {"skill": self.skill}, _hint(hint))


class StoreCopyDiffers(SkillExists):
    """E050: importing ``origin`` would replace a different store copy at ``destination``
    (``which`` says how it differs: ``an edited``, ``a different (imported from ...)``)."""

    def __init__(self, skill: str, scope: str, which: str, destination: str, origin: str) -> None:
        hint = f"the {scope} store already holds {which} '{skill}' ({destination})"
        super().__init__(skill, hint, f"move it aside and import {origin}")
        self.destination = destination
        self.origin = origin


class InvalidSkillName(InvalidOption):
    """E100 for a name ``skc init`` would refuse, wherever a skill gets its name (``init``,
    importing a folder)."""

    def __init__(self, name: str, problem: str) -> None:
        from skillc_index.deceptive import look_alikes_named
        from skillc_index.layout import shown

        named = look_alikes_named(name)  # 'рdf' looks all lowercase: its 'р' is named
        super().__init__(f"invalid skill name '{shown(name)}': {problem}{named}")
        self.name = name


class SkillNotInStores(SkillNotFound):
    """E001 for a bare name that only a folder of the working directory matches, where names
    are looked up in the stores only (``run``): the hint says how to name the folder."""

    def __init__(self, skill: str, folder: str) -> None:
        hint = f"hint: names are looked up in the stores only here; write '{folder}' for the folder"
        SkillcError.__init__(self, Diagnostic(self.code, {"skill": skill}, hint))
        self.skill = skill


class EmptyTargetName(_Worded, InvalidOption):
    """E100: an empty name in a comma-separated ``target`` value (``claude,,codex``)."""

    def __init__(self, value: str) -> None:
        self.value = value
        super().__init__(self.worded(PARAMETER_NAMES))

    def worded(self, spelling: Spelling) -> str:
        return f"{spelling.option('target')} '{self.value}' holds an empty target name"


class TargetInsideSkill(InvalidOption):
    """E100: a target that would deploy into the skill's own source or runtime folder."""

    def __init__(self, target: str, path: str) -> None:
        super().__init__(f"target '{target}' would deploy into the skill's own folder ({path})")
        self.target = target
        self.path = path


class ProjectInSkill(InvalidOption):
    """E100: ``init`` would make a project inside a skill's folder (a global store skill, a
    runtime, an agent folder's skill) or inside the skillc home's ``.skillc/``: ``inside``
    says which; ``name``, the skill ``init NAME`` was to create."""

    def __init__(self, inside: str, name: str | None = None) -> None:
        command = "skc init" if name is None else f"skc init {name}"
        also = "" if name is None else f", or '{command} --global' for a global skill"
        super().__init__(
            f"the working directory is in {inside}: no place for a project",
            f"run '{command}' in a project's folder{also}",
        )
        self.inside = inside


class CompiledSkillGiven(InvalidOption):
    """E100: a compiled runtime (or an agent folder linking to one) given to build as a
    source."""

    def __init__(self, given: str, gone: str | None = None, hint: str = "") -> None:
        if gone is None:
            super().__init__(
                f"the skill '{given}' is compiled (a skillc runtime): build its source instead"
            )
        else:  # its store skill was renamed or deleted: nothing to build
            super().__init__(
                f"the skill '{given}' is compiled (a skillc runtime) and its source {gone} "
                "is gone: there is nothing to build",
                hint,
            )
        self.given = given


class FolderNotUtf8(InvalidOption):
    """E100: a skill folder whose name is not UTF-8 given to ``build`` (``route``, ``eval``): its
    manifest, index and log cannot hold the name, and ``list`` skips it, so it is refused
    before anything is written."""

    def __init__(self, given: str) -> None:
        from skillc_index.files import NOT_UTF8

        super().__init__(f"{given}: {NOT_UTF8}; rename the folder")
        self.given = given


class NoSkillGiven(InvalidOption):
    """E100: a command that defaults to the project's skills, run without a skill outside
    any project."""


class NoSkillBeforeCut(InvalidOption):
    """E100: a folder given to ``build`` or ``lint`` whose walk for skills stopped at a bound
    (``bound``: :data:`~skillc_index.walk.MAX_FOLDERS`, or :data:`~skillc_index.walk.MAX_DEPTH`
    with folders below; ``""``: :data:`~skillc_index.walk.MAX_ENTRIES` entries of ``crowded``,
    and of ``more`` others) before it found one: not E010's "missing SKILL.md" (it may be past)."""

    def __init__(self, path: str, bound: str, crowded: str = "", more: int = 0) -> None:
        from skillc_index.text import counted
        from skillc_index.walk import MAX_ENTRIES, holds_past

        if bound:
            stopped = f"{path} {holds_past(bound)}: the walk for skills stopped before it found one"
        else:
            others = f" (and of {counted(more, 'other folder')})" if more else ""
            of = "" if crowded == path else f" of {path}"
            stopped = (
                f"the walk for skills{of} stopped at {MAX_ENTRIES:,} entries of {crowded}"
                f"{others} before it found one (SKILL.md may lie past them)"
            )
        super().__init__(f"{stopped}; name a folder nearer the skills")
        self.path = path

    @classmethod
    def of(cls, path: str, folder: Path, found: SkillFolders) -> NoSkillBeforeCut | None:
        """The error of the walk of ``folder`` (given as ``path``) that ``found`` no skill;
        None when no bound stopped it (:attr:`~skillc_index.walk.SkillFolders.stopped`)."""
        if found.cut_short or not found.crowded:
            return cls(path, found.cut_short) if found.cut_short else None
        from pathlib import PurePath

        crowded = str(PurePath(path) / found.crowded[0].relative_to(folder))
        return cls(path, "", crowded, len(found.crowded) - 1)


class NameInSeveralFolders(InvalidOption):
    """E100: a batch (``skc build packages``) found the skill ``name`` in several ``folders``
    (a source beside a bundler's stale copy, ``skc package``'s output): the store holds one
    skill of a name, so none of them is built, whichever the walk met first."""

    def __init__(self, name: str, folders: Sequence[str]) -> None:
        super().__init__(
            f"the skill name '{name}' is in {len(folders)} folders: {', '.join(folders)}",
            "build the one you mean by its path",
        )
        self.name = name
        self.folders = tuple(folders)


class NoSkillToPackage(InvalidOption):
    """E100: ``package`` given no skill (the command line's missing argument)."""

    usage = True

    def __init__(self) -> None:
        super().__init__("name at least one skill to package")


class CannotCreate(InternalError):
    """E999: a file or folder that cannot be created (``reason``: why)."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"cannot create '{path}': {reason}")
        self.path = path
        self.reason = reason


class CannotWrite(InvalidOption):
    """E100: the file an option names (``--html``, ``--sarif-file``, ``--write-baseline``)
    that cannot be written there (``reason``: why), as :func:`~skillc_index.atomic.file_target`
    finds before the command's work; ``path`` as given."""

    def __init__(self, path: str, reason: str) -> None:
        from skillc_index.text import nul_shown

        super().__init__(f"cannot write '{nul_shown(path)}': {reason}")
        self.path = path
        self.reason = reason


class InstalledPluginCopy(InvalidOption):
    """E100: a write skillc would make into Claude Code's or Codex's (``agent``) copy of an
    installed plugin (its plugins folder:
    :func:`~skillc_index.inventory.plugins.check_not_plugin_copy`), which the plugin's next
    update replaces; ``path`` as shown."""

    def __init__(self, path: str, agent: str = "Claude Code") -> None:
        from skillc_index.text import nul_shown

        super().__init__(
            f"{nul_shown(path)} is an installed {agent} plugin's copy, which the "
            "plugin's next update replaces: skillc does not write there",
            "make the change in the plugin's own source (its repository), then update it",
        )
        self.path = path


class RuntimeNotAFolder(InternalError):
    """E999: where a skill's runtime goes there is a file or a symlink, which a build does
    not replace."""

    def __init__(self, path: str) -> None:
        super().__init__(f"the runtime '{path}' is not a folder; move it away and rebuild")
        self.path = path


class RuntimeEntryInTheWay(InternalError):
    """E999: in a skill's runtime, where a build writes one of its files (``SKILL.md``,
    ``.skillc-meta/manifest.json``, the index) there is a folder, or a file where its
    ``.skillc-meta`` folder goes: not skillc's, so not replaced (a rename into it failed
    with ``IsADirectoryError`` naming the temporary folder)."""

    def __init__(self, path: str, kind: str, wanted: str) -> None:
        super().__init__(
            f"'{path}' in the runtime is {kind}, where the build writes {wanted}; "
            "move it away and rebuild"
        )
        self.path = path


class PathEscapesProject(PathEscapesRoot):
    """A project path skillc would write through (a store or runtime folder) that a symlink
    leads out of the project: E012, naming the path, with where it really goes."""

    def __init__(self, path: str, real: str) -> None:
        hint = f"it leads to {real}, outside the project, where a project may not write"
        SkillcError.__init__(self, Diagnostic(self.code, {"path": path}, _hint(hint)))
        self.path = path
        self.real = real


class TargetOutsideProject(WordedOption):
    """A deployment target that the project (its config, or a symlink in it) sends outside
    the project: E100; a folder the user names outside the project is used as given (where
    the front end lets the caller name one: the MCP server needs the user's permission)."""

    def __init__(self, target: str, real: str, why: str) -> None:
        self.target = target
        self.real = real
        self.why = why
        super().__init__()

    def worded(self, spelling: Spelling) -> str:
        remedy = "give that folder itself as the target to deploy there"
        if spelling.allow_target:  # which the caller may not do unless the user allows it
            from skillc_index.text import shell_word

            allow = f"{spelling.allow_target} {shell_word(self.real)}"
            remedy = (
                f"to deploy there, the user must start the server with `{allow}`, then give "
                "that folder itself as the target"
            )
        where = f"target '{self.target}' {self.why} leads outside the project, to {self.real}"
        return f"{where}; {remedy}"


class FolderNotWritable(InternalError):
    """A folder a build must write into cannot be written (read-only file system, no
    permission): E999 naming the folder and why, raised before anything is written."""

    def __init__(self, what: str, path: str, reason: str) -> None:
        super().__init__(f"{what} '{path}' is not writable ({reason})")
        self.path = path
        self.reason = reason


class ForeignHome(InternalError):
    """E999: the skillc home, a folder above it (up to the user's own home folder or ``/``),
    its ``.skillc/`` or its ``config.toml`` is another user's
    (:func:`~skillc_index.project.foreign_home`): every command refuses it, as git refuses a
    repository another user owns. ``path``: the one found; ``owner``: who owns it;
    ``above``: ``path`` is a folder above the home; ``named``: ``$SKILLC_HOME`` names the
    home (not the user's own home folder), so the hint offers ``$HOME`` too (root's
    ``SKILLC_HOME`` in a CI workspace of uid 1001 is refused: that uid could fill it)."""

    def __init__(
        self, home: str, path: str, owner: str, *, above: bool = False, named: bool = False
    ) -> None:
        what = f"the skillc home '{home}'"
        if above:
            what = f"{what} is in '{path}', which"
        elif path != home:
            what = f"'{path}' in {what}"
        instead = (
            "unset SKILLC_HOME to use your home folder ($HOME), or set it to a folder of your own"
            if named
            else "set SKILLC_HOME to a folder of your own"
        )
        hint = (
            "skillc uses no home another user could fill (its skills, its config's [stats] "
            f"url); chown it if it is yours, or {instead}"
        )
        message = f"{what} is owned by another user ({owner})"
        SkillcError.__init__(self, Diagnostic(self.code, {"message": message}, _hint(hint)))
        self.home = home
        self.path = path
        self.owner = owner


class InvalidSettings(SkillcError):
    """E080: an agent's settings file skillc would read or change (Claude Code's
    ``settings.json``) that is not a JSON object within the bounds, or cannot be read
    (``reason`` says which); nothing is written."""

    code = "E080"

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(Diagnostic(self.code, {"path": path, "reason": reason}))
        self.path = path
        self.reason = reason


class UnreadableSettings(InvalidSettings):
    """E080 for an agent's settings file that is there but cannot be read (no permission, not
    a regular file): the agent cannot read it either."""


class PackageRefused(SkillcError):
    """E070: ``skc package`` cannot make the package: the format refuses the skill (a name
    with a reserved word or a tag, an archive over the format's size limit)."""

    code = "E070"

    def __init__(self, skill: str, fmt: str, reason: str) -> None:
        super().__init__(Diagnostic(self.code, {"skill": skill, "format": fmt, "reason": reason}))


class ImportRefused(SkillcError):
    """E070 of an import (``skc build <folder>``), worded ``cannot import '<path>': <reason>``
    (``OTHER_FORMS``): the folder's ``.gitignore`` files are over their bounds, so what they
    exclude is unknown, and with it what the store copy, which the project's git tracks,
    would show git; ``skc package`` refuses the folder for the same reason. Or git cannot say
    what it ignores there (:class:`~skillc_index._git.GitUnanswered`), with its ``hint``."""

    code = "E070"

    def __init__(self, path: str, reason: str, hint: str = "") -> None:
        hint = hint or (
            "what they exclude is unknown, so the store copy could put it in git under a "
            "link's name; package refuses the folder too"
        )
        super().__init__(Diagnostic(self.code, {"path": path, "reason": reason}, _hint(hint)))
        self.path = path
        self.reason = reason
