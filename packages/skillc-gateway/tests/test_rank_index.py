"""The ranker's impact-ordered index (catalog/postings.py, read by catalog/rank.py), on a real
SQLite database.

The tables must stay consistent with the skills indexed whatever the order of additions,
re-indexing and removals; a query reads only the best rows of each word, yet finds a skill
that only a filter keeps; the query's words go through the index's own tokenizer.
"""

from __future__ import annotations

import math
import random
import re
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from skillc_gateway.catalog import background, families, heads, postings, rank


@pytest.fixture(autouse=True)
def lexical(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests take the lexical steps apart: the semantic step (the extra, when it is
    installed: test_find_semantic.py) is off."""
    monkeypatch.setattr(rank, "_model", lambda wanted=None: None)


@pytest.fixture(name="ranker_db")
def ranker_db_fixture(
    sqlite_connect: Callable[..., sqlite3.Connection],
) -> Callable[..., sqlite3.Connection]:
    def _connect(path: Path | str) -> sqlite3.Connection:
        """A connection to the ranker's tables at ``path`` (made when missing), closed after
        the test."""
        connection = sqlite_connect(path, isolation_level=None)
        connection.executescript(postings.SCHEMA)
        connection.execute(families.NAMES)
        return connection

    return _connect


@pytest.fixture
def db(ranker_db: Callable[..., sqlite3.Connection]) -> sqlite3.Connection:
    return ranker_db(":memory:")


def _text(
    name: str, description: str, body: str = "", headings: tuple[str, ...] = ()
) -> postings.SkillText:
    lines = [f"# {h}" for h in headings]
    return postings.SkillText(
        name=name,
        description=description,
        body="\n".join([*lines, body]),
        headings=tuple(postings.Heading(1, h, n + 1) for n, h in enumerate(headings)),
        folder=name,
    )


def _add(db: sqlite3.Connection, skills: dict[int, postings.SkillText]) -> None:
    db.execute("BEGIN")
    for skill_id, text in skills.items():
        postings.add(db, skill_id, text)
        db.execute("INSERT OR REPLACE INTO skills VALUES (?, ?)", (skill_id, text.name))
    postings.finish(db)
    db.execute("COMMIT")


def _consistent(db: sqlite3.Connection) -> None:
    rows = db.execute(
        "SELECT doc, term, count(*) FROM rank_postings GROUP BY doc, term ORDER BY 1, 2"
    ).fetchall()
    terms = db.execute("SELECT doc, term, df FROM rank_terms ORDER BY 1, 2").fetchall()
    counts = db.execute(
        "SELECT doc, count(DISTINCT skill) FROM rank_postings GROUP BY doc ORDER BY 1"
    ).fetchall()
    # passages: the words of each skill's list, each item's place one passage
    sections: dict[str, int] = {}
    passages = 0
    for (index,) in db.execute("SELECT terms FROM rank_section_terms"):
        header, *lines = index.rstrip("\n").split("\n")
        passages += sum(1 for length in header.split(" ") if int(length) > 0)
        for line in lines:
            term, *items = line.split(" ")
            places = {item.split(":")[0].lstrip("h") for item in items}
            sections[term] = sections.get(term, 0) + len(places)
    counts += [(postings.PASSAGES, passages)] if passages else []
    passage_terms = [(postings.PASSAGES, term, df) for term, df in sorted(sections.items())]
    assert terms == rows + passage_terms
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
            postings.remove(db, skill_id)
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
    length = 4 / postings.DOCUMENTS[0].length
    assert w == pytest.approx(
        3 * (postings.K1 + 1) / (3 + postings.K1 * (1 - postings.B + postings.B * length))
    )
    # IDF over the catalog's 3 skills and the background's (1 of the 3 holds "owl")
    extra, counts = background.frequencies(0, ["owl"])
    assert extra > 1000
    held = 1 + counts.get("owl", 0)
    idf = math.log((3 + extra - held + 0.5) / (held + 0.5))
    scores, idfs, n = rank._scores(db, 0, ["owl"], None, 10)
    assert scores == {1: pytest.approx(w * idf)}
    assert (idfs, n) == ({"owl": pytest.approx(idf)}, 3 + extra)  # the fusion's scale (issue 35)


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
    postings.add(db, 1, _text("owls", "owls at night"))
    postings.add(db, 1, _text("owls", "hawks by day"))
    postings.finish(db)
    db.execute("COMMIT")
    _consistent(db)
    assert rank.rank(db, "night", 5) == []


def test_a_skill_added_then_removed_before_finish_leaves_no_counts(
    db: sqlite3.Connection,
) -> None:
    # its passages' word counts wait for finish(): removing it must not take them off
    _add(db, {1: _text("owls", "owls", "night", ("Owls",)), 2: _text("owls", "owls")})
    db.execute("BEGIN")
    postings.add(db, 1, _text("hawks", "hawks by day", "owls", ("Hawks", "Owls")))
    postings.remove(db, 1)
    postings.finish(db)
    db.execute("COMMIT")
    _consistent(db)
    owl = db.execute("SELECT df FROM rank_terms WHERE doc = 3 AND term = 'owl'").fetchone()
    assert owl == (1,)  # skill 2's name and description


def test_a_skill_holding_several_common_words_of_the_request_is_read(
    db: sqlite3.Connection,
) -> None:
    """Every word reads its DEPTH best rows, common or rare (issue 35): a skill that holds
    the eight words of the request once each, where 100 skills hold each word more often,
    is found by their sum (reading rows of a common word in proportion to its IDF read
    only the skills that hold one word most often, and left it out of every list)."""
    words = ("alpha", "bravo", "delta", "echo", "foxtrot", "golf", "hotel", "kilo")
    skills = {}
    for n, word in enumerate(words * 100, start=1):
        skills[n] = _text(f"s{n}", f"{word} {word} {word} filler")
    target = len(skills) + 1
    skills[target] = _text("target", " ".join(words) + " filler")
    skills.update({n: _text(f"f{n}", "filler text") for n in range(target + 1, target + 100)})
    _add(db, skills)
    statements: list[str] = []
    db.set_trace_callback(statements.append)
    assert rank.rank(db, " ".join(words), 5)[0][0] == target
    read = [s for s in statements if "FROM rank_postings" in s and "doc = 0" in s]
    limits = re.findall(r"term = '(\w+)' ORDER BY w DESC, skill DESC( LIMIT \d+)?", "".join(read))
    assert limits == [(word, f" LIMIT {rank.DEPTH}") for word in words]


def test_a_filter_keeping_few_skills_finds_them_among_many(
    db: sqlite3.Connection, monkeypatch: pytest.MonkeyPatch
) -> None:
    # 300 skills hold "heron" often; the 3 kept by the filter hold it once, in long bodies
    skills = {n: _text(f"s{n}", "birds", "heron heron heron") for n in range(1, 301)}
    kept = {301: 50, 302: 100, 303: 200}  # skill -> words of filler (a longer body: a lower w)
    skills.update(
        {n: _text(f"k{n}", "a bird", "heron " + "filler " * fill) for n, fill in kept.items()}
    )
    _add(db, skills)
    monkeypatch.setattr(rank, "POOL", 10)
    assert not set(kept) & {skill for skill, _ in rank.rank(db, "heron", 50)}
    assert [skill for skill, _ in rank.rank(db, "heron", 50, candidates=set(kept))] == [
        301,
        302,
        303,
    ]


def test_a_filter_leaving_out_a_few_skills_ranks_the_others_as_without_it(
    db: sqlite3.Connection, monkeypatch: pytest.MonkeyPatch
) -> None:
    chance = random.Random(3)
    _add(
        db,
        {
            n: _text(f"s{n}", " ".join(chance.choice(WORDS) for _ in range(8)))
            for n in range(1, 200)
        },
    )
    monkeypatch.setattr(rank, "POOL", 20)
    # the fusion's order: the passages rerank the first skills of each answer, not the same ones
    monkeypatch.setattr(rank, "RERANK", 0)
    query = "owl hawk eagle wren"
    everything = [skill for skill, _ in rank.rank(db, query, 25)]
    candidates = set(range(1, 200)) - set(everything[:5])
    filtered = [skill for skill, _ in rank.rank(db, query, 20, candidates=candidates)]
    assert filtered == everything[5:25]


def test_a_filter_holding_skills_unknown_to_the_index_still_fills_the_pool(
    db: sqlite3.Connection, monkeypatch: pytest.MonkeyPatch
) -> None:
    # skills 1-10 rank first; the filter drops them but holds 10 ids with no rows (a skill
    # skipped, or one whose document is empty): the filter leaves out more than it seems
    _add(db, {n: _text(f"s{n}", "owl owl owl" if n <= 10 else "owl") for n in range(1, 31)})
    monkeypatch.setattr(rank, "POOL", 10)
    candidates = set(range(11, 31)) | set(range(1001, 1011))
    assert len(rank.rank(db, "owl", 10, candidates=candidates)) == 10


def _sections_the_old_way(
    db: sqlite3.Connection, query: str, text: postings.SkillText, limit: int = 3
) -> list[rank.Section]:
    """The sections as ranker 3 found them: the skill's sections in a scratch FTS5 table,
    the query's words through its vocabulary."""
    db.execute(
        "CREATE VIRTUAL TABLE temp.old_q USING fts5(heading, text, content='', "
        "tokenize='porter unicode61 remove_diacritics 2')"
    )
    db.execute("CREATE VIRTUAL TABLE temp.old_v USING fts5vocab(temp, old_q, instance)")
    sections = postings.sections(text)
    db.executemany(
        "INSERT INTO temp.old_q (rowid, heading, text) VALUES (?, ?, ?)",
        [(n, heading, body) for n, (heading, body, _) in enumerate(sections)],
    )
    terms = rank.stems(db, rank.query_terms(query))
    found = db.execute(
        "SELECT doc, col, count(DISTINCT term), count(*) FROM temp.old_v "
        f"WHERE term IN ({','.join('?' * len(terms))}) GROUP BY doc, col",
        terms,
    ).fetchall()
    db.execute("DROP TABLE temp.old_v")
    db.execute("DROP TABLE temp.old_q")
    scores: dict[int, float] = {}
    for section, column, distinct, hits in found:
        score = 2 * distinct if column == "heading" else distinct + hits / (hits + 10)
        scores[section] = scores.get(section, 0.0) + score
    ranked = sorted((-score, sections[n][2], sections[n][0]) for n, score in scores.items())
    return [rank.Section("SKILL.md", heading, line) for _, line, heading in ranked[:limit]]


def _long_skill(chance: random.Random, name: str) -> postings.SkillText:
    def some(count: int) -> str:
        return " ".join(
            chance.choice([*WORDS, "Hawks", "FLYING", "flies", "nest"]) for _ in range(count)
        )

    headings = tuple(some(chance.randrange(1, 4)) for _ in range(chance.randrange(1, 12)))
    lines: list[str] = []
    marks: list[postings.Heading] = []
    for heading in headings:
        lines.append(f"## {heading}")
        marks.append(postings.Heading(2, heading, len(lines)))
        lines += [some(chance.randrange(0, 40)) for _ in range(chance.randrange(0, 4))]
    return postings.SkillText(name, "birds", "\n".join(lines), tuple(marks), name)


@pytest.mark.parametrize("columns", [32, 3])
def test_sections_from_the_stored_words_are_those_the_old_way_found(
    db: sqlite3.Connection, monkeypatch: pytest.MonkeyPatch, columns: int
) -> None:
    # 3: a skill's sections go through the scratch table in several rounds
    monkeypatch.setattr(postings, "SECTION_COLUMNS", columns)
    chance = random.Random(11)
    skills = {n: _long_skill(chance, f"s{n}") for n in range(1, 30)}
    _add(db, skills)
    for query in ("owl", "hawk flying nest", "wren robin lark finch", "crane", "zebra", "flies"):
        found = rank.best_sections(db, query, list(skills))
        for skill_id, text in skills.items():
            assert found.get(skill_id, []) == _sections_the_old_way(db, query, text)
        assert any(found.values()) or query == "zebra"


def test_a_changed_skill_shows_its_new_sections_and_a_removed_one_none(
    db: sqlite3.Connection,
) -> None:
    _add(db, {1: _text("birds", "birds", "owls hunt at night", ("Owls", "Hawks"))})
    # the body is the text of the last heading, "Hawks"
    assert rank.best_sections(db, "owl", [1]) == {
        1: [rank.Section("SKILL.md", "Owls", 1), rank.Section("SKILL.md", "Hawks", 2)]
    }
    _add(db, {1: _text("birds", "birds", "", ("Herons", "Owl nests", "Owls"))})
    assert rank.best_sections(db, "owl", [1]) == {
        1: [rank.Section("SKILL.md", "Owl nests", 2), rank.Section("SKILL.md", "Owls", 3)]
    }
    assert rank.best_sections(db, "hawk", [1]) == {}
    db.execute("BEGIN")
    postings.remove(db, 1)
    db.execute("COMMIT")
    assert rank.best_sections(db, "owl", [1]) == {}
    assert db.execute("SELECT count(*) FROM rank_section_terms").fetchone() == (0,)
    assert db.execute("SELECT count(*) FROM rank_sections").fetchone() == (0,)


def _markdown(name: str, description: str, body: str) -> postings.SkillText:
    lines = body.split("\n")
    headings = tuple(
        postings.Heading(1, line[2:], n + 1)
        for n, line in enumerate(lines)
        if line.startswith("# ")
    )
    return postings.SkillText(name, description, body, headings, name)


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


def test_a_request_reads_each_skills_lines_once_and_keeps_nothing_after_it(
    ranker_db: Callable[..., sqlite3.Connection],
    tmp_path: Path,
) -> None:
    """What passage_scores found of a skill's words serves the same request's best_sections
    (the request's own ``lines``); the next request reads the lists again, whoever wrote."""
    path = tmp_path / "catalog.db"
    mine, other = ranker_db(path), ranker_db(path)
    _add(mine, {1: _text("birds", "birds", "owls hunt at night", ("Owls", "Hawks"))})
    _add(mine, {2: _text("nests", "nests", "an owl, an owl, owls", ("Owls",))})
    terms = rank.stems(mine, ["owl"])
    lines: rank.Lines = {}
    before = rank.passage_scores(mine, terms, [1, 2, 3], lines)
    assert set(lines) == {1, 2, 3}
    reads: list[str] = []
    mine.set_trace_callback(reads.append)
    assert rank.best_sections(mine, "owl", [1], lines=lines) == {
        1: [rank.Section("SKILL.md", "Owls", 1), rank.Section("SKILL.md", "Hawks", 2)]
    }
    mine.set_trace_callback(None)
    assert not [sql for sql in reads if "rank_section_terms" in sql]  # read once a request
    assert not hasattr(rank, "_LINES")  # nothing kept between requests
    # another process's write: the next request reads skill 2's list for skill 1
    other.execute(
        "UPDATE rank_section_terms SET terms = (SELECT terms FROM rank_section_terms "
        "WHERE skill = 2) WHERE skill = 1"
    )
    assert rank.passage_scores(mine, terms, [1]) == {1: before[2]} != {1: before[1]}
    mine.execute("DELETE FROM rank_section_terms WHERE skill = 1")
    assert rank.passage_scores(mine, terms, [1, 2]) == {2: before[2]}
    _add(mine, {1: _text("birds", "birds", "hawks only", ("Hawks",))})
    assert rank.best_sections(mine, "owl", [1]) == {}
    mine.close()
    other.close()


def test_the_name_and_description_are_a_passage_too(db: sqlite3.Connection) -> None:
    # Skill 2 has no sections: its description is its passage, and it beats a section.
    skills = {
        1: _markdown("ledger", "Keep a ledger.", "# Sending invoices\nStep one."),
        2: _markdown("invoices", "Create and send invoices to customers.", ""),
    }
    skills.update({n: _markdown(f"s{n}", "lakes", f"# Intro\nboats {n}") for n in range(3, 8)})
    _add(db, skills)
    _consistent(db)
    assert rank.best_sections(db, "send invoices customer", [2]) == {}  # no sections
    passages = rank.passage_scores(db, rank.stems(db, ["send", "invoices", "customer"]), [1, 2])
    assert passages[2] > passages[1] > 0


def _passage_scores_the_old_way(
    db: sqlite3.Connection, query: str, skills: dict[int, postings.SkillText], shown: list[int]
) -> dict[int, float]:
    """The passage scores as the first passage ranker found them: a table of every passage's
    words, its own scratch FTS5 table (a row per passage), IDF over its rows."""
    db.execute(
        "CREATE VIRTUAL TABLE temp.old_p USING fts5(heading, text, content='', "
        "tokenize='porter unicode61 remove_diacritics 2')"
    )
    db.execute("CREATE VIRTUAL TABLE temp.old_pv USING fts5vocab(temp, old_p, instance)")
    db.execute("CREATE TEMP TABLE old_passages (skill, term, section, w)")
    for skill_id, text in skills.items():
        db.executemany(
            "INSERT INTO temp.old_p (rowid, heading, text) VALUES (?, ?, ?)",
            [
                (-1, postings._names(text), text.description),
                *(
                    (n, heading, body)
                    for n, (heading, body, _) in enumerate(postings.sections(text))
                ),
            ],
        )
        db.execute(
            "INSERT INTO temp.old_passages (skill, term, section, w) "
            f"SELECT ?, term, doc, cnt * {postings.K1 + 1} / (cnt + {postings.K1} * "
            f"(1 - {postings.B} + {postings.B} * (sum(cnt) OVER (PARTITION BY doc)) / "
            f"{postings.PASSAGE.length})) "
            "FROM (SELECT doc, term, count(*) AS cnt FROM temp.old_pv GROUP BY doc, term)",
            (skill_id,),
        )
        db.execute("INSERT INTO temp.old_p (old_p) VALUES ('delete-all')")
    (n,) = db.execute(
        "SELECT count(*) FROM (SELECT DISTINCT skill, section FROM old_passages)"
    ).fetchone()
    scores: dict[tuple[int, int], float] = {}
    for term in rank.stems(db, rank.query_terms(query)):
        (df,) = db.execute("SELECT count(*) FROM old_passages WHERE term = ?", (term,)).fetchone()
        if not df:
            continue
        idf = max(math.log((n - df + 0.5) / (df + 0.5)), 1e-6)
        for skill, section, w in db.execute(
            "SELECT skill, section, w FROM old_passages WHERE term = ?", (term,)
        ):
            if skill in shown:
                scores[(skill, section)] = scores.get((skill, section), 0.0) + w * idf
    db.execute("DROP TABLE temp.old_passages")
    db.execute("DROP TABLE temp.old_pv")
    db.execute("DROP TABLE temp.old_p")
    best: dict[int, float] = {}
    for (skill, _), score in scores.items():
        best[skill] = max(best.get(skill, 0.0), score)
    return best


@pytest.mark.parametrize("columns", [32, 3])
def test_passage_scores_from_the_stored_words_are_those_of_a_table_of_passages(
    db: sqlite3.Connection, monkeypatch: pytest.MonkeyPatch, columns: int
) -> None:
    monkeypatch.setattr(postings, "SECTION_COLUMNS", columns)
    chance = random.Random(5)
    skills = {n: _long_skill(chance, f"s{n}") for n in range(1, 40)}
    skills[40] = _text("owl-hawk", "owls and hawks nest")  # no sections: its name and description
    _add(db, skills)
    db.execute("BEGIN")
    for skill_id in (3, 7):  # removed, then one added again
        postings.remove(db, skill_id)
    skills[7] = skills.pop(3)
    postings.add(db, 7, skills[7])
    postings.finish(db)
    db.execute("COMMIT")
    _consistent(db)
    shown = list(skills)
    for query in ("owl", "hawk flying nest", "wren robin lark finch", "crane", "zebra", "flies"):
        found = rank.passage_scores(db, rank.stems(db, rank.query_terms(query)), shown)
        expected = _passage_scores_the_old_way(db, query, skills, shown)
        assert found.keys() == expected.keys()
        for skill, score in expected.items():
            assert found[skill] == pytest.approx(score, rel=1e-12)
        assert found or query == "zebra"


# -- the words' best rows kept in memory (catalog/heads.py) ---------------------------------------


def _random_library(db: sqlite3.Connection, skills: int, seed: int) -> None:
    chance = random.Random(seed)

    def some(most: int) -> str:
        return " ".join(chance.choice(WORDS) for _ in range(chance.randrange(1, most)))

    _add(db, {n: _text(f"s{n}", some(12), some(60), (some(4),)) for n in range(1, skills + 1)})


def _fill_heads(db: sqlite3.Connection, depth: int) -> None:
    from skillc_gateway.catalog.database import writing

    assert heads.fill(db, depth, time.monotonic() + 60, lambda: writing(db)) is False


def _stale_heads(db: sqlite3.Connection, depth: int) -> list[tuple[int, str]]:
    """The stored heads that are not their word's ``depth`` best rows now."""
    stored = db.execute("SELECT doc, term, floor, skills, w FROM rank_heads").fetchall()
    return [
        (doc, term)
        for doc, term, *head in stored
        if tuple(head) != heads._head(db, doc, term, depth)
    ]


@pytest.mark.semantic
@pytest.mark.parametrize(("depth", "stored"), [(300, False), (7, False), (300, True), (7, True)])
def test_the_words_summed_from_memory_are_those_summed_by_sqlite(
    db: sqlite3.Connection, monkeypatch: pytest.MonkeyPatch, depth: int, stored: bool
) -> None:
    """With numpy (the semantic extra's), a warm find sums each word's best rows from memory:
    the same skills, the same scores (to the bit where SQLite's sum() is a plain sum), in the
    same order, with and without a filter, whether every row is read (depth 300) or each
    word's best 7 only, read from ``rank_postings`` or from the heads the catalog stores
    (then no word's rows are read from ``rank_postings``)."""
    np = pytest.importorskip("numpy")
    _random_library(db, 150, seed=11)
    monkeypatch.setattr(rank, "DEPTH", depth)
    monkeypatch.setattr(rank, "POOL", 40)
    if stored:
        monkeypatch.setattr(heads, "MIN_ROWS", 0)
        _fill_heads(db, depth)
    memory = heads.Rows(db, np)
    statements: list[str] = []
    db.set_trace_callback(statements.append)
    memory.summed(1, [(term, 1.0) for term in rank.stems(db, WORDS)], depth, None)
    db.set_trace_callback(None)
    assert any("FROM rank_postings" in sql for sql in statements) is not stored
    chance = random.Random(12)
    filters = [None, set(range(1, 151, 2)), {3, 50, 149}, set(range(1, 140))]
    for _ in range(3):  # the rows read by the first round are summed from memory after
        for n in range(1, 8):
            terms = rank.stems(db, chance.sample(WORDS, n))
            for candidates in filters:
                for doc in range(len(postings.DOCUMENTS)):
                    found = rank._scores(db, doc, terms, candidates, rank.POOL, memory)
                    expected = rank._scores(db, doc, terms, candidates, rank.POOL)
                    assert found[1:] == expected[1:]
                    if sqlite3.sqlite_version_info < (3, 43):  # a plain sum, as numpy's
                        assert list(found[0].items()) == list(expected[0].items())
                    else:  # SQLite's sum() compensates: the same to the last bits
                        assert list(found[0]) == list(expected[0])
                        assert list(found[0].values()) == pytest.approx(
                            list(expected[0].values()), rel=1e-12
                        )
    assert memory.rows and memory.size == sum(len(skills) for skills, _ in memory.rows.values())


@pytest.mark.semantic
@pytest.mark.parametrize("spread", [1, 10**9])
def test_the_words_summed_from_memory_keep_the_ties_at_the_limit(
    ranker_db: Callable[..., sqlite3.Connection], spread: int
) -> None:
    """Rows.summed's first ``limit``: the skills of the best sums, each word's rows added in
    the words' order, ties by id, when many skills tie at the limit (copies of one skill in
    a library), whether the ids are counted in an array (dense) or sorted (far apart)."""
    np = pytest.importorskip("numpy")
    chance = random.Random(5)
    memory = heads.Rows(ranker_db(":memory:"), np)
    weights = [(f"w{n}", chance.choice([0.1, 0.7, 1.3, 0.35])) for n in range(6)]
    for term, _ in weights:  # 12 skills, each with its 7 copies (ids 12 apart)
        held = {base: chance.choice([0.5, 1.1, 2.0]) for base in chance.sample(range(12), 8)}
        rows = [
            (w, (base + 1 + 12 * copy) * spread) for base, w in held.items() for copy in range(7)
        ]
        memory.rows[(1, term)] = (
            np.array([skill for _, skill in rows], dtype=np.int64),
            np.array([w for w, _ in rows], dtype=np.float64),
        )
    expected: dict[int, float] = {}
    for term, idf in weights:
        skills, w = memory.rows[(1, term)]
        for skill, value in zip(skills.tolist(), w.tolist(), strict=True):
            expected[skill] = expected.get(skill, 0.0) + value * idf
    ranked = sorted(expected.items(), key=lambda item: (-item[1], item[0]))
    assert len({score for _, score in ranked}) < len(ranked) / 2  # ties, many
    for limit in (1, 5, 17, 40, len(ranked), len(ranked) + 3, None):
        found = memory.summed(1, weights, rank.DEPTH, limit)
        assert found == ranked[:limit]


def test_the_stored_heads_stay_the_best_rows_whatever_is_written(
    db: sqlite3.Connection, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The heads :func:`heads.fill` stores are each word's best rows, and stay so through
    skills added, indexed again and removed, by whatever writes the rows (the triggers delete
    the heads whose best rows a write changes, and only those); the next fill stores what
    they deleted."""
    monkeypatch.setattr(heads, "MIN_ROWS", 3)
    monkeypatch.setattr(heads, "FILL_BATCH", 5)  # many transactions, each after the last
    depth = 7
    _random_library(db, 150, seed=41)
    _add(db, {n: _text(f"k{n}", "kestrel osprey") for n in range(200, 205)})  # rare words
    wanted = db.execute(
        "SELECT count(*) FROM rank_terms WHERE doc < ? AND df > 3", (postings.PASSAGES,)
    ).fetchone()[0]
    assert heads.missing(db) == wanted  # before the first fill: no table yet
    _fill_heads(db, depth)
    floors = db.execute("SELECT count(floor), count(*) - count(floor) FROM rank_heads").fetchone()
    assert floors[0] > 0 and floors[1] > 0  # words past their best rows, and words held whole
    assert db.execute("SELECT count(*) FROM rank_heads").fetchone()[0] == wanted
    assert _stale_heads(db, depth) == []
    owl = rank.stems(db, ["owl"])[0]

    def owl_head() -> bool:  # the body's
        return bool(
            db.execute("SELECT 1 FROM rank_heads WHERE doc = 1 AND term = ?", (owl,)).fetchone()
        )

    assert owl_head()
    _add(db, {300: _text("low", "kestrel", "owl " + "kestrel " * 2000)})
    assert owl_head()  # a row below the head's last: it stands
    _add(db, {301: _text("high", "kestrel", "owl " * 10)})
    assert not owl_head()  # among the best rows: deleted
    assert _stale_heads(db, depth) == []
    _fill_heads(db, depth)
    assert owl_head()  # a writer that knows nothing of the heads (an older skillc) deletes it
    db.execute("INSERT INTO rank_postings (doc, term, w, skill) VALUES (1, ?, 99.0, 302)", (owl,))
    assert not owl_head()
    db.execute("DELETE FROM rank_postings WHERE skill = 302")
    _fill_heads(db, depth)

    chance = random.Random(42)

    def some(most: int) -> str:
        return " ".join(chance.choice(WORDS) for _ in range(chance.randrange(1, most)))

    kept_any = deleted_any = False
    for round_ in range(6):
        before = db.execute("SELECT count(*) FROM rank_heads").fetchone()[0]
        _add(  # new skills, and some indexed again with another text
            db,
            {
                chance.randrange(1, 206): _text(f"r{round_}-{n}", some(12), some(60), (some(4),))
                for n in range(8)
            }
            | {chance.randrange(1, 206): _text(f"k-{round_}", "kestrel")},
        )
        db.execute("BEGIN")
        for skill in chance.sample(range(1, 206), 6):
            postings.remove(db, skill)
        db.execute("COMMIT")
        after = db.execute("SELECT count(*) FROM rank_heads").fetchone()[0]
        deleted_any |= after < before
        kept_any |= after > 0
        assert _stale_heads(db, depth) == []
        wanted = db.execute(
            "SELECT count(*) FROM rank_terms WHERE doc < ? AND df > 3", (postings.PASSAGES,)
        ).fetchone()[0]
        assert heads.missing(db) == wanted - after  # what skc watch --status shows
        _fill_heads(db, depth)
        assert _stale_heads(db, depth) == [] and heads.missing(db) == 0
    assert deleted_any and kept_any


@pytest.mark.semantic
def test_the_rows_kept_follow_the_catalog(
    ranker_db: Callable[..., sqlite3.Connection], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The rows kept are used from the second find on an unchanged catalog, given up when
    another connection writes it or this process indexes a skill, never used inside a
    transaction, and bounded (heads.ROWS)."""
    np = pytest.importorskip("numpy")
    path = tmp_path / "catalog.db"
    db = ranker_db(path)
    _random_library(db, 60, seed=21)
    terms = rank.stems(db, ["owl", "hawk", "wren"])

    def scores(memory: heads.Rows | None) -> list[tuple[int, float]]:
        return list(rank._scores(db, 0, terms, None, 50, memory)[0].items())

    assert heads.kept(db, np) is None  # the first find on this state: SQLite sums
    memory = heads.kept(db, np)
    assert memory is not None and heads.kept(db, np) is memory
    postings.store_vectors(db, [])  # vectors stored: the words' rows kept stand
    assert heads.kept(db, np) is memory
    before = scores(memory)
    assert before == scores(None) and memory.rows

    another_process = (  # indexes a skill
        "import sqlite3, sys\n"
        "from skillc_gateway.catalog import postings\n"
        "db = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
        "db.execute('BEGIN')\n"
        "postings.add(db, 61, postings.SkillText('owl-hawk-wren', 'owl hawk wren owl hawk wren',"
        " '', (), 'owl-hawk-wren'))\n"
        "postings.finish(db)\n"
        "db.execute('COMMIT')\n"
    )
    subprocess.run([sys.executable, "-c", another_process, str(path)], check=True)
    assert heads.kept(db, np) is None
    memory = heads.kept(db, np)
    assert memory is not None and not memory.rows
    after = scores(memory)
    assert after == scores(None) and after[0][0] == 61 and after != before

    db.execute("BEGIN")  # this process indexes one: nothing kept is used, even in its transaction
    postings.add(db, 62, _text("wren-owl-hawk", "wren owl hawk wren owl hawk wren"))
    postings.finish(db)
    assert heads.kept(db, np) is None
    db.execute("COMMIT")
    assert heads.kept(db, np) is None
    memory = heads.kept(db, np)
    assert memory is not None and scores(memory)[0][0] == 62

    monkeypatch.setattr(heads, "ROWS", 30)
    for word in WORDS:
        memory.summed(1, [(rank.stems(db, [word])[0], 1.0)], rank.DEPTH, 10)
        assert memory.size == sum(len(skills) for skills, _ in memory.rows.values())
        assert memory.size <= 30 or len(memory.rows) == 1
    db.close()


@pytest.mark.semantic
def test_each_connection_keeps_its_own_rows(
    ranker_db: Callable[..., sqlite3.Connection], tmp_path: Path
) -> None:
    """A thread's connection each (the MCP server over HTTP): finds on two connections in
    turn each keep their rows; past heads.CONNECTIONS, the least recently used are given up."""
    np = pytest.importorskip("numpy")
    path = tmp_path / "catalog.db"
    dbs = [ranker_db(path) for _ in range(heads.CONNECTIONS + 1)]
    _random_library(dbs[0], 20, seed=31)
    pair = dbs[:2]
    assert [heads.kept(db, np) for db in pair] == [None, None]
    rows = [heads.kept(db, np) for db in pair]
    assert all(rows) and rows[0] is not rows[1]
    assert [heads.kept(db, np) for db in pair] == rows
    for db in dbs[2:]:  # more connections: the first pair's rows are given up, the oldest first
        heads.kept(db, np)
    assert heads.kept(dbs[1], np) is rows[1]
    assert heads.kept(dbs[0], np) is None
    for db in dbs:
        db.close()


# -- the background's counts (catalog/background.py) ----------------------------------------------


def test_the_background_counts_ship_with_the_package() -> None:
    n, counts = background.frequencies(0, ["api", "the", "zyzzyva"])
    assert (
        n == 2922 * background.WEIGHT
    )  # agentskillexchange/skills (bench/skill-routing-background)
    assert counts["api"] > 250 and counts["the"] > counts["api"] and "zyzzyva" not in counts
    assert background.frequencies(1, ["api"])[1]["api"] != counts["api"]  # per document


def test_a_word_common_in_the_background_weighs_less(
    db: sqlite3.Connection, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two skills hold one word of the request each, each word once in the library: by the
    library alone they tie (the lower id first); the background holds "api" in a third of
    its skills and "owl" in none, so the skill with "owl" ranks first."""
    _add(db, {1: _text("api-helper", "api helper"), 2: _text("owl-helper", "owl helper")})
    _add(db, {n: _text(f"other{n}", "wren notes") for n in range(3, 10)})
    assert [skill for skill, _ in rank.rank(db, "api owl", 2)] == [2, 1]
    monkeypatch.setattr(background, "frequencies", lambda doc, terms: (0, {}))
    assert [skill for skill, _ in rank.rank(db, "api owl", 2)] == [1, 2]


def test_without_the_background_file_the_catalog_counts_alone(
    db: sqlite3.Connection, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A broken install (the file missing or not a database): no background, no error."""
    _add(db, {1: _text("api-helper", "api helper"), 2: _text("owl-helper", "owl helper")})
    for broken in (tmp_path / "missing.db", tmp_path / "not-a-database.db"):
        if broken.name.startswith("not"):
            broken.write_text("not SQLite", encoding="utf-8")
        monkeypatch.setattr(background, "FILE", broken)
        monkeypatch.setattr(background, "_DB", [])
        assert background.frequencies(0, ["api"]) == (0, {})
        assert [skill for skill, _ in rank.rank(db, "api owl", 2)] == [1, 2]
