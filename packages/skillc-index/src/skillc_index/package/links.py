"""The links of a packaged Markdown file to what no package holds (``skc package``): a file
or folder that is there, in the skill's folder, but that every package leaves out
(:func:`~skillc_index.skill_files.never_packaged`: hidden, ``evals/``, ``*.pyc``...; or what
the skill's ``.gitignore`` files exclude), so the link is broken in the package. skillc-lint's
SKL301 reports the same links, by the same function.
"""

from __future__ import annotations

import os
import posixpath
import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from skillc_index.glob import IgnoreRules

__all__ = ["left_out_links"]

#: An RFC 3986 scheme (``https:``, ``mailto:``): a link leaving the skill, not to a file of it.
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:")


def left_out_links(rel: str, head: bytes, real_root: str, rules: IgnoreRules) -> list[str]:
    """The warning of each link of the Markdown file ``rel`` (its bytes as far as a parse
    reads them: ``head``) of the skill at ``real_root`` to a file or folder that is there but
    that no package holds (``rules``: the skill's ``.gitignore`` files'), once per link: its
    line, the link as written and why the target is left out."""
    from skillc_index.markdown.document import parse_markdown
    from skillc_index.skill_files import never_packaged
    from skillc_index.text import decoded, printable

    folder = posixpath.dirname(rel)
    said: dict[str, None] = {}
    for link in parse_markdown(decoded(head), metadata=False).links:
        written = link.path
        if not written or _SCHEME.match(written) or written.startswith(("/", "\\", "//")):
            continue  # an anchor, a URL, an absolute path: no file of the skill
        target = posixpath.normpath(posixpath.join(folder, written))
        if target in (".", "..", "SKILL.md") or target.startswith("../"):
            continue
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
