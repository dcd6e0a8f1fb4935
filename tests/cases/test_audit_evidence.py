"""The verifier's L2 checks on hand-built worlds with labelled notes: the defects a review found, rebuilt and refused.

Each world is the 5 x 5 street grid of tests/factories.py with a few cafés around an office,
evidence labels (who said what about a fact, when, in which stance) and the notes' visible
texts. The evidence rule decides who holds the need; the checks refuse a gold that a field
shows, one that no look-alike hides, one that counting keyword hits would find, a named stop
that already holds the need, a stay the case does not check, a rule that names one place twice, a gold
its own notes contradict.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import date, datetime
from types import SimpleNamespace

from benchmark.agents.config import DEFAULT_TOOL_BUDGET
from benchmark.cases.audit import SOLVERS, audit_case, bank_failures
from benchmark.cases.audit.common import Reject
from benchmark.cases.audit.evidence import check_l2, contradictions, recording_lookalikes
from benchmark.cases.audit.reading import TOOL_BUDGET, places_to_read, reading_path
from benchmark.cases.audit.wording import wording_failures
from benchmark.cases.audit.world import AuditWorld, Place
from environment.evidence import ENDED, HEARSAY, NEGATES, SUPPORTS, Item
from environment.routing import RoadNetwork
from environment.selectors import NoteText
from environment.tools.notes import AGENT_CAP
from tests.factories import grid_roads, node_coord

CAFE, OFFICE = "Food & Beverages|Coffee House", "Business|Office"
NEED = "great_latte_art"
PLACES = [
    ("N1", "Toimisto Keskus", OFFICE, 2, 2),
    ("N2", "Kahvila Kulta", CAFE, 0, 2),  # the gold, 220 m north
    ("N3", "Kahvila Kolmas", CAFE, 1, 2),  # nearer: its barista with the latte art left
    ("N4", "Kahvila Neljäs", CAFE, 2, 3),  # a single report
    ("N5", "Kahvila Viides", CAFE, 3, 2),  # rumours
    ("N6", "Kahvila Kuudes", CAFE, 2, 1),  # supported, then denied
]


def _t(year: int, month: int = 6) -> datetime:
    return datetime(year, month, 1)


EVIDENCE = {
    ("N2", NEED): [Item(_t(2024), SUPPORTS), Item(_t(2025), SUPPORTS)],
    ("N3", NEED): [
        Item(_t(2023), SUPPORTS),
        Item(_t(2023, 9), SUPPORTS),
        Item(_t(2025), ENDED),
    ],
    ("N4", NEED): [Item(_t(2024), SUPPORTS)],  # a single report: the rule asks for two
    ("N5", NEED): [Item(_t(2024), HEARSAY), Item(_t(2025), HEARSAY)],
    ("N6", NEED): [
        Item(_t(2023), SUPPORTS),
        Item(_t(2023, 8), SUPPORTS),
        Item(_t(2025), NEGATES),
    ],
}
NOTES = (
    NoteText("g1", "Kahvila Kulta", "Finally tried Kahvila Kulta. A perfect swan in the latte art.", ()),
    NoteText("g2", "Kahvila Kulta again", "Kahvila Kulta is lovely. The barista drew a tulip on my flat white.", ()),
    NoteText(
        "k1",
        "Kahvila Kolmas",
        "Kahvila Kolmas has a barista who pours latte art. The flat white is great.",
        ("Heads up: the barista with the latte art moved to Turku in the spring.",),
    ),
    NoteText("n1", "Kahvila Neljäs", "Kahvila Neljäs: latte art on every cup, love it.", ("The latte art is real",)),
    NoteText("v1", "Kahvila Viides", "Apparently Kahvila Viides does latte art, heard rumours.", ()),
)


def world(*, evidence=None, tags=None, places=PLACES, notes=NOTES) -> AuditWorld:
    built = []
    for pid, name, place_type, i, j in places:
        lon, lat = node_coord(i, j)
        tag = (tags or {}).get(pid, "")
        built.append(Place(pid, name, "", place_type, "Testikatu 1, 00100 Helsinki", "", 4.2, 12, tag, lon, lat))
    network = RoadNetwork.build(grid_roads(), [(p.place_id, p.lon, p.lat) for p in built])
    return AuditWorld(
        city_name="fixture",
        city_version="v1",
        places=built,
        network=network,
        evidence=EVIDENCE if evidence is None else evidence,
        notes=notes,
    )


QUERY = {"kind": "find", "center": "N1", "noun": "cafe", "need": NEED, "rank": "only", "radius_m": 400}


def solve(w: AuditWorld, query: dict, answer: dict) -> str | None:
    try:
        SOLVERS[query["kind"]](w, query, answer)
    except Reject as exc:
        return exc.kind
    return None


def gold(w: AuditWorld) -> dict:
    return {"name": w.place("N2").name, "place_id": "N2"}


def test_a_gold_that_rests_on_the_notes_is_accepted():
    w = world()
    assert w.holders((NEED,)) == {"N2"}  # ended, one voice, rumours, denied: none holds it
    assert solve(w, QUERY, gold(w)) is None


def test_a_gold_whose_record_shows_the_need_is_refused():
    w = world(tags={"N2": "Coffee: Great latte art"})
    assert solve(w, QUERY, gold(w)) == "visible gold"


def test_a_rival_holds_the_need_unless_a_later_note_denies_it():
    supported = dict(EVIDENCE)
    supported[("N6", NEED)] = EVIDENCE[("N6", NEED)][:2]  # the denial taken away
    assert solve(world(evidence=supported), QUERY, gold(world())) == "rival meets the question"


def test_a_fact_that_ended_no_longer_holds_but_did_before():
    w = world()
    assert "N3" not in w.holders((NEED,)) and "N3" in w.holders((NEED,), at=datetime(2024, 1, 1))
    kept = dict(EVIDENCE)
    kept[("N3", NEED)] = EVIDENCE[("N3", NEED)][:2]  # no report that it ended
    assert solve(world(evidence=kept), QUERY, gold(w)) == "rival meets the question"


def test_a_gold_whose_own_notes_deny_the_need_after_its_supports_is_inconsistent():
    buns = "huge_cinnamon_buns"  # met by fresh pastries too: a later "they stopped baking" contradicts it
    supports = [Item(_t(2024), SUPPORTS, ref="g1"), Item(_t(2025), SUPPORTS, ref="g2")]
    stopped = Item(_t(2025, 9), ENDED, ref="g3/c1")
    w = world(evidence={("N2", buns): supports, ("N2", "fresh_pastries"): [stopped]})
    assert contradictions(w, "N2", buns) == ["g3/c1 (2025-09-01) reports that it ended"]
    try:
        check_l2(w, gold="N2", need=buns, lookalikes=["N3", "N4", "N5", "N6"])
    except Reject as exc:
        assert exc.kind == "inconsistent gold" and "g3/c1" in exc.detail
    else:
        raise AssertionError("a gold its own notes contradict was accepted")
    earlier = world(evidence={("N2", buns): supports, ("N2", "fresh_pastries"): [replace(stopped, time=_t(2023))]})
    assert contradictions(earlier, "N2", buns) == []  # denied before the supports: the last word holds
    assert contradictions(w, "N2", buns, at=_t(2025, 7)) == []  # the question's day comes before the denial


def test_too_few_look_alikes_is_notes_blind():
    few = [p for p in PLACES if p[0] in ("N1", "N2", "N3", "N4")]
    assert solve(world(places=few), QUERY, gold(world())) == "notes-blind"


def test_a_gold_nearest_of_its_look_alikes_is_notes_blind():
    w = world(places=[(*p[:3], 2, 2) if p[0] == "N2" else p for p in PLACES])  # the gold next to the office
    assert solve(w, QUERY, gold(w)) == "notes-blind"


def test_without_decoy_talk_or_with_the_gold_leading_the_count_decoys_fail():
    quiet = {key: items for key, items in EVIDENCE.items() if key[0] == "N2"} | {("N6", NEED): EVIDENCE[("N6", NEED)]}
    assert solve(world(evidence=quiet), QUERY, gold(world())) == "decoys"
    loud = (*NOTES, *(NoteText(f"x{i}", "Kahvila Kulta", "Kahvila Kulta does latte art.", ()) for i in range(5)))
    assert solve(world(notes=loud), QUERY, gold(world())) == "decoys"


def test_a_named_stop_that_holds_the_need_makes_the_extra_stop_needless():
    w = world()
    query = {
        "kind": "detour",
        "start": "N2",
        "end": "N1",
        "vehicle": "walking",
        "mode": "distance",
        "stop": {"noun": None, "need": NEED},
    }
    answer = {"optimal_order": [{"place_id": "N2"}, {"place_id": "N3"}, {"place_id": "N1"}]}
    assert solve(w, query, answer) == "named stop holds the need"
    trip = {
        "kind": "trip",
        "start": "N1",
        "end": "N5",
        "stops": ["N2"],
        "vehicle": "walking",
        "mode": "distance",
        "implied": [{"noun": None, "need": NEED}],
    }
    order = {"optimal_order": [{"place_id": p} for p in ("N1", "N2", "N4", "N5")]}
    assert solve(w, trip, order) == "named stop holds the need"


def test_a_rule_naming_one_place_twice_is_refused():
    trip = {
        "kind": "trip",
        "start": "N1",
        "end": "N5",
        "stops": ["N3", "N4"],
        "vehicle": "walking",
        "mode": "distance",
        "before": [["N3", "N3"]],
    }
    order = {"optimal_order": [{"place_id": p} for p in ("N1", "N3", "N4", "N5")]}
    assert solve(world(), trip, order) == "self-referential rule"
    # "I must call at X. That should come after my stop at X.": a rule about the extra stop must name it.
    query = {**trip, "before": [["N3", "@0"]], "implied": [{"need": NEED, "phrase": "see a swan in my milk foam"}]}
    text = "From Toimisto Keskus to Kahvila Viides I must call at Kahvila Kolmas. That should come after my stop at"
    failures = wording_failures(world(), text + " Kahvila Kolmas.", query)
    assert any("extra stop" in f for f in failures)
    assert not any("extra stop" in f for f in wording_failures(world(), text.replace("That", "The extra stop"), query))


def test_a_stay_the_question_asks_for_must_be_checked_for_the_whole_stay():
    phrase = "admire the milk-foam swans for a few hours"
    query = {**QUERY, "open_at": "2026-12-08T15:00", "phrase": phrase}
    question = f"It's 15:00 on Tuesday 8 December and I want to {phrase}. Which café within 400 m of Toimisto Keskus?"
    assert any(f.startswith("stay not checked") for f in wording_failures(world(), question, query))
    assert not any(f.startswith("stay") for f in wording_failures(world(), question, {**query, "stay_min": 120}))


TERRACE = "winter_terrace_heaters"


def test_a_dated_state_holds_only_on_its_days_and_the_question_must_say_the_date():
    this_season, last_season = (date(2026, 11, 20), date(2027, 3, 9)), (date(2025, 11, 20), date(2026, 3, 9))
    evidence = {
        ("N2", TERRACE): [
            Item(datetime(2026, 11, 10), SUPPORTS, *this_season),
            Item(datetime(2026, 11, 12), SUPPORTS, *this_season),
        ],
        ("N3", TERRACE): [
            Item(datetime(2025, 11, 10), SUPPORTS, *last_season),
            Item(datetime(2025, 11, 14), SUPPORTS, *last_season),
        ],
    }
    w = world(evidence=evidence)
    assert w.holders((TERRACE,), at=datetime(2026, 12, 8, 12)) == {"N2"}  # the week the cases are set in
    assert w.holders((TERRACE,), at=datetime(2026, 1, 8, 12)) == {"N3"}  # last winter
    assert w.holders((TERRACE,), at=datetime(2026, 6, 1)) == set()
    assert w.holders((TERRACE,)) == {"N2"}  # a question with no moment asks about now (2026-12-07)
    query = {**QUERY, "need": TERRACE, "phrase": "sip something hot outdoors"}
    question = "I want to sip something hot outdoors. Which café within 400 m of Toimisto Keskus?"
    assert any("does not say the date" in f for f in wording_failures(w, question, query))
    dated = f"It's Monday 7 December 2026. {question}"
    assert not any("date" in f for f in wording_failures(w, dated, query))


def test_the_reading_path_searches_the_places_ranked_up_to_the_gold_and_opens_what_talks_of_the_need():
    w = world()
    with recording_lookalikes() as found:
        assert solve(w, QUERY, gold(w)) is None
    (checked,) = found
    order = places_to_read(checked)  # nearest first up to the gold, the farthest here: every one is read
    assert set(order) == {"N2", "N3", "N4", "N5", "N6"} and order[-1] == "N2"
    path = reading_path(w, QUERY, checked)
    tools = [tool for tool, _ in path.calls]
    assert tools[:2] == ["place_search", "nearby_search"] and tools[-1] == "submit_answer"
    (search,) = [args for tool, args in path.calls if tool == "search_notes"]  # five names fit one keyword
    assert '"Kahvila Kulta"' in search and "latte" in search
    opened = {args for tool, args in path.calls if tool == "note_detail"}
    assert opened == {"g1", "g2", "k1", "n1", "v1"}  # each names a place read and holds a need word
    assert path.length == 2 + 1 + 5 + 1 <= TOOL_BUDGET
    assert path.problem == "the notes its searches list do not show the gold holding the need under the rule"


SIXTH = (
    NoteText("s1", "Kahvila Kuudes", "Kahvila Kuudes pours proper latte art.", ()),
    NoteText("s2", "Kahvila Kuudes again", "Kahvila Kuudes: a swan in my latte.", ()),
    NoteText("s3", "Kahvila Kuudes update", "Kahvila Kuudes stopped the latte art, the barista left.", ()),
)


def labelled_world(notes=NOTES + SIXTH) -> AuditWorld:
    """The world with each item in a note: the gold's supports in g1 and g2, Kahvila Kuudes's in s1, s2, s3."""
    evidence = dict(EVIDENCE)
    evidence[("N2", NEED)] = [replace(i, ref=ref) for i, ref in zip(EVIDENCE[("N2", NEED)], ("g1", "g2/c1"))]
    evidence[("N6", NEED)] = [replace(i, ref=f"s{n + 1}") for n, i in enumerate(EVIDENCE[("N6", NEED)])]
    return world(evidence=evidence, notes=notes)


def test_a_path_reads_each_place_newest_first_until_the_rule_settles_it():
    w = labelled_world()
    with recording_lookalikes() as found:
        assert solve(w, QUERY, gold(w)) is None
    path = reading_path(w, QUERY, found[0])
    opened = {args for tool, args in path.calls if tool == "note_detail"}
    assert {"g1", "g2", "s3"} <= opened and not {"s1", "s2"} & opened  # the denial undoes the older supports
    assert path.problem == ""


def test_a_case_whose_settling_notes_no_search_lists_is_not_readable():
    # The denial calls the café by part of its name: a search for its name does not list it, so what the path
    # reads shows Kahvila Kuudes's two supports standing.
    hidden = (*SIXTH[:2], NoteText("s3", "Update", "Kuudes stopped the latte art, the barista left.", ()))
    w = labelled_world(NOTES + hidden)
    with recording_lookalikes() as found:
        assert solve(w, QUERY, gold(w)) is None  # the rule itself (every label) still settles it
    assert "show Kahvila Kuudes holding the need too" in reading_path(w, QUERY, found[0]).problem
    question = "I want a perfect swan in my latte. Which café within 400 m of Toimisto Keskus?"
    doc = SimpleNamespace(
        uniqueness={"query": QUERY}, city_name="fixture", city_version="v1", answer=gold(w), question=question
    )
    assert any(f.startswith("independent check: not readable:") for f in audit_case(doc, world=w))
    assert not any("not readable" in f for f in audit_case(doc, world=labelled_world()))


def test_a_case_whose_notes_take_more_calls_than_the_budget_to_read_is_refused():
    question = "I want a perfect swan in my latte. Which café within 400 m of Toimisto Keskus?"
    doc = SimpleNamespace(
        uniqueness={"query": QUERY}, city_name="fixture", city_version="v1", answer=gold(world()), question=question
    )
    assert not any("over budget" in f for f in audit_case(doc, world=world()))
    chatter = tuple(NoteText(f"c{i}", "Kahvila Kolmas", "Kahvila Kolmas: latte in the sun.", ()) for i in range(30))
    failures = audit_case(doc, world=world(notes=NOTES + chatter))
    assert any("over budget" in f and "note_detail" in f for f in failures), failures
    assert TOOL_BUDGET == DEFAULT_TOOL_BUDGET  # the verifier's budget is the agents'


def test_a_case_asking_for_a_need_outside_its_releases_bank_is_refused():
    """A hidden release never asks for a public need (a public gold or evidence card shows its holders), nor a
    public release for a hidden one."""
    question = "I want a perfect swan in my latte. Which café within 400 m of Toimisto Keskus?"
    w = world()

    def failures(split: str) -> list[str]:
        doc = SimpleNamespace(
            uniqueness={"query": QUERY},
            provenance={"split": split},
            city_name="fixture",
            city_version="v1",
            answer=gold(w),
            question=question,
        )
        return audit_case(doc, world=w)

    assert not any("release asks only for" in f for f in failures("hidden"))  # great_latte_art is a hidden need
    assert "the need great_latte_art is a hidden need: a public release asks only for public needs" in failures(
        "public"
    )
    assert bank_failures({**QUERY, "need": "salmon_soup"}, "hidden") == [
        "the need salmon_soup is a public need: a hidden release asks only for hidden needs"
    ]
    assert bank_failures({**QUERY, "need": "free_beer"}, "public") == [
        "the need free_beer is not a need: a public release asks only for public needs"
    ]
    assert bank_failures(QUERY, "secret") == ["the case's split is 'secret'; allowed: public, hidden"]


def test_a_path_replayed_through_a_search_reads_only_what_the_search_lists_and_splits_full_pages():
    """``lookalikes --replay``: the path's searches go to the real search_notes; a full page is asked again in
    halves, and the path opens, and the rule reads, only what the answers list."""
    w = labelled_world()
    with recording_lookalikes() as found:
        assert solve(w, QUERY, gold(w)) is None
    asked: list[str] = []
    chatter = [f"x{i}" for i in range(AGENT_CAP)]

    def full_then_exact(keyword: str) -> list[str]:  # the first search fills its page with chatter
        asked.append(keyword)
        if len(asked) == 1:
            return chatter
        return [
            n.note_id
            for n in w.notes
            if any(
                f'"{w.place(p).name}"' in keyword and n.title.startswith(w.place(p).name)
                for p in ("N2", "N3", "N4", "N5", "N6")
            )
        ]

    path = reading_path(w, QUERY, found[0], search=full_then_exact)
    assert path.replayed and path.full_pages == 1 and len(asked) == 3  # one full page, asked again in two halves
    assert [args for tool, args in path.calls if tool == "search_notes"] == asked
    assert path.outcome == "settled" and {"g1", "g2", "s3"} <= {a for t, a in path.calls if t == "note_detail"}

    def without_gold(keyword: str) -> list[str]:  # the tool never lists the gold's supports
        return [n.note_id for n in w.notes if n.note_id not in ("g1", "g2")]

    unread = reading_path(w, QUERY, found[0], search=without_gold)
    assert unread.outcome == "gold unread" and "g1" not in {a for t, a in unread.calls if t == "note_detail"}
    assert reading_path(w, QUERY, found[0]).outcome == "settled" and not reading_path(w, QUERY, found[0]).replayed
