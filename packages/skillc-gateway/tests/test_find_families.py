"""Families of skills in ``find``'s answer (issue 35): one template filled in for many
vendors, or one vendor's pack, does not fill the top ten, and the member the request names
comes first."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from skillc_gateway.catalog import embedding, families, semantic

if TYPE_CHECKING:
    from skillc_gateway.catalog import Catalog
    from skillc_index.inventory.folders import Root

VENDORS = [
    "acme", "birch", "cobalt", "dunmore", "elkhorn", "fenwick", "garnet", "halcyon",
    "ironside", "juniper", "kestrel", "larkspur",
]  # fmt: skip


@pytest.fixture(name="names_db")
def names_db_fixture(
    sqlite_connect: Callable[..., sqlite3.Connection],
) -> Callable[..., sqlite3.Connection]:
    def names_db(names: list[str]) -> sqlite3.Connection:
        db = sqlite_connect(":memory:")
        db.execute(families.NAMES)
        db.executemany("INSERT INTO skills VALUES (?, ?)", list(enumerate(names, 1)))
        return db

    return names_db


def test_family_keys() -> None:
    assert families.family_keys("zoho_invoice-automation") == (
        ("vendor", "zoho"),
        ("template", "invoice automation"),
    )
    assert families.family_keys("pdf") == ()


def test_a_template_does_not_fill_the_top_ten_and_the_named_member_wins(
    names_db: Callable[..., sqlite3.Connection],
) -> None:
    """Twelve members of one template ranked first, an outsider thirteenth: the outsider
    enters the top ten, the family's best member keeps the first place, and the member whose
    vendor the request names comes first."""
    names = [f"{vendor}-rate-limits" for vendor in VENDORS] + ["retry-queue-design"]
    db = names_db(names)
    ranked = [(skill, 1.0 - skill / 100) for skill in range(1, 14)]
    spread = families.spread(db, ["rate", "limits"], ranked)
    top = [names[skill - 1] for skill, _ in spread[:10]]
    assert top[0] == "acme-rate-limits"
    assert "retry-queue-design" in top
    assert [score for _, score in spread] == sorted((score for _, score in spread), reverse=True)
    named = families.spread(db, ["rate", "limits", "kestrel"], ranked)
    assert names[named[0][0] - 1] == "kestrel-rate-limits"
    # the vendor's name is no slot when no other member of the template is there
    alone = families.spread(db, ["kestrel"], [(11, 1.0), (13, 0.99)])
    assert [skill for skill, _ in alone] == [11, 13]


def test_copies_of_one_skill_give_way_but_name_no_slot(
    names_db: Callable[..., sqlite3.Connection],
) -> None:
    """One skill copied in two collections is one family: the second copy gives way to a
    different skill, and naming its first word lifts neither copy."""
    db = names_db(["openapi-spec-generation", "openapi-spec-generation", "api-contracts"])
    spread = families.spread(db, ["openapi"], [(1, 1.0), (2, 0.95), (3, 0.9)])
    assert [skill for skill, _ in spread] == [1, 3, 2]
    assert spread[0][1] == 1.0


def test_a_family_larger_than_the_reordered_best_stays_below_them(
    names_db: Callable[..., sqlite3.Connection],
) -> None:
    """A vendor's pack of 40 skills ranked first (more than the DEPTH reordered): its 31st
    member and the rest stay below the 30 reordered, whose decayed scores they would pass,
    in their order and below them in score (third-034 of the third held-out set: an Akka
    pack of 324 skills filled the top ten from its 31st member on)."""
    names = [f"akka-part-{n}" for n in range(40)]
    db = names_db(names)
    ranked = [(skill, 1.0 - skill / 100) for skill in range(1, 41)]
    spread = families.spread(db, ["akka"], ranked)
    assert {skill for skill, _ in spread[: families.DEPTH]} == set(range(1, families.DEPTH + 1))
    assert [skill for skill, _ in spread[families.DEPTH :]] == list(range(families.DEPTH + 1, 41))
    assert [score for _, score in spread] == sorted((score for _, score in spread), reverse=True)


def test_over_the_words_alone_only_the_named_member_gains(
    names_db: Callable[..., sqlite3.Connection],
) -> None:
    """Without the semantic step (decay off) a family keeps its places, and the member whose
    vendor the request names still gains the slot."""
    names = [f"{vendor}-rate-limits" for vendor in VENDORS] + ["retry-queue-design"]
    db = names_db(names)
    ranked = [(skill, 1.0 - skill / 100) for skill in range(1, 14)]
    assert families.spread(db, ["rate", "limits"], ranked, decay=False) == ranked
    named = families.spread(db, ["rate", "limits", "kestrel"], ranked, decay=False)
    assert [skill for skill, _ in named] == [11, *range(1, 11), 12, 13]
    assert named[0][1] == pytest.approx(0.89 + families.SLOT * 0.99)


def catalog_over(home: Path, lib: Path) -> tuple[Catalog, tuple[Root, ...]]:
    """A catalog in a new home, and the roots of a find over ``lib``."""
    from skillc_gateway.catalog import Catalog, find_roots
    from skillc_index import Layout

    layout = Layout.discover(home, {"SKILLC_HOME": str(home)})
    return Catalog.shared(layout), find_roots(layout, [str(lib)])


def write_skill(root: Path, name: str, description: str) -> None:
    (root / name).mkdir(parents=True)
    text = f"---\nname: {name}\ndescription: {description}\n---\n\n# {name}\n\n{description}\n"
    (root / name / "SKILL.md").write_text(text, encoding="utf-8")


@pytest.mark.semantic
def test_find_spreads_a_templated_family(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Through ``Catalog.find`` with the semantic step: a library with a template filled in
    for twelve vendors; a skill of its own within the top ten, where the template's members
    filled it before, and the member of the named vendor first."""
    monkeypatch.delenv("SKILLC_FIND_SEMANTIC", raising=False)
    embedding._load.cache_clear()
    if embedding.model() is None:
        pytest.skip("the semantic extra is not installed")
    lib = tmp_path / "lib"
    for vendor in VENDORS:
        write_skill(
            lib,
            f"{vendor}-rate-limits",
            f"Handle {vendor.title()} API rate limits, retry 429 responses with exponential "
            f"backoff and queue {vendor.title()} requests.",
        )
    write_skill(
        lib,
        "retry-queue-design",
        "Design a retry queue for an API client with exponential backoff with jitter after 429 "
        "responses, a circuit breaker, and a dead-letter queue.",
    )
    catalog, roots = catalog_over(tmp_path / "home", lib)
    query = "handle API rate limits and retry 429 responses"
    result = catalog.find(query, roots, 10, semantic=True)
    top = [Path(skill.name).name for skill in result.skills]
    assert top[0].endswith("-rate-limits")
    assert "retry-queue-design" in top  # main: the twelve members filled the top ten
    query = "retry 429 responses from the Kestrel API with exponential backoff and a queue"
    result = catalog.find(query, roots, 10, semantic=True)
    assert Path(result.skills[0].name).name == "kestrel-rate-limits"
    embedding._load.cache_clear()


@pytest.mark.semantic
def test_the_nearest_skills_count_more_when_the_words_match_little(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A skill that only the vectors found (dense retrieval) gains as much as a pool's skill
    when the words matched much of the request, and DENSE_WEIGHT times more, relative to the
    best score, when they matched little of it (an intent-only request)."""
    monkeypatch.delenv("SKILLC_FIND_SEMANTIC", raising=False)
    embedding._load.cache_clear()
    model = embedding.model()
    if model is None:
        pytest.skip("the semantic extra is not installed")
    lib = tmp_path / "lib"
    write_skill(lib, "bread-timer", "Set a kitchen timer that rings when the bread is done.")
    write_skill(lib, "invoice-maker", "Make invoices from orders and send them to customers.")
    write_skill(lib, "auto-mechanic", "Diagnose automobile trouble such as squealing brakes.")
    catalog, roots = catalog_over(tmp_path / "home", lib)
    catalog.find("bread", roots, 10, semantic=True)  # indexes, fills
    ids = {name: skill for skill, name in catalog.db.execute("SELECT id, name FROM skills")}
    wanted = model.embed("my sedan shrieks whenever I slow down")
    gains = {}
    for best in (semantic.WORDS[1], semantic.WORDS[0]):
        pool = [(ids["bread-timer"], best), (ids["invoice-maker"], best / 2)]
        total = dict(pool)
        semantic.blend(catalog.db, model, wanted, pool, [ids["auto-mechanic"]], total)
        gains[best] = total[ids["auto-mechanic"]] / best
    assert gains[semantic.WORDS[1]] > 0
    weak = gains[semantic.WORDS[0]]
    assert weak > 2 * gains[semantic.WORDS[1]]  # main: the same part of the best score
    assert weak == pytest.approx(semantic.DENSE_WEIGHT * gains[semantic.WORDS[1]])
    embedding._load.cache_clear()


def test_find_by_the_words_puts_the_named_member_first(tmp_path: Path) -> None:
    """Through ``Catalog.find`` by the words alone: a template filled in for seven vendors,
    the named vendor's member worded apart (fewer of the request's words: the words alone
    rank it below another member) comes first."""
    lib = tmp_path / "lib"
    for vendor in [*VENDORS[:6], "kestrel"]:
        if vendor == "kestrel":
            description = "Kestrel API rate limits, quotas per plan and what to do about 429s."
        else:
            description = (
                f"Handle {vendor.title()} API rate limits, retry 429 responses with exponential "
                f"backoff and queue {vendor.title()} requests."
            )
        write_skill(lib, f"{vendor}-rate-limits", description)
    catalog, roots = catalog_over(tmp_path / "home", lib)
    query = "retry 429 responses from the Kestrel API with exponential backoff and a queue"
    result = catalog.find(query, roots, 10, semantic=False)
    assert result.ranker == "lexical"
    assert Path(result.skills[0].name).name == "kestrel-rate-limits"  # main: acme-rate-limits
    other = catalog.find("retry 429 responses with exponential backoff", roots, 10, semantic=False)
    assert Path(other.skills[-1].name).name == "kestrel-rate-limits"


def test_skc_eval_ranks_with_the_names_as_find_does(tmp_path: Path) -> None:
    """``skc eval``'s library (a listing's names and descriptions in memory) holds the skills'
    names as the catalog does, so that its ranking (``find``'s by the words) has the same
    families step: the named vendor's member of a template gains there too."""
    from skillc_gateway.evaluate.library import Library, SkillEntry

    entries = []
    for vendor in VENDORS[:3]:
        name, description = f"{vendor}-rate-limits", f"Handle {vendor.title()} API rate limits."
        entries.append(SkillEntry(name, tmp_path / name, description, 3, description))
    library = Library(entries)
    spread = families.spread(library.db, ["limits", "cobalt"], [(0, 1.0), (1, 0.95), (2, 0.9)])
    assert [skill for skill, _ in spread] == [2, 0, 1]  # without the names: 0, 1, 2
    query = "handle the Cobalt API rate limits"
    assert entries[library.rank(query).skills[0]].name == "cobalt-rate-limits"
    library.close()
