"""How a Markdown file's text names a file or folder of its skill: what
:attr:`~skillc_lint._skill.Skill.mentions` (SKL401 and the rules reading it) finds in prose
and code alike.

A word of path characters holding a ``.`` or a ``/`` may name one (:func:`_path_words`): by
its path from the skill root or from the naming file's folder (after a placeholder such as
``{baseDir}/``), by a longer path ending in it, or by its bare file name when no other file
of the skill has that name (:func:`_named`); a glob pattern names each file and folder it
matches (:func:`_globbed`). The words are found from the places of the skill's file names in
the text (:func:`_naming_words`), cheaper than splitting every text into its words.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Mapping
from functools import lru_cache

#: A word of a Markdown file's text that may name a file or folder of the skill: what SKL401
#: reads in prose and code alike (``references/api.md``, ``{baseDir}/forms.md``, ``docs/``).
#: A word of path characters (``[\w.~@+${}/-]+``) holding a ``.`` or a ``/``, found whole:
#: from the start of a word (no path character before it) through its first ``.`` or ``/``
#: to its end (finding every word and keeping these made 3 M strings on the corpus).
_PATHLIKE = re.compile(r"(?<![\w.~@+${}/-])[\w~@+${}-]*[./][\w.~@+${}/-]*")
#: A skill-folder placeholder starting a named path (``{baseDir}/``, ``${CLAUDE_SKILL_DIR}/``).
_PLACEHOLDER_PREFIX = re.compile(r"^(?:\$\{?\w+\}?|\{\w+\})/")


def _path_pieces(text: str) -> set[str]:
    """The whitespace-separated pieces of ``text`` holding a ``.`` or a ``/``, each once:
    where a path-like word (:func:`_path_words`) or a glob pattern (:func:`_globbed`) lies
    (kept as they are split: a set of every piece cost a third more)."""
    return {piece for piece in text.split() if "." in piece or "/" in piece}


def _path_words(pieces: str | set[str]) -> set[str]:
    """The words :data:`_PATHLIKE` finds in a text (or its :func:`_path_pieces`), searched only in
    its pieces holding a ``.`` or a ``/`` (each piece once): a word of path characters never holds a
    blank, so it lies in such a piece (a third of the time of searching the whole text)."""
    if isinstance(pieces, str):
        pieces = _path_pieces(pieces)
    return set(_PATHLIKE.findall(" ".join(pieces)))


def _last_part(word: str) -> str:
    """The last part of a path-like word, what it names (``refs/api.md.`` -> ``api.md``)."""
    return word.rstrip(".,:;").partition("#")[0].rstrip("/").rpartition("/")[2]


#: A run of path characters (what :data:`_PATHLIKE` finds is such a run, whole, holding a
#: ``.`` or a ``/``).
_PATH_RUN = re.compile(r"[\w.~@+${}/-]*")


def _run_end(text: str, at: int) -> int:
    """Where the run of path characters from ``at`` of ``text`` ends (``at``: none there)."""
    found = _PATH_RUN.match(text, at)
    return found.end() if found else at


#: Names of a skill's files :func:`_naming_words` looks for one by one in a text, at most:
#: with more, each text is split into its words instead (a skill of 8,000 Markdown files
#: took 9 s, of 32,000 108 s: every file name looked for in every file).
_MOST_NAMES = 256


def _searched_names(ends: set[str]) -> list[str]:
    """What :func:`_naming_words` looks for in a text to find the words whose last part is
    one of ``ends``: each name made of path characters, and ``./`` for ``.`` and ``..``."""
    searched = [name for name in ends if _run_end(name, 0) == len(name) > 0]  # path characters
    if "." in searched or ".." in searched:
        searched = [name for name in searched if name not in (".", "..")]
        searched.append("./")
    return searched


def _naming_words(text: str, ends: set[str], searched: list[str] | None = None) -> set[str]:
    """The words of :func:`_path_words` whose last part (:func:`_last_part`) is one of
    ``ends`` (names of files and folders, ``.``, ``..``): what may name a file of the skill.

    Found from each name's places in the text (``str.find``, much cheaper than splitting
    the text into words): the word a place is the last part of is the run of path
    characters around it, the name at its start or after a ``/`` and followed by ``/`` and
    ``.`` alone (a last part ``.`` or ``..`` is followed by ``/``: the places of ``./``).
    A text where the names are found too often (a name such as ``a``) is split into its
    words instead (the same words). ``searched``: :func:`_searched_names` of ``ends`` (made
    once for the texts of a skill)."""
    size = len(text)
    budget = 64 + size // 32  # places looked at before the split is cheaper
    searched = _searched_names(ends) if searched is None else searched
    if len(searched) > _MOST_NAMES:  # a find a name over every text: quadratic in the files
        return {word for word in _path_words(text) if _last_part(word) in ends}
    reversed_text = ""
    found: set[str] = set()
    for name in searched:
        anywhere = name == "./"  # any word holding it may end with "." or ".."
        at = text.find(name)
        while at >= 0:
            budget -= 1
            if budget < 0:
                return {word for word in _path_words(text) if _last_part(word) in ends}
            after = at + len(name)
            end = _run_end(text, after)
            if anywhere or not text[after:end].strip("./"):
                if not at:
                    start = 0
                elif anywhere or text[at - 1] == "/":  # the run's start, found backwards
                    reversed_text = reversed_text or text[::-1]
                    start = size - _run_end(reversed_text, size - at)
                else:  # the name starts the run, or is inside a part: no last part
                    start = at if _run_end(text, at - 1) == at - 1 else -1
                if start >= 0:
                    word = text[start:end]
                    if "." in word or "/" in word:
                        found.add(word)
            at = text.find(name, after)
    return {word for word in found if _last_part(word) in ends}


def _named(word: str, folder: str, known: set[str], by_name: Mapping[str, list[str]]) -> str | None:
    """The file or folder of the skill a path-like ``word`` of a file in ``folder`` names
    (see :attr:`~skillc_lint._skill.Skill.mentions`), or None."""
    word = _clean_word(word)
    if not word or word.startswith("/"):
        return None
    for candidate in (posixpath.normpath(posixpath.join(folder, word)), posixpath.normpath(word)):
        if candidate in known:
            return candidate
    parts = word.split("/")
    for start in range(1, len(parts) - 1):
        suffix = "/".join(parts[start:])
        if suffix in known:
            return suffix
    same = by_name.get(parts[-1], ())
    return same[0] if len(same) == 1 else None


#: A word of path characters holding a ``*`` or a ``?``: maybe a glob pattern.
_GLOB_WORD = re.compile(r"[\w.~@+${}/*?-]*[*?][\w.~@+${}/*?-]*")
#: A glob pattern's wildcards: a run of ``*`` (any characters but ``/``), a ``?`` (one).
_WILDCARD = re.compile(r"(\*+|\?)")


def _clean_word(word: str, trailing: str = ".,:;") -> str:
    """A path-like word as it names a path: its ``trailing`` punctuation, a placeholder before it
    (``{baseDir}/``), its ``#`` fragment, leading ``./`` and trailing ``/`` left out."""
    word = _PLACEHOLDER_PREFIX.sub("", word.rstrip(trailing)).partition("#")[0]
    while word.startswith("./"):
        word = word[2:]
    return word.rstrip("/")


def _globbed(pieces: set[str], folder: str, known: set[str]) -> set[str]:
    """The files and folders of ``known`` the glob patterns of a text (a file in ``folder``;
    its :func:`_path_pieces`) match: a word holding ``*`` or ``?`` and a ``/`` or an
    extension (``shared/managed-agents-*.md``, ``*.md``; not ``claude-*`` or
    ``com.anthropic.*``), from the file's folder or the skill root as :func:`_named` reads a
    path. A ``*`` (or ``**``) stands for any characters but ``/``, ``?`` for one."""
    wild = [piece for piece in pieces if "*" in piece or "?" in piece]
    if not wild:
        return set()
    found: set[str] = set()
    for word in set(_GLOB_WORD.findall(" ".join(wild))):
        word = _clean_word(word, ".,:;?")
        last = word.rpartition("/")[2]
        extension = last.rpartition(".")[2] if "." in last else ""
        if word.startswith("/") or ("*" not in word and "?" not in word):
            continue
        if "/" not in word and not any(char.isalnum() for char in extension):
            continue
        for path in {posixpath.normpath(posixpath.join(folder, word)), posixpath.normpath(word)}:
            found.update(_glob_matches(path, known))
    return found


def _glob_matches(path: str, known: set[str]) -> list[str]:
    """The paths of ``known`` the glob pattern ``path`` matches, its expression compiled
    only for a path that may match (as many ``/``, its text before the first wildcard and
    after the last): most patterns of a text match no file of the skill."""
    parts = _WILDCARD.split(path)
    head, tail, slashes = parts[0], parts[-1], path.count("/")
    maybe = [
        rel
        for rel in known
        if rel.count("/") == slashes and rel.startswith(head) and rel.endswith(tail)
    ]
    if not maybe:
        return []
    matcher = _glob_expression(path)
    return [rel for rel in maybe if matcher.fullmatch(rel)]


@lru_cache(maxsize=256)
def _glob_expression(path: str) -> re.Pattern[str]:
    """The regular expression of a glob pattern (see :func:`_globbed`)."""
    return re.compile(
        "".join(
            "[^/]*" if part.startswith("*") else "[^/]" if part == "?" else re.escape(part)
            for part in _WILDCARD.split(path)
        )
    )
