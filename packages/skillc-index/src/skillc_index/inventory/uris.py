"""``skill://`` URIs: where each installed skill is in the namespace the MCP Skills extension
serves (SEP-2640, ``io.modelcontextprotocol/skills``), and the skill a URI names.

A skill's *skill path* is ``/``-separated segments whose last one is the skill's name (the
extension's rule: the frontmatter ``name``, which a conforming skill has as its folder name):

- the skill a bare name resolves to (the first of that name in resolution order:
  :mod:`.resolve`) is at its name: ``skill://pdf/SKILL.md``, unless it is a plugin's (below:
  then no skill is at its bare name; Codex's bundled ``.system`` copy of a plugin's
  ``skill-creator``, which comes after it, is under ``global-codex``);
- a Claude Code plugin's skill is under the plugin's name, as ``plugin:skill`` names it:
  ``skill://superpowers/brainstorming/SKILL.md``; when an earlier plugin of that name has
  the skill, a plugin of another marketplace's is under ``plugin@marketplace``
  (``skill://superpowers@other/brainstorming/...``), the same plugin's (installed at two
  scopes) under ``plugin-2``, ``-3``...;
- another skill of a name an earlier one has (one the bare name does not reach) is under
  where it is, ``<scope>-<agent>`` (``store`` for a store): ``skill://global-codex/pdf/...``,
  ``-2``, ``-3``... added should two be in the same kind of place, or a skill at the top
  have that name (its own folders are under it: one URI names one skill);
- a skill nested in another one (a folder of it holding its own ``SKILL.md``) is under the
  enclosing skill's path and the folders between: ``skill://tools/pdf/forms/SKILL.md``.

A file is ``skill://<skill path>/<path in the skill>``; each segment is percent-encoded
(:func:`file_uri`). The skill's root directory is the skill path without ``/SKILL.md``.
Nothing here reads a file: the paths come from the inventory (file stats).
"""

from __future__ import annotations

from typing import TYPE_CHECKING
from urllib.parse import quote, unquote

if TYPE_CHECKING:
    from pathlib import Path

    from skillc_index.inventory.entries import InstalledSkill, Inventory
    from skillc_index.layout import Layout

__all__ = [
    "MAX_URI_CHARS",
    "SCHEME",
    "file_uri",
    "is_skill_uri",
    "locate",
    "parse_uri",
    "skill_paths",
    "uri_folder",
]

SCHEME = "skill://"
#: A longer URI names nothing (paths are bounded by the file system anyway).
MAX_URI_CHARS = 8192
#: Characters a URI path segment keeps as they are (RFC 3986 ``pchar`` minus the unreserved,
#: which :func:`urllib.parse.quote` keeps anyway).
_SAFE = "!$&'()*+,;=:@"


def is_skill_uri(text: str) -> bool:
    return text[: len(SCHEME)].lower() == SCHEME


def file_uri(skill_path: str, relative: str = "") -> str:
    """The URI of ``relative`` (a ``/``-separated path in the skill; empty: the skill's root
    directory) of the skill at ``skill_path``. A ``:`` of the first segment, the URI's
    authority, is encoded (``%3A``): left there, what follows it would be a port, and
    clients refuse the URI (``skill://a:b/...``)."""
    head, *rest = skill_path.split("/") + ([*relative.split("/")] if relative else [])
    parts = [quote(head, safe=_SAFE.replace(":", ""), errors="surrogateescape")]
    parts += (quote(part, safe=_SAFE, errors="surrogateescape") for part in rest)
    return SCHEME + "/".join(parts)


def parse_uri(uri: str) -> tuple[str, ...] | None:
    """The decoded segments of a ``skill://`` URI (authority first), or None when it is none
    or names nothing a file could be (an empty, ``.`` or ``..`` segment, a NUL, a query or a
    fragment, a backslash). A trailing ``/`` is dropped (a directory written so)."""
    if not is_skill_uri(uri) or len(uri) > MAX_URI_CHARS or "?" in uri or "#" in uri:
        return None
    rest = uri[len(SCHEME) :]
    if rest.endswith("/"):
        rest = rest[:-1]
    segments = tuple(unquote(part, errors="surrogateescape") for part in rest.split("/"))
    for segment in segments:
        if segment in ("", ".", "..") or "/" in segment or "\\" in segment or "\0" in segment:
            return None
    return segments


def skill_paths(inventory: Inventory) -> dict[str, InstalledSkill]:
    """Skill path -> installed skill, for every skill of ``inventory`` (see the module), in
    inventory order, each at a path of its own. The folder a path is under (a plugin's, a
    ``<scope>-<agent>``) is never a skill's name at the top (``-2``, ``-3``... added): under
    the skill ``global-claude``, ``global-claude/pdf`` names its own folder ``pdf`` (a
    skill nested there, its files), never a second ``pdf`` elsewhere."""
    paths: dict[str, InstalledSkill] = {}
    top = _bare_names(inventory)
    names: set[str] = set()
    plugins: set[tuple[str, str | None, str]] = set()

    def taken(path: str) -> bool:
        return path in paths or path.partition("/")[0] in top

    for skill in inventory.skills:
        first = skill.locations[0]
        if first.plugin is not None:
            names.add(skill.name)  # the bare name reads it: no later skill is at that name
            path = f"{first.plugin}/{skill.name}"
            plugin = (first.plugin, first.marketplace, skill.name)
            if taken(path) and first.marketplace is not None and plugin not in plugins:
                path = f"{first.plugin}@{first.marketplace}/{skill.name}"  # another market's
            plugins.add(plugin)
            base, count = path.rpartition("/")[0], 1
            while taken(path):  # the same plugin installed twice (user and project)
                count += 1
                path = f"{base}-{count}/{skill.name}"
        elif skill.name not in names:
            names.add(skill.name)
            path = skill.name
        else:
            base = f"{first.scope}-{first.agent or 'store'}"
            path, count = f"{base}/{skill.name}", 1
            while taken(path):
                count += 1
                path = f"{base}-{count}/{skill.name}"
        paths.setdefault(path, skill)
    return paths


def _bare_names(inventory: Inventory) -> set[str]:
    """The names :func:`skill_paths` gives a bare path (``skill://pdf``), by its rules: a
    skill of no plugin first of its name, no plugin's skill of that name before it. Only
    those are at the top (a name a plugin's skill took is not: nothing steps aside from it)."""
    names: set[str] = set()
    top: set[str] = set()
    for skill in inventory.skills:
        if skill.locations[0].plugin is None and skill.name not in names:
            top.add(skill.name)
        names.add(skill.name)
    return top


def locate(segments: tuple[str, ...], paths: dict[str, InstalledSkill]) -> tuple[str, str] | None:
    """``(skill path, path in that skill)`` of a URI's segments: the installed skill whose
    path they start with (the longest), and the rest (empty for the skill's root)."""
    for length in range(min(len(segments), 3), 0, -1):
        path = "/".join(segments[:length])
        if path in paths:
            return path, "/".join(segments[length:])
    return None


def uri_folder(uri: str, layout: Layout) -> Path | None:
    """The folder of the skill ``uri`` names (``skill://<skill path>/SKILL.md``, or the
    skill's root directory ``skill://<skill path>``), a nested one included; None when no
    installed skill is there. What ``skc show skill://...`` resolves (as a path)."""
    from skillc_index.config import load_config
    from skillc_index.inventory.entries import installed_skills
    from skillc_index.inventory.folders import trusted_targets
    from skillc_index.layout import SKILL_FILE

    segments = parse_uri(uri)
    if segments is None:
        return None
    if segments[-1] == SKILL_FILE:
        segments = segments[:-1]
    if not segments:
        return None
    inventory = installed_skills(layout, trusted_targets(layout, load_config(layout)))
    paths = skill_paths(inventory)
    found = locate(segments, paths)
    if found is None:
        return None
    path, rest = found
    folder = paths[path].source
    if rest:
        from skillc_index.diagnostics import SkillcError
        from skillc_index.files import is_hidden, safe_join

        if is_hidden(rest):
            return None
        try:
            folder = safe_join(folder, rest)
        except SkillcError:  # E012/E021: out of the skill, or no folder can be there
            return None
    return folder if (folder / SKILL_FILE).is_file() else None
