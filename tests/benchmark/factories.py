"""Case documents and users for the benchmark tests (the grid city "gridtown" of tests/factories.py)."""

from __future__ import annotations

from django.contrib.auth.models import Group, User

from benchmark.cases.document import CaseDocument, ToolStep

_counter = iter(range(1, 1_000_000))


def routing_document(**overrides) -> CaseDocument:
    """A routing_L0 case: walk from Kahvila Koira (N1) via Hotel Aurora (N4) to Museo Kivi (N5)."""
    n = next(_counter)
    stops = [("N1", "Kahvila Koira"), ("N4", "Hotel Aurora"), ("N5", "Museo Kivi")]
    answer = {
        "start": {"name": "Kahvila Koira", "place_id": "N1", "reason": "User-specified origin."},
        "end": {"name": "Museo Kivi", "place_id": "N5", "reason": "User-specified destination."},
        "waypoints": [{"name": "Hotel Aurora", "place_id": "N4", "reason": "User-specified stop."}],
        "optimal_order": [{"name": name, "place_id": pid, "visit_order": i} for i, (pid, name) in enumerate(stops, 1)],
        "vehicle": "walking",
        "mode": "distance",
        "total_distance_m": 812.4,
        "total_time_s": 584.9,
    }
    data = {
        "case_id": f"routing_L0_{n:04d}",
        "type": "routing_L0",
        "category": "routing",
        "level": "L0",
        "question": f"Case {n}: I walk from Kahvila Koira to Museo Kivi via Hotel Aurora. How far is it?",
        "answer": answer,
        "reference_path": [
            ToolStep(tool="place_search", arguments={"query_name": "Kahvila Koira"}, observation_sha256="a" * 64),
            ToolStep(
                tool="routing",
                arguments={"start_place_id": "N1", "end_place_id": "N4", "vehicle": "walking", "mode": "distance"},
                observation_sha256="b" * 64,
            ),
        ],
        "engine_path": [ToolStep(tool="sample_place", arguments={"num": 10})],
        "required_evidence": {"attributes": [{"place_id": "N4", "key": "tag"}], "note_ids": []},
        "constraints": {"vehicle": "walking"},
        "uniqueness": {"tool": "multi_stop_routing", "best": ["N1", "N4", "N5"]},
        "provenance": {"generator": "tests", "seed": n, "city_name": "gridtown", "city_version": "grid-1"},
        "city_name": "gridtown",
        "city_version": "grid-1",
    }
    return CaseDocument.model_validate(data | overrides)


def staff_user(username: str, *, curator: bool = False, perms: tuple[str, ...] = ()) -> User:
    """A staff user; a curator joins the "Curators" group made by the data migration."""
    from django.contrib.auth.models import Permission

    user = User.objects.create_user(username=username, password="pw", is_staff=True)
    if curator:
        user.groups.add(Group.objects.get(name="Curators"))
    for codename in perms:
        user.user_permissions.add(Permission.objects.get(codename=codename))
    return user
