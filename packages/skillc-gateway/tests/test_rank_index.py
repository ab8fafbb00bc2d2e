"""The ranker's impact-ordered index (catalog/rank.py), on a real SQLite database.

The tables must stay consistent with the skills indexed whatever the order of additions,
re-indexing and removals; a query reads only the best rows of each word, yet finds a skill
that only a filter keeps; the query's words go through the index's own tokenizer.
"""

from __future__ import annotations

import math
import random
import sqlite3

import pytest

from skillc_gateway.catalog import rank


@pytest.fixture
def db() -> sqlite3.Connection:
    connection = sqlite3.connect(":memory:", isolation_level=None)
    for statement in rank.SCHEMA.split(";"):
        if statement.strip():
            connection.execute(statement)
    return connection


def _text(
    name: str, description: str, body: str = "", headings: tuple[str, ...] = ()
) -> rank.SkillText:
    lines = [f"# {h}" for h in headings]
    return rank.SkillText(
        name=name,
        description=description,
        body="\n".join([*lines, body]),
        headings=tuple(rank.Heading(1, h, n + 1) for n, h in enumerate(headings)),
        folder=name,
    )


def _add(db: sqlite3.Connection, skills: dict[int, rank.SkillText]) -> None:
    db.execute("BEGIN")
    for skill_id, text in skills.items():
        rank.add(db, skill_id, text)
    rank.finish(db)
    db.execute("COMMIT")


def _consistent(db: sqlite3.Connection) -> None:
    postings = db.execute(
        "SELECT doc, term, count(*) FROM rank_postings GROUP BY doc, term ORDER BY 1, 2"
    ).fetchall()
    terms = db.execute("SELECT doc, term, df FROM rank_terms ORDER BY 1, 2").fetchall()
    counts = db.execute(
        "SELECT doc, count(DISTINCT skill) FROM rank_postings GROUP BY doc ORDER BY 1"
    ).fetchall()
    sections = db.execute(
        "SELECT term, count(*) FROM rank_passages GROUP BY term ORDER BY 1"
    ).fetchall()
    counts += db.execute(
        "SELECT ?, count(*) FROM (SELECT DISTINCT skill, section FROM rank_passages) "
        "HAVING count(*) > 0",
        (rank.PASSAGES,),
    ).fetchall()
    assert terms == postings + [(rank.PASSAGES, term, df) for term, df in sections]
    stored = db.execute("SELECT doc, n FROM rank_count WHERE n > 0 ORDER BY 1").fetchall()
    assert counts == stored


WORDS = [
    "owl",
    "hawk",
    "eagle",
    "falcon",
    "heron",
    "crane",
    "stork",
    "swift",
    "robin",
    "wren",
    "finch",
    "lark",
]


def test_the_tables_stay_consistent_through_adds_and_removes(db: sqlite3.Connection) -> None:
    chance = random.Random(7)

    def some() -> str:
        return " ".join(chance.choice(WORDS) for _ in range(chance.randrange(1, 30)))

    live: set[int] = set()
    for _round in range(30):
        batch = {
            chance.randrange(1, 40): _text(f"s{_round}", some(), some(), (some(),))
            for _ in range(5)
        }
        _add(db, batch)
        live |= set(batch)
        gone = chance.sample(sorted(live), k=min(3, len(live)))
        db.execute("BEGIN")
        for skill_id in gone:
            rank.remove(db, skill_id)
        db.execute("COMMIT")
        live -= set(gone)
        _consistent(db)
    skills = {skill for (skill,) in db.execute("SELECT DISTINCT skill FROM rank_postings")}
    assert skills == live


def test_the_score_is_bm25_with_the_reference_lengths(db: sqlite3.Connection) -> None:
    _add(
        db, {1: _text("owls", "owl owl hawk"), 2: _text("hawks", "hawk"), 3: _text("wrens", "wren")}
    )
    # meta of skill 1: "owls owl owl hawk" (4 tokens; porter: owls -> owl) so tf(owl) = 3
    (w,) = db.execute(
        "SELECT w FROM rank_postings WHERE doc = 0 AND term = 'owl' AND skill = 1"
    ).fetchone()
    length = 4 / rank.DOCUMENTS[0].length
    assert w == pytest.approx(3 * (rank.K1 + 1) / (3 + rank.K1 * (1 - rank.B + rank.B * length)))
    idf = math.log((3 - 1 + 0.5) / (1 + 0.5))
    scores = rank._scores(db, 0, ["owl"], None, 10)
    assert scores == {1: pytest.approx(w * idf)}


def test_query_words_are_stemmed_as_the_index_is(db: sqlite3.Connection) -> None:
    _add(db, {1: _text("runner", "Runs the nightly builds"), 2: _text("other", "Paints walls")})
    assert [skill for skill, _ in rank.rank(db, "running a build", 5)] == [1]
    assert rank.rank(db, "ÉCRIRE", 5) == rank.rank(db, "ecrire", 5) == []


def test_only_the_best_rows_are_read_but_a_filter_reads_them_all(
    db: sqlite3.Connection, monkeypatch: pytest.MonkeyPatch
) -> None:
    # "heron" once in a long body (a low w) in skill 1; many times in skills 2..9
    skills = {1: _text("one", "a bird", "heron " + "filler " * 300)}
    skills.update({n: _text(f"s{n}", "birds", "heron heron heron") for n in range(2, 10)})
    _add(db, skills)
    monkeypatch.setattr(rank, "DEPTH", 3)
    monkeypatch.setattr(rank, "POOL", 4)
    unfiltered = [skill for skill, _ in rank.rank(db, "heron", 20)]
    assert len(unfiltered) == 3 and 1 not in unfiltered  # only the 3 best rows were read
    assert [skill for skill, _ in rank.rank(db, "heron", 20, candidates={1: 0})] == [1]


def test_a_reindexed_skill_replaces_its_rows(db: sqlite3.Connection) -> None:
    _add(db, {1: _text("owls", "owls at night")})
    _add(db, {1: _text("owls", "hawks by day")})
    assert rank.rank(db, "night", 5) == []
    assert [skill for skill, _ in rank.rank(db, "hawk", 5)] == [1]
    _consistent(db)


def test_a_skill_added_twice_in_one_batch_counts_once(db: sqlite3.Connection) -> None:
    db.execute("BEGIN")
    rank.add(db, 1, _text("owls", "owls at night"))
    rank.add(db, 1, _text("owls", "hawks by day"))
    rank.finish(db)
    db.execute("COMMIT")
    _consistent(db)
    assert rank.rank(db, "night", 5) == []


def _markdown(name: str, description: str, body: str) -> rank.SkillText:
    lines = body.split("\n")
    headings = tuple(
        rank.Heading(1, line[2:], n + 1) for n, line in enumerate(lines) if line.startswith("# ")
    )
    return rank.SkillText(name, description, body, headings, name)


def test_the_words_together_in_one_section_rank_first(
    db: sqlite3.Connection, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The same words in both bodies, headings and descriptions: only the sections differ.
    apart = "# Intro\nowl wren\n# Usage\nhawk finch"
    together = "# Intro\nowl hawk\n# Usage\nwren finch"
    skills = {1: _markdown("one", "birds", apart), 2: _markdown("two", "birds", together)}
    skills.update({n: _markdown(f"s{n}", "lakes", f"# Intro\nboats {n}") for n in range(3, 8)})
    _add(db, skills)
    _consistent(db)
    assert [skill for skill, _ in rank.rank(db, "owl hawk", 5)] == [2, 1]
    monkeypatch.setattr(rank, "RERANK", 0)  # without the sections: a tie, by id
    assert [skill for skill, _ in rank.rank(db, "owl hawk", 5)] == [1, 2]


def test_only_the_best_skills_are_reranked_by_their_sections(
    db: sqlite3.Connection, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Skill 1 matches in its description; skill 2 only in one section, where its words meet.
    skills = {
        1: _markdown("one", "owl hawk", "# Intro\nowl\n# Usage\nhawk"),
        2: _markdown("two", "birds", "# Intro\nowl hawk\n# Usage\nwren"),
    }
    skills.update({n: _markdown(f"s{n}", "lakes", f"# Intro\nboats {n}") for n in range(3, 8)})
    _add(db, skills)
    assert [skill for skill, _ in rank.rank(db, "owl hawk", 5)] == [1, 2]
    monkeypatch.setattr(rank, "RERANK", 1)  # skill 2's section is not read
    scores = dict(rank.rank(db, "owl hawk", 5))
    monkeypatch.setattr(rank, "RERANK", 0)
    assert scores[2] == dict(rank.rank(db, "owl hawk", 5))[2] < scores[1]


def test_the_name_and_description_are_a_passage_too(db: sqlite3.Connection) -> None:
    # Skill 2 has no sections: its description is its passage, and it beats a section.
    skills = {
        1: _markdown("ledger", "Keep a ledger.", "# Sending invoices\nStep one."),
        2: _markdown("invoices", "Create and send invoices to customers.", ""),
    }
    skills.update({n: _markdown(f"s{n}", "lakes", f"# Intro\nboats {n}") for n in range(3, 8)})
    _add(db, skills)
    _consistent(db)
    sections = db.execute("SELECT DISTINCT section FROM rank_passages WHERE skill = 2").fetchall()
    assert sections == [(-1,)]
    passages = rank._passage_scores(db, rank.stems(db, ["send", "invoices", "customer"]), [1, 2])
    assert passages[2] > passages[1] > 0
