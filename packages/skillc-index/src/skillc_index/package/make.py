"""``skc package``: what leaves the machine (issue 37).

A package holds a skill's source files (not the stub: who receives it has no skillc), its
SKILL.md's frontmatter projected onto the format's dialect (:mod:`skillc_index.build.project`,
:data:`skillc_index.dialect.PACKAGE_DIALECTS`), each change reported (a key written twice is
written once, with its last value; a UTF-8 BOM is dropped), in each format's files
(:mod:`skillc_index.package.formats`).

Same input, same bytes: archives by :func:`~skillc_index.package.archive.zip_blob`, JSON with a
fixed layout, nothing dated (a file holding them already is left as it is, inode and mtime).
Files are written (atomically, all or none: :func:`~skillc_index.atomic.write_files_atomic`)
over what a previous run wrote (``.skillc-package.json`` in the output folder records each
file's digest and the top-level folders the runs made, :mod:`~skillc_index.package.written`;
no walk for skills enters those files and folders; a record a newer skillc wrote is E999,
nothing written); a file there that skillc did not write, or that was edited since, is E050
before anything is written; with ``force`` it is moved aside (``atomic.move_aside``), never
overwritten. Nothing is deleted but the temporary files a killed run left (of a process
gone); an index (``index.json``, ``marketplace.json``) keeps the entries of the earlier
run's whose files are still there (:func:`merge_index`).
Left out of every package: hidden files and folders and the folders no walk enters (what
:func:`~skillc_index.skill_files.walk_skill` skips: the skill's private names, ``venv``,
``__pycache__`` and ``node_modules`` folders, as Anthropic's packager leaves the last two),
what the skill's ``.gitignore`` files exclude (:class:`~skillc_index.glob.IgnoreRules`;
never SKILL.md: a warning), and, as Anthropic's packager leaves them, ``*.pyc`` files and
``evals/`` at the skill's root (the skill's tests, not the skill). A file holding a key
(what skillc-lint's SKL904 reports) is packaged with a warning naming it, the key masked; so
is a Markdown file linking to what the package leaves out (:mod:`~skillc_index.package.links`).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from skillc_index.build.project import FieldChange, project, side_sources
from skillc_index.command_errors import CannotCreate, NoSkillToPackage, PackageRefused
from skillc_index.diagnostics import Diagnostic, Notice, PathEscapesRoot, SkillcError
from skillc_index.dialect import PACKAGE_DIALECTS, name_refusals, skill_name_problem
from skillc_index.digests import executable as is_executable
from skillc_index.layout import SKILL_FILE, Layout, not_packaged, shown
from skillc_index.markdown.frontmatter import RepeatedKey
from skillc_index.option_errors import InvalidOption
from skillc_index.package import version as versions
from skillc_index.package.archive import (
    ArchiveEntry,
    Blob,
    Content,
    Spool,
    sha256_of,
    size_of,
    write_content,
)
from skillc_index.package.indexes import (
    INDEXES,
    WELL_KNOWN,
    interim_index,
    merge_index,
)
from skillc_index.package.portable import path_problem, path_problems
from skillc_index.package.result import LeftOut, PackagedFile, PackageResult
from skillc_index.package.written import MANIFEST, folders_made, made_before, record_bytes
from skillc_index.record import Record

__all__ = ["DISCOVERY_SCHEMA", "FORMATS", "PLUGIN_SCHEMA", "package_skills"]

FORMATS = ("upload", "well-known", "plugin", "claude-plugin")
#: The discovery index's ``$schema`` (Agent Skills Discovery RFC v0.2.0, "Versioning").
DISCOVERY_SCHEMA = "https://schemas.agentskills.io/discovery/0.2.0/schema.json"
#: ``plugin.json``'s ``$schema`` (agentplugins/agent-plugins-spec, schemas/1.0.0).
PLUGIN_SCHEMA = "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json"
#: How long a run waits for another writing into the same output folder (then goes on).
LOCK_WAIT_S = 60.0
#: The most of a skill's files read into one package.
MAX_SKILL_BYTES = 256 << 20


class PackedSkill(Record):
    """One skill as a package holds it."""

    name: str
    """Its folder in the package: the name build deploys it as (its folder's, not the
    frontmatter's ``name``)."""
    description: str
    files: tuple[ArchiveEntry, ...]
    """Paths relative to the skill's folder, SKILL.md with the projected frontmatter."""
    changes: tuple[FieldChange, ...]
    source: str
    """The real path of its source folder (no package is written into it)."""
    notices: tuple[Diagnostic | Notice, ...] = ()
    """The warnings of its resolution (W001: a name several installed skills have), and of
    the paths Windows or macOS cannot unpack as they are (:mod:`~skillc_index.package.
    portable`: a name, two that differ only in case or Unicode normalisation)."""
    ignored: tuple[tuple[str, ...], ...] = ()
    """What its ``.gitignore`` files exclude: (a file, or a folder ending in ``/``; the
    ``.gitignore`` excluding it; for a symlink, the excluded path it leads to)."""


def _scanned_bytes(rel: str) -> int:
    """How much of the file ``rel`` is looked through for keys, as skillc-lint reads it: a
    Markdown file as far as a parse reads, any other its first ``TEXT_LIMIT`` bytes."""
    from skillc_index.markdown.reading import MARKDOWN_READ_LIMIT, is_markdown
    from skillc_index.secrets import TEXT_LIMIT

    return MARKDOWN_READ_LIMIT if is_markdown(rel) else TEXT_LIMIT


def _key_held(rel: str, head: bytes) -> list[str]:
    """The warning of a file whose first bytes (``head``, :func:`_scanned_bytes`; a binary
    file other than a Markdown one has none) hold a key (:func:`~skillc_index.secrets.
    secrets_in`: what skillc-lint's SKL904 reports), masked."""
    from skillc_index.files import decoded
    from skillc_index.markdown.reading import is_markdown
    from skillc_index.secrets import scanned_text, secrets_in

    text = decoded(head) if is_markdown(rel) else scanned_text(head)
    secret = None if text is None else next(secrets_in(text), None)
    if secret is None:
        return []
    shown = f" ({secret.masked})" if secret.masked else ""
    article = "an" if secret.kind[0] in "AEIOU" else "a"  # an AWS..., a private key block
    return [
        f"{rel} holds {article} {secret.kind}{shown}: packaged all the same; anyone who "
        "installs the skill can read it (SKL904)"
    ]


def pack_skill(given: str, layout: Layout, fmt: str) -> PackedSkill:
    """The skill ``given`` (a name or a folder) as format ``fmt`` holds it. E001/E010 when it
    cannot be found, E011 for a SKILL.md without name and description, E012 for a symlink
    leading out of it, E070 for what the format refuses and for ``.gitignore`` files over
    their bounds (what they exclude unknown)."""
    from skillc_index.build.stub import with_frontmatter
    from skillc_index.files import (
        encoding_notice,
        encoding_problem,
        lfs_notice,
        lfs_pointer,
        open_in_root,
        other_bom,
    )
    from skillc_index.glob import IgnoreRules, IgnoreTooLarge
    from skillc_index.layout import resolve_skill
    from skillc_index.markdown.document import MarkdownDoc
    from skillc_index.markdown.frontmatter import parse_frontmatter
    from skillc_index.markdown.metadata import read_skill_metadata
    from skillc_index.markdown.reading import MARKDOWN_READ_LIMIT, is_markdown
    from skillc_index.markdown.targets import NO_SUBSTITUTIONS
    from skillc_index.markdown.yaml12 import scalar_texts
    from skillc_index.package.links import FORMAT_SUBSTITUTIONS, left_out_links
    from skillc_index.skill_files import skipped_notices, walk_skill
    from skillc_index.text import BOM, BOM_BYTES

    dialect = PACKAGE_DIALECTS[fmt]
    substitutions = FORMAT_SUBSTITUTIONS.get(fmt, NO_SUBSTITUTIONS)  # its agent's
    resolved = resolve_skill(given, layout)  # W001 among its notices: the skill taken is said
    source = resolved.imported_from or resolved.source  # a path: the folder as it is now
    dirs: list[str] = []
    read: list[IgnoreRules] = []  # the walk's, read once (its .gitignore files)
    found = walk_skill(source, dirs=dirs, rules=read)
    if found.escapes:
        raise PathEscapesRoot(found.escapes[0])
    try:  # what git leaves out of a commit never leaves the machine here either
        # read again only when the walk has none: no .gitignore (nothing read), or E070
        rules = read[0] if read else IgnoreRules.read(source, dirs)
    except IgnoreTooLarge as exc:
        raise PackageRefused(given, fmt, str(exc)) from None
    said = [f"{rel} is a symlink: not read, as git reads none" for rel in rules.unread]
    contents: dict[str, ArchiveEntry] = {}
    ignored: dict[str, tuple[str, ...]] = {}
    total, real_root, skill_md = 0, os.path.realpath(source), b""
    pointers: list[str] = []  # Git LFS pointers: a checkout without `git lfs pull`
    for rel in found.every:  # what the .gitignore files exclude too: each one reported
        if not_packaged(rel, real_root):  # never in the package: its name cannot matter
            continue
        if excluded := rules.excluded(rel) or rules.excluded_link(real_root, rel):
            if rel != SKILL_FILE:
                ignored.setdefault(excluded[0], excluded[1:])
                continue
            said.append(
                f"{excluded[1]} excludes SKILL.md: packaged all the same (a skill needs it)"
            )
        if (unzippable := path_problem(rel)) is not None and unzippable.refused:
            # a name not UTF-8: no zip entry, JSON record or package path can hold it; a zip's
            # separator is / alone (APPNOTE 4.4.17): an extractor on Windows reads
            # x\..\..\evil as a path out of the folder, and npx skills refuses the archive
            raise PackageRefused(given, fmt, unzippable.text)
        with open_in_root(source, rel) as handle:
            executable = is_executable(os.fstat(handle.fileno()).st_mode)
            left = MAX_SKILL_BYTES + 1 - total
            if rel != SKILL_FILE:  # hashed, left on disk; SKILL.md read whole (its frontmatter)
                head = handle.read(_scanned_bytes(rel))
                handle.seek(0)
                data: Content = Blob.in_skill(handle, real_root, rel, left)
            else:
                data = head = skill_md = handle.read(left)
        said += _key_held(rel, head)
        if is_markdown(rel):  # a link to what no package holds is broken in the package
            said += left_out_links(rel, head[:MARKDOWN_READ_LIMIT], real_root, rules, substitutions)
        if lfs_pointer(head):  # (head: more than LFS_POINTER_MAX bytes when the file has more)
            pointers.append(rel)
        total += size_of(data)
        if total > MAX_SKILL_BYTES:
            raise PackageRefused(given, fmt, f"its files are over {MAX_SKILL_BYTES >> 20} MiB")
        contents[rel] = ArchiveEntry(rel, data, executable)
    text = skill_md.decode("utf-8", errors="replace")
    # the bytes UTF-8 cannot read (and another encoding's BOM) became U+FFFD
    encoding = encoding_problem(skill_md) if "\ufffd" in text else None
    front = parse_frontmatter(text)
    meta = read_skill_metadata(MarkdownDoc(front, (), (), 0), bom=other_bom(skill_md))  # E011
    # the skill's folder in the package is the name build deploys it as (its store entry's,
    # else its folder's: a folder renamed, its name: not, is packaged under the folder's
    # name, its frontmatter's name set to it where the format reads one, as a build's is):
    # the name rule always (the name becomes a path), a strict format's other rules too; and
    # the name rule of the name as written ('trail-space ' is kept in the file; meta.name is
    # stripped), which a format that reads the folder's name keeps as it is
    folder = resolved.name
    written = str(front.field_12("name"))
    for name, hint in dict.fromkeys(((written, ""), (folder, "; rename the folder"))):
        problem = skill_name_problem(name)
        problems = name_refusals(name, dialect) if dialect.strict and name == folder else []
        if problem is not None and problem not in problems:
            problems.insert(0, problem)
        if problems:
            raise PackageRefused(name, fmt, "; ".join(problems) + hint)
    texts = scalar_texts(front)  # 1.10 written as '1.10' where a string is due
    # have: the files packaged, so a hook's script left out (hidden, excluded) is a warning,
    # as a build's (named_files): the installed hook would fail to run, blocking nothing
    projection = project(
        front.data_12, dialect, fmt, side_sources(source), folder, texts=texts, have=contents
    )
    twice = _written_once(front.repeated, projection.frontmatter, fmt, dialect.agent)
    rewritten = projection.changed or bool(front.repeated)
    if rewritten:  # what the readers take, written as the stub is
        skill_md = with_frontmatter(text, projection.frontmatter).encode("utf-8")
        contents[SKILL_FILE] = ArchiveEntry(SKILL_FILE, skill_md)
        for rel, body in projection.side_files.items():
            contents[rel] = ArchiveEntry(rel, body.encode("utf-8"))
    elif text.startswith(BOM):  # some agents skip a SKILL.md that does not start with ---
        contents[SKILL_FILE] = contents[SKILL_FILE]._replace(data=skill_md.removeprefix(BOM_BYTES))
    description = projection.frontmatter.get("description", meta.description)
    # what Windows or macOS cannot unpack as it is: a name, a clash of two (no second copy)
    clashes = tuple(Notice(f"{folder}: {problem.text}") for problem in path_problems(contents))
    if encoding:  # as the format writes it: the same source went out as different text
        how = "rewritten, each byte UTF-8 cannot read as U+FFFD" if rewritten else "kept as it is"
        clashes += (encoding_notice(folder, encoding, how),)
    clashes += tuple(lfs_notice(folder, rel, "packaged as it is") for rel in pointers)
    return PackedSkill(
        folder,
        " ".join(str(description).split()),
        tuple(contents[rel] for rel in sorted(contents)),
        (*twice, *projection.changes),
        os.path.realpath(source),
        (
            *resolved.notices,
            *(
                Notice(f"{folder}: {text}")
                for text in (*said, *projection.warnings, *projection.unheld)
            ),
            *skipped_notices(source, found.skipped, "packaged"),
            *clashes,
        ),
        tuple((path, *why) for path, why in ignored.items()),
    )


def _written_once(
    repeated: Sequence[RepeatedKey], kept: Mapping[str, object], fmt: str, agent: str
) -> tuple[FieldChange, ...]:
    """A change for each key, at any level, the source writes more than once (``repeated``,
    :attr:`~skillc_index.markdown.frontmatter.Frontmatter.repeated`): YAML 1.2 forbids it and
    strict readers refuse the file (skills-ref, the npm ``skills`` CLI); the package takes its
    last value, as PyYAML and most readers do, and writes it once when ``kept`` holds it (a
    value dropped then has its own change: the value it overrode is named here all the
    same)."""
    lines: dict[RepeatedKey, list[int]] = {}
    for key in repeated:
        lines.setdefault(key._replace(first=0, again=0), [key.first]).append(key.again)
    return tuple(
        FieldChange(
            fmt,
            agent,
            key.key,
            "converted",
            f"written {'twice' if len(at) == 2 else f'{len(at)} times'} (lines "
            f"{', '.join(map(str, at))}): "
            + (
                "written once, with its last value"
                if _holds(kept, key.path)
                else "its last value read"
            )
            + ", as YAML readers take it",
        )
        for key, at in lines.items()
    )


def _holds(data: object, path: Sequence[str | int]) -> bool:
    """Whether ``data`` (the frontmatter written) has a value at ``path`` (keys, and a list
    item's index)."""
    for part in path:
        item = isinstance(data, list) and isinstance(part, int) and part < len(data)
        if not (item or (isinstance(data, dict) and part in data)):
            return False
        data = data[part]  # type: ignore[index]
    return True


def _packed(given: str, layout: Layout, fmt: str, *, several: bool) -> PackedSkill:
    """:func:`pack_skill`; of several skills, its error names the skill as a batch build's
    does (the diagnostic's ``subject``: ``error[E011]: bad: missing ...``)."""
    try:
        return pack_skill(given, layout, fmt)
    except SkillcError as exc:
        if several and not exc.diagnostic.subject:
            exc.diagnostic = exc.diagnostic._replace(subject=shown(given))
        raise


def _foreign(
    output: Path,
    files: dict[str, Content],
    made: Mapping[str, tuple[str, ...]],
    known: Mapping[str, str],
    there: dict[str, str],
) -> list[Path]:
    """The files at package paths that skc package did not write there (or that were edited
    since), after each file (or symlink) where the package needs a folder (skc package's
    own too: a skill's file made a folder): what ``force`` moves aside and nothing else may
    replace; ``known`` holds the digests of those already read (the earlier index:
    :func:`merge_index`); ``there`` gets the digest of each of the others that is there."""
    from skillc_index.diagnostics import SkillcError
    from skillc_index.digests import file_sha256
    from skillc_index.files import is_folder

    folders = {str(up) for rel in files for up in Path(rel).parents if str(up) != "."}
    foreign = [output / up for up in sorted(folders) if _in_the_way(output / up, is_folder)]
    for rel, data in sorted(files.items()):
        path = output / rel
        if not os.path.lexists(path):
            continue
        try:
            current = known[rel] if rel in known else file_sha256(str(path))
        except (OSError, SkillcError):
            current = ""  # a folder, a FIFO, unreadable: not a file skillc wrote
        if current == sha256_of(data) or current in made.get(rel, ()):
            there[rel] = current
        else:
            foreign.append(path)
    return foreign


def _in_the_way(path: Path, is_folder: Callable[[Path], bool]) -> bool:
    """Whether ``path``, where a folder is needed, is something else (a file, a FIFO, a
    symlink to none): E999 ``File exists`` when its folders were made."""
    return os.path.lexists(path) and not is_folder(path)


def _write(
    output: Path,
    files: dict[str, Content],
    executables: set[str],
    *,
    force: bool,
    fmt: str,
    own: set[str],
    index: dict[str, Any] | None,
    dropped: list[str],
    manifest: str | None = None,
    version: str | None = None,
) -> tuple[tuple[PackagedFile, ...], tuple[tuple[Path, Path], ...], versions.Earlier, str]:
    """Write ``files`` into ``output`` with the record of what skc package wrote there
    (:data:`MANIFEST`), all or none, under a lock on the folder (made for it when it is not
    there: :func:`~skillc_index.locks.locked_folder`): two runs into one folder at once
    each read the record the other wrote (without it, one's entry was lost and its file
    then called foreign, E050); the index is merged with the earlier run's there
    (:func:`merge_index`: ``fmt``, ``own``, ``index``, ``dropped``); a plugin's
    ``manifest`` gets its version (``versions.plugin_version``: ``version`` given, else the
    last one known there). Returns the files written, those ``force`` moved aside, what an
    earlier run left of the plugin (``versions.read_earlier``) and the version written."""
    from functools import partial

    from skillc_index import atomic
    from skillc_index.atomic import move_aside, write_file_atomic, write_files_atomic
    from skillc_index.locks import locked_folder

    with locked_folder(output, LOCK_WAIT_S, make=True):
        record = made_before(output)  # E999 for a newer skillc's record, nothing written
        made = dict(record.files)
        folders = folders_made(output, files, record)  # before any is made
        earlier = versions.read_earlier(output, manifest, made)
        chosen = versions.plugin_version(version, earlier)
        if manifest is not None:
            versions.write_version(files, index, manifest, chosen)
        known = merge_index(output, files, made, fmt, own=own, index=index, dropped=dropped)
        if fmt == "claude-plugin" and index is not None:  # the name written: this run's, or kept
            from skillc_index.package.formats import check_marketplace_name

            check_marketplace_name(index["name"])
        moved: list[tuple[Path, Path]] = []
        there: dict[str, str] = {}
        foreign = _foreign(output, files, made, known, there)
        if foreign and not force:
            from skillc_index.command_errors import ForeignFile

            file = foreign[0].relative_to(output).as_posix() in files
            why = "skillc did not write it, or it was edited since"
            why = why if file else "a file where the package needs a folder"
            raise ForeignFile(str(foreign[0]), why, "move it aside")
        written = tuple(
            _packaged(output, rel, data, there.get(rel), rel in executables)
            for rel, data in sorted(files.items())
        )
        # the record first, holding the earlier digest and the new one of each file, then the
        # index without the entries of the files changing, the files, the index, then the
        # record of the new ones alone: a run stopped between two renames (SIGKILL) leaves
        # each file as one of the digests recorded, never one called foreign, and an index
        # giving the digest of each file it names
        renaming = {**made, **{f.path: _digests(there.get(f.path), f.sha256) for f in written}}
        before = dict(made)
        made.update((f.path, (f.sha256,)) for f in written)
        changed = [f.path for f in written if f.action != "unchanged"]
        listing = INDEXES.get(fmt, "")
        there_now = bool(listing) and os.path.lexists(output / listing)  # read or not (too large)
        first = interim_index(fmt, files, changed) if there_now else None
        if first is not None:
            renaming[listing] = (*renaming[listing], sha256_of(first))
        changed.sort(key=lambda path: path == listing)  # the index after the files it names
        try:  # all or none: a failure (no room, a name refused) leaves the output as it was,
            for path in foreign:  # what force moved aside put back
                moved.append((path, move_aside(path)))
            kept = [output / f.path for f in written if f.action == "unchanged"]
            atomic.remove_abandoned_files([*kept, output / MANIFEST])  # a killed run's, beside
            # the same bytes and folders again: each file, and the record, left as it is
            if changed or made != before or folders != record.folders:
                write_files_atomic(
                    [(output / MANIFEST, record_bytes(renaming, folders), None)]
                    + ([] if first is None else [(output / listing, first, None)])
                    + [
                        (
                            output / rel,
                            partial(write_content, files[rel]),
                            0o755 if rel in executables else None,
                        )
                        for rel in changed
                    ]
                )
                write_file_atomic(output / MANIFEST, record_bytes(made, folders))
        except OSError as exc:  # E999, typed: a folder of /proc, a read-only file system
            reason = (exc.strerror or str(exc)) + _put_back(moved)
            raise CannotCreate(str(exc.filename or output), reason) from exc
    return written, tuple(moved), earlier, chosen


def _packaged(output: Path, rel: str, data: Content, there: str | None, x: bool) -> PackagedFile:
    """``data`` as ``output / rel``: ``unchanged`` when a regular file of its digest is there
    (``there``: :func:`_foreign`'s), executable as it would be made (``x``), left as it is,
    inode and mtime; else ``replaced`` (what ``force`` moves aside too) or ``created``."""
    import stat

    digest, size = sha256_of(data), size_of(data)
    try:
        mode = os.lstat(output / rel).st_mode
    except OSError:
        return PackagedFile(rel, digest, size, "created")
    same = there == digest and stat.S_ISREG(mode) and is_executable(mode) == x
    return PackagedFile(rel, digest, size, "unchanged" if same else "replaced")


def _put_back(moved: Sequence[tuple[Path, Path]]) -> str:
    """Each file ``force`` moved aside renamed back, a write having failed, unless something
    took its place (then it stays where it went, never replacing that): what the error says
    of each (it was put back, or where it is)."""
    said = []
    for path, backup in reversed(moved):
        try:
            if os.path.lexists(path):  # a file of this run renamed into place
                raise FileExistsError(path)
            backup.rename(path)
            said.append(f"; {path} put back where it was")
        except OSError:
            said.append(f"; {path} moved to {backup}")
    return "".join(said)


def _digests(earlier: str | None, new: str) -> tuple[str, ...]:
    """The digests a file may have while a run renames it: ``earlier``'s (None: no file)
    and ``new``."""
    return (new,) if earlier is None or earlier == new else (earlier, new)


def package_skills(
    skills: Sequence[str],
    layout: Layout,
    *,
    fmt: str,
    output: Path,
    name: str | None = None,
    version: str | None = None,
    author: str | None = None,
    base_url: str = f"/{WELL_KNOWN}/",
    force: bool = False,
    description: str | None = None,
) -> PackageResult:
    """Package ``skills`` (names or folders) as ``fmt`` (:data:`FORMATS`) into ``output``.

    Every skill is read and checked before anything is written. E100 for an unknown format,
    no skill, two skills of one name, a plugin without a name for several skills, a plugin's
    name, version, author or ``description`` out of bounds (``formats.check_plugin_options``), an
    output folder inside a skill or a store or runtime folder
    (:func:`~skillc_index.package.place.check_place`), or an output that is not a folder (or
    under a file); ``version`` None: the last one known there, else 1.0.0
    (``versions.plugin_version``);
    :class:`~skillc_index.command_errors.CannotCreate` (E999) for a file or folder of it the
    system refuses."""
    if fmt not in FORMATS:
        raise InvalidOption(
            f"unknown package format '{fmt}' (one of {', '.join(FORMATS)})", usage=True
        )
    if not skills:
        raise NoSkillToPackage()
    packed = [_packed(given, layout, fmt, several=len(skills) > 1) for given in skills]
    names = [skill.name for skill in packed]
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise InvalidOption(
            f"the skill '{twice[0]}' is given twice (two skills of one name)", usage=True
        )
    if not base_url.strip():  # "" made each url the path alone ("/s/SKILL.md"), served nowhere
        raise InvalidOption("the base URL is empty: give one, or leave it out", usage=True)
    if not base_url.endswith("/"):  # each url is base_url + a path: no slash, no url
        base_url += "/"
    from skillc_index.package.formats import (
        check_plugin_options,
        layout_plugin,
        layout_upload,
        layout_well_known,
        manifest_path,
        plugin_path,
    )

    # the archives over a piece are files of a temporary folder until they are written
    with Spool() as spool:
        executables: set[str] = set()
        index: dict[str, Any] | None = None  # the index this run writes (well-known, claude-plugin)
        manifest: str | None = None  # the plugin's, its version decided under the lock
        if fmt == "upload":
            files = layout_upload(packed, fmt, spool)
        elif fmt == "well-known":
            files, index = layout_well_known(packed, base_url, spool)
        else:
            if name is None and len(packed) > 1:
                from skillc_index.option_errors import ParameterError

                raise ParameterError("{name} is needed for a plugin of several skills")
            check_plugin_options(name, version, author, description)
            plugin = name or packed[0].name
            laid = version or versions.FIRST_VERSION  # or the last one known there (_write)
            files, index = layout_plugin(packed, fmt, plugin, laid, author, description)
            manifest = manifest_path(fmt, plugin)
            # a folder installed by copying it: a script keeps its executable bit, as in a zip
            executables = {
                plugin_path(plugin, skill, entry)
                for skill in packed
                for entry in skill.files
                if entry.executable
            }
        from skillc_index.inventory.folders import check_project_write

        check_project_write(output, layout)  # a checkout's `dist` symlink leading out: E012
        from skillc_index.package.place import check_output, check_place

        check_output(output)
        check_place(output, files, zip(skills, packed, strict=True), layout)
        given = (("name", name), ("owner", author), ("description", description))
        own = {field for field, value in given if value is not None}
        dropped: list[str] = []
        written, moved, earlier, chosen = _write(
            output,
            files,
            executables,
            force=force,
            fmt=fmt,
            own=own,
            index=index,
            dropped=dropped,
            manifest=manifest,
            version=version,
        )
    changes = tuple((skill.name, change) for skill in packed for change in skill.changes)
    notices = tuple(notice for skill in packed for notice in skill.notices) + tuple(
        Notice(f"'{name}' dropped from {INDEXES[fmt]}: its files changed or are gone since")
        for name in dropped
    )
    if manifest is not None:
        notices += versions.version_notices(manifest.split("/", 1)[0], chosen, earlier, written)
    ignored = tuple(LeftOut(skill.name, *item) for skill in packed for item in skill.ignored)
    return PackageResult(
        fmt, output, tuple(names), written, changes, moved, notices, tuple(dropped), ignored
    )
