"""``skc find`` without click: a find server's answer, printed as the command prints it.

An agent runs ``skc find`` before anything else, many times a session. With a find server
running (``skc watch``), the server's part of the answer takes a few milliseconds; the rest
is the process starting, and importing click costs about as much as starting Python. So
``skc`` first offers the command line to :func:`run` (the ``skillc.quick`` entry point of
``find``), which reads the usual forms itself: a query, ``--limit N``, ``--path DIR``
(repeated), ``--format text|json``, as ``--name value`` or ``--name=value``; a word that
starts with ``-`` and is none of find's options is the query, as in the click command
(:class:`skillc_index.console.TextCommand`), and so is one after ``--``. When the server
answers, it prints the answer as the click command does (:func:`.find_output.print_answer`
prints it for both) and returns 0. For anything else it returns None before it printed
anything, and the click command runs, as it does without a server: ``--help``, ``-v``, an
option or a value it does not read, bad input (the command's error), no server (the command
answers itself, and may start one), a configuration with problems (the command prints them).
A server that did not answer is not asked again by the command
(:func:`.catalog.client.ask`). Before it imports anything else, it tells the server the
query (:func:`.find_socket.tell_ahead`: the server embeds it while this process computes its
request).
"""

from __future__ import annotations

from skillc_gateway._limits import DEFAULT_FIND_LIMIT

__all__ = ["run"]

#: The values of ``--format`` (the click command's choices).
FORMATS = ("text", "json")
#: The click command's options the quick path reads (each takes a value)...
QUICK_OPTIONS = ("--limit", "--path", "--format")
#: ... and its other options: a command line naming one is the command's. Between them, every
#: option of the command (a test holds them to its params): one missing here would be the
#: query to the quick path.
CLICK_ONLY = ("-h", "--help", "-v", "--verbose")


def run(args: list[str], program: str = "skc") -> int | None:
    """Answer ``skc find ARGS`` from the find server: 0 once printed; None when the click
    command is to run instead (nothing was printed). ``program``: the script that runs it
    (``skc``, ``skillc-gateway``), which the answer's hints name (``skillc-gateway show``)."""
    parsed = _parse(args)
    if parsed is None:
        return None
    query, limit, paths, output_format = parsed
    from skillc_gateway.find_socket import tell_ahead

    tell_ahead(query)  # before the imports below: the server embeds it meanwhile
    from skillc_gateway.catalog import Elsewhere, client, served_answer
    from skillc_gateway.find_output import print_answer
    from skillc_index import Layout, SkillcError, load_config
    from skillc_index.inventory.folders import trusted_targets

    try:
        layout = Layout.discover()
    except SkillcError:
        return None
    if not client.usable(layout):  # before reading the configuration: no server, no cost
        return None
    config = load_config(layout)
    if config.notices:
        return None
    try:
        result = served_answer(layout, query, limit, paths, trusted_targets(layout, config))
    except Elsewhere:  # the server builds these skills: the command answers from their files
        return None
    if result is None:
        return None
    if result.warnings:
        from skillc_index.console import report_all

        report_all(result.warnings)
    print_answer(layout, result, output_format, lambda name: f"{program} {name}")
    return 0


def _parse(args: list[str]) -> tuple[str, int, list[str], str] | None:
    """``(query, limit, paths, format)`` of a command line of the usual forms, else None."""
    query: str | None = None
    limit, paths, output_format = DEFAULT_FIND_LIMIT, [], FORMATS[0]
    rest = iter(args)
    options = True
    for arg in rest:
        if options and arg == "--":
            options = False
        elif options and arg.partition("=")[0] in CLICK_ONLY:
            return None  # help, -v: the click command's
        elif options and arg.partition("=")[0] in QUICK_OPTIONS:
            name, equals, value = arg.partition("=")
            if not equals:
                value = next(rest, "-")
            if value.startswith("-"):
                return None  # a value like an option: the click command's
            if name == "--path":
                paths.append(value)
            elif name == "--format" and value in FORMATS:
                output_format = value
            elif name == "--limit" and value.isascii() and value.isdigit():
                limit = int(value)
            else:
                return None
        elif query is None:
            query = arg
        else:
            return None
    return None if query is None else (query, limit, paths, output_format)
