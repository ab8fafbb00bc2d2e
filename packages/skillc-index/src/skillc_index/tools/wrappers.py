"""What each wrapper a tool's command may name runs (spec/003 §3.5).

The tables :mod:`skillc_index.tools.programs` finds a command's programs by: for each wrapper
(:data:`_WRAPPERS`: ``env``, ``nice``, ``sudo``, ``strace``, a package runner's ``uv run``...)
its options taking an argument before the program it runs, the package runners whose
subcommand makes them one (:data:`_RUNNERS`), what they install (:data:`_INSTALLS`), and the
programs an option of ``find`` or ``fd`` runs (:data:`_EXECUTORS`). Each follows the
program's own documentation of its options.
"""

from __future__ import annotations

from collections.abc import Iterable

from skillc_index.tools.interpreters import (
    _FLOCK_ARGUMENT,
    _GIT_ARGUMENT,
    _GIT_SUBCOMMANDS,
    _NPM_EXEC,
    _PNPM_EXEC,
    _SCREEN_ARGUMENT,
    _TMUX_GLOBAL,
)

__all__: list[str] = []


#: uv's options of ``uv run`` and ``uvx`` that take an argument (``uv run --help``).
_UV_ARGUMENT = (
    "--with", "--with-editable", "--with-requirements", "--from", "-p", "--python", "--directory",
    "--project", "--package", "--extra", "--group", "--env-file", "--index", "--default-index",
    "-i", "--index-url", "--extra-index-url", "-f", "--find-links", "--config-file",
    "--cache-dir", "--color", "--only-group", "--no-group", "-C", "--config-setting",
)  # fmt: skip

#: npx's, ``npm exec``'s, ``pnpm dlx``'s, ``yarn dlx``'s and bunx's options taking an argument.
_NPX_ARGUMENT = ("-p", "--package", "--call", "--registry", "--cache", "--userconfig")

#: npm's, pnpm's, yarn's and bun's options before a subcommand that take an argument
#: (npm's -c/--call and --node-options: ``npm exec``'s, read there: :data:`_SHARED`).
_JS_GLOBAL = ("--prefix", "-C", "--dir", "-w", "--workspace", "-F", "--filter", "--cwd",
    "--registry", "--cache", "--userconfig", "--reporter", "-c", "--config", "--call",
    "--node-options")  # fmt: skip

#: The runners' subcommands (:data:`_RUNNERS`) whose options may come before the
#: subcommand too, read as its own (npm's are its configuration, wherever given: ``npm -c
#: CMD exec`` runs CMD).
_SHARED = ("npm exec",)

#: tmux's commands that set an option, each with the options whose value runs (a shell's
#: command, a shell): ``tmux set-option -g default-command CMD``.
_TMUX_SET: dict[tuple[str, ...], str] = {
    (command, option): "tmux set-option"
    for command in ("set-option", "set")
    for option in ("default-command", "default-shell")
}

#: Package runners whose subcommand runs a package's program, its first operand then
#: (``uv run``, ``uv tool run``, ``pnpm dlx``, ``npm x``...: each the :data:`_WRAPPERS`
#: entry it is), or takes code (``yarn exec``, ``tmux send-keys``: the
#: :data:`~skillc_index.tools.interpreters._INTERPRETERS` entry it is), with their
#: options that take an argument, which may come before the subcommand or between its
#: words (``uv -q --directory d run``, ``uv tool -q run``).
_RUNNERS: dict[str, tuple[dict[tuple[str, ...], str], tuple[str, ...]]] = {
    "uv": ({("run",): "uv run", ("tool", "run"): "uvx"}, _UV_ARGUMENT),
    "pipx": ({("run",): "pipx run"}, ("--python",)),
    "pnpm": ({("dlx",): "pnpm dlx", ("exec",): "pnpm exec"}, _JS_GLOBAL),
    "npm": ({("exec",): "npm exec", ("x",): "npm exec"}, _JS_GLOBAL),
    "yarn": ({("dlx",): "yarn dlx", ("exec",): "yarn exec"}, _JS_GLOBAL),
    "bun": ({("x",): "bunx"}, _JS_GLOBAL),
    # tmux's commands that run a shell command (its one operand) or a program (several);
    # run-shell's one operand is always a shell's command (_INTERPRETERS' "tmux run-shell")
    "tmux": (
        {
            **dict.fromkeys([("new-session",), ("new",)], "tmux new-session"),
            **dict.fromkeys([("new-window",), ("neww",)], "tmux new-window"),
            **dict.fromkeys([("split-window",), ("splitw",)], "tmux split-window"),
            **dict.fromkeys(
                [("respawn-pane",), ("respawnp",), ("respawn-window",), ("respawnw",)],
                "tmux respawn-pane",
            ),
            **dict.fromkeys([("run-shell",), ("run",)], "tmux run-shell"),
            **dict.fromkeys([("display-popup",), ("popup",)], "tmux display-popup"),
            **dict.fromkeys([("pipe-pane",), ("pipep",)], "tmux pipe-pane"),
            **dict.fromkeys([("send-keys",), ("send",)], "tmux send-keys"),
            **dict.fromkeys([("if-shell",), ("if",)], "tmux if-shell"),
            **dict.fromkeys([("source-file",), ("source",)], "tmux source-file"),
            **_TMUX_SET,
        },
        (*_TMUX_GLOBAL, "-t"),  # -t: a command's target (`set-option -t s default-shell`)
    ),
    # git's subcommands that run a command given in an option (`git rebase --exec`), or
    # their operands (`git bisect run PROG`, `git submodule foreach CMD`)
    "git": (
        {
            **{(name,): f"git {name}" for name in _GIT_SUBCOMMANDS},
            ("bisect", "run"): "git bisect run",
            ("submodule", "foreach"): "git submodule foreach",
        },
        (*_GIT_ARGUMENT, "-c", "--config-env"),
    ),
}


def _runner(name: str, following: Iterable[str | None]) -> tuple[int, str] | None:
    """Whether the program ``name``, followed by the words ``following`` (their literal
    text, None for one holding a value), is a package runner given its subcommand
    (:data:`_RUNNERS`): how many words after it that subcommand's last one stands, and the
    :data:`_WRAPPERS` (or ``_INTERPRETERS``) entry it is; else None."""
    if name not in _RUNNERS:
        return None
    subcommands, takes = _RUNNERS[name]
    said: tuple[str, ...] = ()
    skip = False
    for offset, literal in enumerate(following, 1):
        if skip or literal is None or literal == "--":
            if not skip:
                return None
            skip = False
        elif len(literal) > 1 and literal[0] == "-":
            skip = literal in takes
        else:
            said += (literal,)
            if said in subcommands:
                return offset, subcommands[said]
            if not any(words[: len(said)] == said for words in subcommands):
                return None
    return None


#: Programs that run another program, their first operand (after the options named here and
#: the operands of :data:`_WRAPPER_OPERANDS`; ``NAME=VALUE`` words are skipped). The runners
#: (``ionice``, ``flock FILE``, ``chroot DIR``...) too: the program they run is read as one
#: (``ionice -c3 script -qc {{x}}``), as ``ssh``, ``watch``, ``su`` are only there.
_WRAPPERS: dict[str, tuple[str, ...]] = {
    "env": ("-u", "--unset", "-C", "--chdir"),
    "timeout": ("-s", "--signal", "-k", "--kill-after"),
    "nice": ("-n", "--adjustment"),
    "sudo": ("-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U"),
    "doas": ("-u", "-C"),
    "pkexec": ("--user",),
    "xargs": ("-n", "-L", "-P", "-s", "-d", "-E", "-I", "-a"),
    "stdbuf": ("-i", "-o", "-e"),
    "time": ("-f", "--format", "-o", "--output"),
    **dict.fromkeys(("nohup", "setsid", "command", "exec", "busybox", "firejail"), ()),
    # -p, -P, -u: running processes, no program (`ionice -p {{pid}}`)
    "ionice": ("-c", "--class", "-n", "--classdata", "-p", "--pid", "-P", "--pgid", "-u", "--uid"),
    "chrt": ("-T", "--sched-runtime", "-P", "--sched-period", "-D", "--sched-deadline", "-p"),
    "taskset": ("-p", "-cp", "-pc"),
    # flock FILE -c CMD: no program, a shell's command (_INTERPRETERS' flock)
    "flock": _FLOCK_ARGUMENT,
    "chroot": ("--userspec", "--groups"),
    "nsenter": ("-t", "--target", "-S", "--setuid", "-G", "--setgid", "-W", "--wdns"),
    "unshare": (
        "-R", "--root", "-w", "--wd", "-S", "--setuid", "-G", "--setgid", "--monotonic",
        "--boottime", "--propagation", "--setgroups",
    ),
    # package runners: the program (a package's) is their first operand
    "uvx": _UV_ARGUMENT, "uv run": _UV_ARGUMENT, "pipx run": ("--spec", "--python",
    "--pip-args", "--index-url"), "npx": _NPM_EXEC, "npm exec": _NPM_EXEC,
    "pnpm dlx": _NPX_ARGUMENT, "yarn dlx": _NPX_ARGUMENT, "bunx": _NPX_ARGUMENT,
    "pnpm exec": _PNPM_EXEC, "git bisect run": (),
    # tracers, debuggers, sandboxes and sessions that run their operand (its arguments
    # after it); bwrap's options of two or three words: :data:`_OPTION_WORDS`
    "strace": (
        "-a", "-b", "-e", "-E", "-I", "-o", "-O", "-p", "-P", "-s", "-S", "-u", "-X", "-U",
        "--output", "--attach", "--string-limit", "--user", "--env", "--columns", "--trace",
        "--trace-path", "--signal", "--status", "--summary-columns", "--summary-sort",
        "--const-print-style", "--detach-on", "--inject", "--fault", "--abbrev", "--verbose",
        "--raw", "--read", "--write", "--quiet",
    ),
    "ltrace": ("-a", "-A", "-D", "-e", "-F", "-l", "-n", "-o", "-p", "-s", "-u", "-w", "-x",
        "--output", "--library", "--align", "--indent"),
    "valgrind": (),  # its options are --name=value
    "xvfb-run": ("-e", "--error-file", "-f", "--auth-file", "-n", "--server-num", "-p",
        "--xauth-protocol", "-s", "--server-args", "-w", "--wait"),
    "entr": (),  # -s: its operand is a shell's command (read as the program, refused)
    "screen": _SCREEN_ARGUMENT,
    "bwrap": ("--args", "--argv0", "--userns", "--userns2", "--pidns", "--uid", "--gid",
        "--hostname", "--chdir", "--unsetenv", "--lock-file", "--sync-fd", "--remount-ro",
        "--overlay-src", "--tmp-overlay", "--ro-overlay", "--exec-label", "--file-label",
        "--proc", "--dev", "--tmpfs", "--mqueue", "--dir", "--seccomp", "--add-seccomp-fd",
        "--block-fd", "--userns-block-fd", "--info-fd", "--json-status-fd", "--cap-add",
        "--cap-drop", "--perms", "--size"),
    "tmux new-session": ("-c", "-e", "-f", "-F", "-n", "-s", "-t", "-x", "-y"),
    "tmux new-window": ("-c", "-e", "-F", "-n", "-t"),
    "tmux split-window": ("-c", "-e", "-F", "-l", "-t"),
    "tmux respawn-pane": ("-c", "-e", "-t"),
    "tmux display-popup": ("-b", "-c", "-d", "-e", "-h", "-s", "-S", "-t", "-T", "-w", "-x",
        "-y"),
    "tmux pipe-pane": ("-t",),
    "setpriv": (
        "--ambient-caps", "--inh-caps", "--bounding-set", "--ruid", "--euid", "--rgid", "--egid",
        "--reuid", "--regid", "--groups", "--securebits", "--pdeathsig", "--selinux-label",
        "--apparmor-profile", "--landlock-access", "--landlock-rule",
    ),
}  # fmt: skip


#: Wrapper options that take more than one word (``bwrap --bind SRC DEST``): how many.
_OPTION_WORDS: dict[str, dict[str, int]] = {
    "bwrap": {
        **dict.fromkeys(
            ("--setenv", "--bind", "--bind-try", "--dev-bind", "--dev-bind-try", "--ro-bind",
             "--ro-bind-try", "--file", "--bind-data", "--ro-bind-data", "--symlink",
             "--chmod"),
            2,
        ),
        "--overlay": 3,
    },
}  # fmt: skip


#: Wrapper options whose two words are a variable and its value, put in the program's
#: environment as ``NAME=VALUE`` words are (``bwrap --setenv NAME VALUE``).
_SETENV = {"bwrap": ("--setenv",)}


#: The options of a package runner (the :data:`_WRAPPERS` entry it is) whose argument
#: chooses what it installs, hence what runs (a package, an index, an interpreter, a config
#: file naming them): code, as the program is (``uvx --from {{x}} tool``, ``npx -p``). Not a
#: directory or a cache (``uv --directory``, ``--cache-dir``): the request names where, not
#: what.
_INSTALLS: dict[str, tuple[str, ...]] = {
    **dict.fromkeys(
        ("uvx", "uv run"),
        (
            "--with", "--with-editable", "--with-requirements", "--from", "-p", "--python",
            "--package", "--index", "--default-index", "-i", "--index-url",
            "--extra-index-url", "-f", "--find-links", "--config-file", "-C",
            "--config-setting",
        ),
    ),
    "pipx run": ("--spec", "--python", "--pip-args", "--index-url"),
    **dict.fromkeys(
        ("npx", "npm exec", "pnpm dlx", "yarn dlx", "bunx"),
        ("-p", "--package", "--registry", "--userconfig"),
    ),
    "pnpm exec": ("--package",),
}  # fmt: skip


#: Wrappers that clear the environment of the program they run (:attr:`CodeValue.data`
#: ``argument``): whether they do by default (sudo's ``env_reset``), and the options that
#: say otherwise (``sudo -E``, not ``--preserve-env=LIST``; ``env -i``, ``env -``).
_CLEARS = {
    "sudo": (True, ("-E", "--preserve-env")), "doas": (True, ()), "pkexec": (True, ()),
    "env": (False, ("-i", "--ignore-environment", "-")), "setpriv": (False, ("--reset-env",)),
}  # fmt: skip


#: The operands a wrapper takes before its program: ``timeout``'s duration, ``chrt``'s
#: priority, ``taskset``'s mask, ``flock``'s file, ``chroot``'s new root.
_WRAPPER_OPERANDS = {"timeout": 1, "chrt": 1, "taskset": 1, "flock": 1, "chroot": 1}


#: ``env``'s options whose argument is itself a command line (the program it runs).
_SPLIT = ("-S", "--split-string")


#: Programs that run a program named by one of their options, once per file they find: the
#: word after the option is that program, the words after it its arguments up to a ``;``
#: word (find's ``+`` after ``{}`` too; fd's run to the end without one). find's
#: ``-exec``/``-execdir``/``-ok``/``-okdir``, fd's ``-x``/``--exec``/``-X``/``--exec-batch``.
_EXECUTORS: dict[str, tuple[str, ...]] = {
    "find": ("-exec", "-execdir", "-ok", "-okdir"),
    **dict.fromkeys(("fd", "fdfind"), ("-x", "--exec", "-X", "--exec-batch")),
}


#: fd's short options that take a value (``fd --help``): in a cluster (clap's) the rest of
#: the word is that value, so ``-Hx`` is ``-H -x`` and ``-ex`` is ``-e x``.
_FD_ARGUMENT = ("-d", "-E", "-e", "-t", "-c", "-j", "-S", "-o", "-x", "-X")
