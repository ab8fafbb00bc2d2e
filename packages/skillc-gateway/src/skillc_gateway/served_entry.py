"""What the MCP Skills extension serves of one skill (:mod:`skillc_gateway.served` keeps them
current): the records (:class:`Entry`, its :class:`ServedFile`, a :class:`Snapshot` of them
all), the extension's limits per skill (:data:`MAX_FILES`, :data:`MAX_BYTES`), a file's MIME
type, and whether a skill's frontmatter conforms to the Agent Skills specification
(:func:`read_frontmatter`, :func:`frontmatter_problem`)."""

from __future__ import annotations

import math
from collections.abc import Container
from pathlib import Path
from typing import Any, BinaryIO

from skillc_index import SKILL_FILE, is_markdown
from skillc_index.record import Record

__all__ = [
    "DIRECTORY_MIME",
    "MAX_BYTES",
    "MAX_FILES",
    "Entry",
    "ServedFile",
    "Snapshot",
    "frontmatter_problem",
    "mime_type",
    "open_served",
    "read_frontmatter",
]

#: The extension's limits per skill: files (``SKILL.md`` included) and their total bytes.
MAX_FILES = 512
MAX_BYTES = 16 * 1024 * 1024
#: The MIME type of a directory resource.
DIRECTORY_MIME = "inode/directory"


class ServedFile(Record):
    """One file of a served skill."""

    path: str
    """Relative to the skill's folder, ``/``-separated."""
    size: int
    digest: str
    """``sha256:<64 hex>`` of its bytes."""


class Entry(Record):
    """A served skill: where it is in the namespace, its folder, frontmatter and files."""

    path: str
    """Its skill path (``name``, ``plugin/name``, ``enclosing/folder/name``)."""
    folder: str
    """Its folder's real path."""
    frontmatter: dict[str, Any]
    files: tuple[ServedFile, ...]
    """Bytewise path order (``SKILL.md`` among them)."""
    dirs: tuple[str, ...] = ()
    """Its folders, relative, bytewise order: each a directory resource (one empty, or
    holding hidden files only, too)."""

    @property
    def uri(self) -> str:
        from skillc_index.inventory.uris import file_uri

        return file_uri(self.path, SKILL_FILE)

    def to_dict(self) -> dict[str, Any]:
        """The extension's ``Skill`` object."""
        from skillc_index.inventory.uris import file_uri

        return {
            "uri": self.uri,
            "frontmatter": self.frontmatter,
            "resources": [
                {"uri": file_uri(self.path, f.path), "digest": f.digest, "size": f.size}
                for f in self.files
            ],
        }

    def file(self, relative: str) -> ServedFile | None:
        for served in self.files:
            if served.path == relative:
                return served
        return None

    def children(self, relative: str) -> list[dict[str, Any]] | None:
        """The direct children of its directory ``relative`` (empty: its root; an empty
        folder too), as resources in bytewise order; None when it has no such folder."""
        from skillc_index import fs_bytes
        from skillc_index.inventory.uris import file_uri

        if relative and relative not in self.dirs:
            return None
        prefix = f"{relative}/" if relative else ""
        children: dict[str, dict[str, Any]] = {}  # by path (a path is a file or a folder)
        for served in self.files:
            name = served.path[len(prefix) :]
            if served.path.startswith(prefix) and "/" not in name:
                children[served.path] = {
                    "uri": file_uri(self.path, served.path),
                    "name": name,
                    "mimeType": mime_type(name),
                    "size": served.size,
                }
        for folder in self.dirs:
            name = folder[len(prefix) :]
            if folder.startswith(prefix) and "/" not in name:
                children[folder] = {
                    "uri": file_uri(self.path, folder),
                    "name": name,
                    "mimeType": DIRECTORY_MIME,
                }
        return [children[key] for key in sorted(children, key=fs_bytes)]


class Snapshot(Record):
    """The served skills at one moment: entries by skill path (sorted), and the skills left
    out with the reason."""

    entries: dict[str, Entry]
    refused: dict[str, str]
    pending: frozenset[str] = frozenset()
    """The inventory's (top-level) skills not built yet, whose entries are not among
    :attr:`entries` (:meth:`skillc_gateway.served.ServedSkills.page` builds a page's only)."""


def open_served(entry: Entry, relative: str, tops: Container[str]) -> BinaryIO:
    """The file ``relative`` of the served skill ``entry`` (``tops``: the top-level skills'
    paths), read as its top-level skill's file (a nested skill's ``sub/x``): its tests are
    ``evals/`` at that skill's root only (``layout.in_tests``, the walk's ``tests``), so a
    nested skill's ``evals/``, listed, is read too. Through
    :func:`skillc_index.open_in_root`: hidden names and the tests refused."""
    from skillc_index import open_in_root

    parts = entry.path.split("/")
    outer = (n for n in range(1, len(parts)) if "/".join(parts[:n]) in tops)
    base = "/".join(parts[next(outer, len(parts)) :])  # a nested skill's folder in its top one
    folder = entry.folder[: -len(base) - 1] if base else entry.folder
    path = f"{base}/{relative}" if base else relative
    return open_in_root(Path(folder), path, hidden=False, tests=False)


def mime_type(path: str) -> str:
    """A file's MIME type from its name (``text/markdown`` for ``.md``)."""
    if is_markdown(path) or path.endswith(".markdown"):
        return "text/markdown"
    import mimetypes

    return mimetypes.guess_type(path, strict=False)[0] or "application/octet-stream"


def _json_problem(value: object, depth: int = 0) -> str | None:
    """Why ``value`` (parsed YAML) is not JSON as it is, or None."""
    if depth > 100:
        return "nested too deeply"
    if value is None or isinstance(value, (str, bool, int)):
        return None
    if isinstance(value, float):
        return None if math.isfinite(value) else "a number JSON cannot hold"
    if isinstance(value, list):
        return next((p for item in value if (p := _json_problem(item, depth + 1))), None)
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                return f"a key that is not a string ({key!r})"
            problem = _json_problem(item, depth + 1)
            if problem:
                return problem
        return None
    return f"a value JSON cannot hold ({type(value).__name__})"


def frontmatter_problem(data: dict[str, Any], name: str) -> str | None:
    """Why a skill whose frontmatter is ``data`` is not served at a path ending in ``name``
    (the Agent Skills specification's rules for the fields it defines), or None."""
    from skillc_index.dialect import (
        compatibility_problem,
        description_problem,
        is_text,
        skill_name_problem,
    )

    problem = _json_problem(data)
    if problem:
        return f"frontmatter with {problem}"
    given = data.get("name")
    if not isinstance(given, str):
        return "no name in the frontmatter"
    if skill_name_problem(given):
        return f"name '{given}': {skill_name_problem(given)}"
    if given != name:
        return f"name '{given}' is not its folder's name '{name}'"
    description = data.get("description")
    if not isinstance(description, str):
        return "no description in the frontmatter"
    problem = description_problem(description)
    if problem:
        return problem
    if "license" in data and not is_text(data["license"]):
        return "a license that is not a string"
    compatibility = data.get("compatibility")
    if "compatibility" in data:
        if not is_text(compatibility):
            return "a compatibility that is not a string"
        problem = compatibility_problem(compatibility)
        if problem:
            return problem
    if "metadata" in data and not isinstance(data["metadata"], dict):
        return "metadata that is not a mapping"
    tools = data.get("allowed-tools")
    if "allowed-tools" in data and not (
        isinstance(tools, str)
        or (isinstance(tools, list) and all(isinstance(t, str) for t in tools))
    ):
        return "allowed-tools that are not a string"
    return None


def read_frontmatter(data: bytes) -> dict[str, Any] | str:
    """The frontmatter of a ``SKILL.md``'s bytes as a YAML 1.2 reader (an agent) reads it,
    or why there is none."""
    from skillc_index.markdown.frontmatter import as_yaml_12, parse_frontmatter

    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return "a SKILL.md that is not UTF-8"
    front = parse_frontmatter(text)
    if front.data is None:
        return front.error or "no frontmatter"
    return as_yaml_12(front)
