"""Keys in a skill's text, found as skillc-lint's SKL904 reports them (``skc package`` warns
of the same): AWS, GitHub, OpenAI, Anthropic, Slack, Stripe and Google key shapes and private
key blocks with a body; placeholders (``AKIAIOSFODNN7EXAMPLE``, ``sk-xxxx``, ``<your-key>``) are
not keys. A key is only ever shown masked (:func:`masked`: ``ghp_iK…8g``), a private key's body
never; :func:`masked_line` masks every key of a line (SKL904's code frame). What is scanned of
a file other than a Markdown one (read as far as a parse reads, ``MARKDOWN_READ_LIMIT``): its
first :data:`TEXT_LIMIT` bytes, as :func:`scanned_text` reads them.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import NamedTuple

from skillc_index.text import any_of

__all__ = ["TEXT_LIMIT", "Secret", "masked", "masked_line", "scanned_text", "secrets_in"]

#: The most of a file other than a Markdown one the text scans read (keys, remote code,
#: hidden characters: skillc-lint's, ``skc package``'s): a skill's script or data file past
#: it is scanned in its first 256 KiB only.
TEXT_LIMIT = 256 * 1024


class Secret(NamedTuple):
    """A key found in a text: its kind (``GitHub token``, ``private key block``), where it
    starts (an offset in the text), and the key masked (empty for a private key block)."""

    kind: str
    offset: int
    masked: str = ""


#: Each key shape with a literal every match holds (searched first: a regular expression
#: starting with a word boundary is slow on a large corpus) and its pattern; the character
#: before a match must not be a letter or digit (checked in code, for the same reason).
#: An AWS key id's 16 characters after its prefix are base32 (``A-Z``, ``2-7``, as gitleaks
#: reads them): a made-up ``AKIAEXPOSEDKEY123456`` is none.
#: The ``sk-`` shapes share theirs (one search); ``github_pat_`` and ``k_live_`` are looked for
#: in one search, ``xox`` by its ``x`` (:func:`~skillc_index.text.any_of`, faster than
#: ``str.find``).
_UNDERSCORED = any_of(("github_pat_", "k_live_"), "_")
_SECRETS: tuple[tuple[str, str | re.Pattern[str], re.Pattern[str]], ...] = tuple(
    (kind, hint, re.compile(pattern))
    for kind, hint, pattern in (
        ("AWS access key id", "A", r"A(?:KIA|SIA|BIA|CCA)[A-Z2-7]{16}\b"),
        (
            "AWS secret access key",
            re.compile("ecret", re.IGNORECASE),  # the pattern ignores case: so does its hint
            r"(?i:aws_?secret_?access_?key)[\"']?\s*[=:]\s*[\"']?([A-Za-z0-9/+=]{40})\b",
        ),
        ("GitHub token", "gh", r"gh[pousr]_[A-Za-z0-9]{36,255}\b"),
        ("GitHub token", _UNDERSCORED, r"github_pat_[A-Za-z0-9_]{40,255}\b"),
        ("Anthropic API key", "sk-", r"sk-ant-[a-z]{3,9}\d{2}-[A-Za-z0-9_-]{32,}"),
        ("OpenAI API key", "sk-", r"sk-(?:proj-|svcacct-|admin-)?(?!ant-)[A-Za-z0-9_-]{32,}"),
        ("OpenAI API key", "sk-", r"sk-[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20}\b"),
        ("Slack token", any_of(("xox",), "x"), r"xox[abposr]-(?:[0-9]+-){1,3}[A-Za-z0-9]{16,}"),
        (
            "Slack webhook",
            "hooks.slack.com",
            r"https://hooks\.slack\.com/services/T[A-Z0-9]{6,}/B[A-Z0-9]{6,}/[A-Za-z0-9]{20,}",
        ),
        ("Stripe live key", _UNDERSCORED, r"[sr]k_live_[0-9A-Za-z]{20,}"),
        ("Google API key", "AIza", r"AIza[0-9A-Za-z_-]{35}\b"),
    )
)
_PRIVATE_KEY = re.compile(
    r"-----BEGIN (?:RSA |EC |DSA |OPENSSH |ENCRYPTED |PGP )?PRIVATE KEY(?: BLOCK)?-----"
    r"\s*\n(?:[A-Za-z0-9-]+: [^\n]*\n)*\s*([A-Za-z0-9+/=]{40,})"
)
_PLACEHOLDER = re.compile(
    r"example|sample|dummy|fake|test|your|xxxx|\.\.\.|<|>|\*|0123456789|abcdef|(.)\1{5}",
    re.IGNORECASE,
)


def _placeholder(token: str) -> bool:
    """Whether a key-shaped string is an obvious stand-in (``AKIAIOSFODNN7EXAMPLE``,
    ``sk-xxxxxxxx``, ``ghp_your_token``) or too regular to be a key (few distinct
    characters)."""
    return bool(_PLACEHOLDER.search(token)) or len(set(token)) < 12


def scanned_text(data: bytes) -> str | None:
    """The text scanned of a file other than a Markdown one whose first :data:`TEXT_LIMIT`
    bytes are ``data``: None for a binary file (a NUL byte in them)."""
    if b"\0" in data:
        return None
    from skillc_index.files import decoded

    return decoded(data)


def masked(token: str, *, keep_length: bool = False) -> str:
    """``token`` as a message shows it: its first six characters and last two; with
    ``keep_length``, as long as ``token`` (one ``…`` for each character hidden)."""
    if len(token) <= 10:
        return "…" * len(token) if keep_length else "…"
    return token[:6] + "…" * (len(token) - 8 if keep_length else 1) + token[-2:]


def _keys(text: str) -> Iterator[tuple[str, re.Match[str]]]:
    """The key shapes of ``text`` that are no placeholder: (kind, match), the key the
    match's last group (or the whole match)."""
    held: dict[str | re.Pattern[str], bool] = {}  # each literal searched once in the text
    for kind, hint, pattern in _SECRETS:
        found = held.get(hint)
        if found is None:
            found = held[hint] = hint in text if isinstance(hint, str) else bool(hint.search(text))
        if not found:
            continue
        for match in pattern.finditer(text):
            token = match.group(match.lastindex or 0)
            start = match.start()
            if not (start > 0 and text[start - 1].isalnum()) and not _placeholder(token):
                yield kind, match


def secrets_in(text: str) -> Iterator[Secret]:
    """The keys of ``text``: each key shape's in turn, then the private key blocks."""
    for kind, match in _keys(text):
        yield Secret(kind, match.start(), masked(match.group(match.lastindex or 0)))
    if "PRIVATE KEY" not in text:
        return
    for match in _PRIVATE_KEY.finditer(text):
        if not re.search(r"example|x{6}|X{6}", match.group(1)):
            yield Secret("private key block", match.start())


def masked_line(line: str) -> str:
    """``line`` with each key of it masked as a message masks it, but each as long as the
    key, so that the line keeps its length and columns: what the code frame of SKL904's
    finding shows (and the lint cache keeps)."""
    spans = sorted(match.span(match.lastindex or 0) for _kind, match in _keys(line))
    shown, end = [], 0
    for start, stop in spans:
        if stop <= end:  # within a key already masked (two shapes of one key)
            continue
        start = max(start, end)
        shown += [line[end:start], masked(line[start:stop], keep_length=True)]
        end = stop
    return "".join(shown) + line[end:]
