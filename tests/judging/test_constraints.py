"""Rule checks behind SC: opening hours on arrival, visit order, thresholds, mode, the implicit need."""

from datetime import date

from judging.answers import normalise_answer
from judging.metrics.constraints import constraint_checks, semantic_constraint_rules
from judging.types import CaseSpec
from tests.judging.fakes import FakeWorld


class TripWorld(FakeWorld):
    """Legs of 10 minutes each; a bakery that closes at 10:30 and a bar that opens at 16:00."""

    def __init__(self):
        super().__init__(
            {
                "S": {"place_type": "Accommodation|Hotel", "opentime_week": ""},
                "BAKERY": {
                    "place_type": "Food & Beverages|Bakery",
                    "opentime_week": "Mo-Su 07:00-10:30",
                    "rating": 4.6,
                    "cost": 6,
                },
                "BAR": {
                    "place_type": "Food & Beverages|Bar",
                    "opentime_week": "Mo-Su 16:00-02:00",
                    "rating": 3.9,
                    "cost": 12,
                },
                "E": {"place_type": "Culture|Museum", "opentime_week": "Mo-Su 09:00-20:00"},
            }
        )
        self.facts = {("BAKERY", "huge_cinnamon_buns")}

    def leg(self, a, b, vehicle, mode):
        return (800.0, 600.0)

    def has_fact(self, place_id, key, on=None):
        return (place_id, key) in self.facts


def trip(order, **extra):
    stops = [{"name": p, "place_id": p, "visit_order": i + 1} for i, p in enumerate(order)]
    return {
        "start": {"place_id": order[0]},
        "end": {"place_id": order[-1]},
        "waypoints": [{"place_id": p} for p in order[1:-1]],
        "optimal_order": stops,
        "vehicle": "walking",
        "mode": "time",
        "total_distance_m": 2400.0,
        "total_time_s": 1800.0,
        **extra,
    }


CASE = CaseSpec(
    case_id="t",
    category="trip_design",
    level="L2",
    answer={},
    constraints={
        "vehicle": "walking",
        "mode": "time",
        "start_time": "2026-12-08T10:00",
        "dwell_minutes": 30,
        "fact": {"place_id": "BAKERY", "key": "huge_cinnamon_buns"},
    },
)


def test_a_plan_that_arrives_after_closing_time_fails():
    late = normalise_answer(trip(["S", "BAR", "BAKERY", "E"]))
    result = semantic_constraint_rules(CASE, late, TripWorld())
    opening = next(c for c in result.details["checks"] if c["check"] == "open on arrival")
    assert opening["ok"] is False and "BAKERY" in opening["detail"] and "BAR" in opening["detail"]
    assert result.value < 1 and result.source == "rules" and "failed: open on arrival" in result.explanation


def test_arriving_while_open_passes_the_hours_check():
    case = CASE.model_copy(update={"constraints": {**CASE.constraints, "start_time": "2026-12-08T15:55"}})
    checks = constraint_checks(case, normalise_answer(trip(["S", "BAR", "E"])), TripWorld())
    opening = next(c for c in checks if c["check"] == "open on arrival")
    assert opening["ok"] is True and "BAR 16:05" in opening["detail"]
    early = case.model_copy(update={"constraints": {**case.constraints, "start_time": "2026-12-08T15:40"}})
    checks = constraint_checks(early, normalise_answer(trip(["S", "BAR", "E"])), TripWorld())
    assert next(c for c in checks if c["check"] == "open on arrival")["ok"] is False  # 15:50: not open yet


def test_visit_order_and_travel_mode_are_checked():
    case = CaseSpec(
        case_id="o",
        category="trip_design",
        level="L2",
        answer={},
        constraints={"vehicle": "walking", "mode": "time", "before": [["BAR", "BAKERY"]]},
    )
    good = {
        c["check"]: c["ok"]
        for c in constraint_checks(case, normalise_answer(trip(["S", "BAR", "BAKERY", "E"])), TripWorld())
    }
    assert good == {"vehicle": True, "mode": True, "visit order": True}
    bad_answer = trip(["S", "BAKERY", "BAR", "E"], vehicle="driving")
    bad = {c["check"]: c["ok"] for c in constraint_checks(case, normalise_answer(bad_answer), TripWorld())}
    assert bad == {"vehicle": False, "mode": True, "visit order": False}
    assert semantic_constraint_rules(case, normalise_answer(bad_answer), TripWorld()).value == 1 / 3


def test_thresholds_and_the_implicit_need_of_the_chosen_place():
    case = CaseSpec(
        case_id="n",
        category="nearby_discovery",
        level="L2",
        answer={},
        constraints={
            "min_rating": 4.0,
            "max_cost": 10,
            "place_type": "Bakery",
            "fact": {"place_id": "BAKERY", "key": "huge_cinnamon_buns"},
        },
    )
    right = semantic_constraint_rules(case, normalise_answer({"place_id": "BAKERY"}), TripWorld())
    wrong = semantic_constraint_rules(case, normalise_answer({"place_id": "BAR"}), TripWorld())
    assert right.value == 1.0
    assert wrong.value == 0.0 and {c["check"] for c in wrong.details["checks"]} == {
        "rating",
        "cost",
        "place type",
        "implicit need",
    }


def test_the_implicit_need_is_checked_on_the_day_the_question_is_about():
    class SeasonWorld(TripWorld):
        def has_fact(self, place_id, key, on=None):  # BAR had its heated terrace last winter only
            return place_id == "BAR" and key == "winter_terrace_heaters" and (on is None or on < date(2026, 3, 10))

    fact = {"place_id": "BAR", "key": "winter_terrace_heaters"}
    case = CaseSpec(case_id="w", category="nearby_discovery", level="L2", answer={}, constraints={"fact": fact})
    this_winter = CaseSpec(**{**case.model_dump(), "constraints": {"fact": {**fact, "on": "2026-12-07"}}})
    assert semantic_constraint_rules(case, normalise_answer({"place_id": "BAR"}), SeasonWorld()).value == 1.0
    assert semantic_constraint_rules(this_winter, normalise_answer({"place_id": "BAR"}), SeasonWorld()).value == 0.0


def test_no_constraint_and_no_answer():
    case = CaseSpec(case_id="x", category="place_perception", level="L1", answer={})
    empty = semantic_constraint_rules(case, normalise_answer({"place_id": "BAR"}), TripWorld())
    assert empty.value is None and empty.details == {"calculable": False}
    assert semantic_constraint_rules(CASE, normalise_answer(None), TripWorld()).value == 0.0


def test_accepted_place_types_and_cuisines_stand_for_a_noun():
    world = TripWorld()
    world.places["PUB"] = {"place_type": "Food & Beverages|Pub", "opentime_week": ""}
    world.places["KOREAN"] = {
        "place_type": "Food & Beverages|Restaurant",
        "tag": "Cuisine: Korean",
        "opentime_week": "",
    }
    bar = CaseSpec(
        case_id="b", category="nearby_discovery", level="L1", answer={}, constraints={"place_types": ["Bar", "Pub"]}
    )
    assert semantic_constraint_rules(bar, normalise_answer({"place_id": "PUB"}), world).value == 1.0
    assert semantic_constraint_rules(bar, normalise_answer({"place_id": "BAKERY"}), world).value == 0.0
    asian = CaseSpec(
        case_id="a",
        category="nearby_discovery",
        level="L1",
        answer={},
        constraints={"place_types": ["Asian Restaurant"], "cuisines": ["korean", "thai"]},
    )
    assert semantic_constraint_rules(asian, normalise_answer({"place_id": "KOREAN"}), world).value == 1.0


def test_a_stay_must_fit_in_the_opening_hours():
    case = CaseSpec(
        case_id="s",
        category="nearby_discovery",
        level="L1",
        answer={},
        constraints={"open_at": "2026-12-08T09:45", "open_for_min": 60},
    )
    result = semantic_constraint_rules(case, normalise_answer({"place_id": "BAKERY"}), TripWorld())
    check = result.details["checks"][0]
    assert check["check"] == "open for the stay" and check["ok"] is False and "not at 10:30" in check["detail"]
    short = case.model_copy(update={"constraints": {"open_at": "2026-12-08T09:45", "open_for_min": 30}})
    assert semantic_constraint_rules(short, normalise_answer({"place_id": "BAKERY"}), TripWorld()).value == 1.0


def test_a_detour_checks_the_stop_not_the_destination():
    # The stop must be open on arrival; a destination closed by then is not the question's concern.
    case = CaseSpec(
        case_id="d",
        category="routing",
        level="L1",
        answer={},
        constraints={"start_time": "2026-12-08T09:30", "dwell_minutes": 0, "open_check": "stops"},
    )
    world = TripWorld()
    world.places["E"] = {"place_type": "Culture|Museum", "opentime_week": "Mo-Su 12:00-20:00"}
    answer = normalise_answer(trip(["S", "BAKERY", "E"]))
    assert semantic_constraint_rules(case, answer, world).value == 1.0
    every = case.model_copy(update={"constraints": {**case.constraints, "open_check": "all"}})
    assert semantic_constraint_rules(every, answer, world).value == 0.0


def test_a_fact_that_meets_the_same_need_counts():
    case = CaseSpec(
        case_id="f",
        category="nearby_discovery",
        level="L2",
        answer={},
        constraints={"fact": {"place_id": "BAR", "key": "great_view", "keys": ["great_view", "huge_cinnamon_buns"]}},
    )
    result = semantic_constraint_rules(case, normalise_answer({"place_id": "BAKERY"}), TripWorld())
    assert result.value == 1.0 and "great_view or huge_cinnamon_buns" in result.details["checks"][0]["detail"]
