"""Reads over cases and releases: documents and the map of a case (verification is ``audit.verify``)."""

from __future__ import annotations

from typing import Any

from benchmark.cases.models import Case, Release
from environment.selectors import PlacePoint, place_points

from .document import CaseDocument, normalise_question

DOCUMENT_FIELDS = tuple(CaseDocument.model_fields)


def case_document(case: Case) -> CaseDocument:
    """The plain-data form of ``case`` (validated, so a broken row fails loudly here)."""
    return CaseDocument.model_validate({name: getattr(case, name) for name in DOCUMENT_FIELDS})


def case_other_questions(*, case: Case) -> dict[str, str]:
    """The normalised questions of every case except ``case``, each with its case id (for the
    duplicate-question check, which names the case)."""
    rows = Case.objects.exclude(pk=case.pk).order_by("-case_id").values_list("question", "case_id")
    return {normalise_question(question): case_id for question, case_id in rows}  # the first case_id wins


def case_documents(*, release: Release | None = None, status: str | None = None) -> list[CaseDocument]:
    """The documents of a release (its frozen snapshots, in position order) or of all cases.

    Args:
        release: read the release's snapshots instead of the live cases.
        status: keep only documents with this status.
    """
    if release is not None:
        docs = [CaseDocument.model_validate(e.snapshot) for e in release.entries.order_by("position")]
    else:
        docs = [case_document(c) for c in Case.objects.order_by("case_id")]
    return [d for d in docs if status is None or d.status == status]


# ------------------------------------------------------------------ the case map


def case_place_ids(answer: Any) -> list[str]:
    """The place_ids an answer cites, in visiting order where it has one, without repeats."""
    entries = answer if isinstance(answer, list) else [answer]
    ids: list[str] = []
    for entry in entries:
        if not isinstance(entry, dict):
            continue
        stops = list(entry.get("optimal_order") or [])
        stops += [entry.get("start")] + list(entry.get("waypoints") or []) + [entry.get("end"), entry]
        for stop in stops:
            pid = stop.get("place_id") if isinstance(stop, dict) else None
            if isinstance(pid, str) and pid and pid not in ids:
                ids.append(pid)
    return ids


def case_route_stops(answer: Any) -> list[str]:
    """The stops of the reference route: the optimal order, else start then waypoints then end."""
    if not isinstance(answer, dict):
        return []
    order = [s.get("place_id") for s in answer.get("optimal_order") or [] if isinstance(s, dict)]
    if len(order) < 2:
        ends = [answer.get("start")] + list(answer.get("waypoints") or []) + [answer.get("end")]
        order = [s.get("place_id") for s in ends if isinstance(s, dict)]
    stops = [pid for pid in order if isinstance(pid, str) and pid]
    return stops if len(stops) >= 2 else []


def case_map_geojson(case: Case) -> dict:
    """A FeatureCollection of the case's places (numbered points) and reference route legs.

    Legs come from the routing tool through the gateway with the answer's vehicle and mode,
    so the map shows exactly what an agent would have been told. Place ids that are not in
    the case's city, and legs the tool could not route, are listed rather than dropped.
    """
    ids = case_place_ids(case.answer)
    rows = place_points(city_name=case.city_name, place_ids=ids)
    features = [_place_feature(number, rows[pid]) for number, pid in enumerate(ids, 1) if pid in rows]
    legs, errors = _route_legs(case)
    return {
        "type": "FeatureCollection",
        "features": features + legs,
        "missing_place_ids": [pid for pid in ids if pid not in rows],
        "route_errors": errors,
    }


def _place_feature(number: int, place: PlacePoint) -> dict:
    return {
        "type": "Feature",
        "geometry": {"type": "Point", "coordinates": [place.lon, place.lat]},
        "properties": {"kind": "place", "number": number, "place_id": place.place_id, "name": place.name},
    }


def _route_legs(case: Case) -> tuple[list[dict], list[str]]:
    from environment.tools.gateway import call_tool

    stops = case_route_stops(case.answer)
    options = {k: case.answer[k] for k in ("vehicle", "mode") if stops and isinstance(case.answer.get(k), str)}
    legs, errors = [], []
    for leg, (start, end) in enumerate(zip(stops, stops[1:]), 1):
        call = call_tool(
            "agent", "routing", {"start_place_id": start, "end_place_id": end, **options}, city=case.city_name
        )
        if call.error is not None:  # not call.ok
            errors.append(f"leg {leg} {start} -> {end}: {call.error.get('message', '')}")
            continue
        legs.append(
            {
                "type": "Feature",
                "geometry": call.result["geometry"],
                "properties": {
                    "kind": "route",
                    "leg": leg,
                    "from": start,
                    "to": end,
                    "total_distance_m": call.result["total_distance_m"],
                    "total_time_s": call.result["total_time_s"],
                },
            }
        )
    return legs, errors
