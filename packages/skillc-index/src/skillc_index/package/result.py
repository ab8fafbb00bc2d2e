"""What ``skc package`` wrote (:func:`skillc_index.package.make.package_skills`)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from skillc_index.diagnostics import Diagnostic, Notice, warning_text
from skillc_index.record import Record

if TYPE_CHECKING:
    from skillc_index.build.project import FieldChange
    from skillc_index.package.shapes import PackageIgnoredShape, PackageShape

__all__ = ["FileAction", "LeftOut", "PackageResult", "PackagedFile"]

#: Why a file was moved aside: at a package path, or where the package needs a folder.
_WHY = {True: "was not written by skillc", False: "was where the package needs a folder"}


#: What a run did with a file, in ``build``'s words for a deployment: written where none was,
#: written over what was there, or left as it was (the same bytes and executable bit).
FileAction = Literal["created", "replaced", "unchanged"]


class PackagedFile(Record):
    """One file of the package: its path under the output folder, SHA-256 (hex), size, and
    whether it was written (:data:`FileAction`)."""

    path: str
    sha256: str
    size: int
    action: FileAction


class LeftOut(Record):
    """What a skill's ``.gitignore`` files exclude, left out of the package."""

    skill: str
    path: str
    """Relative to the skill's folder: a file, or a folder (ending in ``/``) and all below it."""
    by: str
    """The ``.gitignore`` file excluding it, relative to the skill's folder."""
    target: str | None = None
    """For a symlink: the excluded path it leads to (the link itself is not excluded)."""

    def to_dict(self) -> PackageIgnoredShape:
        shape: PackageIgnoredShape = {"skill": self.skill, "path": self.path, "by": self.by}
        if self.target is not None:
            shape["target"] = self.target
        return shape


@dataclass(frozen=True)
class PackageResult:
    format: str
    output: Path
    skills: tuple[str, ...]
    files: tuple[PackagedFile, ...]
    fields: tuple[tuple[str, FieldChange], ...]
    """Each skill's frontmatter fields the format drops or changes: (skill, change)."""
    moved: tuple[tuple[Path, Path], ...] = ()
    """Files skc package did not write that ``force`` moved aside: (path, where it went)."""
    notices: tuple[Diagnostic | Notice, ...] = ()
    """The warnings of the skills' resolution (W001: a name several installed skills have,
    the skill packaged the first of them), and one per entry of ``dropped``."""
    dropped: tuple[str, ...] = ()
    """The names an earlier run's index listed, dropped from it (their files changed or are
    gone since)."""
    ignored: tuple[LeftOut, ...] = ()
    """What the skills' ``.gitignore`` files exclude, left out."""

    @property
    def warnings(self) -> tuple[Diagnostic | Notice, ...]:
        """The resolution's notices, one per field dropped or changed, naming the skill, the
        format and the field, and one per file moved aside (saying why)."""
        fields = [Notice(change.named(skill)) for skill, change in self.fields]
        paths = {self.output / item.path for item in self.files}
        moved = [Notice(f"{path} {_WHY[path in paths]}: moved to {to}") for path, to in self.moved]
        return (*self.notices, *fields, *moved)

    def to_dict(self) -> PackageShape:
        return {
            "format": self.format,
            "output": str(self.output),
            "skills": list(self.skills),
            "files": [
                {"path": item.path, "sha256": item.sha256, "size": item.size, "action": item.action}
                for item in self.files
            ],
            "fields": [{"skill": skill, **change.to_dict()} for skill, change in self.fields],
            "moved": [{"path": str(path), "backup": str(to)} for path, to in self.moved],
            "dropped": list(self.dropped),
            "ignored": [item.to_dict() for item in self.ignored],
            "warnings": [warning_text(notice) for notice in self.warnings],
        }
