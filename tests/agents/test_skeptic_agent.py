"""The no-model floors a skeptic would write: the skeptic agent and the rank-rule agents, on Helsinki."""

from __future__ import annotations

import asyncio
from collections import Counter

import pytest

from benchmark.agents.base import AGENTS, AgentTask, RunConfig
from benchmark.agents.heuristic.reading import Name, Reading
from benchmark.agents.skeptic import RULES
from benchmark.agents.skeptic.ask import read_ask, read_trip, stem
from benchmark.agents.skeptic.vote import Tally, expand, vote_note
from benchmark.agents.toolbox import Toolbox
from benchmark.cases.rank_rules import CaseSignals, RankQuota
from benchmark.runs.floors import FLOOR_AGENTS, answer_places, floor_probe


def _reading(question: str, names: list[str]) -> Reading:
    found = []
    for i, name in enumerate(names):
        at = question.index(name)
        found.append(Name({"name": name, "place_id": f"P{i}"}, at, question[max(0, at - 25) : at]))
    return Reading(question, found)


def test_every_floor_agent_is_registered():
    assert {"skeptic", *RULES} <= set(AGENTS.names())
    assert set(FLOOR_AGENTS) == {"skeptic", *RULES}
    rules = ("nearest", "farthest", "best-rated", "worst-rated", "cheapest", "dearest", "first-result", "last-result")
    assert {f"rank-{r}" for r in (*rules, "most-hits", "fewest-hits")} == set(RULES)


def test_the_want_and_the_shape_are_read_from_the_question():
    options = _reading(
        "I'm torn between Alpha, Bravo, Charlie, Delta, Echo or Foxtrot. Which one lets me get real, informed "
        "guidance from the staff before I decide?",
        ["Alpha", "Bravo", "Charlie", "Delta", "Echo", "Foxtrot"],
    )
    ask = read_ask(options)
    assert ask.shape == "options" and len(ask.options) == 6
    assert "guidance" in ask.words and "staff" in ask.words and "decide" not in ask.words

    nearby = read_ask(_reading("I'm at Alpha. Where's the nearest café where I can study in peace?", ["Alpha"]))
    assert (nearby.shape, nearby.anchor.record["name"]) == ("nearby", "Alpha")
    assert "cafe" not in nearby.words and "study" in nearby.words

    # the nested want after a recipe's own clause ("stop at a bar where I can ...")
    route = read_ask(
        _reading(
            "On my way from Alpha to Bravo (driving) I'd like to stop at a bar where I can have a beer outdoors "
            "below zero. Plan it with the shortest distance overall.",
            ["Alpha", "Bravo"],
        )
    )
    assert route.shape == "route" and route.start.record["name"] == "Alpha" and route.end.record["name"] == "Bravo"
    assert route.want.startswith("have a beer outdoors")


@pytest.mark.parametrize(
    "rule, before, after",
    [
        ("The extra stop has to come before Charlie.", ["P2"], []),
        ("I want to visit Charlie before the extra stop.", [], ["P2"]),
        ("The extra stop should come later than Charlie.", [], ["P2"]),
    ],
)
def test_a_trips_order_rule_about_the_extra_stop_is_read(rule, before, after):
    question = (
        "I'm walking from Alpha to Bravo: I'd like to sip hot soup somewhere on the way, and I must call at Charlie. "
        + rule
    )
    ask = read_ask(_reading(question, ["Alpha", "Bravo", "Charlie"]))
    assert ask.shape == "trip" and [n.record["name"] for n in ask.stops] == ["Charlie"]
    assert (ask.before, ask.after) == (before, after)


def test_a_question_without_a_want_is_left_to_the_recipes():
    assert read_ask(_reading("What's the nearest café to Alpha?", ["Alpha"])).shape == ""
    assert read_ask(_reading("I can only go on a Wednesday. Is Alpha open that day?", ["Alpha"])).shape == ""
    # a yes/no about opening on arrival is not a trip to order, although it names stops and a start
    check = "Plan check for Monday: Alpha at 10:00, then Bravo (20 minutes), then Charlie. Will Charlie be open?"
    assert read_trip(_reading(check, ["Alpha", "Bravo", "Charlie"])).shape == ""


def test_the_vote_counts_support_and_sets_denials_endings_hearsay_and_adverts_against_or_aside():
    names = {"A": "alpha", "B": "bravo"}
    stems = {stem(w) for w in expand(["quiet"])}
    tallies = {pid: Tally(pid, name) for pid, name in names.items()}
    note = {
        "note_id": "n1",
        "title": "Afternoon at Alpha",
        "desc": "Spent the day at Alpha. So quiet, I finished two chapters.",
        "comments": [
            {"content": "No quiet corner here any more, whatever people claim."},  # denial: against Alpha
            {"content": "Heard it's calm in the mornings?"},  # hearsay and a question: aside
            {"content": "The quiet room at Bravo is gone since the renovation."},  # names Bravo: an ending, against it
        ],
    }
    vote_note(note, "A", names, stems, tallies)
    assert tallies["A"].votes == 0 and tallies["A"].notes == ["n1"]  # +1 support, -1 denial
    assert tallies["B"].votes == -1
    advert = {"note_id": "n2", "title": "Alpha", "desc": "#ad So quiet and calm at Alpha! Link in bio.", "comments": []}
    vote_note(advert, "A", names, stems, tallies)
    assert tallies["A"].votes == 0  # an advert counts for nothing


@pytest.fixture(scope="module")
def play(helsinki, django_db_blocker):
    """Run a registered agent on a question in a fresh Toolbox: (outcome, toolbox)."""

    async def run(name: str, question: str):
        async with Toolbox(city="helsinki", budget=30) as tools:
            task = AgentTask(question=question, case=None, trial=0, config=RunConfig(), tools=tools)
            return await AGENTS.get(name)(task), tools

    def call(name: str, question: str):
        with django_db_blocker.unblock():
            return asyncio.run(run(name, question))

    return call


def _options_question(options) -> str:
    listed = ", ".join(p.name for p in options[:-1])
    return f"I want to study in peace for the whole afternoon. Which of {listed} or {options[-1].name} should I go to?"


def test_the_skeptic_reads_notes_within_the_budget_and_answers_one_of_the_options(play, places):
    options = [p for p in places if p.place_type.endswith("Cafe")][:5] or places[:5]
    outcome, tools = play("skeptic", _options_question(options))
    assert tools.has_submitted and tools.used <= 30
    assert outcome.notes["shape"] == "want-options"
    used = Counter(step.tool for step in tools.steps)
    assert used["search_notes"] >= len(options) and used["note_detail"] >= 1
    assert outcome.final_answer["place_id"] in {p.place_id for p in options}
    again, repeat = play("skeptic", _options_question(options))
    assert [(s.tool, s.arguments) for s in repeat.steps] == [(s.tool, s.arguments) for s in tools.steps]


@pytest.mark.parametrize(
    "agent, pick",
    [
        ("rank-best-rated", lambda ps: max((p for p in ps if p.rating is not None), key=lambda p: p.rating)),
        ("rank-worst-rated", lambda ps: min((p for p in ps if p.rating is not None), key=lambda p: p.rating)),
        ("rank-cheapest", lambda ps: min((p for p in ps if p.cost is not None), key=lambda p: p.cost)),
        ("rank-first-result", lambda ps: ps[0]),
        ("rank-last-result", lambda ps: ps[-1]),
    ],
)
def test_a_rank_rule_agent_picks_the_option_its_rule_names(play, places, agent, pick):
    rated = [p for p in places if p.rating is not None and p.cost is not None]
    options = []
    for p in rated:  # five options with distinct ratings and costs, so the rule names one
        if all(p.rating != o.rating and p.cost != o.cost for o in options):
            options.append(p)
        if len(options) == 5:
            break
    outcome, tools = play(agent, _options_question(options))
    assert outcome.final_answer["place_id"] == pick(options).place_id
    assert "note_detail" not in {s.tool for s in tools.steps}  # no rank rule reads a note


def test_the_nearest_rule_answers_the_first_place_a_nearby_search_lists(play, places, helsinki, django_db_blocker):
    anchor = places[0]
    question = f"I'm at {anchor.name}. Where's the nearest café where I can study in peace?"
    outcome, tools = play("rank-nearest", question)
    search = next(s for s in tools.steps if s.tool == "nearby_search")
    first = search.observation["results"][0]
    assert outcome.final_answer["place_id"] == first["place_id"]


def test_the_floor_probe_reports_the_places_each_floor_agent_named(places, helsinki, django_db_blocker):
    from benchmark.cases.document import CaseDocument

    options = places[:5]
    document = CaseDocument.model_construct(question=_options_question(options), city_name="helsinki")
    with django_db_blocker.unblock():
        picks = floor_probe(document)
    assert set(picks) == set(FLOOR_AGENTS)
    ids = {p.place_id for p in options}
    assert all(len(named) == 1 and named <= ids for named in picks.values())
    assert answer_places({"waypoints": [{"place_id": "a"}, {"place_id": "b"}], "place_id": "c"}) == {"a", "b", "c"}


def test_the_rank_quota_caps_what_each_floor_agent_picks():
    quota = RankQuota(target=20)  # 15% of 20: at most 3 golds per floor agent
    case = CaseSignals(gold="g", places=tuple(f"p{i}" for i in range(30)) + ("g",), signals={})
    for _ in range(3):
        assert quota.floor_refusal([case], {"skeptic": frozenset({"g"})}) is None
        quota.take([case], {"skeptic": frozenset({"g"}), "rank-nearest": frozenset({"p1"})})
    assert "skeptic" in quota.floor_refusal([case], {"skeptic": frozenset({"g"})})
    assert quota.floor_refusal([case], {"skeptic": frozenset({"p2"}), "rank-nearest": frozenset({"g"})}) is None


@pytest.mark.parametrize(
    "rule, pair",
    [
        ("I have to pick up a parcel at Charlie before I go to Delta.", ("P2", "P3")),
        ("I can only go to Delta after I've been to Charlie.", ("P2", "P3")),
        ("I promised to meet a friend at Delta first, and only then go to Charlie.", ("P3", "P2")),
    ],
)
def test_a_named_trips_order_rule_is_read(rule, pair):
    question = f"Starting at Alpha and ending at Bravo, I need to visit Charlie and Delta. {rule} Shortest order?"
    trip = read_trip(_reading(question, ["Alpha", "Bravo", "Charlie", "Delta"]))
    assert trip.shape == "trip" and [n.record["name"] for n in trip.stops] == ["Charlie", "Delta"]
    assert trip.pairs == [pair]


def test_a_named_trip_takes_the_cheapest_order_that_keeps_its_rule(play, places, helsinki, django_db_blocker):
    from itertools import permutations

    picked: list = []
    for place in places[30:]:  # five names none of which holds another
        low = place.name.casefold()
        if all(low not in p.name.casefold() and p.name.casefold() not in low for p in picked):
            picked.append(place)
        if len(picked) == 5:
            break
    start, end, *stops = picked
    question = (
        f"Starting at {start.name} and ending at {end.name}, I need to visit {stops[0].name}, {stops[1].name} and "
        f"{stops[2].name}. I have to pick up a parcel at {stops[2].name} before I go to {stops[0].name}. "
        "What's the shortest order, on foot?"
    )
    outcome, tools = play("skeptic", question)
    assert outcome.notes["shape"] == "named-trip"
    legs = {
        (s.arguments["start_place_id"], s.arguments["end_place_id"]): s.observation["total_distance_m"]
        for s in tools.steps
        if s.tool == "routing"
    }
    valid = [
        order
        for order in permutations(p.place_id for p in stops)
        if order.index(stops[2].place_id) < order.index(stops[0].place_id)
    ]
    cost = {o: sum(legs[a, b] for a, b in zip((start.place_id, *o), (*o, end.place_id))) for o in valid}
    best = min(valid, key=lambda o: cost[o])
    answer = outcome.final_answer
    assert [w["place_id"] for w in answer["waypoints"]] == list(best)
    assert answer["total_distance_m"] == round(cost[best], 1) and answer["mode"] == "distance"
