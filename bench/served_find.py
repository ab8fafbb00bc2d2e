"""``skc find`` answered by a running find server, with requests it was never asked before,
against the floor ``python -c "import click, sqlite3"`` (issue 35: "within 1.5x").

    .venv/bin/python bench/served_find.py --home HOME --library DIR [--runs 30]
        [--semantic on|off] [--base CHECKOUT]

``HOME`` is a skillc home whose catalog already holds ``DIR`` (a home that
``bench/warm_mcp.py`` filled, say), so that no build is timed: ``find_scale.served`` then runs
as over the library it built (the first find answers itself and starts the find server, the
next ones are answered by it, rounds interleaved with the floor), each round with a dev
request none asked before (the server keeps the vectors of requests asked before, so a
repeated request skips its embedding). ``--semantic off`` sets ``SKILLC_FIND_SEMANTIC=0``.
Prints the medians, their ratio and the server's own find time a request. ``--base`` (a
checkout of another commit, a ``git worktree``): its client too in every round, against the
same server (this checkout's), each with a new request of its own: what the client's side of
a change is worth.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from benchlib import codes, compiled, cpu_model, find_skc
from find_scale import dev_queries, served


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--home", type=Path, required=True)
    parser.add_argument("--library", type=Path, required=True)
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--semantic", choices=("on", "off"), default="on")
    parser.add_argument("--base", type=Path, help="a checkout whose client runs in turn")
    args = parser.parse_args()
    queries = dev_queries()
    most = len(queries) // (1 if args.base is None else 2) - 1
    if args.runs > most:
        sys.exit(f"error: --runs is at most {most} (the dev requests)")
    skc = str(find_skc())
    base = codes(args.base)[0][1] if args.base is not None else None
    compiled()
    with tempfile.TemporaryDirectory(prefix="served-") as scratch:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("SKILLC_", "SKC_"))}
        env.update(SKILLC_HOME=str(args.home.resolve()), HOME=scratch)
        if args.semantic == "off":
            env["SKILLC_FIND_SEMANTIC"] = "0"
        subprocess.run([skc, "watch", "--stop"], env=env, capture_output=True)  # a new one
        find = [skc, "find", "--path", str(args.library.resolve()), "--format", "json"]
        found = served(skc, find, env, Path(scratch), args.runs, queries, base)
    ratio = found["cli"] / found["floor"]
    print(f"{cpu_model()}; load average {os.getloadavg()[0]:.1f}; {args.runs} new requests")
    print(
        f"SKILLC_FIND_SEMANTIC {'0' if args.semantic == 'off' else 'unset'}: skc find "
        f"{1000 * found['cli']:.1f} ms, floor {1000 * found['floor']:.1f} ms, **{ratio:.2f}x**; "
        f"the server's find {1000 * found['server_find']:.1f} ms a request"
    )
    if "base" in found:
        print(
            f"`{args.base}`'s client, the same server: {1000 * found['base']:.1f} ms, "
            f"**{found['base'] / found['floor']:.2f}x**"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
