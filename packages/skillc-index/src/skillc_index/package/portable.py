"""The one home of "this file name cannot be unpacked on Windows or macOS": what ``skc
package`` refuses or warns of in a skill's paths, and what skillc-lint's SKL933 says of them
beforehand (the same functions, so the two never disagree).

- Refused (E070, every format): a name that is not UTF-8 (no zip entry, JSON record or package
  path can hold it); a backslash, or a part starting with a drive letter (``C:``): a zip's
  separator is ``/`` alone (APPNOTE 4.4.17), and an extractor on Windows reads
  ``x\\..\\..\\evil`` or ``C:x`` as a path out of the folder.
- Warned of (:func:`path_problem`): a ``:`` elsewhere, any of ``* ? " < > |``, a control
  character, a name Windows keeps for a device (``CON``, ``PRN``, ``AUX``, ``NUL``,
  ``COM1``-``COM9``, ``LPT1``-``LPT9``, and the superscript ``COM¹``... Microsoft's page
  "Naming Files, Paths, and Namespaces" lists, in any case, with any extension) as any part,
  a part ending with a dot or a space (Windows drops them: the name is another file's
  there), and a path longer than :data:`MAX_PORTABLE_PATH` characters.
- Warned of (:func:`clashes`): two paths one file on macOS (APFS, HFS+) and Windows (NTFS):
  their names equal but for case or Unicode normalisation, a file's and a folder's too.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from skillc_index.record import Record

__all__ = ["MAX_PORTABLE_PATH", "PathProblem", "clashes", "path_problem", "path_problems"]

#: The longest relative path a skill's file may have: Windows' 260 characters (MAX_PATH, with
#: long paths off, as they are by default) less room for the folder it is installed in
#: (``C:\Users\<name>\.claude\skills\<skill>\`` takes 40 and more).
MAX_PORTABLE_PATH = 200
#: What a zip may not hold (refused): a backslash (a separator on Windows) anywhere, a drive
#: letter at the start of a part (``docs/q:a.md``: ``ntpath.join`` and an extractor on
#: Windows take ``q:a.md`` for a path on the drive Q:, out of the folder).
_BACKSLASH = "a backslash, read as a separator on Windows"
_DRIVE_PART = (
    "a part starting with a drive letter ('{drive}' in '{part}'), read as a path on Windows"
)
_DRIVE = re.compile(r"[A-Za-z]:")
#: The characters Windows refuses in a file name (``:`` has a message of its own).
_FORBIDDEN = re.compile(r'[*?"<>|\x00-\x1f]')
#: The names Windows keeps for devices, with any extension (the part before its first dot,
#: trailing spaces left out).
_DEVICES = frozenset(
    {"CON", "PRN", "AUX", "NUL"}
    | {f"{port}{digit}" for port in ("COM", "LPT") for digit in "123456789\u00b9\u00b2\u00b3"}
)


class PathProblem(Record):
    """What is wrong with a path of a skill's package."""

    path: str
    """The path at fault: the file's, or that of the folder of it whose name is (once for
    all its files)."""
    text: str
    """What is wrong, as ``skc package`` and skillc-lint say it."""
    refused: bool = False
    """Whether ``skc package`` refuses the skill (E070: no zip may hold the name); else a
    warning."""


def _shown(path: str) -> str:
    """``path`` as a message quotes it: escaped (``cafe\\u0301.md``) when it is not composed
    (its composed twin looks the same) or holds a control character."""
    from skillc_index.text import composed, composed_shown, printable

    return printable(path) if composed(path) == path else composed_shown(path)


def path_problem(rel: str) -> PathProblem | None:
    """Why the file ``rel`` (a relative POSIX path of a skill) cannot be unpacked as it is on
    Windows or macOS, the first reason found (a folder's before its file's); None when it
    can. Refused (:attr:`PathProblem.refused`) for a name that is not UTF-8 (read with lone
    surrogates), a backslash or a drive letter."""
    from skillc_index.files import is_utf8

    if not is_utf8(rel):
        shown = rel.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
        return PathProblem(rel, f"a file name that is not UTF-8: {shown}", True)
    parts = rel.split("/")
    drive = next((part for part in parts if _DRIVE.match(part)), None)
    if "\\" in rel or drive is not None:
        refused = _BACKSLASH if drive is None else _DRIVE_PART.format(drive=drive[:2], part=drive)
        return PathProblem(rel, f"a file name that no zip may hold ({refused}): {rel}", True)
    for end, part in enumerate(parts, 1):
        why = _part_problem(part)
        if why is not None:
            path = "/".join(parts[:end])
            return PathProblem(path, f"'{_shown(path)}' {why}: it cannot be unpacked there")
    length = len(rel.encode("utf-16-le")) // 2  # as Windows counts: UTF-16 code units
    if length > MAX_PORTABLE_PATH:
        why = (
            f"is {length} characters long, over {MAX_PORTABLE_PATH}: with the folder it is "
            "installed in, past the 260 Windows takes, so it may not be unpacked there"
        )
        return PathProblem(rel, f"'{_shown(rel)}' {why}")
    return None


def _part_problem(part: str) -> str | None:
    """Why Windows or macOS cannot hold a file or folder named ``part``, or None."""
    if ":" in part:
        return "holds ':', which no Windows file name may hold (macOS's Finder shows it as '/')"
    forbidden = _FORBIDDEN.search(part)
    if forbidden is not None:
        char = forbidden.group()
        shown = f"'{char}'" if char.isprintable() else f"a control character ({char!a})"
        return f"holds {shown}, which no Windows file name may hold"
    device = part.split(".", 1)[0].rstrip(" ").upper()
    if device in _DEVICES:
        return f"names the device {device} on Windows (whatever its extension)"
    if part.endswith((".", " ")):
        end = "a dot" if part.endswith(".") else "a space"
        return f"ends with {end}, which Windows drops from a name"
    return None


def clashes(paths: Iterable[str]) -> list[PathProblem]:
    """The pairs of the files ``paths`` (relative POSIX paths) that one file system of
    macOS (APFS, HFS+) or Windows (NTFS) takes for one: names equal once composed (NFC) and
    lower-cased (``str.lower``: those file systems fold case letter by letter, so ``ß`` is
    not ``ss``), of two files, or of a file and a folder of another's path (a ``guide`` file
    and ``Guide/x.md``). One warning per pair, at the later path (bytewise), both named as
    shown (:func:`_shown`)."""
    import unicodedata

    def key(path: str) -> str:
        return unicodedata.normalize("NFC", path).lower()

    files = sorted(paths)
    folders: dict[str, str] = {}
    for rel in files:
        parts = rel.split("/")[:-1]
        for end in range(1, len(parts) + 1):
            above = "/".join(parts[:end])
            folders.setdefault(key(above), above)
    seen: dict[str, str] = {}
    found = []
    for rel in files:
        first = seen.setdefault(key(rel), rel)
        if first != rel:
            found.append(
                PathProblem(
                    rel,
                    f"'{_shown(first)}' and '{_shown(rel)}' differ only in case or Unicode "
                    "normalisation: one file on macOS and Windows, where one replaces the "
                    "other once extracted",
                )
            )
        folder = folders.get(key(rel))
        if folder is not None:
            found.append(
                PathProblem(
                    rel,
                    f"'{_shown(rel)}' and the folder '{_shown(folder)}' differ only in case or "
                    "Unicode normalisation: one name on macOS and Windows, where the file and "
                    "the folder cannot both be extracted",
                )
            )
    return found


def path_problems(paths: Iterable[str]) -> list[PathProblem]:
    """What :func:`path_problem` says of each of the files ``paths`` (once for a folder of
    several), in their bytewise order, then :func:`clashes`."""
    files = sorted(paths)
    found: dict[str, PathProblem] = {}
    for rel in files:
        problem = path_problem(rel)
        if problem is not None:
            found.setdefault(problem.text, problem)
    return [*found.values(), *clashes(files)]
