"""Reads for the case browser: a release's cases with filters, and one case with its map and results.

Cases are read from the release's frozen snapshots (what the runs were scored on). Answers,
reference paths, required evidence and the constraints that name answer places are shown only
where ``can_see_answers`` allows (a public release, or a curator).
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from django.db.models import F, Q, QuerySet

from benchmark.board.visibility import can_see_answers, per_case_visible, runs_visible
from benchmark.cases.evidence_card import evidence_card
from benchmark.cases.models import CATEGORIES, LEVELS, Case, Release, ReleaseCase
from benchmark.runs.models import Trajectory

PAGE_SIZE = 50
QUERY_MAX_LENGTH = 200
# Constraints that restate the question; the others (a hidden fact and its place, visit-order pairs of
# answer places, anything new) can give the answer away, so a hidden release shows them only to curators.
QUESTION_CONSTRAINTS = (
    "vehicle",
    "mode",
    "center",
    "radius_m",
    "place_type",
    "min_rating",
    "max_cost",
    "route_buffer_m",
    "at",
    "start_time",
    "dwell_minutes",
)
_LIST_FIELDS = {
    "number": "position",
    "case_code": "snapshot__case_id",
    "type": "snapshot__type",
    "category": "snapshot__category",
    "level": "snapshot__level",
    "question": "snapshot__question",
}


@dataclass(frozen=True)
class CaseFilters:
    """The case list's filters, validated: '' means any."""

    category: str = ""
    level: str = ""
    q: str = ""

    @classmethod
    def parse(cls, *, category: str = "", level: str = "", q: str = "") -> CaseFilters:
        """Raises ValueError naming the bad filter and what is allowed."""
        categories, levels = [c for c, _ in CATEGORIES], [lv for lv, _ in LEVELS]
        if category and category not in categories:
            raise ValueError(f"category must be one of {', '.join(categories)}; got {category!r}")
        if level and level not in levels:
            raise ValueError(f"level must be one of {', '.join(levels)}; got {level!r}")
        q = (q or "").strip()
        if len(q) > QUERY_MAX_LENGTH:
            raise ValueError(
                f"q (words of the question or the case id) is at most {QUERY_MAX_LENGTH} characters; got {len(q)}"
            )
        return cls(category=category or "", level=level or "", q=q)


def browsable_releases() -> list[Release]:
    """Every release, newest first (releases and their questions are public)."""
    return list(Release.objects.order_by("-created_at", "-id"))


def release_by_name(releases: list[Release], name: str) -> Release:
    """The release called ``name`` among ``releases``; LookupError names the known ones."""
    for release in releases:
        if release.name == name:
            return release
    known = ", ".join(r.name for r in releases) or "none yet"
    raise LookupError(f"no release named {name!r}; releases: {known}")


def release_cases(*, release: Release, filters: CaseFilters) -> QuerySet:
    """The release's cases as dicts (number, case_code, type, category, level, question), in order."""
    entries = release.entries.all()
    if filters.category:
        entries = entries.filter(snapshot__category=filters.category)
    if filters.level:
        entries = entries.filter(snapshot__level=filters.level)
    if filters.q:
        entries = entries.filter(Q(snapshot__question__icontains=filters.q) | Q(snapshot__case_id__icontains=filters.q))
    return entries.order_by("position").values(**{k: F(v) for k, v in _LIST_FIELDS.items()})


def release_entry(*, release_name: str, case_id: str) -> ReleaseCase:
    """The case ``case_id`` as frozen in the release; ReleaseCase.DoesNotExist when there is none."""
    return ReleaseCase.objects.select_related("release").get(release__name=release_name, case__case_id=case_id)


def newest_release_of(*, case_id: str) -> Release:
    """The newest release that holds ``case_id``; Release.DoesNotExist when none does."""
    release = Release.objects.filter(entries__case__case_id=case_id).order_by("-created_at", "-id").first()
    if release is None:
        raise Release.DoesNotExist(f"no release holds case {case_id!r}")
    return release


def case_view(*, entry: ReleaseCase, user) -> dict:
    """What the case page shows of a frozen case, given what ``user`` may see."""
    snap = entry.snapshot
    visible = can_see_answers(user=user, release=entry.release)
    constraints = snap.get("constraints") or {}
    shown = constraints if visible else {k: v for k, v in constraints.items() if k in QUESTION_CONSTRAINTS}
    view = {
        "case_id": snap["case_id"],
        "type": snap.get("type", ""),
        "category": snap["category"],
        "level": snap["level"],
        "question": snap["question"],
        "answers_visible": visible,
        "constraints": [(k, _show(v)) for k, v in sorted(shown.items())],
        "withheld_constraints": len(constraints) - len(shown),
        "city_name": snap.get("city_name", ""),
    }
    if visible:
        view.update(
            answer=json.dumps(snap.get("answer"), indent=2, ensure_ascii=False),
            reference_path=[
                {"tool": step.get("tool", ""), "arguments": _show(step.get("arguments"))}
                for step in snap.get("reference_path") or []
            ],
            required_evidence=snap.get("required_evidence") or {},
            evidence_card=evidence_card(
                level=snap["level"],
                city_name=snap.get("city_name", ""),
                uniqueness=snap.get("uniqueness") or {},
                verification=entry.case.verification,
            ),
        )
    return view


def _show(value) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def case_map(*, entry: ReleaseCase) -> dict:
    """The reference places and routed legs of the frozen answer (call only when answers are visible)."""
    from benchmark.cases.selectors import case_map_geojson

    snap = entry.snapshot
    return case_map_geojson(Case(answer=snap.get("answer"), city_name=snap.get("city_name", "")))


def case_results(*, entry: ReleaseCase, user) -> list[dict]:
    """Each run ``user`` may see that ran this case: run, trial, verdict, how it ended, trajectory id (none on a
    hidden release unless ``per_case_visible``)."""
    if not per_case_visible(user=user, release=entry.release):
        return []
    runs = runs_visible(user=user).filter(release_id=entry.release_id)
    # The stubs type values() rows as TypedDicts; they are plain dicts, and the page adds a key to each.
    return list(
        Trajectory.objects.filter(entry=entry, run__in=runs)
        .order_by("run_id", "trial")
        .values(  # type: ignore[arg-type]
            "id",
            "trial",
            "passed",
            "ended",
            "status",
            "run_id",
            run_name=F("run__name"),
            run_agent=F("run__agent"),
            run_purpose=F("run__purpose"),
        )
    )
