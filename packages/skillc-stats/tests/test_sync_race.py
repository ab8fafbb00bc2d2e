"""``sync`` against writers still logging to the fallback: no row lost, none doubled.

Three writer processes log 300 rows each through :func:`skillc_index.accesslog.log_access`
with a runtime whose log cannot be opened, so every row goes to the fallback
``<project>/.skillc/logs/demo/.skillc-meta/logs.db`` (as a sandboxed CLI's do), while this
process runs ``sync`` over and over, removing that folder each time it has copied it. The
test fails unless sync really removed the fallback while they wrote; every writer must log
every row (a row given up is W002), and the primary log must end with each row exactly once.
"""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

from skillc_index import Layout
from skillc_stats import sync_logs

WRITER = """
import sys
from pathlib import Path
from skillc_index import Layout
from skillc_index.accesslog import AccessRecord, fallback_log, log_access

project, home, blocked = (Path(arg) for arg in sys.argv[1:4])
worker = sys.argv[4]
layout = Layout.discover(project, {"SKILLC_HOME": str(home)})
source = str(project / ".skillc" / "skills" / "demo")
for i in range(300):
    record = AccessRecord("show", "demo", source, str(project), {"w": worker, "i": i},
                          run_id=f"w{worker}")
    outcome = log_access(layout, blocked, record)
    if outcome.path != fallback_log(layout, "demo"):
        sys.exit(f"row {i} of writer {worker} went to {outcome.path}: {outcome.diagnostics}")
"""


def test_no_row_is_lost_or_doubled(
    tmp_path: Path, project: Path, home: Path, env: dict[str, str]
) -> None:
    skill = project / ".skillc" / "skills" / "demo"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text("---\nname: demo\ndescription: Demo.\n---\n# Demo\n", "utf-8")
    # The writers' runtime: its log is a folder, so SQLite cannot open it (the fallback takes
    # every row). sync sends the rows to the skill's real runtime, found from their source.
    blocked = tmp_path / "blocked" / "demo"
    (blocked / ".skillc-meta" / "logs.db").mkdir(parents=True)
    writers = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, str(project), str(home), str(blocked), str(n)]
        )
        for n in range(3)
    ]
    removed_while_writing = 0
    while any(w.poll() is None for w in writers):
        report = sync_logs(project=project, env=env)  # over and over, while they write
        removed_while_writing += sum(s.removed for s in report.skills)
    assert [w.wait(timeout=120) for w in writers] == [0, 0, 0]
    sync_logs(project=project, env=env)
    runtime = Layout.discover(project, env).runtime_store("project") / "demo"
    db = sqlite3.connect(runtime / ".skillc-meta" / "logs.db")
    rows = db.execute("SELECT args FROM access_log").fetchall()
    db.close()
    assert removed_while_writing > 0  # the race really happened
    assert len(set(rows)) == 900
    assert len(rows) == 900
    assert not (project / ".skillc" / "logs").exists()
