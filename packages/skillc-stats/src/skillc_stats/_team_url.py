"""A team store's URL: the ``postgresql://`` URL or ``team`` an option names (:func:`team_url`),
and its secrets, never shown (:func:`masked`, :func:`scrubbed`): in messages, in the access
log, in a driver's message. Imports nothing of the driver: the options read it before any
connection."""

from __future__ import annotations

import re
from urllib.parse import unquote, unquote_plus

from skillc_index import InvalidOption

#: ``--from`` / ``--to`` value naming the configured store (``[stats].url`` or
#: ``$SKILLC_STATS_URL``).
CONFIGURED = "team"
SCHEMES = ("postgresql://", "postgres://")

#: A query parameter whose name (decoded, any case) holds one of these words carries a secret:
#: libpq's ``password`` and ``sslpassword``, PostgreSQL 18's ``oauth_client_secret``... (a
#: ``passfile`` path is masked too: harmless).
_SECRET_WORDS = ("pass", "secret", "token")
#: A ``key=value`` pair of a libpq connection string: the value quoted (``'...'``, ``\'``
#: escapes; unterminated: to the end) or up to a space (``\`` escapes).
_KEY_VALUE = re.compile(r"(\w+)\s*=\s*('(?:\\.|[^'\\])*'?|(?:\\.|[^\s\\])+)", re.DOTALL)


def _secret_spans(url: str) -> list[tuple[int, int]]:
    """Where the secrets of ``url`` lie in its text, as ``(start, end)`` offsets, merged: the
    password of its user info and the value of every password-like query parameter.

    Found in the text as written, never by comparing decoded values (``p%40ss`` and ``p+ss``
    are secrets as they stand), and read every way a client could read it: the user info
    ends at the last ``@`` before the first ``/`` (libpq's reading, which takes a ``?`` as part
    of a password), or at the last ``@`` before the first ``?`` (a password holding an
    unencoded ``/``); the query starts at the first ``?``, its parameters split at each ``&``
    or ``?``. Reading too much as secret only hides more of the URL.

    Without ``://`` (a mistyped scheme, ``postgresql//u:p@h`` or ``postgresql:/u:p@h``, or a
    libpq ``key=value`` string) the user info is read from the start (the scheme's colon
    too), and the value of every password-like key of ``key=value`` pairs is a secret."""
    start = url.find("://")
    spans: list[tuple[int, int]] = []
    if start < 0:
        start = 0
        for pair in _KEY_VALUE.finditer(url):
            if any(word in pair.group(1).lower() for word in _SECRET_WORDS):
                spans.append(pair.span(2))
    else:
        start += 3
    query = url.find("?", start)
    for end in (url.find("/", start), query):
        at = url.rfind("@", start, len(url) if end < 0 else end)
        colon = url.find(":", start, at) if at >= 0 else -1
        if colon >= 0:
            spans.append((colon + 1, at))
    if query >= 0:  # parameters split at `&`, and at a stray `?` too
        for part in re.finditer(r"[^&?]+", url[query:]):
            key, equals, _ = part.group().partition("=")
            names = {unquote(key).lower(), unquote_plus(key).lower()}
            if equals and any(word in name for name in names for word in _SECRET_WORDS):
                spans.append((query + part.start() + len(key) + 1, query + part.end()))
    merged: list[tuple[int, int]] = []
    for begin, end in sorted(spans):
        if merged and begin <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((begin, end))
    return merged


def secrets(url: str) -> list[str]:
    """The secrets of ``url`` (:func:`_secret_spans`) as written and decoded, and their parts
    between URL delimiters (a driver that misreads a URL quotes such a part), longest first:
    what a driver's message must not show."""
    found: set[str] = set()
    for begin, end in _secret_spans(url):
        written = url[begin:end]
        for text in (written, unquote(written), unquote_plus(written)):
            found.add(text)
            found.update(piece for piece in re.split(r"[/?#@:&=]", text) if len(piece) >= 3)
    return sorted((secret for secret in found if secret), key=len, reverse=True)


def masked(url: str) -> str:
    """``url`` with each secret (:func:`_secret_spans`) replaced by ``***``: fit to print and
    to log. Anything but a URL as it is (``team``)."""
    shown, last = [], 0
    for begin, end in _secret_spans(url):
        shown += [url[last:begin], "***"]
        last = end
    return "".join([*shown, url[last:]])


def scrubbed(text: str, url: str) -> str:
    """A driver message on one line, without the URL's secrets."""
    text = " ".join(text.split())
    for secret in secrets(url):
        text = text.replace(secret, "***")
    return text


def team_url(given: str, configured: str, option: str) -> str:
    """The store ``given`` names: a ``postgresql://`` URL, or ``team`` for the configured
    one (``configured``: ``[stats].url`` or ``$SKILLC_STATS_URL``). E100 otherwise."""
    if given == CONFIGURED:
        if not configured:
            raise InvalidOption(  # a setting missing: the Try line says how to set it
                f"{option} team: no team store is configured",
                remedy="setting SKILLC_STATS_URL, or url under [stats] in the global "
                "config.toml, to the store's postgresql:// URL",
            )
        return configured
    if not given.startswith(SCHEMES):
        shown = masked(given)  # a mistyped scheme still holds the password
        raise InvalidOption(
            f"{option} {shown!r} is not a team store: give a postgresql:// URL or 'team' "
            "(the configured one)",
            usage=True,  # a bad value of the option: the command line's Try line follows
        )
    return given
