"""What the first run's speed work and the result cache rely on: a lint's findings are the
same in every process (no order taken from a set of strings, whose order follows the hash
seed), and the Markdown is parsed only when a rule needs it."""

from __future__ import annotations

import itertools
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skillc_index import split_lines
from skillc_lint._mentions import _PATHLIKE, _last_part, _naming_words, _path_words
from skillc_lint._rules.fields import (
    any_of,
    holds_line_of,
    lines_holding,
)
from skillc_lint._rules.guidance import _MAY_RUN, _USERS
from skillc_lint._rules.injection import (
    _INJECTION,
    _INJECTION_HINTS,
    _INJECTION_SEARCHED,
    HINT_SPACE,
    _may_inject,
)
from skillc_lint._rules.invisible import (
    _CONTROL,
    _MAY_HIDE,
    _MAY_HIDE_CODES,
    _MAY_HIDE_UTF8,
    _has_control,
)
from skillc_lint._rules.security import _FETCH_HINTS, _FETCH_SEARCHED

Writer = Callable[..., Path]


def test_skl530_names_the_same_file_whatever_the_hash_seed(
    skill: Writer, clean_env: dict[str, str]
) -> None:
    files = {f"{name}.md": f"# {name}\n\nSee [x](x.md).\n" for name in "abcdef"}
    folder = skill(
        body="See " + ", ".join(f"[{n}]({n}.md)" for n in "abcdef") + ".\n",
        files={**files, "x.md": "# X\n"},
    )
    command = [sys.executable, "-m", "skillc_lint", str(folder), "--select", "SKL530"]
    printed = {
        subprocess.run(
            [*command, "--format", "json", "--no-cache"],
            env={**clean_env, "PYTHONHASHSEED": str(seed)},
            capture_output=True,
            text=True,
            check=False,
        ).stdout
        for seed in range(6)
    }
    assert len(printed) == 1
    assert "x.md is reached only through" in printed.pop()


WORDS = st.sampled_from(
    ["a", "é", "_", "-", "~", "@", "+", "$", "{", "}", ".", "/", "..", " ", "\n", "`", ",",
     "(", ")", "#", ":", "x.md", "dir/", "{baseDir}/f.py", "\u00a0", "\x1c", "\u2028", "\t"]
)  # fmt: skip


@given(st.lists(WORDS, max_size=30))
def test_the_words_that_may_name_a_file_are_every_path_word_with_a_dot_or_slash(
    words: list[str],
) -> None:
    """SKL401's mentions find the path words holding ``.`` or ``/`` in one regex (first run
    speed): exactly the words of path characters that hold one."""
    text = "".join(words)
    every = set(re.findall(r"[\w.~@+${}/-]+", text))
    assert set(_PATHLIKE.findall(text)) == {w for w in every if "." in w or "/" in w}
    assert _path_words(text) == set(_PATHLIKE.findall(text))


NAMES = st.sets(st.sampled_from(["a", "x.md", "f.py", "dir", "é", "a b", "${x}", ".", ".."]))


@given(st.lists(WORDS, max_size=30), NAMES)
def test_the_words_found_from_the_names_are_the_path_words_ending_in_one(
    words: list[str], names: set[str]
) -> None:
    """SKL401's mentions look for the skill's file names in the text instead of splitting it
    into words (first run speed): the same words as keeping the path words whose last part
    is a name (or ``.``, ``..``)."""
    text = "".join(words)
    ends = names | {".", ".."}
    assert _naming_words(text, ends) == {w for w in _path_words(text) if _last_part(w) in ends}


def test_a_name_found_too_often_gives_the_same_words_from_the_split() -> None:
    """Past a budget of places (a one-letter name), the words come from splitting the text."""
    text = "see a/ and x/a. " * 40 + "b/a/. a.md"
    ends = {"a", "a.md", ".", ".."}
    assert _naming_words(text, ends) == {"a/", "x/a.", "b/a/.", "a.md"}


def test_a_skill_of_many_files_has_each_text_split_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """SKL401 looked for every file name of a skill in every Markdown file of it: 8,000
    files took 9 s, 32,000 108 s. Past ``_MOST_NAMES`` names each text is split into its
    words (the same words). Near miss: with fewer names, they are looked for, no split."""
    import skillc_lint._mentions as mentions_module

    ends = {f"f{i}.md" for i in range(mentions_module._MOST_NAMES + 1)} | {".", ".."}
    text = "See f3.md, dir/f7.md and ./f9.md; not f3.mdx."
    real = mentions_module._path_words
    calls: list[str] = []
    monkeypatch.setattr(mentions_module, "_path_words", lambda t: calls.append(t) or real(t))
    assert _naming_words(text, ends) == {w for w in real(text) if _last_part(w) in ends}
    assert calls == [text]
    calls.clear()
    few = {"f3.md", "f7.md", "f9.md", ".", ".."}
    assert _naming_words(text, few) == {w for w in real(text) if _last_part(w) in few}
    assert calls == []


@given(
    st.text(
        st.sampled_from("a\t\n\r\x0b\x0c\x1b\x1f\x7f\x80\x9f\xa0\u0100\u2028\ud800"), max_size=20
    )
)
def test_the_quick_test_of_terminal_controls_finds_the_same_characters(text: str) -> None:
    """SKL901 looks for the C0 controls in a text's bytes (all others deleted) and for the
    C1 ones in its UTF-8: it finds one exactly when the class in the text would."""
    utf8 = b"" if text.isascii() else text.encode("utf-8", "surrogatepass")
    assert _has_control(text, utf8) == bool(_CONTROL.search(text))


def test_the_utf8_search_of_hidden_characters_finds_the_same_characters() -> None:
    """SKL901's first test looks for the characters' UTF-8 bytes: every character around
    those searched (the same lead bytes, the ranges' ends) is found exactly when it is one,
    alone, between others, or after a lone surrogate."""
    around = [
        *range(0x1800, 0x1900), *range(0x2000, 0x2100), *range(0xFE00, 0x10000),
        *range(0xE0000, 0xE0200), 0xD800, 0x10FFFF, 0xA9, 0xE9,
        *(code + step for code in _MAY_HIDE_CODES for step in (-1, 0, 1)),
    ]  # fmt: skip
    for code in around:
        char = chr(code)
        for text in (char, f"a{char}b", f"\u2014{char}\ud800"):
            utf8 = text.encode("utf-8", "surrogatepass")
            assert bool(_MAY_HIDE_UTF8.search(utf8)) == bool(_MAY_HIDE.search(text)), hex(code)


@given(st.text(st.sampled_from("aIİΣσK\u212a\n\r\x85\u2028 ."), max_size=30))
def test_a_text_lowercased_whole_has_each_line_lowercased(text: str) -> None:
    """SKL903 and SKL905 look for their hint words in the lines of the lowercased text: the
    lines of a text lowercased whole are its lines lowercased one by one."""
    assert text.lower().splitlines() == [line.lower() for line in text.splitlines()]


@given(
    st.lists(
        st.sampled_from(["send", "SEND", "se", "nd", "curl", "İ", "Σ", "x", " ", "\n", "\r\n",
                         "\x85", "\u2028", "the user", "The\nuser", "iwr"]),
        max_size=20,
    )
)  # fmt: skip
def test_the_hinted_lines_are_those_a_test_of_each_line_finds(parts: list[str]) -> None:
    """SKL903 and SKL905 find the lines holding a hint word by looking for each word in the
    whole lowercased text: the lines (and numbers, lines ended as the parse ends them) a
    test of each lowercased line finds."""
    text = "".join(parts)
    words = ("send", "the user", "curl", "iwr")
    lines = [line.rstrip("\r\n") for line in split_lines(text)]
    each = [(n, line) for n, line in enumerate(lines, 1) if any(w in line.lower() for w in words)]
    assert lines_holding(text, words, searched=text.lower()) == each
    raw = [(n, line) for n, line in enumerate(lines, 1) if any(w in line for w in words)]
    assert lines_holding(text, words) == raw


@given(
    st.lists(
        st.sampled_from(["ab", "abcd", "\n", "\r\n", "\x85", "\u2028", "é", " "]), max_size=20
    ),
    st.integers(1, 6),
)
def test_a_long_line_is_found_as_the_split_finds_it(parts: list[str], width: int) -> None:
    """SKL528 looks for a line of 400 characters without splitting the text: the same
    answer as the longest of its lines, ended as the parse ends them."""
    text = "".join(parts)
    lines = [line.rstrip("\r\n") for line in split_lines(text)]
    assert holds_line_of(text, width) == (max(map(len, lines), default=0) >= width)


#: Each alternative of the injection pattern, slot by slot (``""``: an optional slot left out).
INJECTION_WORDS = (
    (("ignore", "disregard", "forget", "override", "bypass"), ("", "all", "any", "every"),
     ("", "of"), ("", "the", "your", "my", "these"),
     ("previous", "prior", "above", "earlier", "preceding", "original", "system", "safety"),
     ("instruction", "instructions", "prompt", "prompts", "rules", "directives",
      "guidelines", "messages")),
    (("you",), ("are",), ("now",), ("", "in"),
     ("DAN", "developer mode", "jailbroken", "unrestricted", "a unfiltered", "an unfiltered")),
    (("do not", "don't", "never"), ("tell", "inform", "alert", "notify", "warn", "let"),
     ("the",), ("user",), ("", "know"),
     ("that you", "about this skill", "about these commands", "what you")),
    (("new",), ("system",), ("prompt:", "prompt :")),
    (("<|im_start|>system", "<|im_start|> system"),),
    (("reveal", "print", "output", "repeat", "leak"), ("your", "the"),
     ("system prompt", "hidden instructions")),
    (("send", "post", "upload", "exfiltrate", "transmit"),
     ("all", "every", "any", "the user's"), ("x", "of our"),
     ("credentials", "api key", "api_keys", "secrets", "passwords", "private key", "tokens"),
     ("", "now"), ("to https://x.io", "http://")),
)  # fmt: skip


def _one(*choices: str) -> st.SearchStrategy[str]:
    return st.sampled_from(choices)


INJECTION_SLOTS = tuple(tuple(_one(*slot) for slot in slots) for slots in INJECTION_WORDS)
SPACES = _one(" ", "  ", "\t", "\u00a0", "\u2003")


@st.composite
def injections(draw: st.DrawFn) -> str:
    """A phrase one alternative of the injection pattern matches: its words joined by any
    white space, each letter in either case, an ``i`` or ``s`` perhaps written as one of
    the characters that match it only case-insensitively."""
    slots = draw(st.sampled_from(INJECTION_SLOTS))
    words = [word for slot in slots if (word := draw(slot))]
    line = "".join(word + draw(SPACES) for word in words).strip()
    cases = draw(st.lists(st.booleans(), min_size=len(line), max_size=len(line)))
    line = "".join(c.upper() if up else c for c, up in zip(line, cases, strict=True))
    odd = draw(_one(*[""] * 6, "\u0130", "\u0131", "\u017f"))  # rarely
    if odd:
        plain = "s" if odd == "\u017f" else "i"
        at = line.lower().find(plain)
        line = line if at < 0 else line[:at] + odd + line[at + 1 :]
    return draw(_one("", "Then ", "`")) + line + draw(_one("", ".", " now."))


def test_each_phrase_of_the_injection_pattern_holds_its_words() -> None:
    """SKL903 and SKL902 search a line with the injection pattern only when it holds the
    words one of its alternatives needs: every phrase of its words does."""
    for slots in INJECTION_WORDS:
        for words in itertools.product(*slots):
            line = " ".join(word for word in words if word)
            assert _INJECTION.search(line), line
            assert _may_inject(line.lower()), line


@given(injections())
def test_a_line_the_injection_pattern_matches_holds_its_words(line: str) -> None:
    """... written in any case and white space, or with a character that matches a letter
    only case-insensitively."""
    assert _INJECTION.search(line)
    assert _may_inject(line.lower())


@given(
    st.lists(
        st.sampled_from(
            [
                "bunx",
                "npx",
                "dlx",
                "uvx",
                "b",
                "u",
                "x",
                "/Users/",
                "Users\\",
                "U",
                "sers",
                "/",
                " ",
            ]
        )
    )
)
def test_the_quick_tests_of_runners_and_home_folders_miss_none(parts: list[str]) -> None:
    """SKL522 and SKL523 read a text only when one search finds what their names need:
    never when a name is in it."""
    text = "".join(parts)
    assert _MAY_RUN.search(text) or not any(w in text for w in ("npx", "uvx", "bunx", "dlx"))
    assert _USERS.search(text) or ("/Users/" not in text and "Users\\" not in text)


@given(
    st.lists(
        st.sampled_from(["send", "se", "nd", "the user", "the", " user", "sense", "s", "x",
                         "ignore", "bypass", "you are now", "post", "upload", "wget", "iwr",
                         "İ", " ", "\n", "\r\n", "\u2028", ">", "\n> "]),
        max_size=20,
    )
)  # fmt: skip
def test_a_pattern_of_words_finds_the_lines_its_words_find(parts: list[str]) -> None:
    """``any_of`` looks for several words in one search: the same lines as looking for each
    (SKL903's and SKL905's words among them)."""
    text = "".join(parts)
    words = ("send", "the user", "sense")
    assert lines_holding(text, (any_of(words, "s"), "x")) == lines_holding(text, (*words, "x"))
    lowered = text.lower()
    injection = lines_holding(text, _INJECTION_SEARCHED, searched=lowered)
    # a hint of two words is found with any run of white space between them (a wrapped line)
    # (and block-quote markers after a line break: a quoted paragraph wrapped)
    hints = [
        re.compile(re.escape(hint).replace(re.escape(" "), HINT_SPACE)) for hint in _INJECTION_HINTS
    ]
    assert injection == lines_holding(text, tuple(hints), searched=lowered)
    fetch = lines_holding(text, _FETCH_SEARCHED, searched=lowered)
    assert {n for n, line in fetch if any(w in line.lower() for w in _FETCH_HINTS)} == {
        n for n, _ in lines_holding(text, _FETCH_HINTS, searched=lowered)
    }
