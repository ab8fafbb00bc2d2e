"""What each interpreter a tool's command may name takes as code (spec/003 §3.5).

The tables :mod:`skillc_index.tools.code_values` reads a command by: for each interpreter
(:data:`_INTERPRETERS`, an :class:`_Interpreter`; a program taking code in an option too,
``git -c``, ``npx -c``) its options whose argument is code, a module it loads first, the
script it runs, or any other argument (what each wrapper runs:
:mod:`skillc_index.tools.wrappers`). Each table follows the program's own documentation of
its options (``node --help``, ``python3 --help``, ``julia --help``, ``pwsh -?``...).
"""

from __future__ import annotations

import re
from typing import Literal, NamedTuple

__all__: list[str] = []


class _Interpreter(NamedTuple):
    code: tuple[str, ...] = ()
    """Options whose argument is code: the next word, or attached (``-eX``, ``--eval=X``)."""
    takes_argument: tuple[str, ...] = ()
    """Options whose next word is an argument (not code, not an operand)."""
    shell: bool = False
    """A shell: ``c`` in an option cluster makes its first operand an inline script."""
    parameters: tuple[tuple[str, ...], ...] = ()
    """pwsh's way (CommandLineParameterParser.MatchSwitch): its parameters in the order it
    tries them, each (its name, the shortest text naming it, an alias it matches instead of
    the name). A word ``-x``, ``--x`` or ``/x`` gives the first parameter whose name (or alias)
    starts with ``x``, case ignored, when ``x`` is at least that shortest text: ``-exec`` is
    ``-executionpolicy``, ``-co`` ``-command``, ``-e`` ``-encodedcommand``. Its other fields
    name its parameters by their names (``-executionpolicy``)."""
    joined: tuple[str, ...] = ()
    """Code options whose code is every word after them, joined (``pwsh -Command Write-Output
    {{x}}``: one command line of them)."""
    subcommands: tuple[str, ...] = ()
    """Words right after the program that run a script, its first operand (``deno run``)."""
    magic_open: bool = False
    """perl: ``-n``/``-p``/``-a``/``-F`` (``while (<>)``), or ``<>`` in its code, open each
    operand with the two-argument ``open``: ``cmd|`` runs a command, ``>file`` truncates one
    (:data:`_PERL_SWITCHES`); with ``-i`` they are opened as plain files."""
    preload: tuple[str, ...] = ()
    """Options whose argument is code too, a module loaded first (``node -r``, ``ruby -r``,
    ``lua -l``): unlike ``code``'s, the script operand still runs after them (perl's ``-M``
    takes its module attached only: ``perl -M strict`` is an error)."""
    by_name: bool = False  # lua -l: a module name its search finds, no file (not in preloads)
    script_operand: bool = True
    """Its first operand is the script it runs (not ``su``'s user, ``ssh``'s host)."""
    permute: bool = False
    """Options come after operands too (``su user -c CMD``: getopt's permutation)."""
    shell_operands: int | None = None
    """Its operands after this many are joined into a command line a shell runs (``ssh
    host CMD...``, on the remote; ``watch CMD...``, by ``sh -c``), unless one of
    :attr:`no_shell` is given (``watch -x``)."""
    shell_end: tuple[str, ...] = ()
    """Words that end that command line when one comes after it: the operands after are
    arguments it quotes itself (GNU ``parallel CMD ::: ARGS``). Not when no command comes
    before (``parallel ::: CMDS``: they are the command lines), nor one starting with a
    replacement string (``parallel {} ::: ARGS``, ``{1}``, ``{=...=}``: parallel quotes none
    there), nor after one of :attr:`shell_end_off` (another separator or replacement string):
    then every operand is that command line's."""
    shell_end_off: tuple[str, ...] = ()
    command_operand: tuple[str, ...] | None = None
    """With :attr:`shell_operands`, its command line is one operand alone, the words after it
    ignored, a word of these before it skipped when another follows (shadow's ``sg GROUP -c
    CMD`` and ``sg GROUP CMD`` run ``sh -c CMD``; ``sg GROUP -c``, ``sh -c -c``); None: every
    operand is."""
    lone_dash: bool = False
    """A lone ``-`` is an option of its own, not an operand (``su - bob``, ``sg - GROUP``)."""
    no_shell: tuple[str, ...] = ()
    shell_with: tuple[str, ...] = ()
    """Options without which there is no such command line: its operands are a program it
    runs itself, with them a shell's line (``pnpm exec -c``, ``--shell-mode``)."""
    runs_program: tuple[str, ...] = ()
    """Options after which its first operand is a program it runs itself, no shell
    (``watch -x``, ``runuser -u bob``)."""
    shell_arguments: bool = False
    """Its operands after the user go to the user's shell (``su bob -c CMD``, ``su bob --
    -c CMD``; ``su bob FILE``: the script it runs)."""
    data: Literal["either", "environment", "commands"] = "either"
    """How the code of its code options can be given a value as data (:attr:`CodeValue.
    data`), but :attr:`path_options`'."""
    line_data: Literal["environment", "input", "keys", "server", "path"] = "environment"
    """How its command line (:attr:`shell_operands`) can be given a value as data
    (:attr:`CodeValue.data`): in the environment only (a shell here parses one string);
    ``input`` (``ssh``: the remote's shell); ``keys`` (``tmux send-keys``: typed into a
    pane's shell it did not start); ``server`` (``tmux if-shell``, ``run-shell``: the tmux
    server's shell, started elsewhere); ``path`` (``tmux source-file``: files of commands)."""
    path_options: tuple[str, ...] = ()
    """Code options whose argument names a file or folder whose contents run (``git
    --git-dir``'s hooks and config, ``--exec-path``'s programs, ``tmux -f``, ``screen -c``,
    ``gdb -x``): no text belongs there (:attr:`CodeValue.data` ``path``)."""
    subcommand_program: bool = False
    """Its first operand names the program it runs (git's subcommand: ``git-NAME`` on its
    exec path, or an alias, which may be a shell's command): a value there is its program."""
    code_after: int = 0
    """Its code options come after this many operands, right after them (``flock FILE -c
    CMD``: no program then, a shell runs CMD; ``flock FILE PROG...``: PROG runs)."""
    optional_argument: tuple[str, ...] = ()
    """Options taking the next word as their argument when it starts with no ``-`` (``screen
    -r [SESSION]``, ``-x``): ``screen -r s -X stuff CMD``'s ``s`` is no program."""
    last_argument: tuple[str, ...] = ()
    """Options taking the last word as their argument when it starts with no ``-`` and they
    are in the word before it, unless one of :attr:`names_session` came first (screen's
    ``-d``/``-D [SESSION]``: ``screen -dm NAME`` names the session, ``-dm PROG ARG`` and
    ``-S s -dm PROG`` run PROG)."""
    names_session: tuple[str, ...] = ()
    ends_options: tuple[str, ...] = ()
    """Options after which it reads no option of its own: its next operand is the program it
    runs, the words after it that program's (``gdb --args PROG ARGS``); before one, getopt
    permutes (``gdb ./a.out -ex CMD``)."""
    long_only: bool = False
    """It reads its options by getopt_long_only (gdb's): a word ``-name`` is one option
    (``-nx``, ``-batch``), never a cluster of letters (``-nx`` is not ``-n -x``)."""
    login: tuple[str, ...] = ()
    """Options that start a login shell (``su -l``, ``su -``): it clears the environment."""
    shell_option: tuple[str, ...] = ()
    """Options whose argument is the program it runs (``su -s SHELL``)."""
    script_option: tuple[str, ...] = ()
    """Options whose argument is the script it runs, the words after it the script's
    (``pwsh -File x.ps1 -Name v``)."""
    operand_command: bool = False
    """Windows PowerShell 5.1's: without ``-File`` its operands are ``-Command``'s, its default
    parameter (pwsh's is ``-File``), joined into one command line: the words after the first
    are code too (``powershell x.ps1 {{x}}`` runs ``x.ps1 VALUE``, a value ``; cmd`` runs)."""
    data_settings: tuple[str, ...] = ()
    """For code options whose argument is a ``KEY=VALUE`` setting (``git -c``, ``ssh -o``):
    the keys whose value is data (``user.name``; ending in ``.``, a whole section:
    ``color.``), lowercase. A setting of any other key is code, as is one whose key holds a
    value (``git -c {{x}}``): many run a command (``core.pager``, ``alias.x=!cmd``,
    ``credential.helper``; ssh's ``ProxyCommand``, ``LocalCommand``, ``KnownHostsCommand``,
    ``RemoteCommand``, a library's ``PKCS11Provider``)."""
    settings_blank: bool = False
    """Its settings' key may end at a blank too (``ssh -o 'User bob'``: ssh's config line)."""
    long_options: tuple[str, ...] = ()
    """Every long option it knows, when it reads one by getopt_long (julia's): a word
    ``--name`` that is no option's whole name but begins exactly one (``--thr 4``) is that
    option (``--threads 4``); one that begins none or several is an error, nothing runs.
    Not node's (an option outside its tables is V8's, whose value needs ``=``: the next word
    is the script), bun's (it skips an unknown one alone), ruby's or deno's (an unknown
    option is an error). A git subcommand's parse-options reads a prefix so too (``git clone
    --templ=DIR``): there the long options its tables name (:data:`_GIT_SUBCOMMANDS`), so a
    prefix git finds ambiguous among its other options may be read as one, never the
    reverse."""


_SHELL = _Interpreter(
    takes_argument=("-o", "+o", "-O", "+O", "--rcfile", "--init-file"), shell=True
)


_AWK = _Interpreter(("-e", "--source", "-f", "--file"), ("-F", "-v", "--assign"))


_SED = _Interpreter(("-e", "--expression", "-f", "--file"), ("-l",))


#: pwsh's parameters (about_Pwsh; CommandLineParameterParser.ParseHelper's order) and Windows
#: PowerShell 5.1's (about_PowerShell_exe): -File's argument is the script it runs; -Version
#: takes one in 5.1 (pwsh 7 prints its version and stops there, whatever follows), as does
#: 5.1's -PSConsoleFile (a console file; its launcher's, no prefix of it known: only the
#: whole name) and pwsh's -ConfigurationFile (a session configuration, whole name only)
_PWSH = _Interpreter(
    ("-command", "-commandwithargs", "-encodedcommand"),
    (
        "-version", "-psconsolefile", "-configurationfile", "-configurationname",
        "-custompipename", "-windowstyle", "-outputformat", "-inputformat", "-executionpolicy",
        "-encodedarguments", "-settingsfile", "-workingdirectory",
    ),
    parameters=(
        ("psconsolefile", "psconsolefile"),
        ("version", "v"), ("help", "h"), ("?", "?"), ("login", "l"), ("noexit", "noe"),
        ("noprofile", "nop"), ("nologo", "nol"), ("noninteractive", "noni"),
        ("socketservermode", "so"), ("servermode", "s"), ("namedpipeservermode", "nam"),
        ("sshservermode", "sshs"), ("noprofileloadtime", "noprofileloadtime"),
        ("interactive", "i"), ("configurationfile", "configurationfile"),
        ("configurationname", "config"),
        ("custompipename", "cus"), ("command", "c"), ("commandwithargs", "commandwithargs"),
        ("commandwithargs", "cwa", "cwa"), ("windowstyle", "w"), ("file", "f"),
        ("outputformat", "o"), ("outputformat", "o", "of"), ("inputformat", "inp"),
        ("inputformat", "if", "if"), ("executionpolicy", "ex"), ("executionpolicy", "ep", "ep"),
        ("encodedcommand", "e"), ("encodedcommand", "e", "ec"),
        ("encodedarguments", "encodeda"), ("encodedarguments", "ea", "ea"),
        ("settingsfile", "settings"), ("sta", "sta"), ("mta", "mta"),
        ("workingdirectory", "wo"), ("workingdirectory", "wd", "wd"),
        ("removeworkingdirectorytrailingcharacter", "removeworkingdirectorytrailingcharacter"),
    ),
    script_option=("-file",),
    joined=("-command",),
)  # fmt: skip


_NODE_CODE = ("-e", "--eval", "-p", "--print")


_NODE_PRELOAD = ("-r", "--require", "--import", "--loader", "--experimental-loader")


#: node's options taking an argument (``node --help``, doc/node-config-schema.json's
#: options of a string, number or list value; ``--inspect[=port]`` takes one after ``=`` only)
_NODE_ARGUMENT = (
    "-C", "--conditions", "--allow-fs-read", "--allow-fs-write", "--build-snapshot-config",
    "--cpu-prof-dir", "--cpu-prof-interval", "--cpu-prof-name", "--debug-port",
    "--diagnostic-dir", "--disable-proto", "--disable-warning", "--dns-result-order",
    "--env-file", "--env-file-if-exists", "--experimental-default-type",
    "--experimental-policy", "--experimental-sea-config", "--heap-prof-dir",
    "--heap-prof-interval", "--heap-prof-name", "--heapsnapshot-near-heap-limit",
    "--heapsnapshot-signal", "--icu-data-dir", "--input-type", "--inspect-port",
    "--inspect-publish-uid", "--localstorage-file", "--max-http-header-size",
    "--network-family-autoselection-attempt-timeout", "--openssl-config", "--policy-integrity",
    "--redirect-warnings", "--report-dir", "--report-directory", "--report-filename",
    "--report-signal", "--secure-heap", "--secure-heap-min", "--snapshot-blob",
    "--stack-trace-limit", "--test-concurrency", "--test-coverage-branches",
    "--test-coverage-exclude", "--test-coverage-functions", "--test-coverage-include",
    "--test-coverage-lines", "--test-global-setup", "--test-isolation", "--test-name-pattern",
    "--test-reporter", "--test-reporter-destination", "--test-shard", "--test-skip-pattern",
    "--test-timeout", "--title", "--tls-cipher-list", "--tls-keylog",
    "--trace-event-categories", "--trace-event-file-pattern", "--trace-require-module",
    "--unhandled-rejections", "--use-largepages", "--v8-pool-size", "--watch-kill-signal",
    "--watch-path",
)  # fmt: skip


#: bun's (``bun run --help``): its -r/--preload/--require/--import load a module first
_BUN = (
    "-c", "--config", "--conditions", "--console-depth", "--cwd", "-d", "--define", "--drop",
    "--dns-result-order", "--elide-lines", "--env-file", "--extension-order", "-F", "--filter",
    "--fetch-preconnect", "--install", "--jsx-factory", "--jsx-fragment", "--jsx-import-source",
    "--jsx-runtime", "-l", "--loader", "--main-fields", "--max-http-header-size", "--port",
    "--shell", "--title", "--tsconfig-override", "--unhandled-rejections", "--user-agent",
    "--watch-kill-signal",
)  # fmt: skip


#: ruby's (ruby.c's is_option_with_arg: ``--name=x`` or ``--name x``); any other long
#: option is an error
_RUBY_ARGUMENT = (
    "-I", "-C", "-E", "--encoding", "--external-encoding", "--internal-encoding", "--enable",
    "--disable", "--dump", "--backtrace-limit", "--crash-report", "--parser",
)  # fmt: skip


#: julia's options taking an argument (``julia --help`` and ``--help-hidden``, src/jloptions.c's
#: shortopts and longopts of julia 1.12: getopt_long's required arguments; -e, -E, -m are code,
#: -L loads a file first); -O and -g take the next word too when written short
_JULIA = (
    "-H", "--home", "-J", "--sysimage", "-C", "--cpu-target", "-t", "--threads", "-p",
    "--procs", "-O", "-g", "--banner", "--bug-report", "--sysimage-native-code",
    "--compiled-modules", "--pkgimages", "--gcthreads", "--machine-file", "--color",
    "--history-file", "--startup-file", "--compile", "--check-bounds", "--output-bc",
    "--output-unopt-bc", "--output-o", "--output-asm", "--output-ji", "--output-incremental",
    "--depwarn", "--warn-overwrite", "--warn-scope", "--inline", "--polly",
    "--timeout-for-safepoint-straggler", "--trace-compile", "--trace-dispatch",
    "--task-metrics", "--math-mode", "--handle-signals", "--bind-to", "--permalloc-pkgimg",
    "--heap-size-hint",
)  # fmt: skip


#: julia's other long options: with an argument after ``=`` only (``--project[=dir]``), or
#: none; with :data:`_JULIA`'s and its code's, every one it knows (a prefix names one)
_JULIA_LONG = (
    *(option for option in _JULIA if option.startswith("--")),
    "--eval", "--print", "--module", "--load", "--project", "--code-coverage",
    "--track-allocation", "--optimize", "--min-optlevel", "--debug-info", "--worker", "--trim",
    "--version", "--help", "--help-hidden", "--interactive", "--quiet",
    "--trace-compile-timing", "--experimental", "--lisp", "--image-codegen", "--rr-detach",
    "--strip-metadata", "--strip-ir",
)  # fmt: skip


#: php's code, its -B/-R/-E code for before/each/after the input lines, and its -F file
_PHP_CODE: tuple[str, ...] = ("-r", "--run", "-B", "--process-begin", "-R", "--process-code", "-E")


_PHP_CODE += ("--process-end", "-F", "--process-file")


#: ssh's options that take an argument (``-o``'s is code: ``ProxyCommand=...`` runs locally)
_SSH_ARGUMENT = (
    "-B", "-b", "-c", "-D", "-E", "-e", "-F", "-I", "-i", "-J", "-L", "-l", "-m", "-O", "-p",
    "-Q", "-R", "-S", "-W", "-w",
)  # fmt: skip


#: The keys of ``ssh -o KEY=VALUE`` whose value is data (lowercase: ssh ignores the case):
#: a name, a number, a switch, a file it reads; any other is code (:attr:`_Interpreter.
#: data_settings`: ``ProxyCommand``, ``LocalCommand``, ``KnownHostsCommand``,
#: ``RemoteCommand``, ``PKCS11Provider``, ``Include``... and any it may learn).
_SSH_DATA = (
    "user", "port", "hostname", "hostkeyalias", "connecttimeout", "connectionattempts",
    "serveraliveinterval", "serveralivecountmax", "tcpkeepalive", "batchmode", "loglevel",
    "compression", "stricthostkeychecking", "userknownhostsfile", "globalknownhostsfile",
    "identityfile", "identitiesonly", "requesttty", "addressfamily", "checkhostip",
    "visualhostkey", "numberofpasswordprompts", "passwordauthentication",
    "pubkeyauthentication", "kbdinteractiveauthentication", "preferredauthentications",
    "exitonforwardfailure", "hashknownhosts", "updatehostkeys", "ciphers", "macs",
    "kexalgorithms", "hostkeyalgorithms", "escapechar", "controlpersist",
)  # fmt: skip


#: flock's options before its file that take the next word (its -c comes after the file)
_FLOCK_ARGUMENT = ("-w", "--timeout", "--wait", "-E", "--conflict-exit-code")


#: su's, runuser's and script's options taking an argument (their -c is code)
_SU_ARGUMENT = ("-g", "--group", "-G", "--supp-group", "-s", "--shell", "-u", "--user", "-w")


_SCRIPT_ARGUMENT = (
    "-E", "--echo", "-I", "--log-in", "-O", "--log-out", "-B", "--log-io", "-T", "--log-timing",
    "-m", "--logging-format", "-o", "--output-limit",
)  # fmt: skip


#: A replacement string of GNU parallel in a word of its command (``{}``, ``{.}``, ``{/.}``,
#: ``{#}``, ``{2}``, ``{2/}``, ``{=perl=}``): where it puts each argument after ``:::``.
_REPLACEMENT = re.compile(r"\{(?:[0-9]*[./#%]*/?\.?|=.*=)\}", re.DOTALL)

#: Any ``{...}`` of no blank in a word: a replacement string :data:`_REPLACEMENT` may not
#: know (``{-1}``, ``--plus``'s ``{+/}``, ``{##}``, ``--rpl``'s own) is read as one too, the
#: argument also put at the end (not awk's ``'{print $1}'``: it has a blank).
_BRACED = re.compile(r"\{[^{}\s]*\}|\{=.*=\}", re.DOTALL)

#: ``--plus``'s replacement strings that edit the value by a text, which may hold a blank
#: (``{/a b/c}``, ``{%a b}``, ``{#a b}``, ``{:-a b}``, ``{^a b}``, ``{,a b}``): parallel
#: puts the argument there before its shell splits the line. Only these: their first
#: character starts no awk action (``'{print $1}'``, ``'{ print }'``: code, not one).
_PLUS_TEXT = re.compile(r"\{[/%#:^,][^{}]*\}")


#: GNU parallel's options that take the next word (``parallel --help``, its man page)
_PARALLEL_ARGUMENT = (
    "-a", "--arg-file", "--arg-sep", "--arg-file-sep", "-C", "--colsep", "-d", "--delimiter",
    "-E", "--env", "--halt", "-j", "--jobs", "-P", "--max-procs", "--joblog", "--load",
    "--memfree", "-n", "--max-args", "-N", "-L", "--max-lines", "--retries", "--sshloginfile",
    "--slf", "--tmpdir", "--timeout", "-I", "--delay", "--basefile", "--bf", "--block",
    "--recstart", "--recend", "-s", "--max-chars", "--header", "-J", "--profile", "--nice",
    "--termseq",
)  # fmt: skip


#: GNU parallel's options whose argument is code: a command its shell runs (``--limit``,
#: ``--ssh``; ``-S``'s sshlogin may be one, ``-S 'cmd host'``), a replacement string's perl
#: (``--rpl``) or text where its replacement strings are expanded, ``{= perl =}`` among them
#: (``--tagstring``, ``--results``, ``--workdir``, ``--return``, ``--transferfile``).
_PARALLEL_CODE = (
    "--limit", "--ssh", "-S", "--sshlogin", "--rpl", "--tagstring", "--tag-string",
    "--results", "--res", "--workdir", "--wd", "--return", "--transferfile", "--tf",
)  # fmt: skip


_WATCH = _Interpreter(
    takes_argument=("-n", "--interval", "-q", "--equexit"),
    script_operand=False,
    shell_operands=0,
    no_shell=("-x", "--exec"),
    runs_program=("-x", "--exec"),
)


_SU = _Interpreter(
    ("-c", "--command", "--session-command"),
    _SU_ARGUMENT,
    script_operand=False,
    permute=True,
    shell_arguments=True,
    lone_dash=True,
    login=("-l", "--login"),
    shell_option=("-s", "--shell"),
)


_DENO_ARGUMENT = (
    "-c", "--config", "--import-map", "--location", "--seed", "--cert", "--lock", "--ext", "-L",
    "--log-level",
)  # fmt: skip


#: git's options before its subcommand that take the next word (``git --help``)
_GIT_ARGUMENT = ("-C", "--git-dir", "--work-tree", "--namespace")

#: The keys of ``git -c KEY=VALUE`` whose value is data (lowercase; ``.`` at the end: a
#: section): a name, a colour, a format, a switch of git's own; any other key is code.
_GIT_DATA = (
    "user.", "author.", "committer.", "color.", "advice.", "i18n.", "column.", "log.",
    "status.", "init.defaultbranch", "core.quotepath", "core.autocrlf", "core.eol",
    "core.abbrev", "core.safecrlf", "core.filemode", "core.ignorecase", "pull.rebase",
    "pull.ff", "merge.conflictstyle", "diff.algorithm", "diff.renames", "diff.colormoved",
    "diff.noprefix", "format.pretty", "push.default", "fetch.prune", "tag.sort",
    "branch.sort", "rebase.autosquash", "grep.linenumber", "blame.date",
    # a header sent, a switch, a number: no command (http.extraHeader's token is data)
    "http.extraheader", "http.sslverify", "http.postbuffer", "http.version",
    "http.lowspeedlimit", "http.lowspeedtime", "commit.gpgsign", "tag.gpgsign",
    "protocol.version", "gc.auto", "core.longpaths", "core.compression", "fetch.parallel",
    "rebase.autostash", "pack.threads", "index.threads", "feature.manyfiles",
)  # fmt: skip

#: git's options of a subcommand whose argument is code (``git rebase --exec CMD``, ``git
#: clone -c KEY=VALUE`` as git's own -c, ``--upload-pack`` the program run on the remote's
#: side of a local or ssh URL), with the options taking the next word, and those of the code
#: options naming a folder whose files run (``--template``: its hooks are copied, a clone's
#: post-checkout runs; as ``git --git-dir``): each the :data:`_INTERPRETERS` entry ``git
#: NAME`` is (wrappers' ``_RUNNERS``).
_GIT_SUBCOMMANDS: dict[str, tuple[tuple[str, ...], ...]] = {
    "clone": (
        ("-c", "--config", "-u", "--upload-pack", "--template"),
        ("-o", "--origin", "-b", "--branch", "--reference", "--reference-if-able", "--depth",
         "-j", "--jobs", "--separate-git-dir", "--filter", "--shallow-since",
         "--shallow-exclude", "--server-option", "--bundle-uri", "--ref-format"),
        ("--template",),
    ),
    "init": (
        ("--template",),
        ("--separate-git-dir", "-b", "--initial-branch", "--object-format", "--ref-format"),
        ("--template",),
    ),
    **dict.fromkeys(
        ("fetch", "pull", "ls-remote", "archive"),
        (("--upload-pack", "--exec"), ("--depth", "--deepen", "--shallow-since",
         "--shallow-exclude", "-j", "--jobs", "--refmap", "-o", "--server-option",
         "--negotiation-tip", "--filter", "--recurse-submodules-default", "--remote")),
    ),
    "push": (("--receive-pack", "--exec"), ("--repo", "-o", "--push-option")),
    "rebase": (("-x", "--exec"), ("--onto", "-s", "--strategy", "-X", "--strategy-option",
               "-C", "--whitespace")),
    "difftool": (("-x", "--extcmd"), ("-t", "--tool")),
}  # fmt: skip

#: The subcommands of :data:`_GIT_SUBCOMMANDS` whose parse-options keeps the options it does
#: not know (PARSE_OPT_KEEP_UNKNOWN_OPT), and so takes no prefix of one: ``git archive
#: --exe=X`` and ``git difftool --extc=X`` are no ``--exec``, ``--extcmd`` (git 2.39); each
#: other takes a unique prefix of a long option as that option (``git clone --templ=DIR``,
#: ``--upload-p CMD``, ``git push --rece=CMD``, ``git rebase --exe CMD``).
_GIT_WHOLE_NAMES = ("archive", "difftool")

#: gdb's options (gdb/main.c's long_options, read by getopt_long_only: one dash or two, a
#: prefix naming one of them alone is it, ``-eval`` ``-eval-command``): those whose argument is
#: gdb commands (``-ex CMD``, ``-x FILE``, the early and init ones; ``shell CMD`` runs one;
#: Insight's ``-tclcommand`` file and ``-editor-command``), those taking the next word, and
#: ``-args`` (its first operand the program it runs, the rest that program's arguments)
_GDB_COMMANDS = (
    "ex", "eval-command", "iex", "init-eval-command", "eiex", "early-init-eval-command", "x",
    "command", "ix", "init-command", "eix", "early-init-command", "tclcommand", "editor-command",
)  # fmt: skip
_GDB_TAKES = (
    "p", "pid", "c", "core", "d", "directory", "cd", "s", "symbols", "e", "exec", "se", "b",
    "baud", "l", "D", "data-directory", "tty", "i", "interpreter", "ui", "annotate",
)  # fmt: skip
_GDB_SWITCHES = (
    "tui", "readnow", "readnever", "r", "quiet", "q", "silent", "nh", "nx", "n",
    "batch-silent", "batch", "fullname", "f", "help", "version", "configuration",
    "enable-external-editor", "nw", "nowindows", "w", "windows", "statistics", "write",
    "args", "return-child-result",
)  # fmt: skip
_GDB_CODE = tuple(f"{dash}{name}" for name in _GDB_COMMANDS for dash in ("-", "--"))
_GDB_ARGUMENT = tuple(f"{dash}{name}" for name in _GDB_TAKES for dash in ("-", "--"))
_GDB_ARGS = ("--args", "-args")
_GDB_FILES = tuple(
    f"{dash}{name}"
    for name in ("x", "command", "ix", "init-command", "eix", "early-init-command", "tclcommand")
    for dash in ("-", "--")
)  # fmt: skip
_GDB_LONG = tuple(f"--{name}" for name in (*_GDB_COMMANDS, *_GDB_TAKES, *_GDB_SWITCHES))

#: screen's options that take the next word (``screen -h``; ``-dmS NAME``: the last letter)
_SCREEN_ARGUMENT = ("-c", "-e", "-h", "-p", "-S", "-T", "-t", "-s", "-Logfile")

#: screen's options taking a session's name when the next word starts with no ``-``
_SCREEN_SESSION = ("-r", "-R", "-x")

#: tmux's options before its command that take the next word (its -c's is a shell's command)
_TMUX_GLOBAL = ("-L", "-S", "-f", "-T")

#: The options taking the next word of tmux's commands that run a shell's command
#: (``run-shell -d DELAY -c DIR``, ``if-shell -t PANE``, ``set-option -t TARGET``)
_TMUX_RUN_SHELL = ("-c", "-d", "-t")

#: npx's and ``npm exec``'s options taking the next word: -c/--call's is a command line,
#: --node-options' node's options (``--require`` loads code); npm's -w/--workspace and
#: -C/--prefix a folder
_NPM_EXEC = (
    "-p", "--package", "-c", "--call", "--node-options", "--registry", "--cache",
    "--userconfig", "-w", "--workspace", "-C", "--prefix",
)  # fmt: skip

#: ``pnpm exec``'s and ``pnpm dlx``'s options taking the next word (their -c is a switch)
_PNPM_EXEC = (
    "--package", "--resume-from", "-F", "--filter", "-C", "--dir", "--reporter",
    "--allow-build",
)  # fmt: skip

#: Programs that run code they are given; their names without a version (``python3.12``),
#: or a package runner's subcommand (:data:`~skillc_index.tools.wrappers._RUNNERS`: ``npm
#: exec``, ``tmux send-keys``).
_INTERPRETERS: dict[str, _Interpreter] = {
    **dict.fromkeys(
        ("sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "yash", "fish", "csh", "tcsh"), _SHELL
    ),
    **dict.fromkeys(
        ("python", "pypy"), _Interpreter(("-c", "-m"), ("-W", "-X", "--check-hash-based-pycs"))
    ),
    # a module node loads first is code too (--require, --import, --loader); --run runs a
    # script of package.json (a shell's command line)
    **dict.fromkeys(
        ("node", "nodejs"),
        _Interpreter((*_NODE_CODE, "--run"), _NODE_ARGUMENT, preload=_NODE_PRELOAD),
    ),
    "bun": _Interpreter(
        _NODE_CODE,
        _BUN,
        subcommands=("run",),
        preload=("-r", "--preload", "--require", "--import"),
    ),
    "deno": _Interpreter(("eval",), _DENO_ARGUMENT, subcommands=("run",)),
    # -M's text is a `use` statement
    "perl": _Interpreter(("-e", "-E", "-M", "-m"), ("-I",), magic_open=True),
    "ruby": _Interpreter(
        ("-e",),
        _RUBY_ARGUMENT,
        preload=("-r",),
    ),
    "php": _Interpreter(_PHP_CODE, ("-d", "-c")),
    # lua -l requires a module by name (run's LUA_INIT starts its search in the skill); after
    # -e's code lua still runs its script (`lua -e 1 x.lua`), as after a preload
    **dict.fromkeys(("lua", "luajit"), _Interpreter(preload=("-l", "-e"), by_name=True)),
    **dict.fromkeys(("r", "rscript"), _Interpreter(("-e",))),
    "julia": _Interpreter(
        ("-e", "-E", "--eval", "--print", "-m", "--module"),
        _JULIA,
        preload=("-L", "--load"),
        long_options=_JULIA_LONG,
    ),
    "osascript": _Interpreter(("-e",), ("-l",)),
    **dict.fromkeys(("tclsh", "wish"), _Interpreter()),
    "expect": _Interpreter(("-c",)),
    "pwsh": _PWSH,
    "powershell": _PWSH._replace(operand_command=True),
    # wrappers that hand a command line to a shell: ssh's after the host (the remote's
    # shell; -o's ProxyCommand, a local one's), watch's (sh -c, unless -x), su's and
    # script's -c (script's operand is its log, no argument of the command)
    "ssh": _Interpreter(
        ("-o",),
        _SSH_ARGUMENT,
        script_operand=False,
        shell_operands=1,
        data="environment",
        line_data="input",
        data_settings=_SSH_DATA,
        settings_blank=True,
    ),
    "watch": _WATCH,
    # GNU parallel runs its command by a shell, the arguments after ::: quoted (still the
    # command's operands: :func:`~.code_values._quoted_arguments`)
    "parallel": _Interpreter(
        _PARALLEL_CODE,
        takes_argument=_PARALLEL_ARGUMENT,
        script_operand=False,
        shell_operands=0,
        shell_end=(":::", "::::", ":::+", "::::+"),
        shell_end_off=("-I", "-i", "--replace", "--rpl", "--arg-sep", "--arg-file-sep"),
    ),
    "su": _SU,
    "runuser": _SU._replace(runs_program=("-u", "--user")),
    "script": _Interpreter(
        ("-c", "--command"),
        _SCRIPT_ARGUMENT,
        script_operand=False,
        permute=True,
        data="environment",
    ),
    # git -c KEY=VALUE: a setting of most keys runs a command (core.pager, core.editor,
    # core.sshCommand, core.fsmonitor, core.hooksPath, alias.*, diff.external,
    # credential.helper, gpg.program, protocol.*.allow, include.path...): code, unless
    # _GIT_DATA names the key
    # --exec-path=DIR: where git finds the programs of its subcommands (alone, the next word
    # is the subcommand, here read as code too: it names which one runs); --git-dir=DIR the
    # repository whose config and hooks run (--work-tree's files and -C's directory: where,
    # not what); its subcommand, the program it runs (git-NAME, an alias: `!cmd`)
    # --config-env KEY=VAR: KEY's value is the variable's (git -c's keys)
    "git": _Interpreter(
        ("-c", "--config-env", "--exec-path", "--git-dir"),
        _GIT_ARGUMENT,
        script_operand=False,
        data="environment",
        path_options=("--exec-path", "--git-dir"),
        data_settings=_GIT_DATA,
        subcommand_program=True,
    ),
    # sg [-] GROUP [-c] CMD: /bin/sh -c runs CMD, one string, no argument after it, the words
    # after CMD ignored (the environment is kept, even by `sg -`)
    "sg": _Interpreter(
        script_operand=False, shell_operands=1, command_operand=("-c",), lone_dash=True
    ),
    # gdb: its -ex/-x commands (`shell CMD` runs one), --args' program (it runs it); no
    # argument reaches its commands, a variable a shell command among them (`shell CMD`)
    "gdb": _Interpreter(
        _GDB_CODE,
        _GDB_ARGUMENT,
        script_operand=False,
        data="commands",
        permute=True,
        runs_program=_GDB_ARGS,
        ends_options=_GDB_ARGS,
        path_options=_GDB_FILES,
        long_only=True,
        long_options=_GDB_LONG,
    ),
    # flock FILE -c CMD: its shell ($SHELL or /bin/sh -c) runs CMD, no argument after it
    "flock": _Interpreter(
        ("-c", "--command"),
        _FLOCK_ARGUMENT,
        script_operand=False,
        code_after=1,
        data="environment",
    ),
    # screen's -X sends a command to a session (`stuff TEXT` types it), its -c and tmux's -f
    # name a configuration file (whose commands run), tmux's -c runs a command (its client
    # execs the default shell with -c CMD: this side's environment, no argument); screen -s
    # names the shell it runs
    # screen -r/-x [SESSION]: the session it attaches to (no program)
    "screen": _Interpreter(
        ("-X", "-c"),
        _SCREEN_ARGUMENT,
        script_operand=False,
        joined=("-X",),
        shell_option=("-s",),
        path_options=("-c",),
        optional_argument=_SCREEN_SESSION,
        last_argument=("-d", "-D"),
        names_session=("-S", *_SCREEN_SESSION),
    ),
    "tmux": _Interpreter(
        ("-c", "-f"),
        _TMUX_GLOBAL,
        script_operand=False,
        data="environment",
        path_options=("-f",),
    ),
    # package runners' subcommands (wrappers' _RUNNERS): npm exec's -c/--call is a command
    # line (npm run's), pnpm's -c/--shell-mode makes its operands one, yarn exec's always
    # are (yarn 1 joins them), as are the keys tmux send-keys types
    **dict.fromkeys(
        ("npx", "npm exec"),
        _Interpreter(("-c", "--call", "--node-options"), _NPM_EXEC, script_operand=False),
    ),
    **dict.fromkeys(
        ("pnpm exec", "pnpm dlx"),
        _Interpreter(
            takes_argument=_PNPM_EXEC,
            script_operand=False,
            shell_operands=0,
            shell_with=("-c", "--shell-mode"),
            data="environment",
        ),
    ),
    "yarn exec": _Interpreter(script_operand=False, shell_operands=0, data="environment"),
    "tmux send-keys": _Interpreter(
        takes_argument=("-c", "-N", "-t"), script_operand=False, shell_operands=0, line_data="keys"
    ),
    # tmux if-shell's shell command and the tmux commands it runs, run-shell's shell command
    # (or, -C, a tmux command), set-option default-command's (a shell runs it) and
    # default-shell's value (the program it runs): the tmux server's, whose environment is
    # not ours; source-file's files of tmux commands (as tmux -f's)
    **dict.fromkeys(
        ("tmux if-shell", "tmux run-shell", "tmux set-option"),
        _Interpreter(
            takes_argument=_TMUX_RUN_SHELL,
            script_operand=False,
            shell_operands=0,
            line_data="server",
        ),
    ),
    "tmux source-file": _Interpreter(
        takes_argument=("-t",), script_operand=False, shell_operands=0, line_data="path"
    ),
    # git's subcommands taking code in an option (git clone -c: git -c's keys); its
    # submodule foreach's command, a shell's (git puts $name, $sm_path... in its environment)
    **{
        f"git {name}": _Interpreter(
            code,
            takes,
            script_operand=False,
            permute=True,
            data="environment",
            path_options=paths[0] if paths else (),
            data_settings=_GIT_DATA,
            long_options=()
            if name in _GIT_WHOLE_NAMES
            else tuple(option for option in code + takes if option.startswith("--")),
        )
        for name, (code, takes, *paths) in _GIT_SUBCOMMANDS.items()
    },
    "git submodule foreach": _Interpreter(
        takes_argument=(), script_operand=False, shell_operands=0
    ),
    **dict.fromkeys(("awk", "gawk", "mawk", "nawk"), _AWK),
    **dict.fromkeys(("sed", "gsed"), _SED),
}
