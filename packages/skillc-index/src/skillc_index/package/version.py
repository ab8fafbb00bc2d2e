"""A plugin's version in ``skc package`` (:func:`~skillc_index.package.make.package_skills`):
the one a run writes (:func:`plugin_version`: ``--version``, else the last one known there,
:class:`Earlier`), written into the plugin's manifest and its marketplace entry
(:func:`write_version`), and its warnings (:func:`version_notices`: going backwards, files
changed with the version not)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from skillc_index.diagnostics import Notice

if TYPE_CHECKING:
    from pathlib import Path

    from skillc_index.package.archive import Content
    from skillc_index.package.result import PackagedFile

__all__ = [
    "FIRST_VERSION",
    "Earlier",
    "plugin_version",
    "read_earlier",
    "version_notices",
    "write_version",
]

#: A plugin's version when neither ``--version`` nor an earlier run's files give one.
FIRST_VERSION = "1.0.0"


class Earlier(NamedTuple):
    """What an earlier run left of the plugin in the output folder, read under its lock:
    ``manifest``, its manifest as that run wrote it (``{}``: none, or edited since);
    ``listed``, the version of its entry in the marketplace as that run wrote it; ``edited``,
    the version of its manifest there edited since (what ``--force`` moves aside)."""

    manifest: Mapping[str, Any] = {}
    listed: object = None
    edited: object = None

    def known(self) -> list[tuple[str, str]]:
        """The versions known, each a version :func:`plugin_version` may keep, with where it
        was read, in the order :func:`plugin_version` prefers them among equals."""
        from skillc_index.option_errors import ParameterError
        from skillc_index.package.formats import check_plugin_options

        found = []
        for version, where in (
            (self.manifest.get("version"), "the last package's"),
            (self.listed, "its marketplace entry's"),
            (self.edited, "its plugin.json's, edited since"),
        ):
            if not isinstance(version, str):
                continue
            try:
                check_plugin_options(None, version, None, None)
            except ParameterError:  # (an older skillc's: a line break was written as given)
                continue
            found.append((version, where))
        return found

    def highest(self, than: str | None = None) -> tuple[str, str] | None:
        """The highest of the versions :meth:`known` (the first of those none is higher than,
        :func:`_lower`: one not comparable is never higher), with where it was read; only one
        higher than ``than`` when given; None when there is none."""
        best = None
        for version, where in self.known():
            if than is not None and not _lower(than, version):
                continue
            if best is None or _lower(best[0], version):
                best = (version, where)
        return best


def read_earlier(output: Path, rel: str | None, made: Mapping[str, tuple[str, ...]]) -> Earlier:
    """What an earlier run left of the plugin whose manifest is ``rel`` in ``output`` (none:
    no plugin), by the record of what it wrote (``made``): the manifest as it wrote it, the
    version of its marketplace entry as written, and the version of the manifest edited."""
    from skillc_index.package.indexes import MARKETPLACE, earlier_index, plugin_manifest

    if rel is None:
        return Earlier()
    digest, manifest = earlier_index(output, rel, made)
    edited = None
    if not manifest and digest is not None:  # read as it is now (force moves it aside)
        edited = earlier_index(output, rel, {rel: (digest,)})[1].get("version")
    listed = None
    if rel.endswith("/.claude-plugin/plugin.json"):  # claude-plugin: a marketplace too
        for entry in earlier_index(output, MARKETPLACE, made)[1].get("plugins") or []:
            if isinstance(entry, dict) and plugin_manifest(entry) == rel:
                listed = entry.get("version")
    return Earlier(manifest, listed, edited)


def plugin_version(given: str | None, earlier: Earlier) -> str:
    """The version a run writes into the plugin's manifest and its marketplace entry:
    ``given`` (``--version``), else the highest one known there (:meth:`Earlier.highest` of
    the manifest as the last run wrote it, its marketplace entry as written and the manifest
    edited since, each within :func:`~skillc_index.package.formats.check_plugin_options`'
    bounds; among equals or versions not comparable, in that order), else
    :data:`FIRST_VERSION`: a run without ``--version`` never takes the version back (Claude
    Code installs any changed version), not even below one the user wrote into plugin.json."""
    if given is not None:
        return given
    highest = earlier.highest()
    return FIRST_VERSION if highest is None else highest[0]


def write_version(
    files: dict[str, Content], index: dict[str, Any] | None, rel: str, version: str
) -> None:
    """``version`` written into the plugin's manifest ``rel`` among ``files`` (as
    :func:`~skillc_index.package.formats.layout_plugin` made it) and its entry of the
    marketplace ``index`` (``claude-plugin``; and that file), when it is not the one laid
    out."""
    import json

    from skillc_index.package.indexes import MARKETPLACE
    from skillc_index.package.indexes import as_json as _json

    data = files[rel]
    manifest = json.loads(data) if isinstance(data, bytes) else {}
    if manifest.get("version") in (None, version):
        return
    manifest["version"] = version
    files[rel] = _json(manifest)
    if index is None:
        return
    for entry in index["plugins"]:
        if entry["name"] == manifest["name"]:
            entry["version"] = version
    files[MARKETPLACE] = _json(index)


def version_notices(
    plugin: str, version: str, earlier: Earlier, written: Sequence[PackagedFile]
) -> tuple[Notice, ...]:
    """The warnings of the plugin's ``version`` written: lower than a version known there
    (``earlier``, the highest named; given or kept: Claude Code sees a changed version and
    installs the lower one over it), and :func:`stale_version`'s."""
    higher = earlier.highest(than=version)
    back: tuple[Notice, ...] = ()
    if higher is not None:
        before, where = higher
        back = (
            Notice(
                f"{plugin}: its version goes backwards from {before} ({where}) to {version}: "
                f"Claude Code installs it over {before} all the same"
            ),
        )
    return back + stale_version(plugin, version, earlier.manifest, written)


def stale_version(
    plugin: str, version: str, earlier: Mapping[str, Any], written: Sequence[PackagedFile]
) -> tuple[Notice, ...]:
    """A warning when the plugin's files changed since the last run (``written``: an action
    other than ``unchanged`` under ``<plugin>/``) and its version did not (``earlier``: the
    manifest that run wrote, when still as it wrote it): Claude Code installs a plugin's
    update only when its version changes."""
    if earlier.get("version") != version:
        return ()
    prefix = f"{plugin}/"
    if all(f.action == "unchanged" for f in written if f.path.startswith(prefix)):
        return ()
    import re

    parts = re.fullmatch(r"(\d+)\.(\d+)\.(\d+)", version)
    bump = f"{parts[1]}.{parts[2]}.{int(parts[3]) + 1}" if parts else "a newer one"
    return (
        Notice(
            f"{plugin}: its files changed since the last package, its version did not "
            f"({version}): Claude Code updates an installed plugin only when the version "
            f"changes; pass --version ({bump})"
        ),
    )


def _lower(version: str, than: str) -> bool:
    """Whether ``version`` comes before ``than`` as Semantic Versioning orders them (numbers
    of any count, the missing ones 0: ``2024.1``; a pre-release before its release); False
    when either is not such a version."""
    one, other = _precedence(version), _precedence(than)
    if one is None or other is None:
        return False
    width = max(len(one[0]), len(other[0]))
    return (_padded(one[0], width), one[1]) < (_padded(other[0], width), other[1])


_Precedence = tuple[tuple[int, ...], tuple[tuple[int, int, str], ...]]


def _precedence(version: str) -> _Precedence | None:
    """``version``'s numbers and its pre-release's identifiers (none: after every
    pre-release; a number before a word), or None when it is no such version."""
    import re

    found = re.fullmatch(r"v?(\d+(?:\.\d+)*)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?", version)
    if found is None:
        return None
    numbers = tuple(int(part) for part in found[1].split("."))
    if found[2] is None:
        return numbers, ((2, 0, ""),)
    return numbers, tuple(
        (0, int(part), "") if part.isdigit() else (1, 0, part) for part in found[2].split(".")
    )


def _padded(numbers: tuple[int, ...], width: int) -> tuple[int, ...]:
    return numbers + (0,) * (width - len(numbers))
