"""Pages of the replay part: a trajectory's replay (and its JSON), run comparison, the city's streets."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import NoReverseMatch, reverse
from django.utils.cache import get_conditional_response
from django.views.decorators.gzip import gzip_page
from django.views.decorators.http import require_GET

from benchmark.cases.models import CATEGORIES
from benchmark.web.pages import query
from benchmark.web.replay.compare import (
    CASES_PAGE_SIZE,
    USAGE,
    CompareError,
    compare_case_get,
    compare_category_check,
    compare_runs_get,
    comparison_links,
    runs_compare_cached,
)
from benchmark.web.replay.document import replay_map_data, replay_payload, trajectory_get
from benchmark.web.replay.search import observation_texts, search_query_parse, steps_matching
from benchmark.web.replay.streets import city_streets_geojson
from benchmark.web.throttle import page_throttled
from benchmark.web.whole_numbers import is_whole_number
from environment.selectors import city_version_get

TRACK_COLORS = {"A": "#1f6fb2", "B": "#c0392b"}  # the map lines; the page has the same in static/css/replay.css
NOT_VISIBLE = "No trajectory {pk}, or it belongs to a run you cannot see."


def _maybe_reverse(name: str, *args) -> str | None:
    """A URL of another part of the site, or None while that part is not installed."""
    try:
        return reverse(name, args=args)
    except NoReverseMatch:
        return None


def _track(payload: dict, key: str, label: str = "") -> dict:
    return {
        "key": key,
        "color": TRACK_COLORS[key],
        "payload": payload,
        "run_url": _maybe_reverse("run", payload["run"]["id"]),
        "json_url": reverse("trajectory-json", args=[payload["trajectory"]["id"]]),
        "map": {**replay_map_data(payload=payload, key=key, label=label), "color": TRACK_COLORS[key]},
    }


def _map_data(tracks: list[dict]) -> dict:
    first = tracks[0]["payload"]
    reference = next((t["payload"]["reference"] for t in tracks if t["payload"]["reference"]), None)
    city = first["city"]
    return {
        "tracks": [t["map"] for t in tracks],
        "reference": reference["features"] if reference else None,
        "streets_url": reverse("city-streets", args=[city["name"]]) if city["built"] else None,
    }


def _start_position(value: str | None, payload: dict) -> int:
    """The position ``?step=`` opens: a step's number (1-based) or "answer"; the first step otherwise."""
    count = len(payload["steps"])
    if value == "answer":
        return count
    if value and is_whole_number(value) and 1 <= int(value) <= count:
        return int(value) - 1
    return 0


@require_GET
def trajectory_page(request, pk: int):
    trajectory = trajectory_get(pk=pk, user=request.user)
    if trajectory is None:
        raise Http404(NOT_VISIBLE.format(pk=pk))
    try:
        query = search_query_parse(request.GET.get("q"))
    except ValueError as exc:
        return render(request, "web/board_error.html", {"message": str(exc), "status": 400}, status=400)
    payload = replay_payload(trajectory=trajectory, user=request.user)
    tracks = [_track(payload, "A")]
    map_data = {**_map_data(tracks), "start": _start_position(request.GET.get("step"), payload), "step_urls": True}
    observations = observation_texts(trajectory=trajectory, payload=payload) if query else {}
    matches = steps_matching(payload, query, observations) if query else []
    search = {"q": query, "matches": matches, "numbers": [m["number"] for m in matches]}
    context = {"payload": payload, "tracks": tracks, "map_data": map_data, "search": search}
    return render(request, "web/replay.html", context)


@require_GET
def trajectory_json(request, pk: int):
    trajectory = trajectory_get(pk=pk, user=request.user)
    if trajectory is None:
        return JsonResponse({"error": NOT_VISIBLE.format(pk=pk)}, status=404)
    return JsonResponse(
        replay_payload(trajectory=trajectory, user=request.user), json_dumps_params={"ensure_ascii": False}
    )


@require_GET
def compare_page(request):
    params = request.GET
    if not params.get("a") and not params.get("b"):
        return render(request, "web/compare.html", {"params": params, "usage": USAGE})
    limited = page_throttled(request, "compare")
    if limited is not None:
        return limited
    try:
        a, b = compare_runs_get(a=params.get("a"), b=params.get("b"), user=request.user)
        category = compare_category_check(params.get("category"))
        comparison = runs_compare_cached(a=a, b=b, category=category)
        pages = {
            name: Paginator(comparison[name], CASES_PAGE_SIZE).get_page(params.get(f"{name}_page"))
            for name in ("won", "lost")
        }
        comparison = comparison_links(
            {**comparison, "won": list(pages["won"].object_list), "lost": list(pages["lost"].object_list)},
            pages={name: page.number for name, page in pages.items()},
        )
        tracks = []
        if params.get("case"):
            pair = compare_case_get(a=a, b=b, case_id=params["case"], trial=params.get("trial"))
            tracks = [
                _track(replay_payload(trajectory=t, user=request.user), key, f"{key}: {t.run.name}")
                for key, t in zip("AB", pair)
            ]
    except CompareError as exc:
        return render(request, "web/compare.html", {"error": str(exc), "params": params}, status=exc.status)
    context = {
        "comparison": comparison,
        "pages": pages,
        "page_queries": {name: query(params, **{f"{name}_page": None}) for name in ("won", "lost")},
        "category_choices": CATEGORIES,
        "category_label": dict(CATEGORIES).get(category, ""),
        "tracks": tracks,
        "params": params,
        "map_data": _map_data(tracks) if tracks else None,
        "case_payload": tracks[0]["payload"] if tracks else None,
    }
    return render(request, "web/compare.html", context)


@require_GET
@gzip_page
def city_streets(request, name: str):
    version = city_version_get(name=name)
    if version is None:
        return JsonResponse({"error": f"no built city named {name!r}"}, status=404)
    etag = f'"streets-{version}"'
    not_modified = get_conditional_response(request, etag=etag)  # weak comparison: gzip makes the ETag weak
    if not_modified is not None:
        return not_modified
    response = HttpResponse(city_streets_geojson(name=name, version=version), content_type="application/geo+json")
    response["ETag"] = etag
    response["Cache-Control"] = "public, max-age=3600"
    return response
