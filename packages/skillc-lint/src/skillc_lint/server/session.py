"""The language server's state without the protocol: the open documents, the skill each
belongs to, and each skill linted with its unsaved texts.

A document is a Markdown file of a skill when a folder above it (at most
:data:`MAX_PARENTS` levels up) holds ``SKILL.md`` and no part of its path in that folder is
hidden (what skillc-lint lints, RFC-0008:C-SCOPE). Its skill is linted by
:func:`skillc_lint.lint_skill` with the text of every open document of the skill in place
of the saved one (``texts``), so a finding about another file (an orphan, a link into it)
follows the edit too. A skill nested in a skill owns the files under it (one set of
findings per file, the innermost skill's, as ``skillc-lint FILE`` finds a file's skill); the
outer skill's lint reads them, with their unsaved texts. What a skill was linted with is
kept while a document of it is open or the last workspace pull linted it (else until the
next document closes: :meth:`Session.close`), and while nothing it is made of changed: the
unsaved texts, its files on disk (their listing, sizes and modification times) and its
configuration files (their sizes and times), so a file saved, created or changed by
another program, or a configuration edited, is seen at the next lint; the texts a lint
read are kept with their files' sizes and times (at most :data:`MAX_KEPT_CHARS`), so a
keystroke reads again only the files that changed; when the client reports files changed
on disk (:attr:`Session.watched`) the listing is kept too while a document of the skill is
open, until the client reports one of the skill's files or for :data:`MAX_LISTING_AGE`
seconds. The rules are those a ``skillc-lint`` run in the skill's folder uses: the
``[lint]`` table of the configuration seen from there (its per-file ignores too, in a
project), with the profiles given to the server (``--profile``, or ``profiles`` in the
client's initialization options) instead of the table's when there are any, as
``skillc-lint --profile`` (one function: :func:`~skillc_lint.configured_registry`). A
baseline file is the command line's alone.

Bounds, as a skill's text comes from a stranger: a document over
:data:`MAX_DOCUMENT_CHARS` is not linted (one warning says so), a folder of skills yields
at most :data:`MAX_WORKSPACE_SKILLS` skills, a file read to place findings at most
:data:`MAX_DOCUMENT_CHARS` bytes, and nothing is read outside a skill root (skillc-index's
``open_in_root``). No LSP library here.
"""

from __future__ import annotations

import os
import posixpath
import time
from collections.abc import Callable, Container, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import unquote, urlparse

from skillc_index import SKILL_FILE, PathEscapesRoot, SkillcError, is_hidden, is_markdown
from skillc_index.files import decoded
from skillc_index.text import BOM

if TYPE_CHECKING:
    from skillc_lint import LintDiagnostic, LintResult, RuleRegistry, Skill
    from skillc_lint._skill import Known
    from skillc_lint._suppress import PathIgnores

__all__ = [
    "MAX_DOCUMENT_CHARS",
    "MAX_KEPT_CHARS",
    "MAX_LISTING_AGE",
    "MAX_PARENTS",
    "MAX_WORKSPACE_SKILLS",
    "FileReport",
    "Place",
    "Session",
    "holding",
    "path_of",
    "place_of",
]

#: The largest document the server lints or reads to place findings (characters; bytes for
#: a file read from disk). The largest ``.md`` file of the corpus has 294 KB.
MAX_DOCUMENT_CHARS = 4 * 1024 * 1024
#: How many folders above a document are searched for its SKILL.md.
MAX_PARENTS = 64
#: The most skills one workspace diagnostics request lints (per workspace folder).
MAX_WORKSPACE_SKILLS = 2000
#: The most text (characters) the session keeps of the files its lints read, for the next
#: lint of their skill (:meth:`Session._keep`).
MAX_KEPT_CHARS = 64 * 1024 * 1024
#: Seconds a skill's listing (its files, their sizes and times) is kept between its lints
#: when the client reports the files changed on disk (:attr:`Session.watched`): a keystroke
#: in a skill of 50,000 files walked and stat-ed them all; a change the client does not
#: report (VS Code's ``files.watcherExclude``: ``node_modules``) counts within that.
MAX_LISTING_AGE = 5.0

Stamp = tuple[
    tuple[str, ...],
    tuple[tuple[int, int] | None, ...],
    tuple[str, ...],
    tuple[str, ...],
    tuple[str, ...],
]
"""A skill's symlinks out, its files' sizes and times, its files, the files its ``.gitignore``
files exclude, and its second symlinks to a folder (:func:`_skill_stamp`)."""


def path_of(uri: str) -> Path | None:
    """The local file a ``file:`` URI names (absolute); None for any other URI, and for one
    whose path goes up a folder (``..``: its skill would not hold it)."""
    parsed = urlparse(uri)
    if parsed.scheme != "file" or parsed.netloc not in ("", "localhost"):
        return None
    path = Path(unquote(parsed.path))
    if not path.is_absolute() or "\0" in str(path) or ".." in path.parts:
        return None
    return path


@dataclass(frozen=True)
class Place:
    """Where a document is: its skill's root and its path in the skill."""

    root: Path
    rel: str
    """Relative POSIX path (``SKILL.md``, ``references/api.md``)."""


def place_of(path: Path) -> Place | None:
    """The skill holding the Markdown file ``path``, when it is one skillc-lint lints."""
    if not is_markdown(path.name):
        return None
    for parent in list(path.parents)[:MAX_PARENTS]:
        try:
            found = (parent / SKILL_FILE).is_file()
        except OSError:
            return None
        if found:
            rel = path.relative_to(parent).as_posix()
            return None if is_hidden(rel) else Place(parent, rel)
    return None


@dataclass(frozen=True)
class FileReport:
    """The findings of one file of a skill, and its text (to place them)."""

    path: Path
    rel: str
    text: str
    diagnostics: tuple[LintDiagnostic, ...]


class Session:
    """Open documents and what linting their skills found."""

    def __init__(
        self, profiles: Sequence[str] = (), folders: Callable[[], Iterable[Path]] = tuple
    ) -> None:
        self.profiles = tuple(profiles)
        self.folders = folders
        """The client's workspace folders (asked at each configuration read): a skill's
        lint runs from the innermost holding it, as ``skillc-lint`` run there (:meth:`rules`)."""
        self.documents: dict[Path, str] = {}
        self.bom: set[Path] = set()
        """The open documents whose client text starts with a BOM (dropped from
        ``documents``'): positions on their first line count it (:meth:`lead`)."""
        self.problems: list[str] = []
        """Problems not told to the user yet (the server logs them): the configuration's, a
        workspace folder's walk cut short and a refused skillc home (told once,
        :meth:`tell_once`), a lint's notices (:meth:`lint`)."""
        self._told_once: set[str] = set()
        self._registries: dict[str, tuple[object, tuple[RuleRegistry, PathIgnores | None]]] = {}
        self._linted: dict[Path, tuple[tuple[object, ...], LintResult | None]] = {}
        self._skills: dict[Path, tuple[tuple[object, ...], Skill]] = {}
        self._files: dict[Path, frozenset[str]] = {}
        """Per skill root, its files as its last lint listed them (:meth:`nested`)."""
        self._kept: dict[Path, tuple[int, dict[str, tuple[tuple[int, int], str | None]]]] = {}
        """Per skill root, the texts its last lint read (:meth:`_keep`), and their size."""
        self.published: dict[Path, set[str]] = {}
        """Per skill root, the files the server published findings for (to clear them)."""
        self.watched = False
        """Whether the client reports the files changed on disk (:meth:`changed_on_disk`):
        then a skill's listing is kept between its lints (at most :data:`MAX_LISTING_AGE`
        seconds), else each lint walks the skill."""
        self._listed: dict[Path, tuple[float, Stamp]] = {}
        """Per skill root, its last listing (:func:`_skill_stamp`) and when it was taken."""
        self._pulled: set[Path] = set()
        """The skills the last workspace pull linted (:meth:`workspace`): kept for the next."""
        self.refused: dict[Path, tuple[str, str]] = {}
        """Per skill root the linter refuses (its SKILL.md leads out of it: E012), the error's
        code and text, as ``skillc-lint`` prints them (:meth:`lint`, :meth:`reports`)."""

    # -- documents -----------------------------------------------------------------------

    def open(self, path: Path, text: str) -> None:
        """The client's text of the document at ``path``, read as the file's on disk is (a
        leading BOM dropped, and remembered: :meth:`lead`)."""
        self.documents[path] = text.removeprefix(BOM)
        if text.startswith(BOM):
            self.bom.add(path)
        else:
            self.bom.discard(path)

    def close(self, path: Path) -> None:
        """The document at ``path`` closed: the listing kept of a skill with no other
        document open is dropped (:meth:`_listing`), and so is what is kept of every skill
        with no document open that the last workspace pull did not lint (its lint, the
        texts read, its files): a skill closed is linted again from its files (the saved
        text's findings) and kept until the next close."""
        self.documents.pop(path, None)
        self.bom.discard(path)
        for root in [root for root in self._listed if path.is_relative_to(root)]:
            if not self.opened(root):
                del self._listed[root]
        kept = self._linted.keys() | self._skills.keys() | self._files.keys() | self._kept.keys()
        for root in kept - self._pulled:
            if not self.opened(root):
                for per_root in (self._linted, self._skills, self._files, self._kept):
                    per_root.pop(root, None)
                self.refused.pop(root, None)

    def lead(self, path: Path) -> str:
        """What the client's text of the open document at ``path`` has before the server's:
        a BOM, or nothing."""
        return BOM if path in self.bom else ""

    def changed_on_disk(self, changed: Iterable[Path] | None) -> None:
        """The client reported files changed on disk (None: anything may have, the
        configuration changed): the skills holding one (or under a folder of them) are
        listed and read again at their next lint (:attr:`watched`), what was kept of them
        dropped: a file rewritten with the same size and time (within a coarse clock's
        tick) kept its old text, and its old findings, while nothing else changed."""
        per_root = (self._listed, self._linted, self._skills, self._kept)
        known = {root for kept in per_root for root in kept}
        if changed is not None:
            changed = set(changed)
            known = holding(known, changed) | {
                root for root in known if not changed.isdisjoint(root.parents)
            }
        for root in known:
            for kept in per_root:
                kept.pop(root, None)

    def too_large(self, path: Path) -> bool:
        return len(self.documents.get(path, "")) > MAX_DOCUMENT_CHARS

    def opened(self, root: Path) -> dict[str, str]:
        """The open documents the lint of the skill at ``root`` reads: path in the skill ->
        text (those of a skill nested in it too, files of it for the lint)."""
        texts = {}
        prefix = f"{root}/"
        for path, text in self.documents.items():
            if str(path).startswith(prefix):
                rel = path.relative_to(root).as_posix()
                if not is_hidden(rel):
                    texts[rel] = text
        return texts

    def owner(self, root: Path, rel: str) -> Path:
        """The skill owning the file ``rel`` of the skill at ``root``: the innermost skill
        holding it, ``root`` or one nested in it, as its last lint listed its files."""
        folder = _holder(rel, self._files.get(root, frozenset()))
        return root if folder is None else root / folder

    def nested(self, root: Path) -> list[Path]:
        """The skills nested in the skill at ``root`` (a folder of it holding SKILL.md) as
        its last lint listed its files: each owns the files under it (:meth:`reports`)."""
        suffix = f"/{SKILL_FILE}"
        return [
            root / rel.removesuffix(suffix)
            for rel in self._files.get(root, ())
            if rel.endswith(suffix)
        ]

    def overlay(self, root: Path) -> dict[str, str]:
        """The unsaved texts the skill at ``root`` is linted with: its open documents' as the
        client sent them, a leading BOM too (:meth:`lead`: the lint notes it, not the disk's),
        those over :data:`MAX_DOCUMENT_CHARS` left out."""
        return {
            rel: self.lead(root / rel) + text
            for rel, text in self.opened(root).items()
            if len(text) <= MAX_DOCUMENT_CHARS
        }

    def text(self, root: Path, rel: str) -> str:
        """The text of a file of a skill: the open document's, else the saved one (its
        first :data:`MAX_DOCUMENT_CHARS` bytes, inside the root only; empty when it cannot
        be read)."""
        open_text = self.documents.get(root / rel)
        if open_text is not None:
            return open_text
        from skillc_index import open_in_root

        try:
            with open_in_root(root, rel) as handle:
                data = handle.read(MAX_DOCUMENT_CHARS)
        except (OSError, SkillcError):
            return ""
        return decoded(data)

    # -- rules ---------------------------------------------------------------------------

    def tell_once(self, problem: str) -> None:
        """Log ``problem`` unless it was told already in this session."""
        if problem not in self._told_once:
            self._told_once.add(problem)
            self.problems.append(problem)

    def registry(self, root: Path) -> RuleRegistry:
        """The rules for the skill at ``root`` (:meth:`rules`)."""
        return self.rules(root)[0]

    def rules(self, root: Path) -> tuple[RuleRegistry, PathIgnores | None]:
        """The rules for the skill at ``root``: the configuration ``skillc-lint`` would use
        there run from the innermost workspace folder holding it (the skill's parent folder
        for a skill in none), :func:`skillc_lint.operations.config_of`: the nearest
        ``.skillc/config.toml`` or ``pyproject.toml`` with ``[tool.skillc]`` walking up from
        the skill, else from that folder (:func:`~skillc_lint.operations.nearest_config`),
        else the project's and the global one, one inside the skill configuring no security rule;
        with the server's profiles, and that configuration's ``[lint] per-file-ignores``
        (None when it belongs to no folder: their patterns are relative to it); one pair per
        config and working folder, read again when one of its files changed (:func:`_stamps`)."""
        from skillc_index import Layout
        from skillc_index.config import project_config_file
        from skillc_lint import configured_registry
        from skillc_lint.operations import config_of, nearest_config

        try:
            layout = Layout.discover(root)
        except SkillcError as exc:  # another user's skillc home: the defaults, and say why
            from skillc_index import format_diagnostic

            self.tell_once(format_diagnostic(exc.diagnostic))
            return configured_registry({}, self.profiles)[0], None
        holding = [folder for folder in self.folders() if root.is_relative_to(folder)]
        cwd = max(holding, key=lambda folder: len(folder.parts)) if holding else root.parent
        found_file = nearest_config(root, layout, cwd)
        project = project_config_file(layout)
        file = None if found_file == project else found_file  # the project's, as Layout found it
        key = f"{file or layout.project_root or ''}\0{cwd}"
        # the project's: its config.toml too, made later in place of its pyproject.toml
        files = [layout.global_config, file or layout.project_config, file or project]
        stamp = _stamps(dict.fromkeys(files))  # each file stat'd once
        kept = self._registries.get(key)
        if kept is not None and kept[0] == stamp:
            return kept[1]
        try:
            config, base, guard, _ = config_of(layout, found_file, cwd)
            registry, problems = configured_registry(
                config.lint, self.profiles, config.origins, guard=guard
            )
            ignores = None
            table = config.lint.get("per-file-ignores")
            if table is not None and (file is not None or layout.project_root is not None):
                from skillc_lint._suppress import PathIgnores

                ignores, more = PathIgnores.from_config(base, table, registry, guard)
                problems += more
            self.problems += [f"config [lint]: {problem}" for problem in problems]
            self.problems += [notice.text for notice in config.notices]
            found = (registry, ignores)
        except SkillcError as exc:  # an unreadable config: the defaults, and say why
            from skillc_index import format_diagnostic

            self.problems.append(format_diagnostic(exc.diagnostic))
            found = (configured_registry({}, self.profiles)[0], None)
        self._registries[key] = (stamp, found)
        return found

    # -- linting -------------------------------------------------------------------------

    def _inputs(
        self, root: Path
    ) -> tuple[tuple[object, ...], dict[str, str], Known, dict[str, tuple[int, int] | None]]:
        """What the skill at ``root`` is linted with: a key that changes with any of it
        (its unsaved texts, its files on disk, its rules), the unsaved texts, what is known
        of its files (their listing, and the texts read of those whose size and time are the
        same since: :meth:`_keep`), and each file's size and time."""
        from skillc_index.skill_files import SkillFiles
        from skillc_lint._skill import Known

        texts = self.overlay(root)
        stamp = escapes, stats, files, ignored, second = self._listing(root)
        self._files[root] = frozenset(files)
        now = dict(zip(files, stats, strict=True))
        read = {
            rel: text
            for rel, (stat, text) in self._kept.get(root, (0, {}))[1].items()
            if now.get(rel) == stat
        }
        known = Known(SkillFiles(files, escapes, ignored=ignored, second_links=second), read)
        return (tuple(sorted(texts.items())), stamp, self.registry(root)), texts, known, now

    def _listing(self, root: Path) -> Stamp:
        """The listing of the skill at ``root`` (:func:`_skill_stamp`): the last one while the
        client reports changes on disk and none of the skill's came (:attr:`watched`), for
        at most :data:`MAX_LISTING_AGE` seconds; else walked now. Kept only then, and while
        a document of the skill is open (:meth:`close`)."""
        kept = self._listed.get(root)
        now = time.monotonic()
        if self.watched and kept is not None and now - kept[0] < MAX_LISTING_AGE:
            return kept[1]
        stamp = _skill_stamp(root)
        if self.watched and self.opened(root):
            self._listed[root] = (now, stamp)
        else:
            self._listed.pop(root, None)
        return stamp

    def _keep(self, root: Path, known: Known, now: dict[str, tuple[int, int] | None]) -> None:
        """Keep the texts a lint of the skill at ``root`` read (``known``'s), each with its
        file's size and time before the lint (``now``), for the next lint: a keystroke
        reads again only the files that changed. At most :data:`MAX_KEPT_CHARS` in all."""
        self._kept.pop(root, None)
        room = MAX_KEPT_CHARS - sum(size for size, _ in self._kept.values())
        kept: dict[str, tuple[tuple[int, int], str | None]] = {}
        size = 0
        for rel, text in known.texts.items():
            stat = now.get(rel)
            if stat is not None and size + len(text or "") <= room:
                size += len(text or "")
                kept[rel] = (stat, text)
        self._kept[root] = (size, kept)

    def lint(self, root: Path) -> LintResult | None:
        """The lint of the skill at ``root`` with its unsaved texts (kept until they, its
        files on disk or its configuration change); None when it is no skill any more or
        cannot be linted (its SKILL.md leads out of it)."""
        from skillc_lint._engine import lint_with_texts

        key, texts, known, now = self._inputs(root)
        cached = self._linted.get(root)
        if cached is not None and cached[0] == key:
            return cached[1]
        registry, ignores = self.rules(root)
        try:
            result: LintResult | None
            result, _ = lint_with_texts(
                root, registry=registry, texts=texts, known=known, cap=False
            )
        except PathEscapesRoot as exc:  # what skillc-lint refuses (E012), said (:meth:`reports`)
            result = None
            self._refuse(root, exc.diagnostic.code, exc.diagnostic.message)
        except (SkillcError, OSError):  # gone (E001) or unreadable: nothing to show, cleared
            result = None
            self.refused.pop(root, None)
        else:
            self.refused.pop(root, None)
        self._keep(root, known, now)
        if result is not None and ignores:
            from dataclasses import replace

            kept = tuple(d for d in result.diagnostics if not ignores.hides(root / d.file, d))
            result = replace(result, diagnostics=kept)
        if result is not None:  # capped once the ignores hid theirs
            from skillc_lint._engine import capped

            result = capped(result)
        # the run's warnings (a file over the parse limit), as skillc-lint prints them, are
        # problems (logged): those the skill's last lint had not, not again at each keystroke
        previous = cached[1] if cached is not None else None
        told = set() if previous is None else {notice.text for notice in previous.notices}
        for notice in result.notices if result is not None else ():
            if notice.text not in told:
                self.problems.append(notice.text)
        self._linted[root] = (key, result)
        return result

    def _refuse(self, root: Path, code: str, message: str) -> None:
        """The skill at ``root`` cannot be linted: kept for its reports, and logged when it
        was not refused so before (not at each keystroke)."""
        if self.refused.get(root) != (code, message):
            from skillc_index import printable

            self.problems.append(f"error[{code}]: {printable(message)}")
        self.refused[root] = (code, message)

    def reports(self, root: Path) -> list[FileReport]:
        """The findings of the skill at ``root`` by file: every file with findings, and
        every open document of the skill (an empty report clears what was shown). A file of
        a skill nested in it is left to that skill's reports (one owner per file, the
        innermost skill, as ``skillc-lint FILE`` finds it: :func:`place_of`)."""
        result = self.lint(root)
        by_file: dict[str, list[LintDiagnostic]] = {
            rel: [] for rel in self.opened(root) if self.owner(root, rel) == root
        }
        for diagnostic in result.diagnostics if result is not None else ():
            if self.owner(root, diagnostic.file) == root:
                by_file.setdefault(diagnostic.file, []).append(diagnostic)
        refused = self.refused.get(root) if result is None else None
        if refused is not None:  # on SKILL.md and each open document, as the CLI's error
            from skillc_lint import LintDiagnostic

            for rel in {SKILL_FILE: [], **by_file}:
                found = LintDiagnostic(refused[0], "refused", "error", rel, None, refused[1])
                by_file[rel] = [found]
        return [
            FileReport(root / rel, rel, self.text(root, rel), tuple(found))
            for rel, found in by_file.items()
        ]

    def skill(self, root: Path) -> Skill | None:
        """The skill at ``root`` as the rules read it, with its unsaved texts (links,
        anchors); None when it cannot be read."""
        from skillc_lint import Skill
        from skillc_lint._profiles import substitutions_in

        key, texts, known, now = self._inputs(root)
        cached = self._skills.get(root)
        if cached is not None and cached[0] == key:
            return cached[1]
        substitutions = substitutions_in(self.registry(root))
        try:
            skill = Skill(root, substitutions=substitutions, texts=texts, known=known)
        except (SkillcError, OSError):
            return None
        self._keep(root, known, now)
        self._skills[root] = (key, skill)
        return skill

    def workspace(self, folders: Iterable[Path]) -> Iterator[tuple[Path, list[FileReport]]]:
        """Each skill under ``folders`` (at most :data:`MAX_WORKSPACE_SKILLS` per folder,
        as ``skillc-lint FOLDER`` finds them, each followed by the skills nested in it: they
        own their files, :meth:`reports`) and its reports. A walk stopped at its bound is
        a problem, as ``skillc-lint FOLDER`` warns (:func:`~skillc_index.cut_short`), and so
        is a folder of more skills than this lints (told once)."""
        from skillc_index import cut_short, find_skill_folders
        from skillc_index.walk import crowded

        self._pulled = seen = set()
        for folder in folders:
            try:
                skills = find_skill_folders(folder, linked_entries=True)
            except (SkillcError, OSError):
                continue
            if skills.cut_short:
                told = cut_short(folder, "skills past them are not linted", skills.cut_short).text
                self.tell_once(told)
            for full in skills.crowded:
                self.tell_once(crowded(full, "skills past them are not linted").text)
            over = f"{folder} holds more than {MAX_WORKSPACE_SKILLS:,} skills: "
            left = MAX_WORKSPACE_SKILLS
            for root in skills:
                if root in seen:
                    continue
                if left <= 0:  # said once, as the walk's bounds are
                    self.tell_once(over + "skills past them are not linted")
                    break
                seen.add(root)
                left -= 1
                yield root, self.reports(root)
                for inner in self.nested(root):  # each owns the files under it
                    if inner in seen:
                        continue
                    if left <= 0:
                        self.tell_once(over + "skills past them are not linted")
                        break
                    seen.add(inner)
                    left -= 1
                    yield inner, self.reports(inner)

    def known_fields(self, root: Path) -> tuple[str, ...]:
        """The frontmatter fields SKL109 knows for the skill at ``root`` (the standard's
        and those of the profiles in use)."""
        registry = self.registry(root)
        if "SKL109" not in registry:
            return ()
        return tuple(registry.options("SKL109").get("known-fields", ()))

    def profiles_in_use(self, root: Path) -> tuple[str, ...]:
        from skillc_lint import profiles_in

        return profiles_in(self.registry(root))


def holding(roots: Iterable[Path], changed: Iterable[Path], home: Path | None = None) -> set[Path]:
    """The skills of ``roots`` holding a file of ``changed`` (or that are one of them: a
    folder moved), and those a configuration file of ``changed`` may configure (what
    :func:`~skillc_index.find_config` looks for in a folder, :func:`_configures`: that
    folder's skills; the global one, of ``home`` (default: skillc's), all of them), not any
    file so named. Linear in both (a checkout changes thousands of files, an editor shows
    hundreds of skills)."""
    from skillc_index.config import PYPROJECT

    if home is None:
        from skillc_index.homes import home_dir

        home = home_dir()
    roots = set(roots)
    above: set[Path] = set()
    configured: set[Path] = set()
    for path in changed:
        above.add(path)
        above.update(path.parents)
        folder = _configures(path)
        if folder == home and path.name != PYPROJECT:  # its .skillc: the global config
            return roots
        if folder is not None:
            configured.add(folder)
    found = roots & above
    if configured:
        found.update(
            root for root in roots if root in configured or not configured.isdisjoint(root.parents)
        )
    return found


def _configures(path: Path) -> Path | None:
    """The folder whose configuration the file ``path`` is or may become, as
    :func:`~skillc_index.find_config` walks up (``F/.skillc/config.toml``, ``F/.skillc``,
    ``F/pyproject.toml``: ``F``); None for any other file."""
    from skillc_index.config import PYPROJECT
    from skillc_index.layout import SKILLC_DIR

    if path.name in (PYPROJECT, SKILLC_DIR):
        return path.parent
    if path.name == "config.toml" and path.parent.name == SKILLC_DIR:
        return path.parent.parent
    return None


def _holder(rel: str, files: Container[str]) -> str | None:
    """The innermost folder above the file ``rel`` of a skill (not its root) holding a
    SKILL.md of ``files`` (the skill's): the nested skill owning it; None for none."""
    folder = posixpath.dirname(rel)
    while folder:
        if f"{folder}/{SKILL_FILE}" in files:
            return folder
        folder = posixpath.dirname(folder)
    return None


def _stamps(paths: Iterable[Path | str | None]) -> tuple[tuple[int, int] | None, ...]:
    """The size and modification time of each file (None: no such file)."""
    found: list[tuple[int, int] | None] = []
    for path in paths:
        try:
            st = os.stat(path) if path is not None else None  # noqa: PTH116 (a str too)
        except OSError:
            st = None
        found.append(None if st is None else (st.st_size, st.st_mtime_ns))
    return tuple(found)


def _skill_stamp(root: Path) -> Stamp:
    """The files of the skill at ``root`` as the linter lists them (skillc-index's
    ``walk_skill``), each one's size and modification time, its symlinks out, and what is
    no part of it though on disk (what its ``.gitignore`` excludes, its second links)."""
    from skillc_index import walk_skill

    listed = walk_skill(root)
    top = str(root)  # strings joined: a Path made for each of 50,000 files took 0.2 s
    files = listed.linted  # the skill's tests (evals/) too, as the linter reads them
    paths = (os.path.join(top, rel) for rel in files)  # noqa: PTH118
    return listed.escapes, _stamps(paths), files, listed.ignored, listed.second_links
