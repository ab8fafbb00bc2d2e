"""Every ``skc`` command is made from an operation of the package that declares it
(:func:`skillc_index.console.command`), or is one of the commands that cannot be one,
listed with the reason in :data:`skillc_index.console.CLI_ONLY` (issue 33, DESIGN.md
"Between packages"). A command in neither fails here."""

from __future__ import annotations

import typing
from importlib import import_module
from importlib.metadata import EntryPoint, entry_points

import click
import pytest

from skillc_index.console import CLI_ONLY, operation_of

COMMANDS = sorted(entry_points(group="skillc.commands"), key=lambda entry: entry.name)


def commands_of(name: str, command: click.Command) -> list[tuple[str, click.Command]]:
    """A command, or each command of a group (``route install``), with its full name."""
    if not isinstance(command, click.Group):
        return [(name, command)]
    ctx = click.Context(command)
    found = []
    for sub in command.list_commands(ctx):
        made = command.get_command(ctx, sub)
        assert made is not None
        found += commands_of(f"{name} {sub}", made)
    return found


@pytest.mark.parametrize("entry", COMMANDS, ids=lambda entry: entry.name)
def test_every_command_is_an_operation_or_cli_only(entry: EntryPoint) -> None:
    command = entry.load()
    if entry.name in CLI_ONLY:
        assert operation_of(command) is None, "made from an operation: not CLI-only"
        return
    package = entry.value.partition(".")[0]
    operations = import_module(f"{package}.operations").OPERATIONS
    for name, made in commands_of(entry.name, command):
        operation = operation_of(made)
        assert operation is not None, f"skc {name}: neither made from an operation nor CLI_ONLY"
        assert operation in operations, f"skc {name}: not an operation of {package}"
        assert operation.name == name


def test_cli_only_names_commands_that_exist() -> None:
    assert set(CLI_ONLY) <= {entry.name for entry in COMMANDS}
    assert all(reason.strip() for reason in CLI_ONLY.values())


def operation_options() -> list[tuple[str, click.Command, click.Option]]:
    """Each option of each command made from an operation."""
    found = []
    for entry in COMMANDS:
        if entry.name in CLI_ONLY:
            continue
        for name, made in commands_of(entry.name, entry.load()):
            found += [
                (name, made, param) for param in made.params if isinstance(param, click.Option)
            ]
    return found


def required_arguments(made: click.Command) -> list[str]:
    return ["x" for param in made.params if isinstance(param, click.Argument) and param.required]


@pytest.mark.parametrize(
    ("name", "made", "option"),
    [found for found in operation_options() if found[2].required],
    ids=lambda value: value if isinstance(value, str) else "",
)
def test_a_required_option_left_out_is_a_usage_error(
    name: str, made: click.Command, option: click.Option
) -> None:
    """Click >= 8.3 takes an explicit ``default=None`` as a value given: `skc show SKILL`
    without --section ran the operation with None and died in it (E999). Each required
    option left out must stop the command line before anything runs."""
    with pytest.raises(click.MissingParameter) as caught:
        made.make_context(name, required_arguments(made))
    assert caught.value.param is option


@pytest.mark.parametrize(
    ("name", "made", "option"),
    [found for found in operation_options() if not found[2].is_flag],
    ids=lambda value: value if isinstance(value, str) else "",
)
def test_an_option_given_without_its_value_is_a_usage_error(
    name: str, made: click.Command, option: click.Option
) -> None:
    """An explicit ``is_flag=False`` makes an option's value optional in click >= 8.3:
    `skc list --pattern` listed every skill. Each option that takes a value, last on the
    command line without one, must stop it."""
    with pytest.raises(click.BadOptionUsage):
        made.make_context(name, [*required_arguments(made), option.opts[0]])


def test_help_shows_the_default_the_description_states() -> None:
    """``--help`` showed no default where the tool's description gives one (``sources
    --depth``, ``outline --level``, ``list --limit``: "default: all") nor ``package -o``'s
    ``dist``: a ``help=`` shorter than the description says the default too, and a text
    option's default is shown."""
    missing = []
    for entry in COMMANDS:
        if entry.name in CLI_ONLY:
            continue
        for name, made in commands_of(entry.name, entry.load()):
            operation = operation_of(made)
            assert operation is not None
            defaults = operation.params._field_defaults
            for field, hint, meta in operation.cli_fields():
                said = (meta.help or meta.description).lower()
                stated = "default" in meta.description.lower()
                choice = typing.get_origin(hint) is typing.Literal  # click shows its default
                text = isinstance(defaults.get(field), str) and not choice
                if (stated or text) and not meta.show_default and "default" not in said:
                    missing.append(f"skc {name} {field}")
    assert missing == []


#: One concept, one spelling: the short flag each of these options has wherever it appears.
SHORT_FLAGS = {"--dry-run": "-n", "--force": "-f", "--global": "-g"}


def test_a_concept_has_its_short_flag_in_every_command() -> None:
    """``-n`` worked for ``list --dry-run`` and not for ``sync``'s, ``-f`` for ``build
    --force`` and not for ``package``'s, ``-g`` for ``build --global`` and not for
    ``init``'s: a user who learned one got E100 on the next."""
    missing = [
        f"skc {name} {option.opts[-1]}"
        for name, _, option in operation_options()
        for long, short in SHORT_FLAGS.items()
        if long in option.opts and short not in option.opts
    ]
    assert missing == []
