"""Benchmark: ``skc stats --all`` over many installed skills, and every stats query over a
team store of 10,000,000 rows in PostgreSQL (issue 18).

**local** (``--part local``): 2,000 skills in the global store, each with its own runtime log
(RFC-0007 stores one ``logs.db`` per runtime), 1,000,000 rows in all, unevenly spread (a few
skills are used a lot, 400 never: the ones ``--all`` lists first). Measured: ``skc stats
--all`` as a whole command (a fresh process; cold, its cache removed before each run, then
warm: text and ``--format json``; with ``--since`` and ``--project``), and, as the baseline
in the same run, ``skc stats <one skill>`` (the cost of one process answering for one
skill). Target: ``--all`` under 1 s.

**team** (``--part team``): a PostgreSQL team store of 10,000,000 rows, 50 users (one
machine each), 2,000 skills, a year of use: each user works in 5 projects and, each day,
uses 8 skills drawn with a strong bias to the popular ones (agents re-read what they use).
The rows are written by SQL on the server (``generate_series``), into the schema skillc
creates. Measured, in this process through the public API (a warm connection, as one
``skc stats --from`` opens one): every RFC-0003 query type for a popular skill (about
100,000 rows) and a median one, unfiltered and filtered (``--since``/``--until`` a
quarter, ``--project``, ``--user``), and ``--all`` (unfiltered, one quarter, one user).
Target: each under 1 s. The server is started by this script (``initdb`` in ``--dir``, a
unix socket) unless ``--url`` names one.

**scale** (``--part scale``, issue 40): the realistic shape of a team (:data:`SCALE_GENERATE`:
200 skills, 50 users on 100 machines, a year, half the rows imported from transcripts with a
unique tool-call id each), ``--rows`` of them (default 10,000,000) written by SQL, the
rollups made as a migration makes them; then every query type of the most used, the 10th
and the median skill under each filter of :data:`SCALE_FILTERS`, and ``--all``.

**migration** (``--part migration``): migration 11 (a failed read is no use) of a store of
schema 10 holding ``--rows`` rows (default 1,000,000), each its own key of every rollup (a
target of its own) and one in ten a failed read: the migration's statements run in one
transaction, as a writer runs them, then rolled back (``--runs`` times; each statement's
time too).

**sync** (``--part sync``): ``sync --to`` of a new machine's ``--rows`` rows (20 skills,
half imported with unique ids), then again (nothing to send): wall time, this process's CPU
time and the server's (when this script started it). **explain** (``--part explain``): the
``EXPLAIN ANALYZE`` of each statement for the README.

Each figure is the median of ``--runs`` runs. Usage:
  /path/to/venv/bin/python bench/team_stats.py --part local [--runs 7] [--dir DIR]
  /path/to/venv/bin/python bench/team_stats.py --part team [--runs 5] [--dir DIR] [--url URL]
  /path/to/venv/bin/python bench/team_stats.py --part scale [--rows N] [--runs 3] [--url URL]
  /path/to/venv/bin/python bench/team_stats.py --part sync [--rows 1000000] [--url URL]
  /path/to/venv/bin/python bench/team_stats.py --part migration [--rows 1000000] [--runs 3]
  /path/to/venv/bin/python bench/team_stats.py --part explain --url URL
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

from benchlib import cpu_model, find_skc

SKILLS = 2_000
LOCAL_ROWS = 1_000_000
TEAM_ROWS = 10_000_000
USERS = 50
SKILL_MD = (
    "---\nname: {name}\ndescription: Benchmark skill {name}. Use when testing.\n---\n\n"
    "# {name}\n\n## Usage\n\nText.\n"
)
COMMANDS = ["show"] * 45 + ["search"] * 20 + ["open"] * 15 + ["outline"] * 10 + ["build"] * 10


def median(func: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        func()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


# -- local --------------------------------------------------------------------------------


def local_rows(name: str, path: str, count: int, rng: random.Random) -> Iterator[tuple[Any, ...]]:
    for n in range(count):
        command = rng.choice(COMMANDS)
        day = rng.randrange(365)
        stamp = time.strftime(
            "%Y-%m-%dT%H:%M:%SZ", time.gmtime(1767225600 + day * 86400 + rng.randrange(86400))
        )
        args = {"section": f"Section {n % 40}", "file": None, "max_lines": None}
        yield (
            stamp,
            f"run-{n // 50}",
            command,
            name,
            path,
            f"/home/dev/project-{rng.randrange(10)}",
            json.dumps(args),
            None,
        )


def build_local(home: Path) -> None:
    from skillc_index.accesslog import INSERT_ROW, connect

    rng = random.Random(18)
    store = home / ".skillc" / "skills"
    weights = [0.0 if i % 5 == 4 else 1.0 / (1 + i % 400) for i in range(SKILLS)]  # 400 unused
    total = sum(weights)
    for i in range(SKILLS):
        name = f"skill-{i:04d}"
        folder = store / name
        folder.mkdir(parents=True)
        (folder / "SKILL.md").write_text(SKILL_MD.format(name=name), encoding="utf-8")
        count = round(LOCAL_ROWS * weights[i] / total)
        if not count:
            continue
        log = home / ".skillc" / "runtime" / name / ".skillc-meta" / "logs.db"
        with closing(connect(log)) as db:
            db.execute("BEGIN")
            db.executemany(INSERT_ROW, local_rows(name, str(folder.resolve()), count, rng))
            db.execute("COMMIT")


def measure_local(root: Path, runs: int) -> dict[str, Any]:
    home = root / "home"
    if not (home / ".skillc" / "skills").is_dir():
        build_local(home)
    rows = 0
    for log in (home / ".skillc" / "runtime").glob("*/.skillc-meta/logs.db"):
        with closing(sqlite3.connect(log)) as db:
            rows += db.execute("SELECT COUNT(*) FROM access_log").fetchone()[0]
    work = root / "work"
    work.mkdir(exist_ok=True)
    env = {**os.environ, "SKILLC_HOME": str(home)}
    skc = str(find_skc())

    def command(*args: str) -> Callable[[], object]:
        def run() -> None:
            subprocess.run([skc, *args], cwd=work, env=env, check=True, capture_output=True)

        return run

    cache = home / ".skillc" / "stats-usage.json"

    def cold() -> None:
        cache.unlink(missing_ok=True)
        command("stats", "--all")()

    results = {
        "skc stats skill-0000 (baseline: one skill)": median(command("stats", "skill-0000"), runs),
        "skc stats --all, cold (no cache: every log read)": median(cold, runs),
        "skc stats --all": median(command("stats", "--all"), runs),
        "skc stats --all --format json": median(
            command("stats", "--all", "--format", "json"), runs
        ),
        "skc stats --all --since 2026-07-01 --project /home/dev/project-3": median(
            command("stats", "--all", "--since", "2026-07-01", "--project", "/home/dev/project-3"),
            runs,
        ),
    }
    answer = json.loads(
        subprocess.run(
            [skc, "stats", "--all", "--format", "json"],
            cwd=work,
            env=env,
            check=True,
            capture_output=True,
            text=True,
        ).stdout
    )
    return {
        "skills": len(answer["data"]),
        "never used": sum(1 for e in answer["data"] if not e["uses"]),
        "rows": rows,
        "seconds": results,
    }


# -- team ---------------------------------------------------------------------------------


def start_server(folder: Path) -> tuple[str, Callable[[], None]]:
    """A PostgreSQL server in ``folder`` on a unix socket (as ``postgres`` under root)."""
    bin_dir = Path(shutil.which("initdb") or "/usr/lib/postgresql/15/bin/initdb").resolve().parent
    prefix = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    data = folder / "data"
    if not data.exists():
        folder.mkdir(parents=True, exist_ok=True)
        if prefix:
            shutil.chown(folder, "postgres")
        subprocess.run(
            [*prefix, bin_dir / "initdb", "-D", data, "-A", "trust", "-U", "skillc"],
            check=True,
            capture_output=True,
        )
    options = f"-k {folder} -c listen_addresses='' -c shared_buffers=256MB -c work_mem=64MB"
    subprocess.run(
        [
            *prefix,
            bin_dir / "pg_ctl",
            "-D",
            data,
            "-o",
            options,
            "-l",
            folder / "log",
            "-w",
            "start",
        ],
        check=True,
        capture_output=True,
    )

    def stop() -> None:
        subprocess.run(
            [*prefix, bin_dir / "pg_ctl", "-D", data, "-w", "stop"], check=True, capture_output=True
        )

    return f"postgresql://skillc@/postgres?host={folder}", stop


#: Each user's day: 8 skills, drawn with a bias to the popular ones (skill = 2000 * f^2),
#: in one of the user's 5 projects; 548 rows a user-day make 10,000,000 rows in a year.
GENERATE = """
INSERT INTO skillc.access_log (log_key, source_id, machine, username, timestamp, run_id,
    command, skill, skill_path, cwd, args, error)
SELECT 'bench-' || u, n, 'host-' || u, 'user' || u,
    to_char(timestamp '2026-01-01' + d * interval '1 day' + (n %% 86400) * interval '1 second',
            'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
    'run-' || u || '-' || d, c,
    'skill-' || lpad(s::text, 4, '0'),
    '/home/user' || u || '/skills/skill-' || lpad(s::text, 4, '0'),
    '/home/user' || u || '/project-' || ((u + k) %% 5),
    CASE c WHEN 'search' THEN '{"query": "how to use feature ' || (n %% 200) || '"}'
           WHEN 'open' THEN '{"path": "references/topic-' || (n %% 7) || '.md"}'
           ELSE '{"section": "Section ' || (n %% 40) || '", "file": null, "max_lines": null}' END,
    CASE WHEN c IN ('show', 'open') AND n %% 33 = 0 THEN 'error[E020]: section not found' END
FROM (
    SELECT n, u, d, k,
        floor(2000 * power(((u * 31 + d * 17 + k * 101) %% 997) / 997.0, 2))::int AS s,
        (ARRAY['show','show','show','show','show','show','show','show','show','search',
               'search','search','search','open','open','open','outline','outline','build',
               'lint'])[1 + (n * 7919) %% 20] AS c
    FROM (
        SELECT n, n %% 50 AS u, (n / 50) %% 365 AS d, (n / 18250) %% 8 AS k
        FROM generate_series(%s::bigint, %s::bigint) AS n
    ) AS raw
) AS rows
"""


#: The realistic shape of issue 40 (``--part scale``): 200 skills (skill ``k`` of rank ``k``
#: gets about ``((k + 1) / 200) ** 0.418 - (k / 200) ** 0.418`` of the rows: the most used
#: 11 %, the 10th 1.2 %, the median 0.3 %), 50 users on 100 machines (two each, one a day),
#: 5 projects a user, a year in time order; half the rows imported from transcripts
#: (``activate``, ``read``) with a unique tool-call id each, as ``sync --from claude-code``
#: records them. ``%s``: the first and last row number, and the total (for the day).
SCALE_GENERATE = """
INSERT INTO skillc.access_log (log_key, source_id, machine, username, timestamp, run_id,
    command, skill, skill_path, cwd, args, error)
SELECT 'bench-' || machine || '-' || skill, n, machine, 'user' || u, stamp, 'run-' || u || '-' || d,
    c, skill, '/home/user' || u || '/.claude/skills/' || skill,
    '/home/user' || u || '/project-' || ((u + k) %% 5),
    CASE c WHEN 'activate' THEN '{"agent": "claude-code", "id": "toolu_' || ident
                || '", "tool": "Skill"}'
           WHEN 'read' THEN '{"agent": "claude-code", "id": "toolu_' || ident
                || '", "path": "references/topic-' || (n %% 12) || '.md", "tool": "Read"}'
           WHEN 'show' THEN '{"file": null, "max_lines": null, "section": "Section '
                || (n %% 40) || '"}'
           WHEN 'search' THEN '{"limit": 10, "query": "how to use feature ' || (n %% 200)
                || '", "result_count": 3}'
           WHEN 'open' THEN '{"path": "references/topic-' || (n %% 7) || '.md"}'
           ELSE '{}' END,
    CASE WHEN c IN ('show', 'open') AND n %% 33 = 0 THEN 'error[E020]: section not found' END
FROM (
    SELECT n, u, d, k, 'host-' || (u * 2 + d %% 2) AS machine,
        'skill-' || lpad(floor(200 * power(f, 2.39))::int::text, 3, '0') AS skill,
        lpad(to_hex(n * 2654435761), 16, '0') AS ident,
        to_char(timestamp '2026-01-01' + d * interval '1 day'
                + ((n * 7919) %% 86400) * interval '1 second', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
            AS stamp,
        CASE WHEN r < 25 THEN 'activate' WHEN r < 50 THEN 'read' WHEN r < 75 THEN 'show'
             WHEN r < 83 THEN 'search' WHEN r < 90 THEN 'open' WHEN r < 95 THEN 'outline'
             WHEN r < 98 THEN 'build' ELSE 'lint' END AS c
    FROM (
        SELECT n, ((n * 2654435761) %% 4294967291) / 4294967291.0 AS f,
            ((n * 2246822519) %% 4294967291) %% 50 AS u,
            (n * 365 / %s) AS d,
            ((n * 48271) %% 2147483647) %% 3 AS k,
            ((n * 69069 + 1) %% 4294967291) %% 100 AS r
        FROM generate_series(%s::bigint, %s::bigint) AS n
    ) AS raw
) AS rows
"""


def build_scale(url: str, total: int) -> None:
    """``total`` rows of :data:`SCALE_GENERATE` in the store at ``url`` (the schema as skillc
    creates or migrates it; the rollups made from the rows as the migrations make them)."""
    import psycopg

    from skillc_stats._team import TeamStore

    TeamStore(url).close()
    with psycopg.connect(url, autocommit=True) as db:
        have = db.execute("SELECT COUNT(*) FROM skillc.access_log").fetchone()[0]
        step = 500_000
        for start in range(have, total, step):
            began = time.perf_counter()
            db.execute(SCALE_GENERATE, (total, start, min(start + step, total) - 1))
            print(f"  rows {start + step:,} ({time.perf_counter() - began:.1f} s)", file=sys.stderr)
        if have < total:
            rebuild_rollups(db)


def rebuild_rollups(db: Any) -> None:
    """Rows written by SQL, not by uploads: their rollups made as a migration makes them."""
    from skillc_stats._team_sql import REBUILD_ROLLUPS

    for statement in REBUILD_ROLLUPS:
        db.execute(f"SET search_path TO skillc; {statement}")
    db.execute("VACUUM ANALYZE")


#: ``--part migration``'s rows: 200 skills, 50 users, a year; each row a working folder and a
#: target of its own (a key of its own in every rollup), one in ten failed. ``%s``: the
#: total, the first and the last row.
MIGRATION_GENERATE = """
INSERT INTO skillc.access_log (log_key, source_id, machine, username, timestamp, run_id,
    command, skill, skill_path, cwd, args, error)
SELECT 'bench-' || u, n, 'host-' || u, 'user' || u,
    to_char(timestamp '2026-01-01' + (n * 365 / %s) * interval '1 day'
            + ((n * 7919) %% 86400) * interval '1 second', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
    'run-' || u, c, 'skill-' || (n %% 200), '/home/user' || u || '/skills/skill-' || (n %% 200),
    '/home/user' || u || '/project-' || n,
    '{"section": "Section ' || n || '"}',
    CASE WHEN n %% 10 = 0 THEN 'error[E020]: section not found' END
FROM (
    SELECT n, (n / 7) %% 50 AS u,
        (ARRAY['show', 'show', 'show', 'show', 'open', 'open', 'search', 'outline', 'build',
               'lint'])[1 + (n / 3) %% 10] AS c
    FROM generate_series(%s::bigint, %s::bigint) AS n
) AS rows
"""


def measure_migration(url: str, total: int, runs: int) -> dict[str, Any]:
    """Migration 11 of a schema 10 store of ``total`` rows (:data:`MIGRATION_GENERATE`),
    ``runs`` times, each rolled back: the median total and each statement's median."""
    import psycopg

    from skillc_stats._team_sql import MIGRATIONS, REBUILD_ROLLUPS_10

    with psycopg.connect(url, autocommit=True) as db:
        made = db.execute("SELECT to_regclass('skillc.access_log') IS NOT NULL").fetchone()[0]
        if not made:
            db.execute("CREATE SCHEMA skillc")
            db.execute("SET search_path TO skillc")
            for steps in MIGRATIONS[:10]:
                with db.transaction():
                    for statement in steps:
                        db.execute(statement)
            db.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
            db.execute("INSERT INTO schema_version VALUES (10)")
            for start in range(0, total, 500_000):
                db.execute(MIGRATION_GENERATE, (total, start, min(start + 500_000, total) - 1))
            for statement in REBUILD_ROLLUPS_10:
                db.execute(statement)
            db.execute("VACUUM ANALYZE")
    times: list[float] = []
    steps: dict[str, list[float]] = {}
    for _ in range(runs):
        with psycopg.connect(url) as db:
            db.execute("SET search_path TO skillc")
            began = time.perf_counter()
            for statement in MIGRATIONS[10]:
                one = time.perf_counter()
                db.execute(statement)
                steps.setdefault(statement[:70], []).append(time.perf_counter() - one)
            times.append(time.perf_counter() - began)
            db.rollback()
    slowest = sorted(steps.items(), key=lambda item: -statistics.median(item[1]))[:8]
    return {
        "rows": total,
        "migration 11 seconds": round(statistics.median(times), 2),
        "slowest statements": {k: round(statistics.median(v), 2) for k, v in slowest},
    }


def sync_rows(name: str, path: str, count: int, rng: random.Random) -> Iterator[tuple[Any, ...]]:
    """One machine's rows of one skill, in time order: half of them imported from
    transcripts with a unique tool-call id each, the rest the gateway's reads."""
    for n in range(count):
        stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(1767225600 + n * 30))
        pick = rng.randrange(100)
        if pick < 50:
            tool = "Skill" if pick < 25 else "Read"
            ident = f"toolu_{rng.getrandbits(64):016x}"
            args: dict[str, Any] = {"agent": "claude-code", "id": ident, "tool": tool}
            if tool == "Read":
                args["path"] = f"references/topic-{n % 12}.md"
            command = "activate" if tool == "Skill" else "read"
        else:
            command = "show"
            args = {"section": f"Section {n % 40}", "file": None, "max_lines": None}
        yield (
            stamp,
            f"run-{n // 50}",
            command,
            name,
            path,
            f"/home/dev/project-{rng.randrange(5)}",
            json.dumps(args, sort_keys=True),
            None,
        )


def build_sync_home(home: Path, total: int, skills: int = 20) -> None:
    """A machine's skillc home: ``skills`` skills whose runtime logs hold ``total`` rows."""
    from skillc_index.accesslog import INSERT_ROW, connect

    if home.exists():
        return
    rng = random.Random(40)
    for i in range(skills):
        name = f"skill-{i:03d}"
        folder = home / ".skillc" / "skills" / name
        folder.mkdir(parents=True)
        (folder / "SKILL.md").write_text(SKILL_MD.format(name=name), encoding="utf-8")
        log = home / ".skillc" / "runtime" / name / ".skillc-meta" / "logs.db"
        with closing(connect(log)) as db:
            db.execute("BEGIN")
            db.executemany(INSERT_ROW, sync_rows(name, str(folder.resolve()), total // skills, rng))
            db.execute("COMMIT")


def server_cpu(data: Path | None) -> float:
    """CPU seconds the PostgreSQL server with data folder ``data`` has used: the postmaster,
    its children that have ended (backends of closed connections) and those still running."""
    if data is None:
        return 0.0
    tick = os.sysconf("SC_CLK_TCK")
    master = (data / "postmaster.pid").read_text().split()[0]

    def fields(pid: str) -> list[str]:
        with open(f"/proc/{pid}/stat", encoding="ascii") as handle:
            return handle.read().rsplit(")", 1)[1].split()

    used = sum(int(value) for value in fields(master)[11:15])
    for entry in os.listdir("/proc"):  # noqa: PTH208
        if entry.isdigit():
            try:
                stat = fields(entry)
            except OSError:
                continue
            if stat[1] == master:
                used += int(stat[11]) + int(stat[12])
    return used / tick


def measure_sync(url: str, root: Path, total: int, data: Path | None = None) -> dict[str, Any]:
    """``skc sync --to`` of ``total`` rows (a new machine's logs: every row sent), then again
    (nothing to send): wall time and this process's CPU time (the server's is not in it)."""
    from skillc_index import Layout
    from skillc_stats import upload_logs

    home = root / f"sync-home-{total}"
    build_sync_home(home, total)
    layout = Layout.discover(home, {"SKILLC_HOME": str(home)})
    found: dict[str, Any] = {}
    for label in ("first", "again"):
        wall, cpu, server = time.perf_counter(), time.process_time(), server_cpu(data)
        added = upload_logs(url, layout, user="bench", machine=f"sync-{os.getpid()}").added
        found[f"sync {label}"] = {
            "rows added": added,
            "seconds": round(time.perf_counter() - wall, 2),
            "client cpu seconds": round(time.process_time() - cpu, 2),
            "server cpu seconds": round(server_cpu(data) - server, 2),
        }
    return found


def build_team(url: str) -> None:
    import psycopg

    from skillc_stats._team import TeamStore
    from skillc_stats._team_sql import ROLLUP_ALL

    began = time.perf_counter()
    TeamStore(url).close()  # the schema, as skillc creates (or migrates) it
    print(f"  schema ready ({time.perf_counter() - began:.1f} s)", file=sys.stderr)
    with psycopg.connect(url, autocommit=True) as db:
        have = db.execute("SELECT COUNT(*) FROM skillc.access_log").fetchone()[0]
        step = 1_000_000
        for start in range(have, TEAM_ROWS, step):
            began = time.perf_counter()
            db.execute(GENERATE, (start, min(start + step, TEAM_ROWS) - 1))
            print(f"  rows {start + step:,} ({time.perf_counter() - began:.1f} s)", file=sys.stderr)
        if (
            have < TEAM_ROWS
        ):  # rows written by SQL, not by uploads: roll them up as a migration does
            db.execute("TRUNCATE skillc.usage_daily")
            db.execute(f"SET search_path TO skillc; {ROLLUP_ALL}")
            db.execute("VACUUM ANALYZE skillc.access_log")
            db.execute("VACUUM ANALYZE skillc.usage_daily")


def time_queries(
    url: str, layout: Any, skills: dict[str, str], filters: dict[str, dict[str, Any]], runs: int
) -> dict[str, float]:
    """p50 of ``runs`` of every query type of each of ``skills`` (label: name) under each of
    ``filters``, a new connection each (as one ``skc stats --from`` opens one)."""
    from skillc_stats import QUERY_TYPES
    from skillc_stats._stats import prepare

    seconds: dict[str, float] = {}
    for label, skill in skills.items():
        for query in QUERY_TYPES:
            for suffix, given in filters.items():

                def once(skill: str = skill, query: str = query, given: Any = given) -> None:
                    with prepare(
                        skill,
                        layout,
                        query,
                        given.get("since"),
                        given.get("until"),
                        given.get("projects", ()),
                        store=url,
                        users=given.get("users", ()),
                        machines=given.get("machines", ()),
                    ) as stats:
                        stats.response(query)

                seconds[f"{query}{suffix}, {label}"] = median(once, runs)
    return seconds


def measure_team(url: str, runs: int, root: Path) -> dict[str, Any]:
    import psycopg

    from skillc_index import Layout
    from skillc_stats import query_all

    build_team(url)
    with psycopg.connect(url) as db:
        counts = dict(
            db.execute(
                "SELECT skill, COUNT(*) FROM skillc.access_log GROUP BY skill ORDER BY 2 DESC"
            ).fetchall()
        )
        size = db.execute(
            "SELECT pg_size_pretty(pg_total_relation_size('skillc.access_log'))"
        ).fetchone()[0]
    ranked = list(counts)
    popular, middle = ranked[0], ranked[len(ranked) // 2]
    # the skills installed here, for --all and for the per-skill queries (resolved locally)
    home = root / "team-home"
    if not home.exists():
        for i in range(SKILLS):
            folder = home / ".skillc" / "skills" / f"skill-{i:04d}"
            folder.mkdir(parents=True)
            (folder / "SKILL.md").write_text(SKILL_MD.format(name=folder.name), encoding="utf-8")
    layout = Layout.discover(home, {"SKILLC_HOME": str(home)})
    filters: dict[str, dict[str, Any]] = {
        "": {},
        " (quarter)": {"since": "2026-04-01", "until": "2026-06-30T23:59:59Z"},
        " (project)": {"projects": ["/home/user7/project-2"]},
        " (user)": {"users": ["user7"]},
    }
    chosen = {"popular skill": popular, "median skill": middle}
    seconds = time_queries(url, layout, chosen, filters, runs)
    for suffix, given in filters.items():
        if suffix == " (project)":
            continue
        seconds[f"--all{suffix}"] = median(
            lambda given=given: query_all(layout, store=url, **given), runs
        )
    return {
        "rows": sum(counts.values()),
        "skills with rows": len(counts),
        "popular": f"{popular} ({counts[popular]:,} rows)",
        "median": f"{middle} ({counts[middle]:,} rows)",
        "size": size,
        "seconds": seconds,
    }


#: The filters of ``--part scale``: none, a quarter, a project, a user, a machine.
SCALE_FILTERS: dict[str, dict[str, Any]] = {
    "": {},
    " (quarter)": {"since": "2026-04-01", "until": "2026-06-30T23:59:59Z"},
    " (quarter, cut)": {"since": "2026-04-01T12:00:00Z", "until": "2026-06-30T12:00:00Z"},
    " (Feb 15 12:00 to Jul 10 06:00)": {
        "since": "2026-02-15T12:00:00Z",
        "until": "2026-07-10T06:00:00Z",
    },
    " (project)": {"projects": ["/home/user7/project-2"]},
    " (user)": {"users": ["user7"]},
    " (machine)": {"machines": ["host-14"]},
}


def scale_layout(root: Path) -> Any:
    """A home with the 200 skills installed (the per-skill queries resolve the skill)."""
    from skillc_index import Layout

    home = root / "scale-home"
    if not home.exists():
        for i in range(200):
            folder = home / ".skillc" / "skills" / f"skill-{i:03d}"
            folder.mkdir(parents=True)
            (folder / "SKILL.md").write_text(SKILL_MD.format(name=folder.name), encoding="utf-8")
    return Layout.discover(home, {"SKILLC_HOME": str(home)})


def measure_scale(url: str, runs: int, root: Path) -> dict[str, Any]:
    """Every query type of the most used, the 10th and the median skill under each of
    :data:`SCALE_FILTERS`, and ``--all`` under each but the project: p50 of ``runs``, a new
    connection each (as one ``skc stats --from`` opens one)."""
    import psycopg

    from skillc_stats import query_all

    with psycopg.connect(url) as db:
        counts = dict(
            db.execute(
                "SELECT skill, SUM(accesses) FROM skillc.usage_skills GROUP BY 1 ORDER BY 2 DESC"
            ).fetchall()
        )
        sizes = dict(
            db.execute(
                "SELECT relname, pg_size_pretty(pg_total_relation_size(oid)) FROM pg_class "
                "WHERE relnamespace = 'skillc'::regnamespace AND relkind = 'r'"
            ).fetchall()
        )
        groups = dict(
            db.execute(
                "SELECT 'usage_totals', COUNT(*) FROM skillc.usage_totals UNION ALL "
                "SELECT 'usage_targets', COUNT(*) FROM skillc.usage_targets UNION ALL "
                "SELECT 'usage_skills', COUNT(*) FROM skillc.usage_skills UNION ALL "
                "SELECT 'usage_daily', COUNT(*) FROM skillc.usage_daily UNION ALL "
                "SELECT 'usage_weeks', COUNT(*) FROM skillc.usage_weeks UNION ALL "
                "SELECT 'usage_months', COUNT(*) FROM skillc.usage_months"
            ).fetchall()
        )
    ranked = list(counts)
    chosen = {"most used": ranked[0], "10th": ranked[9], "median": ranked[len(ranked) // 2]}
    layout = scale_layout(root)
    seconds = time_queries(url, layout, chosen, SCALE_FILTERS, runs)
    for suffix, given in SCALE_FILTERS.items():
        if suffix != " (project)":
            seconds[f"--all{suffix}"] = median(
                lambda given=given: query_all(layout, store=url, **given), runs
            )
    return {
        "rows": int(sum(counts.values())),
        "skills": {
            label: f"{skill} ({int(counts[skill]):,} rows)" for label, skill in chosen.items()
        },
        "rollup rows": groups,
        "sizes": sizes,
        "seconds": seconds,
    }


def explain(url: str, skill: str) -> str:
    """``EXPLAIN ANALYZE`` of every statement ``skc stats SKILL --from`` and ``--all --from``
    run, for ``skill``, unfiltered and under a cut quarter and a user (for the README)."""
    import psycopg

    from skillc_stats import _team_reads as reads
    from skillc_stats._filters import Filters
    from skillc_stats._team_all import period_statement, usage_statement

    quarter = Filters("2026-04-01T12:00:00Z", "2026-06-30T12:00:00Z", users=("user7",))
    out: list[str] = []
    with psycopg.connect(url) as db:
        db.execute("SET search_path TO skillc")
        shapes = {
            "commands and targets": reads.COMMAND_TARGETS,
            "targets of one command": reads.TARGETS_OF,
            "errors": reads.ERRORS,
            "uses by project": reads.USES_BY_CWD,
        }
        cases: list[tuple[str, str, list[Any]]] = []
        for label, filters in (("all time", Filters()), ("quarter cut, one user", quarter)):
            for name, shape in shapes.items():
                extra: tuple[Any, ...] = ()
                if name == "targets of one command":
                    extra = ("read",)
                elif name == "uses by project":
                    from skillc_index.accesslog.reader import USE_COMMANDS

                    extra = USE_COMMANDS
                statement, values = reads.skill_statement(filters, skill, *shape, extra)
                cases.append((f"{name} ({label})", statement, values))
            statement, values = period_statement(filters, skill)
            cases.append((f"period ({label})", statement, values))
            statement, values = usage_statement(filters)
            cases.append((f"--all ({label})", statement, values))
        for label, filters in (
            ("cut quarter", Filters("2026-04-01T12:00:00Z", "2026-06-30T12:00:00Z")),
            (
                "Feb 15 12:00 to Jul 10 06:00",
                Filters("2026-02-15T12:00:00Z", "2026-07-10T06:00:00Z"),
            ),
        ):
            statement, values = period_statement(filters, skill)
            cases.append((f"period ({label})", statement, values))
            statement, values = usage_statement(filters)
            cases.append((f"--all ({label})", statement, values))
        for title, statement, values in cases:
            plan = db.execute(
                "EXPLAIN (ANALYZE, COSTS OFF) " + statement.replace("?", "%s"), values
            ).fetchall()
            out += [f"-- {title}", *(row[0] for row in plan), ""]
    return "\n".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--part",
        choices=["local", "team", "scale", "sync", "explain", "migration"],
        required=True,
    )
    parser.add_argument("--rows", type=int, default=TEAM_ROWS)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--dir", type=Path)
    parser.add_argument("--url")
    args = parser.parse_args()
    root = args.dir or Path(tempfile.mkdtemp(prefix="skc-team-bench-"))
    root.mkdir(parents=True, exist_ok=True)
    header = {
        "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "cpu": cpu_model(),
        "nproc": os.cpu_count(),
        "python": platform.python_version(),
        "load": os.getloadavg(),
    }
    if args.part == "local":
        result = measure_local(root, args.runs)
    else:
        stop = None
        url = args.url
        if url is None:
            url, stop = start_server(root / "pg")
        try:
            if args.part == "team":
                result = measure_team(url, args.runs, root)
            elif args.part == "explain":
                print(explain(url, "skill-000"))
                return
            elif args.part == "migration":
                rows = args.rows if args.rows != TEAM_ROWS else 1_000_000
                result = measure_migration(url, rows, args.runs)
            elif args.part == "scale":
                build_scale(url, args.rows)
                result = measure_scale(url, args.runs, root)
            else:
                data = root / "pg" / "data" if stop is not None else None
                result = measure_sync(url, root, args.rows, data)
        finally:
            if stop is not None:
                stop()
    print(json.dumps({**header, **result, "load after": os.getloadavg()}, indent=2))


if __name__ == "__main__":
    main()
