"""What a link's ``#fragment`` may name in a Markdown file (SKL302): the slugs of its
headings and the ids of its HTML anchors, and the slug a fragment is compared by."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from skillc_index.text import composed

if TYPE_CHECKING:
    from skillc_index import MarkdownDoc

__all__ = ["heading_anchors", "html_anchors", "slug"]

# What a slug drops of ASCII (beyond it, :func:`slug` keeps letters, digits and marks).
_NOT_SLUG = re.compile(r"[^a-z0-9 \x80-\U0010ffff-]")
_HYPHENS = re.compile(r"-{2,}")
#: The variation selectors (marks, but invisible: ``⚙️`` is U+2699 and U+FE0F), left out.
_VARIATION_SELECTORS = dict.fromkeys([*range(0xFE00, 0xFE10), *range(0xE0100, 0xE01F0)])
# An explicit heading id, ``## Title {#my-id}`` (Pandoc, MkDocs, kramdown).
_HEADING_ID = re.compile(r"\{#([^\s{}]+)\}\s*$")
# An HTML anchor, ``<a id="x"></a>`` or ``<a name=x>`` (any tag's id).
_HTML_ANCHOR = re.compile(
    r"<[A-Za-z][A-Za-z0-9-]*\s(?:[^>]*?\s)?(?:id|name)\s*=\s*(?:\"([^\"]*)\"|'([^']*)'|([^\s\"'>]+))",
    re.IGNORECASE,
)
# An HTML comment (one opening an HTML block runs to its end when never closed).
_HTML_COMMENT = re.compile(r"<!--.*?(?:-->|\Z)", re.DOTALL)


def slug(text: str) -> str:
    """RFC-0008 SKL302 anchor normalization (GitHub-style): lowercase, of ASCII only
    ``a-z0-9``, spaces (to hyphens) and hyphens (runs collapsed); beyond ASCII, composed
    (NFC), the letters, digits and marks GitHub keeps (``## 安装`` is ``#安装``), not the
    RFC's "non-ASCII characters are removed", which made every non-Latin heading ``""``.
    An emoji's variation selector is dropped with it (GitHub keeps it, though no one can type
    it: ``## ⚙️ Setup`` is ``#-setup``). An empty slug names nothing
    (:meth:`~skillc_lint._skill.Skill.anchors`)."""
    lowered = text.lower()
    if not lowered.isascii():
        from unicodedata import category  # a C module

        lowered = "".join(
            char
            for char in composed(lowered).translate(_VARIATION_SELECTORS)
            if char.isascii() or category(char)[0] in "LMN"
        )
    return _HYPHENS.sub("-", _NOT_SLUG.sub("", lowered).replace(" ", "-"))


def heading_anchors(doc: MarkdownDoc) -> dict[str, int]:
    """The anchors the headings of a Markdown file make (slugs, duplicates suffixed
    ``-1``, ``-2``, and explicit ids), each with the line of its heading (the first one
    when two make the same anchor): where a link to the anchor leads."""
    found: dict[str, int] = {}
    seen: dict[str, int] = {}
    for heading in doc.headings:
        explicit = _HEADING_ID.search(heading.text)
        if explicit:
            found.setdefault(slug(explicit.group(1)), heading.line)
        base = slug(heading.text)
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.setdefault(base if count == 0 else f"{base}-{count}", heading.line)
    return found


def html_anchors(doc: MarkdownDoc) -> set[str]:
    """The HTML anchors of a Markdown file (``<a id="x">``, ``<a name="x">``), as slugs: of
    the HTML its parse found (:attr:`~skillc_index.MarkdownDoc.html`), comments left out, so
    never one in a code span or block, or in a comment, which a rendered page has not."""
    return {
        slug(next(group for group in match.groups() if group is not None))
        for html in doc.html
        for match in _HTML_ANCHOR.finditer(_HTML_COMMENT.sub("", html.source))
    }
