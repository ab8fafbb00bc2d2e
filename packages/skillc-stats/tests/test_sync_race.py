"""``sync`` against writers still logging to the fallback: no row lost, none doubled.

Writers append to ``<project>/.skillc/logs/<skill>/.skillc-meta/logs.db`` (as a sandboxed
CLI does) while this process runs ``sync`` again and again, removing that folder each time.
A writer that was waiting for sync's lock must not append to the removed file, and a writer
whose file was swapped while it opened it must notice (skillc_index._access_log.insert).
"""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from skillc_index import Layout
from skillc_stats import sync_logs

WRITER = """
import sys
import time
from pathlib import Path
from skillc_index import Layout
from skillc_index import AccessRecord, fallback_log, insert

project, home, worker = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]
layout = Layout.discover(project, {"SKILLC_HOME": str(home)})
path = fallback_log(layout, "demo")
source = str(project / ".skillc" / "skills" / "demo")
for i in range(300):
    insert(path, [AccessRecord("show", "demo", source, str(project), {"w": worker, "i": i},
                               run_id=f"w{worker}")])
"""


def test_no_row_is_lost_or_doubled(project: Path, home: Path, env: dict[str, str]) -> None:
    skill = project / ".skillc" / "skills" / "demo"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text("---\nname: demo\ndescription: Demo.\n---\n# Demo\n", "utf-8")
    writers = [
        subprocess.Popen([sys.executable, "-c", WRITER, str(project), str(home), str(n)])
        for n in range(3)
    ]
    syncs = 0
    while any(w.poll() is None for w in writers):
        sync_logs(project=project, env=env)  # over and over, while they write
        syncs += 1
        time.sleep(0.02)
    assert [w.wait(timeout=120) for w in writers] == [0, 0, 0]
    sync_logs(project=project, env=env)
    runtime = Layout.discover(project, env).runtime_store("project") / "demo"
    db = sqlite3.connect(runtime / ".skillc-meta" / "logs.db")
    rows = db.execute("SELECT args FROM access_log").fetchall()
    db.close()
    assert syncs > 1
    assert len(rows) == 900
    assert len(set(rows)) == 900
