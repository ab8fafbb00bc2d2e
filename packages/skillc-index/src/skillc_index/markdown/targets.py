"""Where a link of a skill's Markdown file leads: sorted once (a URL, an absolute path, an
anchor of the same file, a path of the skill, or one leaving it through ``..``) and resolved
against the skill root, through the substitutions an agent makes in a skill's text first
(:class:`Substitutions`: Claude Code's ``${CLAUDE_SKILL_DIR}/x.md`` is the skill's ``x.md``).
skillc-lint's link rules (SKL301-SKL303, SKL401) and ``skc package``'s warnings of links to
what no package holds (:mod:`skillc_index.package.links`) read links through
:func:`link_destination`, so both judge the same links the same way.
"""

from __future__ import annotations

import posixpath
import re
from typing import TYPE_CHECKING, Literal

from skillc_index.record import Record

if TYPE_CHECKING:
    from skillc_index.markdown.links import Link

__all__ = [
    "CLAUDE_SUBSTITUTIONS",
    "NO_SUBSTITUTIONS",
    "Destination",
    "DestinationKind",
    "Substitutions",
    "link_destination",
]

DestinationKind = Literal["external", "absolute", "anchor", "path", "escape", "empty", "dynamic"]

#: An RFC 3986 scheme (``https:``, ``mailto:``, ``data:``): a link leaving the skill.
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:")


class Substitutions(Record):
    """What an agent replaces in a skill's text before the model reads it (a dialect's
    profile, a package format's agent), so links holding it are judged as the agent resolves
    them."""

    skill_dir: tuple[str, ...] = ()
    """Placeholders that stand for the skill folder at the start of a link
    (``{baseDir}/references/x.md`` is ``references/x.md`` from the skill root)."""
    runtime: str = ""
    """A regular expression of values known only when the skill runs (``$ARGUMENTS``): a
    link holding one is ``dynamic`` and not checked. Empty: none."""


#: The standard's: a skill's text is read as written.
NO_SUBSTITUTIONS = Substitutions()
#: Claude's string substitutions in a skill's text (code.claude.com/docs/en/skills,
#: "Available string substitutions"): ``${CLAUDE_SKILL_DIR}`` is the skill folder, as is
#: ``{baseDir}`` (the older convention of Claude Code kept by trailofbits and NVIDIA skills);
#: ``$ARGUMENTS``, ``$ARGUMENTS[N]``, ``$N``, a named ``$argument``, ``${CLAUDE_SESSION_ID}``
#: and ``${CLAUDE_EFFORT}`` are known only when the skill runs.
CLAUDE_SUBSTITUTIONS = Substitutions(
    skill_dir=("${CLAUDE_SKILL_DIR}", "{baseDir}"),
    runtime=r"\$(?:[A-Za-z_][A-Za-z0-9_]*|[0-9]+|\{[A-Za-z_][A-Za-z0-9_]*\})",
)


class Destination(Record):
    """Where one link leads, as :func:`link_destination` sorts it."""

    kind: DestinationKind
    path: str
    """For a ``path``: the destination relative to the skill root, normalized (``.`` for
    the root itself); else ``""``."""


def link_destination(link: Link, folder: str, substitutions: Substitutions) -> Destination:
    """Where ``link``, written in a Markdown file of the skill's folder ``folder`` (relative,
    POSIX; ``""`` for the root), leads once ``substitutions`` are made: ``dynamic`` (it holds
    a value known when the skill runs), ``external`` (a scheme, ``//host``), ``absolute``
    (``/`` or ``\\``), ``anchor`` (``#x`` alone), ``empty``, ``escape`` (out through ``..``)
    or a ``path`` of the skill. Whether a path is there, or really stays inside (a symlink),
    is the caller's to ask."""
    written = link.path  # split before it was decoded: q%3F.md names q?.md, not q and a query
    for placeholder in substitutions.skill_dir:
        rest = written[len(placeholder) :] if written.startswith(placeholder) else None
        if rest is not None and (not rest or rest[0] == "/"):
            folder, written = "", rest.lstrip("/") or "."  # from the skill root
            break
    after = link.target[len(link.path) :]  # its query and fragment, as the target shows them
    if substitutions.runtime and re.search(substitutions.runtime, written + after):
        return Destination("dynamic", "")
    if _SCHEME.match(written) or written.startswith("//"):
        return Destination("external", "")
    if written.startswith(("/", "\\")):
        return Destination("absolute", "")
    if not written:
        return Destination("anchor" if link.fragment else "empty", "")
    path = posixpath.normpath(posixpath.join(folder, written))
    if path == ".." or path.startswith("../"):
        return Destination("escape", "")
    return Destination("path", path)
