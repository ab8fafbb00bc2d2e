"""Shell completion of skill names: what a shell's TAB offers for a parameter that names a
skill (``skc show <TAB>``), through click's own completion (``_SKC_COMPLETE=bash_source skc``
prints the script a shell sources; the skillc README says how for bash, zsh and fish).

The names are those of every installed skill as the read commands take them
(:func:`~skillc_index.inventory.resolve.skill_names`: ``plugin:skill`` for a plugin's), the
set ``skc list`` shows. A word that looks like a path (it holds ``/`` or starts with ``.`` or
``~``) is left to the shell's own file completion. Completion never fails the shell: any
error leaves nothing offered and nothing on the terminal (the listing's warnings are a
command's to print, and no command runs). Imported only when a shell asks.

Bash splits the word being completed at the characters of ``COMP_WORDBREAKS`` (``:`` and
``@`` among them), so click's bash completion sees ``pl:rev`` as the words ``pl``, ``:`` and
``rev`` and readline replaces only ``rev``. :class:`LineBashComplete`, which the kit's
commands use in place of click's bash class (:func:`use_kit_shells`), reads the command line
itself (``COMP_LINE`` up to ``COMP_POINT``) and offers each name trimmed to what follows the
word's last word-break character, as bash-completion's ``__ltrim_colon_completions`` does:
``skc show pl:rev<TAB>`` completes to ``pl:review``. Zsh and fish do not split a word there.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from click.shell_completion import BashComplete, split_arg_string

if TYPE_CHECKING:
    import click
    from click.shell_completion import CompletionItem

#: At most this many names are offered (a home with thousands of skills and an empty word).
MAX_NAMES = 2000

#: Bash's ``COMP_WORDBREAKS`` when the script did not pass it (a script sourced before).
WORD_BREAKS = " \t\n\"'@><=;|&(:"

#: The break characters readline keeps at the start of the word it replaces (bash's).
SPECIAL_PREFIXES = "$@"

#: At most this many characters of the command line are read (``COMP_LINE``).
MAX_LINE = 64 * 1024

#: At most this many characters of ``COMP_WORDBREAKS`` are read (bash's has 13): a longer
#: value is not bash's, and the default is used.
MAX_BREAKS = 64

# Click's script, which passes the words bash split, also passes the line as typed.
_WORDS_PASSED = "COMP_CWORD=$COMP_CWORD"
_LINE_PASSED = (
    'COMP_CWORD=$COMP_CWORD COMP_LINE="$COMP_LINE" COMP_POINT="$COMP_POINT"'
    ' COMP_WORDBREAKS="$COMP_WORDBREAKS"'
)


def skill_completions(
    ctx: click.Context, param: click.Parameter, incomplete: str
) -> list[CompletionItem]:
    """The installed skills whose name starts with ``incomplete`` (case-sensitive, as names
    resolve), sorted; a path-like word completes as a path (``type="file"``)."""
    from click.shell_completion import CompletionItem

    if incomplete.startswith((".", "~")) or "/" in incomplete:
        return [CompletionItem(incomplete, type="file")]
    try:
        names = _installed_names()
    except Exception:  # a TAB press never prints a traceback or an error
        return []
    matching = sorted(name for name in names if name.startswith(incomplete))
    return [CompletionItem(name) for name in matching[:MAX_NAMES]]


def _installed_names() -> set[str]:
    from skillc_index.config import load_config
    from skillc_index.inventory.entries import installed_skills
    from skillc_index.inventory.folders import trusted_targets
    from skillc_index.inventory.resolve import skill_names
    from skillc_index.layout import Layout

    layout = Layout.discover()
    inventory = installed_skills(layout, trusted_targets(layout, load_config(layout)))
    return set(skill_names(inventory.skills))


class LineBashComplete(BashComplete):
    """Click's bash completion, with the word being completed read from the command line as
    typed (``COMP_LINE``, ``COMP_POINT``), not from bash's words split at ``:``, ``@``, ``=``
    (``COMP_WORDBREAKS``), and each value offered trimmed to the part of it bash replaces."""

    source_template = BashComplete.source_template.replace(_WORDS_PASSED, _LINE_PASSED, 1)

    #: The start of the word readline keeps (up to its last break char): not offered again.
    _kept = ""

    def get_completion_args(self) -> tuple[list[str], str]:
        line, point = os.environ.get("COMP_LINE"), os.environ.get("COMP_POINT", "")
        # (``str.isdigit`` takes ``²`` and 5,000 digits, which ``int`` refuses)
        if line is None or not _is_count(point) or len(line) > MAX_LINE:
            return super().get_completion_args()  # a script sourced before: bash's words
        typed = line[: min(int(point), len(line))]
        sentinel = "\ue000"  # marks where the word being completed ends
        words = split_arg_string(typed + sentinel)
        if not words or not words[-1].endswith(sentinel):
            return super().get_completion_args()
        incomplete = words.pop()[: -len(sentinel)]
        # readline keeps the word up to its last break char; quoted or escaped words are
        # not split by it, and are offered whole
        raw = _last_raw_word(typed)
        if raw == incomplete:
            breaks = os.environ.get("COMP_WORDBREAKS", WORD_BREAKS)
            breaks = breaks if len(breaks) <= MAX_BREAKS else WORD_BREAKS
            cut = max((raw.rfind(char) for char in set(breaks)), default=-1)
            # readline's word starts after its last break char, or at it: an ``@`` or ``$``
            # (bash's ``rl_special_prefixes``) is part of the word it replaces
            self._kept = raw[: cut if cut >= 0 and raw[cut] in SPECIAL_PREFIXES else cut + 1]
        return words[1:], incomplete

    def get_completions(self, args: list[str], incomplete: str) -> list[CompletionItem]:
        items = super().get_completions(args, incomplete)
        if self._kept:
            for item in items:
                if item.type == "plain":
                    item.value = _trimmed(item.value, incomplete, len(self._kept))
        return items


def _is_count(text: str) -> bool:
    """Whether ``text`` is a count bash may pass (ASCII digits, at most 9)."""
    return text.isascii() and text.isdigit() and len(text) <= 9


def _last_raw_word(typed: str) -> str:
    """The text after the last whitespace of ``typed``: the word being completed as typed."""
    for index in range(len(typed) - 1, -1, -1):
        if typed[index].isspace():
            return typed[index + 1 :]
    return typed


def _trimmed(value: str, word: str, kept: int) -> str:
    """``value``, which completes ``word`` (or, ``--option=value``, its part after the first
    ``=``: click's split), less the ``kept`` characters of the word readline keeps; ``value``
    as it is when it does not start with them."""
    starts = [0] if "=" not in word else [0, word.index("=") + 1]
    for start in starts:
        if start <= kept and value.startswith(word[start:kept]):
            return value[kept - start :]
    return value


def use_kit_shells() -> None:
    """Make click's ``bash`` completion :class:`LineBashComplete` in this process (the kit's
    commands call it when a shell's completion variable is set, before click reads it)."""
    from click.shell_completion import add_completion_class

    if _LINE_PASSED in LineBashComplete.source_template:  # else click's script changed
        add_completion_class(LineBashComplete, "bash")
