"""The links of a packaged Markdown file to what no package holds (``skc package``): a file
or folder that is there, in the skill's folder, but that every package leaves out
(:func:`~skillc_index.skill_files.never_packaged`: hidden, ``evals/``, ``*.pyc``...; or what
the skill's ``.gitignore`` files exclude), so the link is broken in the package. A link is
read as the format's agent reads it (:data:`FORMAT_SUBSTITUTIONS`: Claude's
``${CLAUDE_SKILL_DIR}/.notes/x.md`` in an upload), through
:func:`~skillc_index.markdown.targets.link_destination`, as skillc-lint's SKL301 reads it
(under the profile of that agent): both report the same links.
"""

from __future__ import annotations

import os
import posixpath
from typing import TYPE_CHECKING

from skillc_index.markdown.targets import CLAUDE_SUBSTITUTIONS, NO_SUBSTITUTIONS, Substitutions

if TYPE_CHECKING:
    from skillc_index.glob import IgnoreRules

__all__ = ["FORMAT_SUBSTITUTIONS", "left_out_links"]

#: What the agent of each ``skc package`` format replaces in a skill's text (the formats of
#: Claude: an upload to claude.ai or the Skills API, a Claude Code plugin); the others' agents
#: read it as written.
FORMAT_SUBSTITUTIONS: dict[str, Substitutions] = {
    "upload": CLAUDE_SUBSTITUTIONS,
    "claude-plugin": CLAUDE_SUBSTITUTIONS,
}


def left_out_links(
    rel: str,
    head: bytes,
    real_root: str,
    rules: IgnoreRules,
    substitutions: Substitutions = NO_SUBSTITUTIONS,
) -> list[str]:
    """The warning of each link of the Markdown file ``rel`` (its bytes as far as a parse
    reads them: ``head``) of the skill at ``real_root`` to a file or folder that is there but
    that no package holds (``rules``: the skill's ``.gitignore`` files'), once per link: its
    line, the link as written and why the target is left out. A link is read through
    ``substitutions`` (the format's agent's: :data:`FORMAT_SUBSTITUTIONS`)."""
    from skillc_index.markdown.document import parse_markdown
    from skillc_index.markdown.targets import link_destination
    from skillc_index.skill_files import never_packaged
    from skillc_index.text import decoded, printable

    folder = posixpath.dirname(rel)
    said: dict[str, None] = {}
    for link in parse_markdown(decoded(head), metadata=False).links:
        kind, target = link_destination(link, folder, substitutions)
        if kind != "path" or target in (".", "SKILL.md"):
            continue  # an anchor, a URL, an absolute path, one out of the skill (SKL303's)
        path = f"{real_root}/{target}"
        if not os.path.exists(path):  # noqa: PTH110 (missing: skillc-lint's SKL301 says so)
            continue
        why = never_packaged(target, real_root)
        if not why:
            is_folder = os.path.isdir(path)  # noqa: PTH112
            excluded = rules.excluded(target, folder=is_folder) or rules.excluded_link(
                real_root, target
            )
            why = f"{excluded[1]} excludes it" if excluded else ""
        if why:
            said[
                f"{rel}:{link.line} links to '{printable(link.target)}', which the package "
                f"leaves out ({why}): the link is broken in the package (skillc-lint's SKL301)"
            ] = None
    return list(said)
