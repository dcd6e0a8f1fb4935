"""Minimal case documents for judging tests, trimmed from real generated Helsinki cases (one per family)."""

from __future__ import annotations

import copy

from judging.types import CaseSpec, Step, Trajectory

KEOPS, SAVOY, AMBER = "N603743713", "N600394448", "N4756333508"
VALIO, FINN, KLAUS, ARTHUR = "N4989964860", "N1225404530", "N603767089", "N1376356005"
CANTINA, SUSHI, CASTREN = "N600394449", "N2225393048", "N4889352122"
MARGARITA, PELASTUS = "N1369465599", "N1369465646"
ESIRIPPU, PUUN = "N1371700027", "N1371700033"
NOTE_A, NOTE_B, NOTE_C = "65b7836be7fcef75de72ac94", "69a4d417fd5c261fd162b6e1", "65f0ef101155ccc9a94e0f7c"


def _place(name, place_id, reason="", **extra):
    return {"name": name, "place_id": place_id, "reason": reason, **extra}


def _submit(answer):
    return {"tool": "submit_answer", "arguments": {"result": answer}}


PLACE_L0 = {
    "case_id": "place_L0",
    "category": "place_perception",
    "level": "L0",
    "answer": {
        "answer": 24,
        "name": "Fitness 24Seven Hakaniemi",
        "place_id": "N4705640890",
        "reason": "Direct retrieval of cost.",
        "ref": {"attribute_key": "cost", "note_id": ""},
    },
    "required_evidence": {"attributes": [{"key": "cost", "place_id": "N4705640890"}], "note_ids": []},
    "constraints": {},
    "reference_path": [
        {"tool": "place_search", "arguments": {"query_name": "Fitness 24Seven Hakaniemi"}},
        {"tool": "place_detail", "arguments": {"place_id": "N4705640890"}},
    ],
}

PLACE_L1 = {
    "case_id": "place_L1",
    "category": "place_perception",
    "level": "L1",
    "answer": {
        "answer": False,
        "name": "Purpur",
        "place_id": "N4526426303",
        "reason": "Closed at 08:00.",
        "ref": {"attribute_key": "opentime_week", "note_id": ""},
    },
    "constraints": {"at": "2026-12-07T08:00"},
}

PLACE_L2 = {
    "case_id": "place_L2",
    "category": "place_perception",
    "level": "L2",
    "answer": {
        "answer": "Kehruu ja Metsästys",
        "implicit_logic": "True",
        "name": "Kehruu ja Metsästys",
        "place_id": "N5301147790",
        "reason": "Notes support it.",
        "ref": {"attribute_key": "", "note_id": "64250dcdc70f1029441323c5,667ea77fa8b94ecf56b46927"},
    },
    "constraints": {"fact": {"key": "baby_changing_table", "place_id": "N5301147790"}},
}

NEARBY_L1 = {
    "case_id": "nearby_L1",
    "category": "nearby_discovery",
    "level": "L1",
    "answer": _place(
        "Hostel Margarita", MARGARITA, "27.0 m away, cost 25 EUR.", ref={"attribute_key": "cost", "note_id": ""}
    ),
    "constraints": {"center": PELASTUS, "max_cost": 25, "place_type": "Hostel", "radius_m": 1000},
    "required_evidence": {"attributes": [{"key": "cost", "place_id": MARGARITA}], "note_ids": []},
    "reference_path": [
        {"tool": "place_search", "arguments": {"query_name": "Pelastusarmeija"}},
        {
            "tool": "nearby_search",
            "arguments": {"center": PELASTUS, "max_cost": 25, "place_types": ["Hostel"], "radius_meters": 1000},
        },
    ],
}

NEARBY_L2 = {
    "case_id": "nearby_L2",
    "category": "nearby_discovery",
    "level": "L2",
    "answer": _place(
        "Esirippu / Ida Aalbergin muistomerkki",
        ESIRIPPU,
        "Notes confirm it.",
        implicit_logic="True",
        ref={"attribute_key": "tag:Free entry on first Friday evening", "note_id": f"{NOTE_A},{NOTE_B}"},
    ),
    "constraints": {"center": PUUN, "fact": {"key": "free_entry_friday", "place_id": ESIRIPPU}, "radius_m": 400},
    "required_evidence": {
        "attributes": [{"key": "tag:Free entry on first Friday evening", "place_id": ESIRIPPU}],
        "note_ids": [NOTE_A, NOTE_B],
    },
}

ROUTING_L1 = {
    "case_id": "routing_L1",
    "category": "routing",
    "level": "L1",
    "answer": {
        "start": _place("Keops", KEOPS, "User-specified origin."),
        "end": _place("Amber Palace", AMBER, "User-specified destination."),
        "waypoints": [
            _place(
                "Savoy-teatteri",
                SAVOY,
                "The only theatre within 50 m of the route.",
                ref={"attribute_key": "place_type", "note_id": ""},
            )
        ],
        "optimal_order": [
            {"name": "Keops", "place_id": KEOPS, "visit_order": 1},
            {"name": "Savoy-teatteri", "place_id": SAVOY, "visit_order": 2},
            {"name": "Amber Palace", "place_id": AMBER, "visit_order": 3},
        ],
        "vehicle": "driving",
        "mode": "distance",
        "total_distance_m": 563.9,
        "total_time_s": 100.3,
    },
    "constraints": {"mode": "distance", "place_type": "Theatre", "route_buffer_m": 50, "vehicle": "driving"},
    "required_evidence": {"attributes": [{"key": "place_type", "place_id": SAVOY}], "note_ids": []},
    "reference_path": [
        {"tool": "place_search", "arguments": {"query_name": "Keops"}},
        {"tool": "place_search", "arguments": {"query_name": "Amber Palace"}},
        {
            "tool": "nearby_search",
            "arguments": {
                "center": {"start": KEOPS, "end": AMBER, "vehicle": "driving"},
                "place_types": ["Theatre"],
                "radius_meters": 50,
            },
        },
        {
            "tool": "routing",
            "arguments": {"start_place_id": KEOPS, "end_place_id": SAVOY, "mode": "distance", "vehicle": "driving"},
        },
        {
            "tool": "routing",
            "arguments": {"start_place_id": SAVOY, "end_place_id": AMBER, "mode": "distance", "vehicle": "driving"},
        },
    ],
}
ROUTING_L1["reference_path"].append(_submit(ROUTING_L1["answer"]))

TRIP_L1 = {
    "case_id": "trip_L1",
    "category": "trip_design",
    "level": "L1",
    "answer": {
        "start": _place("Valiosarjat", VALIO),
        "end": _place("Hotel Arthur", ARTHUR),
        "waypoints": [_place("Klaus K", KLAUS), _place("Hotel Arthur", ARTHUR), _place("Hotel Finn", FINN)],
        "optimal_order": [
            {"name": "Valiosarjat", "place_id": VALIO, "visit_order": 1},
            {"name": "Hotel Finn", "place_id": FINN, "visit_order": 2},
            {"name": "Klaus K", "place_id": KLAUS, "visit_order": 3},
            {"name": "Hotel Arthur", "place_id": ARTHUR, "visit_order": 4},
        ],
        "vehicle": "cycling",
        "mode": "time",
        "total_distance_m": 2352.7,
        "total_time_s": 560.2,
    },
    "constraints": {"min_rating": 4.6, "mode": "time", "place_type": "Hotel", "vehicle": "cycling"},
}

TRIP_L2 = {
    "case_id": "trip_L2",
    "category": "trip_design",
    "level": "L2",
    "answer": {
        "start": _place("Cantina West", CANTINA),
        "end": _place("Castrén & Snellman Attorneys Ltd", CASTREN),
        "waypoints": [
            _place("Day & Nite Sushi Bar", SUSHI, "User asked to visit it."),
            _place(
                "Savoy-teatteri",
                SAVOY,
                implicit_logic="True",
                ref={"attribute_key": "tag:Free umbrella borrowing", "note_id": NOTE_C},
            ),
        ],
        "optimal_order": [
            {"name": "Cantina West", "place_id": CANTINA, "visit_order": 1},
            {"name": "Savoy-teatteri", "place_id": SAVOY, "visit_order": 2},
            {"name": "Day & Nite Sushi Bar", "place_id": SUSHI, "visit_order": 3},
            {"name": "Castrén & Snellman Attorneys Ltd", "place_id": CASTREN, "visit_order": 4},
        ],
        "vehicle": "driving",
        "mode": "time",
        "total_distance_m": 511.6,
        "total_time_s": 110.5,
    },
    "constraints": {
        "before": [[SAVOY, SUSHI]],
        "fact": {"key": "english_speaking_staff", "place_id": SAVOY},
        "mode": "time",
        "vehicle": "driving",
    },
}


def case(doc: dict, **changes) -> CaseSpec:
    """A CaseSpec from one of the documents above, with top-level fields replaced."""
    data = copy.deepcopy(doc)
    data.update(copy.deepcopy(changes))
    return CaseSpec(**data)


def answer_of(doc: dict, **changes) -> dict:
    """A deep copy of the document's reference answer with fields replaced (None removes a field)."""
    data = copy.deepcopy(doc["answer"])
    for key, value in changes.items():
        if value is None:
            data.pop(key, None)
        else:
            data[key] = value
    return data


def trajectory(*steps: tuple[str, dict, object], **totals) -> Trajectory:
    """A Trajectory from (tool, arguments, observation) triples."""
    return Trajectory(
        steps=[Step(index=i, tool=tool, arguments=args, observation=obs) for i, (tool, args, obs) in enumerate(steps)],
        **totals,
    )
