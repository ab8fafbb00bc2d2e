"""Who chose a skill (issue 40): an activation imported from Claude Code's transcripts was
typed by the user (``/demo``) or chosen by the model (its Skill or SlashCommand tool call);
the summary reports the split, locally and from the team store."""

from __future__ import annotations

from skillc_stats import query_stats, upload_logs
from skillc_stats._report import summary_lines
from skillc_stats._stats import prepare

from .test_transcripts import Setup, every_kind, lines, setup, tool_use, typed

__all__ = ["setup"]  # the fixture, used here


def test_the_summary_splits_activations_by_who_chose_the_skill(
    setup: Setup, postgres_url: str
) -> None:
    s = setup
    s.write(every_kind(s))
    s.write(
        lines(typed(s.project, 20, "demo"), tool_use(s.project, 21, "Skill", {"skill": "demo"})),
        s.transcript.with_name("second.jsonl"),
    )
    s.sync()
    summary = query_stats(str(s.demo), s.layout)["data"]
    assert (summary["activations_by_user"], summary["activations_by_model"]) == (2, 2)
    local = query_stats(str(s.local), s.layout)["data"]  # the model ran /local itself
    assert (local["activations_by_user"], local["activations_by_model"]) == (0, 1)
    with prepare(str(s.demo), s.layout, "summary", None, None, ()) as query:
        assert "Activations: typed by the user 2, chosen by the model 2" in summary_lines(query)
    upload_logs(postgres_url, s.layout)
    team = query_stats(str(s.demo), s.layout, store=postgres_url)["data"]
    assert team == summary
