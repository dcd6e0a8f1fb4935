"""The heuristic agent (a no-model floor) on Helsinki: templated questions, real names, real tools."""

from __future__ import annotations

import asyncio
import re
from datetime import datetime

import pytest

from benchmark.agents.base import AGENTS, AgentTask, RunConfig
from benchmark.agents.heuristic import heuristic_agent
from benchmark.agents.toolbox import Toolbox


@pytest.fixture(scope="module")
def ask(helsinki, django_db_blocker):
    """Run the agent on a question in a fresh Toolbox: (outcome, toolbox)."""

    async def run(question: str, budget: int):
        async with Toolbox(city="helsinki", budget=budget) as tools:
            task = AgentTask(question=question, case=None, trial=0, config=RunConfig(tool_budget=budget), tools=tools)
            return await heuristic_agent(task), tools

    def call(question: str, budget: int = 30):
        with django_db_blocker.unblock():
            return asyncio.run(run(question, budget))

    return call


@pytest.fixture(scope="module")
def tool(helsinki, django_db_blocker):
    """Call one agent tool directly, as the oracle the test compares against."""

    async def run(name: str, arguments: dict):
        async with Toolbox(city="helsinki", budget=1) as tools:
            observation, is_error = await tools.call(name, arguments)
            assert not is_error, observation
            return observation

    def call(name: str, **arguments):
        with django_db_blocker.unblock():
            return asyncio.run(run(name, arguments))

    return call


def _answer(ask, question: str) -> dict:
    outcome, tools = ask(question)
    assert outcome.ended == "submitted" and tools.has_submitted
    assert outcome.final_answer == tools.submitted
    return outcome.final_answer


def test_heuristic_agent_is_registered():
    assert AGENTS.get("heuristic") is heuristic_agent


def test_opening_hours_question_answers_the_places_opentime_week(ask, places):
    place = next(p for p in places if p.opentime_week)
    answer = _answer(ask, f"What are the opening hours of {place.name}?")
    assert answer["answer"] == place.opentime_week
    assert answer["place_id"] == place.place_id


@pytest.mark.parametrize(
    "template, field",
    [
        ("How well is {n} rated?", "rating"),
        ("What's the average spend per person at {n}?", "cost"),
        ("I just moved to Helsinki. What is the address of {n}?", "address"),
        ("What type of business is {n}?", "place_type"),
    ],
)
def test_attribute_question_answers_the_asked_field(ask, places, template, field):
    place = next(p for p in places if getattr(p, field) not in (None, ""))
    answer = _answer(ask, template.format(n=place.name))
    assert (answer["place_id"], answer["answer"]) == (place.place_id, getattr(place, field))


def test_cuisine_question_answers_the_cuisine_part_of_the_tag(ask, places):
    place = next(p for p in places if "Cuisine: " in p.tag)
    cuisine = next(part for part in place.tag.split("; ") if part.startswith("Cuisine: ")).split(": ", 1)[1]
    assert _answer(ask, f"What cuisine does {place.name} serve?")["answer"] == cuisine


def test_rating_comparison_answers_the_higher_rated_place(ask, places):
    rated = [p for p in places if p.rating is not None]
    low, high = rated[0], next(p for p in rated if abs(p.rating - rated[0].rating) >= 0.3)
    winner = max((low, high), key=lambda p: p.rating)
    answer = _answer(ask, f"Between {low.name} and {high.name}, which one has the better rating?")
    assert answer["place_id"] == winner.place_id


def test_open_at_question_reads_simple_opening_hours(ask, places):
    from kernel.opening import is_open_at

    noon, late = datetime(2026, 12, 8, 12, 0), datetime(2026, 12, 8, 23, 30)  # a Tuesday
    place = next(
        p
        for p in places
        if re.fullmatch(r"Mo-(Fr|Sa|Su) \d\d:\d\d-\d\d:\d\d(; .*)?", p.opentime_week)
        and is_open_at(p.opentime_week, noon)
        and not is_open_at(p.opentime_week, late)
    )
    assert _answer(ask, f"Will {place.name} be open on Tuesday 8 December 2026 at 12:00?")["answer"] is True
    assert _answer(ask, f"Is {place.name} open at 23:30 on Tuesday 8 December 2026?")["answer"] is False


def test_walking_route_totals_equal_a_direct_routing_call(ask, tool, places):
    start, end = places[0], places[5]
    answer = _answer(ask, f"Planning my day off. Plan the shortest route from {start.name} to {end.name}, on foot.")
    route = tool(
        "routing", start_place_id=start.place_id, end_place_id=end.place_id, vehicle="walking", mode="distance"
    )
    assert (answer["vehicle"], answer["mode"]) == ("walking", "distance")
    assert (answer["start"]["place_id"], answer["end"]["place_id"]) == (start.place_id, end.place_id)
    assert (answer["total_distance_m"], answer["total_time_s"]) == (route["total_distance_m"], route["total_time_s"])


def test_named_trip_is_routed_in_the_order_mentioned_and_sums_the_legs(ask, tool, places):
    stops = places[10:14]
    answer = _answer(
        ask,
        f"Starting at {stops[0].name} and ending at {stops[3].name}, I need to visit "
        f"{stops[1].name} and {stops[2].name}. What's the fastest order, by bike?",
    )
    assert [s["place_id"] for s in answer["optimal_order"]] == [p.place_id for p in stops]
    assert [w["place_id"] for w in answer["waypoints"]] == [stops[1].place_id, stops[2].place_id]
    legs = [
        tool("routing", start_place_id=a.place_id, end_place_id=b.place_id, vehicle="cycling", mode="time")
        for a, b in zip(stops, stops[1:])
    ]
    assert answer["total_time_s"] == round(sum(leg["total_time_s"] for leg in legs), 1)
    assert answer["total_distance_m"] == round(sum(leg["total_distance_m"] for leg in legs), 1)


def test_nearest_type_question_answers_the_nearest_place_of_that_type(ask, tool, places):
    anchor = places[0]
    around = tool("nearby_search", center=anchor.place_id, radius_meters=400)["results"]
    sub = next(r["place_type"].split("|")[-1] for r in around if "|" in r["place_type"])
    nearest = tool("nearby_search", center=anchor.place_id, radius_meters=400, place_types=[sub])["results"][0]
    answer = _answer(ask, f"What's the nearest {sub.lower()} to {anchor.name}? Look within 400 m.")
    assert answer["place_id"] == nearest["place_id"]


@pytest.mark.parametrize(
    "question, budget",
    [
        ("Tell me something nice about Helsinki.", 30),
        ("What are the opening hours of Nonexistentplace Zzyzx?", 30),
        (
            "I'm walking from {0} to {1}. On the way I'd like to grab a coffee, at most 150 m off my route. Plan the "
            "fastest route.",
            30,
        ),
        ("Starting at {0} and ending at {1}, I need to visit {2}, {3} and {4}. What's the shortest order, on foot?", 4),
    ],
)
def test_always_submits_and_stays_within_the_budget(ask, places, question, budget):
    question = question.format(*(p.name for p in places[20:25]))
    outcome, tools = ask(question, budget)
    assert tools.has_submitted and tools.steps[-1].tool == "submit_answer"
    assert tools.used <= budget
    again, repeat = ask(question, budget)
    assert [(s.tool, s.arguments) for s in repeat.steps] == [(s.tool, s.arguments) for s in tools.steps]
