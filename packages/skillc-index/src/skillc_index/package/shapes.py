"""The JSON shape of ``skc package`` (``--format json``), made into no tool's schema: the
operation is command line only.

No ``from __future__ import annotations``: the annotations are evaluated as the classes are
made (as :mod:`skillc_index.build.shapes` explains)."""

from typing import Annotated, Literal, TypedDict

__all__ = [
    "PackageFieldShape",
    "PackageFileShape",
    "PackageIgnoredShape",
    "PackageMovedShape",
    "PackageShape",
]


class PackageFileShape(TypedDict):
    path: Annotated[str, "Relative to the output folder."]
    sha256: str
    size: int
    action: Annotated[
        Literal["created", "replaced", "unchanged"],
        "unchanged: the same bytes and executable bit were there, left as they were.",
    ]


class PackageFieldShape(TypedDict):
    skill: str
    target: Annotated[str, "The package format."]
    agent: str
    field: str
    action: str
    detail: str


class PackageMovedShape(TypedDict):
    path: Annotated[str, "A file in the package's way, which --force moved aside."]
    backup: Annotated[str, "Where it went: a hidden .NAME.skillc-backup-<time> beside it."]


class _PackageIgnoredShape(TypedDict):
    skill: str
    path: Annotated[str, "Left out, relative to the skill: a file, or a folder ending in /."]
    by: Annotated[str, "The skill's .gitignore file excluding it (or the symlink's target)."]


class PackageIgnoredShape(_PackageIgnoredShape, total=False):
    target: Annotated[str, "For a symlink: the excluded path it leads to."]


class PackageShape(TypedDict):
    format: str
    output: str
    skills: list[str]
    files: list[PackageFileShape]
    fields: list[PackageFieldShape]
    moved: list[PackageMovedShape]
    dropped: Annotated[list[str], "Names an earlier run's index listed, dropped from it."]
    ignored: list[PackageIgnoredShape]
    warnings: list[str]
