"""The index of a package (``skc package``, :mod:`skillc_index.package.make`): the
discovery index of ``--to well-known`` (``.well-known/agent-skills/index.json``) and the
marketplace of ``--to claude-plugin`` (``.claude-plugin/marketplace.json``), which list the
package's files: the entries of an earlier run's index kept (:func:`merge_index`), and the
index a run renames into place before the files it names (:func:`interim_index`)."""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable, Mapping
from pathlib import Path
from typing import Any

from skillc_index.diagnostics import SkillcError
from skillc_index.layout import SKILL_FILE
from skillc_index.package.archive import Content, sha256_of

__all__ = [
    "INDEXES",
    "MARKETPLACE",
    "WELL_KNOWN",
    "as_json",
    "earlier_index",
    "interim_index",
    "merge_index",
    "plugin_manifest",
]

WELL_KNOWN = ".well-known/agent-skills"
MARKETPLACE = ".claude-plugin/marketplace.json"


def as_json(data: object) -> bytes:
    return (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


#: The index of each format that has one: what an earlier run's index listed is kept in it.
INDEXES = {"well-known": f"{WELL_KNOWN}/index.json", "claude-plugin": MARKETPLACE}


def earlier_index(
    output: Path, rel: str, made: Mapping[str, tuple[str, ...]]
) -> tuple[str | None, dict[str, Any]]:
    """The SHA-256 hex digest of the index ``rel`` in ``output`` (None when there is none, or
    it cannot be read whole) and its data (JSON) when an earlier run wrote it as it is (the
    record's digest); ``{}`` when there is none, or it was edited since."""
    from skillc_index.bounded_json import loads_bounded, read_bounded

    try:
        data = read_bounded(output / rel, 1 << 20)
    except (OSError, ValueError):
        return None, {}
    if len(data) > 1 << 20:
        return None, {}
    digest = sha256_of(data)
    try:
        found = loads_bounded(data, max_bytes=1 << 20) if digest in made.get(rel, ()) else {}
    except ValueError:
        found = {}
    return digest, found if isinstance(found, dict) else {}


def merge_index(
    output: Path,
    files: dict[str, Content],
    made: Mapping[str, tuple[str, ...]],
    fmt: str,
    *,
    own: set[str],
    index: dict[str, Any] | None,
    dropped: list[str],
) -> dict[str, str]:
    """``files``' index (:data:`INDEXES`; ``index`` as this run made it) with the entries
    of the earlier run's index kept, each whose files (its artifact; a plugin's manifest and
    its skills' SKILL.md) are as skillc wrote them there (the record's digest), but those of
    the skills packaged now (replaced: a marketplace's plugin of that name, or holding one of
    them, :func:`plugin_skills`, as the record has it: a skill packaged again under another
    plugin name is listed once); the names of those whose files changed or are gone go to
    ``dropped``. A marketplace keeps its earlier ``name``, ``owner`` and ``description``
    unless ``own`` (``{"name", "owner", "description"}``) says this run gives them. Returns
    the digest of the index file there, when it was read (for :func:`_foreign`)."""
    from skillc_index.digests import file_sha256

    def as_written(rel: str) -> bool:
        try:
            return rel in made and file_sha256(str(output / rel)) in made[rel]
        except (OSError, SkillcError):  # gone, a folder, a FIFO: not the file skillc wrote
            return False

    rel = INDEXES.get(fmt)
    if rel is None or index is None:
        return {}
    digest, earlier = earlier_index(output, rel, made)
    known = {rel: digest} if digest is not None else {}
    if not earlier:
        return known
    key, where = ("skills", artifact) if fmt == "well-known" else ("plugins", plugin_manifest)
    names = {entry["name"] for entry in index[key]}
    now = {skill for entry in index[key] for skill in plugin_skills(entry, files)}
    kept = []
    for entry in earlier.get(key) or []:
        if not (isinstance(entry, dict) and isinstance(entry.get("name"), str)):
            continue
        skills = plugin_skills(entry, made)
        if entry["name"] in names or skills & now:
            continue  # replaced by this run's
        named = [where(entry)]
        if skills:  # a plugin's skills' SKILL.md too, as the record lists them
            folder = named[0].removesuffix("/.claude-plugin/plugin.json")
            named += [f"{folder}/skills/{skill}/{SKILL_FILE}" for skill in sorted(skills)]
        if all(as_written(path) for path in named):
            kept.append(entry)
        else:
            dropped.append(entry["name"])
    index[key] = sorted([*index[key], *kept], key=lambda entry: str(entry["name"]))
    if fmt == "claude-plugin":
        for field in {"name", "owner", "description"} - own:
            if isinstance(earlier.get(field), KEPT[field]):  # a str, an owner mapping
                index[field] = earlier[field]
        index["plugins"] = index.pop("plugins")  # last, as written (a description kept: before)
    files[rel] = as_json(index)
    return known


#: What a marketplace keeps of the earlier run's unless this run gives it, and its type.
KEPT: Mapping[str, type] = {"name": str, "owner": dict, "description": str}


def artifact(entry: Mapping[str, Any]) -> str:
    """The file a discovery index entry stands for: ``<name>/SKILL.md`` or ``<name>.zip``."""
    if entry.get("type") == "skill-md":
        return f"{WELL_KNOWN}/{entry['name']}/{SKILL_FILE}"
    return f"{WELL_KNOWN}/{entry['name']}.zip"


def plugin_manifest(entry: Mapping[str, Any]) -> str:
    """The manifest of the plugin a marketplace entry lists (its ``source``, ``./<name>``)."""
    source = entry.get("source")
    return f"{source[2:]}/.claude-plugin/plugin.json" if isinstance(source, str) else ""


def plugin_skills(entry: Mapping[str, Any], paths: Iterable[str]) -> set[str]:
    """The skills of the plugin a marketplace entry lists, by their files among ``paths``
    (``<plugin>/skills/<skill>/...``); none for a discovery index entry (no ``source``)."""
    source = entry.get("source")
    if not isinstance(source, str):
        return set()
    prefix = f"{source[2:]}/skills/"
    return {rel[len(prefix) :].split("/", 1)[0] for rel in paths if rel.startswith(prefix)}


def _entry_files(fmt: str, entry: Mapping[str, Any], paths: Iterable[str]) -> set[str]:
    """The files among ``paths`` an index entry names: a discovery index entry's artifact, a
    marketplace plugin's files (those in its folder, its ``source``)."""
    if fmt == "well-known":
        return {artifact(entry)}
    source = entry.get("source")
    folder = f"{source[2:]}/" if isinstance(source, str) else None
    return {rel for rel in paths if folder is not None and rel.startswith(folder)}


def interim_index(fmt: str, files: Mapping[str, Content], changed: Collection[str]) -> bytes | None:
    """The index (:data:`INDEXES`) renamed into place before the ``changed`` files it names,
    then replaced by the whole one (``files``'): ``files``' index without the entries whose
    files are among ``changed``, so that however many renames a killed run (SIGKILL) made,
    the index there names no file whose digest differs from the one it gives (renamed after
    the files, an index left by a kill before it gave the digests of the files they
    replaced; a discovery client verifying them refused the skills). None when there is no
    index, or it names none of ``changed`` (written with the files as it is)."""
    rel = INDEXES.get(fmt)
    data = files.get(rel) if rel is not None else None
    if rel not in changed or not isinstance(data, bytes):
        return None
    index = json.loads(data)
    key = "skills" if fmt == "well-known" else "plugins"
    entries = [e for e in index[key] if not _entry_files(fmt, e, changed) & set(changed)]
    if len(entries) == len(index[key]):
        return None
    return as_json({**index, key: entries})
