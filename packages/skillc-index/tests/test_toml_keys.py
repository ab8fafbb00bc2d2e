"""The parts of the longest dotted key of a TOML text, counted without parsing it."""

from __future__ import annotations

import pytest

from skillc_index.toml_keys import MAX_DEEP_PARTS, MAX_KEY_PARTS, key_refusal

KEY = ".".join(["k"] * MAX_KEY_PARTS)
LONG = ".".join(["k"] * (MAX_KEY_PARTS + 1))


@pytest.mark.parametrize(
    ("text", "line"),
    [
        (f"{KEY} = 1\n", None),
        (f"{LONG} = 1\n", 1),
        (f"a = 1\n\n[{LONG}]\n", 3),
        (f"[[{LONG}]]\n", 1),
        (f"x = [\n  {{ {LONG} = 1 }},\n]\n", 2),
        ("k" + " . 'a.b'" * MAX_KEY_PARTS + " = 1\n", 1),
        ("k" + '."a\\"."' * MAX_KEY_PARTS + " = 1\n", 1),
        # dots in strings, comments, multi-line strings and numbers are no key's
        (f"a = \"{LONG}\"\nb = '{LONG}'  # {LONG}\n", None),
        (f"a = \"\"\"\n{LONG} = 1\n\"\"\"\nb = '''\n{LONG}\n'''\n", None),
        (f'a = """x""""\n{LONG} = 1\n', 2),  # a closing quote then the delimiter
        (f'a = """\n"\\"""\n{LONG} = 1\n"""\n', None),  # an escaped quote
        (f"a = [{', '.join(['1.5'] * 100)}]\n", None),
        # where the text stops being TOML the parser stops too, reading no key past it
        (f'a = """\n{LONG} = 1\n', None),
        (f'a = "x\n{LONG} = 1\n', None),
        (f"a = \\\n{LONG} = 1\n", None),
    ],
)
def test_the_first_line_with_a_key_of_too_many_parts(text: str, line: int | None) -> None:
    found = key_refusal(text)
    assert (None if found is None else found[0]) == line


@pytest.mark.timeout(120)
def test_it_takes_linear_time() -> None:
    """256 KiB (a config file's bound) of any of these, after a first line whose dots make it
    look at every token, or without it: a linear scan takes a fraction of a second, a quadratic
    one hours (no time is asserted: the timeout only stops a scan that went quadratic)."""
    size = 256 * 1024
    dots = 's = "' + "." * 40 + '"\n'
    units = ("x.", ".\n", "a = 1.5\n", '"\\"', "'''a.\n", '"""\\"""', "k" + ".k" * 31 + " = 1\n")
    for first in ("", dots):
        for unit in units:
            text = first + unit * ((size - len(first)) // len(unit))
            key_refusal(text)


def test_the_parts_of_all_keys_beyond_the_fourth_are_bounded_too() -> None:
    """Keys each within :data:`MAX_KEY_PARTS` still added up: a 230 KB file of ``[xN]``
    tables each with one 32-part key took 2 s to parse. The parts beyond the 4th of every
    key are summed: the key passing :data:`MAX_DEEP_PARTS` is refused, on its line; keys
    of 4 parts or fewer (the kit's own tables) count nothing, however many."""
    key = ".".join(["k"] * MAX_KEY_PARTS)  # 28 parts beyond the 4th
    tables = MAX_DEEP_PARTS // (MAX_KEY_PARTS - 4) + 1
    text = "".join(f"[x{n}]\n{key} = 1\n" for n in range(tables))
    assert (key_refusal(text) or (None,))[0] == 2 * tables
    found = key_refusal(text)
    assert found is not None and found[0] == 2 * tables and "4,096" in found[1]
    assert key_refusal(text.rpartition("[x")[0]) is None  # one table fewer: in bounds
    shallow = "".join(f"[tool.skillc.lint.x{n}]\na.b.c.d = 1.5\n" for n in range(5000))
    assert key_refusal(shallow) is None
