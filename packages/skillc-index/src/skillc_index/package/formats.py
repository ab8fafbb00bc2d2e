"""The files of each format of ``skc package`` (:func:`skillc_index.package.make.package_skills`):
an upload's zip, a discovery index and its artifacts, a plugin's folder (and marketplace).

- ``upload``: ``<name>.zip`` for claude.ai and the Skills API, the skill's folder at the top
  (as Anthropic's ``package_skill.py`` lays it out); standard fields only; a name with a
  reserved word or a tag, or an archive over 30 MB, is refused (E070).
- ``well-known``: ``.well-known/agent-skills/index.json`` as the Agent Skills Discovery RFC
  v0.2.0 defines it, with each skill's artifact beside it: ``<name>/SKILL.md`` (``skill-md``)
  for a skill that is SKILL.md alone, else ``<name>.zip`` (``archive``, files at the root);
  each entry's ``digest`` is ``sha256:`` of the artifact's bytes.
- ``plugin``: an Agent Plugins 1.0 plugin folder: ``plugin.json`` (its closed field set) and
  ``skills/<name>/``.
- ``claude-plugin``: a Claude Code plugin (``.claude-plugin/plugin.json``, ``skills/<name>/``,
  the frontmatter as written) and a marketplace (``.claude-plugin/marketplace.json``) listing it,
  whose name may not be one Claude Code reserves (:func:`check_marketplace_name`).

A plugin's ``--name``, ``--version``, ``--author`` and ``--description`` are bounded
(:func:`check_plugin_options`); its version is :mod:`skillc_index.package.version`'s.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from skillc_index.command_errors import PackageRefused
from skillc_index.dialect import (
    DESCRIPTION_LIMIT,
    PACKAGE_DIALECTS,
    RESERVED_MARKETPLACE_PREFIX,
    marketplace_name_reserved,
    plugin_name_rule,
    text_fault,
)
from skillc_index.layout import SKILL_FILE
from skillc_index.option_errors import InvalidOption, ParameterError
from skillc_index.package.archive import (
    ArchiveEntry,
    ArchiveTooLarge,
    Content,
    Spool,
    sha256_of,
    zip_blob,
)
from skillc_index.package.indexes import MARKETPLACE, WELL_KNOWN
from skillc_index.package.indexes import as_json as _json
from skillc_index.package.make import DISCOVERY_SCHEMA, PLUGIN_SCHEMA, PackedSkill

if TYPE_CHECKING:
    pass

__all__ = [
    "check_marketplace_name",
    "check_plugin_options",
    "layout_plugin",
    "layout_upload",
    "layout_well_known",
    "manifest_path",
    "plugin_path",
]

#: The most characters of a plugin's ``--name``, ``--version`` and ``--author`` (``--name``
#: is held to 64 by the name rule after; this bound keeps the message that quotes it short).
PLUGIN_OPTION_LIMIT = 200


def _digest(data: Content) -> str:
    return "sha256:" + sha256_of(data)


def layout_upload(skills: Sequence[PackedSkill], fmt: str, spool: Spool) -> dict[str, Content]:
    out: dict[str, Content] = {}
    limit = PACKAGE_DIALECTS[fmt].size_limit
    for skill in skills:
        entries = [entry._replace(path=f"{skill.name}/{entry.path}") for entry in skill.files]
        try:
            data = zip_blob(entries, f"{skill.name}.zip", spool, limit)
        except ArchiveTooLarge as over:  # (stopped there: the rest is never compressed)
            why = f"the archive has over {limit:,} bytes ({over.size:,} when it stopped)"
            raise PackageRefused(skill.name, fmt, why) from None
        out[f"{skill.name}.zip"] = data
    return out


def layout_well_known(
    skills: Sequence[PackedSkill], base_url: str, spool: Spool
) -> tuple[dict[str, Content], dict[str, Any]]:
    out: dict[str, Content] = {}
    entries: list[dict[str, str]] = []
    for skill in sorted(skills, key=lambda item: item.name):
        if [entry.path for entry in skill.files] == [SKILL_FILE]:
            rel, kind, data = f"{skill.name}/{SKILL_FILE}", "skill-md", skill.files[0].data
        else:
            rel, kind = f"{skill.name}.zip", "archive"
            data = zip_blob(skill.files, rel, spool)
        out[f"{WELL_KNOWN}/{rel}"] = data
        entries.append(
            {
                "name": skill.name,
                "type": kind,
                "description": skill.description,
                "url": f"{base_url}{rel}",
                "digest": _digest(data),
            }
        )
    index = {"$schema": DISCOVERY_SCHEMA, "skills": entries}
    out[f"{WELL_KNOWN}/index.json"] = _json(index)
    return out, index


def plugin_path(plugin: str, skill: PackedSkill, entry: ArchiveEntry) -> str:
    return f"{plugin}/skills/{skill.name}/{entry.path}"


def _plugin_files(plugin: str, skills: Sequence[PackedSkill]) -> dict[str, Content]:
    return {
        plugin_path(plugin, skill, entry): entry.data for skill in skills for entry in skill.files
    }


def _manifest(plugin: str, version: str, description: str | None) -> dict[str, Any]:
    manifest: dict[str, Any] = {"name": plugin, "version": version}
    if description:
        manifest["description"] = description
    return manifest


def manifest_path(fmt: str, plugin: str) -> str:
    """The plugin's manifest in the output folder, for the package format ``fmt``."""
    return f"{plugin}/plugin.json" if fmt == "plugin" else f"{plugin}/.claude-plugin/plugin.json"


def layout_plugin(
    skills: Sequence[PackedSkill],
    fmt: str,
    plugin: str,
    version: str,
    author: str | None,
    description: str | None = None,
) -> tuple[dict[str, Content], dict[str, Any] | None]:
    """The plugin's files, and the marketplace listing it (``claude-plugin``; else None).
    ``description``: ``--description``, else the skill's for one skill (none for several);
    the marketplace's own only when given."""
    rule = plugin_name_rule(plugin, fmt)
    if rule is not None:
        kind = "an Agent Plugins" if fmt == "plugin" else "a Claude Code"
        raise InvalidOption(f"not {kind} plugin name: '{plugin}': it must be {rule}", usage=True)
    given = description
    if description is None and len(skills) == 1:
        description = skills[0].description
    out = _plugin_files(plugin, skills)
    manifest = _manifest(plugin, version, description)
    if author:
        manifest["author"] = {"name": author}
    if fmt == "plugin":
        out[manifest_path(fmt, plugin)] = _json({"$schema": PLUGIN_SCHEMA, **manifest})
        return out, None
    out[manifest_path(fmt, plugin)] = _json(manifest)
    listing = {**_manifest(plugin, version, description), "source": f"./{plugin}"}
    marketplace: dict[str, Any] = {"name": plugin, "owner": {"name": author or plugin}}
    if given:  # (agnix CC-MP-005: a marketplace without one)
        marketplace["description"] = given
    marketplace["plugins"] = [listing]
    out[MARKETPLACE] = _json(marketplace)
    return out, marketplace


def check_plugin_options(
    name: str | None, version: str | None, author: str | None, description: str | None
) -> None:
    """E100 naming the option for a plugin's ``--name``, ``--version`` or ``--author`` over
    :data:`PLUGIN_OPTION_LIMIT` characters, a ``--description`` empty or over a skill
    description's limit (:data:`~skillc_index.dialect.DESCRIPTION_LIMIT`, as
    :func:`~skillc_index.dialect.text_fault` counts), and any of them holding a control or
    invisible character (a line break, a tab, a bidirectional control: what text output
    escapes, :func:`~skillc_index.text.printable`), which plugin.json held as given."""
    for option, value, limit in (
        ("name", name, PLUGIN_OPTION_LIMIT),
        ("version", version, PLUGIN_OPTION_LIMIT),
        ("author", author, PLUGIN_OPTION_LIMIT),
        ("description", description, DESCRIPTION_LIMIT),
    ):
        if value is None:
            continue
        fault = text_fault(value, limit)
        if fault == "empty":
            raise ParameterError(f"{{{option}}} is empty: give some text, or leave it out")
        if fault == "long":
            raise ParameterError(
                f"{{{option}}} has {len(value):,} characters; at most {limit:,} are allowed"
            )
        char = _unprintable(value)
        if char is not None:
            raise ParameterError(
                f"{{{option}}} holds a control or invisible character ({char}): give it as "
                "one line of visible text"
            )


def _unprintable(value: str) -> str | None:
    """The first character of ``value`` that text output escapes
    (:func:`~skillc_index.text.printable`: a control character, one that shows as nothing, a
    joiner joining nothing), or a tab or a line or paragraph separator, named ``U+XXXX``; None
    when it holds none. Read where the escaped ``value`` first differs from it: a joiner
    inside an emoji sequence (👩‍💻), escaped only alone, is kept, and never named."""
    from skillc_index.text import printable

    shown = printable(value)  # each character as it is, up to the first one escaped
    for at, char in enumerate(value):
        if char in "\t\u2028\u2029" or shown[at : at + 1] != char:
            return f"U+{ord(char):04X}"
    return None


def check_marketplace_name(name: object) -> None:
    """E100 for a marketplace name Claude Code reserves (it refuses to add the marketplace:
    :func:`~skillc_index.dialect.marketplace_name_reserved`), the name the run writes: its
    plugin's, or the one an earlier run's marketplace there kept (without ``--name``)."""
    reserved = marketplace_name_reserved(name) if isinstance(name, str) else None
    if reserved is None:
        return
    from skillc_index.text import printable

    shown = printable(str(name)).replace("{", "{{").replace("}", "}}")
    how = "" if reserved == name else f" (as '{reserved}')"
    if reserved == RESERVED_MARKETPLACE_PREFIX:
        how = f" (names starting with '{reserved}' are claude.ai's)"
    raise ParameterError(
        f"the marketplace name '{shown}' is reserved by Claude Code{how}, which refuses to add "
        "the marketplace: give the plugin another name with {name}"
    )
