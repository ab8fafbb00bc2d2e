"""What the lint reads of a skill beyond its file list and Markdown texts: another file's
text (its first :data:`TEXT_LIMIT` bytes, :func:`read_other`), and the questions a rule may
ask of the disk (:data:`PROBES`), whose answers the result cache checks before reusing a
result."""

from __future__ import annotations

import os
import posixpath
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

from skillc_index import (
    SKILL_FILE,
    PathEscapesRoot,
    SkillcError,
    SkillFileNotFound,
    open_in_root,
    read_parsed,
    safe_join,
)
from skillc_index.secrets import TEXT_LIMIT, scanned_text
from skillc_index.text import BOM_BYTES, text_codec

__all__ = ["PROBES", "TEXT_LIMIT", "bom_of", "digest", "read_markdown", "read_other"]


def read_other(root: Path, rel: str, real_root: str | None = None) -> str | None:
    """The first :data:`TEXT_LIMIT` bytes of the file ``rel`` of ``root`` as text; None for
    a binary file (a NUL byte in them, :func:`~skillc_index.secrets.scanned_text`) or one
    that cannot be read."""
    try:
        with open_in_root(root, rel, real_root=real_root) as handle:
            data = handle.read(TEXT_LIMIT)
    except (OSError, SkillcError):
        return None
    return scanned_text(data)


def digest(text: str | None) -> str | None:
    """What a probe keeps of a text it read: its hash (None for none)."""
    if text is None:
        return None
    import hashlib

    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


def bom_of(head: bytes) -> str | None:
    """The encoding whose BOM a file's first bytes ``head`` start with (``UTF-8``,
    ``UTF-16``, ``UTF-32``); None for none."""
    if head.startswith(BOM_BYTES):
        return "UTF-8"
    codec = text_codec(head)
    return None if codec == "UTF-8" else codec


def read_markdown(handle: BinaryIO) -> tuple[str, int | None, str | None]:
    """A Markdown file opened in binary mode as :func:`~skillc_index.read_parsed` reads it
    (its text, and the line count of a longer one), and the BOM it starts with
    (:func:`bom_of`): its first bytes taken from the same read, not a new open."""
    head = handle.read(4)
    handle.seek(0)
    text, lines = read_parsed(handle)
    return text, lines, bom_of(head)


def _bom(root: Path, rel: str) -> str | None:
    """:func:`bom_of` a file the lint has not read (its text known from the last lint: the
    language server's); None for one that cannot be read."""
    try:
        with open_in_root(root, rel) as handle:
            return bom_of(handle.read(4))
    except (OSError, SkillcError):
        return None


def _encoding(root: Path, rel: str) -> str | None:
    """:func:`~skillc_index.files.encoding_problem` of a Markdown file's bytes, as far as the
    rules read it (``MARKDOWN_READ_LIMIT``); None when it cannot be read."""
    from skillc_index.files import encoding_problem, read_in_root
    from skillc_index.markdown.reading import MARKDOWN_READ_LIMIT

    try:
        data = read_in_root(root, rel, MARKDOWN_READ_LIMIT + 1)
    except (OSError, SkillcError):
        return None
    cut = len(data) > MARKDOWN_READ_LIMIT
    return encoding_problem(data[:MARKDOWN_READ_LIMIT], cut=cut)


def _executable(root: Path, rel: str) -> bool:
    try:
        from skillc_index.digests import executable

        return executable(safe_join(root, rel).stat().st_mode)
    except (OSError, SkillcError):
        return False


def _exists(root: Path, rel: str) -> bool:
    return os.path.exists(os.path.join(root, rel))  # noqa: PTH110, PTH118


def _never_packaged(root: Path, rel: str) -> str:
    """Why every package leaves out the path ``rel`` of the skill (""; nothing says so)."""
    from skillc_index.skill_files import never_packaged

    return never_packaged(rel, os.path.realpath(root))


def _not_packaged(root: Path, rel: str) -> bool:
    """Whether the file ``rel`` of the skill is in no package, as ``skc package`` judges it
    (:func:`~skillc_index.layout.not_packaged`, symlinks followed)."""
    from skillc_index.layout import not_packaged

    return not_packaged(rel, os.path.realpath(root))


def _leaves(root: Path, rel: str) -> bool:
    try:
        safe_join(root, rel)
    except PathEscapesRoot:
        return True
    except SkillFileNotFound:  # a NUL byte, a loop: SKL301 says not found
        pass
    return False


def _sibling(root: Path, rel: str) -> str | None:
    rel = rel.partition("?")[0]
    here = root.absolute()
    parent = here.parent
    landed = posixpath.normpath(posixpath.join(here.as_posix(), rel))
    if not landed.startswith(parent.as_posix().rstrip("/") + "/"):
        return None
    path = landed[len(parent.as_posix().rstrip("/")) + 1 :]
    skill, _, rest = path.partition("/")
    if skill == here.name or not (parent / skill / SKILL_FILE).is_file():
        return None
    try:
        if not safe_join(parent / skill, rest or ".").exists():
            return None
    except (PathEscapesRoot, SkillFileNotFound):
        return None
    return path


def _store_skill(root: Path, name: str) -> bool:
    from skillc_index import Layout, resolve_skill

    if (root.parent / name / SKILL_FILE).is_file():
        return True
    try:
        resolve_skill(name, Layout.discover())
    except SkillcError:
        return False
    return True


#: What a rule may ask of the disk beyond the skill's files and Markdown texts, by kind: a
#: function of the skill root and an argument. :class:`Skill` records each answer in
#: :attr:`Skill.probes`; the result cache asks again before reusing a result.
PROBES: dict[str, Callable[[Path, str], object]] = {
    "text": lambda root, rel: digest(read_other(root, rel)),
    "bom": _bom,
    "encoding": _encoding,
    "executable": _executable,
    "exists": _exists,
    "leaves": _leaves,
    "never_packaged": _never_packaged,
    "not_packaged": _not_packaged,
    "sibling": _sibling,
    "skill": _store_skill,
}
