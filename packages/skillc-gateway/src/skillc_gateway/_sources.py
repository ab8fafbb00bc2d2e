"""``sources``: the files of a skill as a tree (RFC-0002:C-SOURCES, DECISIONS "Gateway").

The skill's ``SKILL.md`` comes first (the RFC's example lists it first, and a listing cut by
``limit`` must still show it), then folders before files at each level, each group in bytewise
order. ``depth`` shows that many levels; a folder at the last level is collapsed to
``name/ (K files)``, and one :data:`MAX_DEPTH` levels down always is. ``limit`` caps the
entries shown (the root line aside) and ends the listing with ``... (N more)``; 0 or None
shows them all.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from skillc_index import (
    SKILL_FILE,
    ResolvedSkill,
    SkillDirectoryNotFound,
    counted,
    fs_bytes,
    safe_join,
    walk_skill,
)

if TYPE_CHECKING:
    from skillc_gateway.shapes import TreeNode, TreeRoot
    from skillc_index.glob import IgnoreRules

DEFAULT_LIMIT = 100
#: The most levels shown, whatever ``depth`` says: a folder this deep is collapsed with its
#: file count (the corpus's deepest file is 3 folders down). Each level nests the JSON
#: listing twice: a chain of folders 500 deep went past what Python's recursion limit lets
#: ``json`` write, and clients' parsers stop sooner (Rust's serde_json at 128 levels).
MAX_DEPTH = 50


@dataclass
class Node:
    """A file (no children) or a folder of the tree."""

    name: str
    path: str
    folder: bool
    children: dict[str, Node] = field(default_factory=dict)
    file_count: int = 0
    """Files anywhere under a folder, counted as the tree is built (0 for a file)."""

    def ordered(self) -> list[Node]:
        """Children: the skill's SKILL.md first, then folders, then files, each by bytewise
        name (``path`` is relative to the skill root: only the root's SKILL.md is first)."""
        return sorted(
            self.children.values(),
            key=lambda n: (n.path != SKILL_FILE or n.folder, not n.folder, fs_bytes(n.name)),
        )


@dataclass(frozen=True)
class Entry:
    """One line of the listing below the root."""

    depth: int
    """1 for the root's children."""
    node: Node
    collapsed: bool
    last: tuple[bool, ...]
    """For each level down to this entry: whether that ancestor (or the entry) is its folder's
    last child; this is what draws the tree's branches."""


@dataclass(frozen=True)
class SourceTree:
    """The result of :func:`source_tree`."""

    root: Node
    entries: tuple[Entry, ...]
    """Every entry within ``depth``, before ``limit``."""
    limit: int | None
    """At most this many entries are shown; None: all of them."""

    @property
    def shown(self) -> tuple[Entry, ...]:
        return self.entries if self.limit is None else self.entries[: self.limit]

    @property
    def more(self) -> int:
        return len(self.entries) - len(self.shown)

    def lines(self) -> list[str]:
        """The text listing: ``name/`` then ``├── ``/``└── `` branches."""
        out = [f"{self.root.name}/"]
        shown = self.shown
        for entry in shown:
            out.append(_prefix(entry.last) + _label(entry))
        if self.more:
            nxt = self.entries[len(shown)]
            stem = _prefix((*nxt.last[:-1], True))
            out.append(f"{stem}... ({self.more} more)")
        return out

    def to_dict(self) -> TreeRoot:
        """Nested JSON: folders with ``children`` (or ``file_count`` when collapsed)."""
        shown = {id(entry.node): entry for entry in self.shown}

        def convert(node: Node) -> TreeNode:
            entry = shown.get(id(node))
            item = _item(node, node is self.root or (entry is not None and not entry.collapsed))
            if "children" in item:
                item["children"] = [
                    convert(child) for child in node.ordered() if id(child) in shown
                ]
            return item

        return {**convert(self.root), "truncated": self.more}

    def items(self) -> list[TreeNode]:
        """Each entry's own part of :meth:`to_dict` (its ``children`` empty), in order: what
        each adds to the JSON, for a front end that bounds its replies."""
        return [_item(entry.node, not entry.collapsed) for entry in self.entries]

    def cut(self, limit: int) -> SourceTree:
        """The same tree showing at most ``limit`` entries."""
        return SourceTree(self.root, self.entries, limit)


def _item(node: Node, expanded: bool) -> TreeNode:
    """A node's JSON without its children's (``children`` empty when it is an expanded
    folder)."""
    item: TreeNode = {
        "name": node.name,
        "path": node.path,
        "type": "directory" if node.folder else "file",
    }
    if node.folder:
        item["file_count"] = node.file_count
        if expanded:
            item["children"] = []
    return item


def _prefix(last: tuple[bool, ...]) -> str:
    stems = "".join("    " if done else "│   " for done in last[:-1])
    return stems + ("└── " if last[-1] else "├── ")


def _label(entry: Entry) -> str:
    node = entry.node
    if not node.folder:
        return node.name
    if entry.collapsed:
        count = node.file_count
        return f"{node.name}/ ({counted(count, 'file')})"
    return f"{node.name}/"


def _build(files: list[str], root_name: str, base: str) -> Node:
    """The tree of ``files`` (relative to ``base``, its nodes' paths relative to the skill),
    each folder counting the files under it: one pass, a step per level of each file (a
    recursive count took two frames per level, E999 RecursionError on a deep chain)."""
    root = Node(root_name, base, True)
    prefix = f"{base}/" if base else ""
    for relative in files:
        parts = relative.split("/")
        node = root
        node.file_count += 1
        end = -1
        for index, part in enumerate(parts):
            end += len(part) + 1
            child = node.children.get(part)
            if child is None:
                path = prefix + relative[:end]
                child = node.children[part] = Node(part, path, index < len(parts) - 1)
            node = child
            if node.folder:
                node.file_count += 1
    return root


def source_tree(
    skill: ResolvedSkill,
    *,
    depth: int | None = None,
    directory: str | None = None,
    limit: int | None = DEFAULT_LIMIT,
    pattern: str | None = None,
) -> SourceTree:
    """The skill's files as a tree (hidden files and folders are not sources, nor what the
    skill's ``.gitignore`` files exclude: :func:`~skillc_index.skill_files.walk_skill`).

    ``directory`` scopes the tree to a subfolder (E012 outside the skill, E022 if it is not a
    folder, E021 if it is hidden or leads to a hidden folder, or the skill's ``.gitignore``
    files exclude it, as ``open`` refuses such a file: :func:`~skillc_index.glob.refusal`);
    ``depth`` counts from there.
    ``pattern`` is a gitignore-style glob (``*.md``, ``references/**``) matched against paths
    relative to the skill root, both composed (``résumé*`` typed matches a name a Mac wrote
    decomposed: :class:`~skillc_index.glob.Glob`'s ``typed``); folders are shown when they
    hold a matching file. ``limit`` 0
    or None: every entry. E100 for a value of the wrong type, a ``depth`` below 1 or a
    ``limit`` below 0, as the command line and the MCP tool refuse them
    (:func:`~skillc_index.parameters.checked_values`).
    """
    from skillc_gateway.operations import SourcesParams
    from skillc_index.parameters import checked_values

    values = {
        "depth": depth,
        "dir": directory,
        "limit": 0 if limit is None else limit,
        "pattern": pattern,
    }
    python = {"dir": "directory"}
    depth, directory, limit, pattern = checked_values(SourcesParams, values, python).values()
    real = os.path.realpath(skill.source)
    rules: list[IgnoreRules] = []  # the .gitignore files' rules the walk read (if it met any)
    files = list(walk_skill(skill.source, real_root=real, rules=rules).files)
    base = ""
    root_name = skill.name
    if directory not in (None, "", "."):
        target = safe_join(skill.source, directory, SkillDirectoryNotFound, real_root=real)
        if not target.is_dir():
            raise SkillDirectoryNotFound(directory)
        base = target.relative_to(real).as_posix()
        from skillc_index.glob import IgnoreRules, refusal

        # by the .gitignore rules the walk read (none when it met none)
        ruled = rules[0] if rules else IgnoreRules()
        refused = refusal(skill.source, real, directory, base, folder=True, rules=ruled)
        if refused is not None:
            raise refused
        if base == ".":
            base = ""
        root_name = base.rsplit("/", 1)[-1] if base else skill.name
    if base:
        files = [f[len(base) + 1 :] for f in files if f.startswith(base + "/")]
    if pattern:
        from skillc_index.glob import Glob

        glob = Glob(pattern, typed=True)  # gitignore rules, no backtracking, composed
        files = [f for f in files if glob.match(f"{base}/{f}" if base else f)]
    root = _build(files, root_name, base)
    deepest = MAX_DEPTH if depth is None else min(depth, MAX_DEPTH)
    entries: list[Entry] = []

    def walk(node: Node, level: int, last: tuple[bool, ...]) -> None:  # MAX_DEPTH frames
        children = node.ordered()
        for index, child in enumerate(children):
            marks = (*last, index == len(children) - 1)
            collapsed = child.folder and level >= deepest
            entries.append(Entry(level, child, collapsed, marks))
            if child.folder and not collapsed:
                walk(child, level + 1, marks)

    walk(root, 1, ())
    return SourceTree(root, tuple(entries), limit or None)
