"""``-v/--verbose`` means one thing in every command (DESIGN.md, issue 33): more detail (paths;
a traceback on an internal error), declared once, by ``skillc_index.console.verbose_option``.

``skc``'s own ``-v`` (before the command) is the one other declaration: ``skc --help`` imports
no library of the kit (tests/test_e2e_imports.py), console included; it has the same flags and
help, and sets what ``is_verbose`` reads.
"""

from __future__ import annotations

import click

from skillc.cli import _target, discover_commands
from skillc_index.console import is_verbose, verbose_option

SHARED = verbose_option(click.command()(lambda: None)).params[0]


def test_every_command_takes_the_kits_verbose_option() -> None:
    wrong = {}
    for name, target in sorted(discover_commands().items()):
        command = _target(target)
        found = [(p.opts, p.help, p.callback) for p in command.params if "-v" in p.opts]
        if found != [(SHARED.opts, SHARED.help, SHARED.callback)]:
            wrong[name] = found
    assert not wrong


def test_skcs_own_verbose_option_is_the_same_one() -> None:
    from skillc._group import cli

    assert [(p.opts, p.help) for p in cli.params if "-v" in p.opts] == [(SHARED.opts, SHARED.help)]
    ctx = cli.make_context("skc", ["-v", "list"])
    assert is_verbose(ctx)
    assert not is_verbose(cli.make_context("skc", ["list"]))


def test_the_scripts_own_commands_take_it_too() -> None:
    """``skillc-lint clean`` and ``skillc-lint server``, no ``skc`` commands, refused ``-v``
    (``No such option "-v".``): the root README says every command takes it."""
    from skillc_lint.cli import clean_command
    from skillc_lint.server.cli import server_command

    for command in (clean_command, server_command):
        found = [(p.opts, p.help, p.callback) for p in command.params if "-v" in p.opts]
        assert found == [(SHARED.opts, SHARED.help, SHARED.callback)], command.name
