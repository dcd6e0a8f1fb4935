"""What the run page shows: tables 2 and 3 and the metrics per category laid out for the page, the
paper's figures 5 and 6, tokens per case, and the failed cases with their reasons.

The tables are the run's results (``benchmark.runs.results.run_results``: stored when the run
ended, computed by the same function while it runs); nothing here computes a pass rate or a metric
mean of them. The figures and the failed cases are per-trajectory views: two queries read the run's
rows as plain values (no model instances), one row per trajectory with the metric values and the
few score details the failure reasons need, and one count of tool calls per (tool, error kind, failed or not).
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass

from django.db import connection
from django.db.models import BooleanField, Count, Q, Value, When
from django.db.models import Case as SqlCase

from benchmark.cases.models import CATEGORIES, LEVELS, Case, ReleaseCase
from benchmark.runs.models import EvaluationRun, Step, Trajectory
from benchmark.runs.results import RunResults
from benchmark.web.failures import REASON_CODES, REASON_LABELS, failure_reasons
from judging.aggregate import TABLE3_METRICS
from kernel.error_kinds import SUCCESS_LABELS, ErrorKind
from kernel.vocabulary import CELLS

CATEGORY_LABELS = dict(CATEGORIES)
LEVEL_CODES = tuple(code for code, _ in LEVELS)
CURVE_METRICS = ("RP", "IG", "TE")  # figure 5
ERROR_KINDS = tuple(ErrorKind)  # figure 6, in its order
_DETAIL_PATHS = {
    "A_checks": "{A,details,checks}",
    "SC_checks": "{SC,details,checks}",
    "OC_inverted": "{OC,details,inverted_pairs}",
    "grounding_flags": "{grounding,details,flags}",
    "RP_flags": "{RP,details,flags}",
    "error": "{error,explanation}",
}
_ROW_COLUMNS = (
    "id",
    "trial",
    "status",
    "passed",
    "ended",
    "input_tokens",
    "output_tokens",
    "case_id",
    "category",
    "level",
    "position",
)


@dataclass(frozen=True)
class FailureFilters:
    """The failed-case list's filters, validated: '' means any."""

    category: str = ""
    level: str = ""
    reason: str = ""

    @classmethod
    def parse(cls, *, category: str = "", level: str = "", reason: str = "") -> FailureFilters:
        """Raises ValueError naming the bad filter and the allowed values."""
        allowed = {"category": tuple(CATEGORY_LABELS), "level": LEVEL_CODES, "reason": (*REASON_CODES, "other")}
        given = {"category": category or "", "level": level or "", "reason": reason or ""}
        for name, value in given.items():
            if value and value not in allowed[name]:
                raise ValueError(f"{name} must be one of {', '.join(allowed[name])}; got {value!r}")
        return cls(**given)


def run_cases(*, run: EvaluationRun) -> list[dict]:
    """Every trajectory of the run as a plain dict (one query): ids, case, verdict, tokens,
    metric values, and for the ones that did not pass, their failure reasons."""
    with connection.cursor() as cursor:
        cursor.execute(_cases_sql(), [run.id])
        return [_case(row) for row in cursor.fetchall()]


def _cases_sql(*, decompress_once: bool = True) -> str:
    """The run's rows with each metric value and the failure details pulled out of ``scores``.

    Raw SQL for one reason: ``scores`` is stored compressed, and PostgreSQL decompresses it
    again for every ``->`` it evaluates. The LATERAL subquery (kept apart by OFFSET 0)
    decompresses it once per row; with 15 values per row this made the query about 4 times faster
    on 667 trajectories (docs/benchmarks.md, "Dashboard pages"; ``decompress_once=False`` gives
    the plain form, for that measurement).
    """
    numbers = ", ".join(
        f"CASE WHEN jsonb_typeof(d.s #> '{{{name},value}}') = 'number' THEN (d.s #>> '{{{name},value}}')::float END"
        for name in TABLE3_METRICS
    )
    details = ", ".join(f"'{key}', d.s #> '{path}'" for key, path in _DETAIL_PATHS.items())
    return f"""
        SELECT t.id, t.trial, t.status, t.passed, t.ended, t.input_tokens, t.output_tokens,
               c.case_id, c.category, c.level, e.position, {numbers},
               CASE WHEN t.passed IS TRUE THEN NULL ELSE jsonb_build_object({details})::text END
        FROM {Trajectory._meta.db_table} t
        JOIN {ReleaseCase._meta.db_table} e ON e.id = t.entry_id
        JOIN {Case._meta.db_table} c ON c.id = e.case_id
        {_LATERAL if decompress_once else _PLAIN}
        WHERE t.run_id = %s
        ORDER BY e.position, t.trial"""


_LATERAL = "CROSS JOIN LATERAL (SELECT coalesce(t.scores, '{}'::jsonb) || '{}'::jsonb AS s OFFSET 0) d"
_PLAIN = "CROSS JOIN LATERAL (SELECT t.scores AS s) d"  # pulled up by the planner: one decompression per value


def _case(row: tuple) -> dict:
    case = dict(zip(_ROW_COLUMNS, row))
    case["tokens"] = case["input_tokens"] + case["output_tokens"]
    values = row[len(_ROW_COLUMNS) : len(_ROW_COLUMNS) + len(TABLE3_METRICS)]
    case["metrics"] = dict(zip(TABLE3_METRICS, values))
    case["reasons"] = []
    if case["status"] == Trajectory.DONE and case["passed"] is not True:
        details = json.loads(row[-1]) if row[-1] else {}
        case["reasons"] = failure_reasons(
            ended=case["ended"],
            passed=case["passed"],
            category=case["category"],
            scores=_thin_scores(case["metrics"], details),
        )
    return case


def _thin_scores(metrics: dict, details: dict) -> dict:
    """The parts of the stored scores that failure_reasons reads, in the stored shape."""
    scores = {name: {"value": value, "details": {}} for name, value in metrics.items()}
    scores["A"]["details"]["checks"] = details.get("A_checks")
    scores["SC"]["details"]["checks"] = details.get("SC_checks")
    scores["OC"]["details"]["inverted_pairs"] = details.get("OC_inverted")
    scores["RP"]["details"]["flags"] = details.get("RP_flags")
    scores["grounding"] = {"details": {"flags": details.get("grounding_flags")}}
    if details.get("error") is not None:
        scores["error"] = {"explanation": details["error"]}
    return scores


def done_cases(cases: list[dict]) -> list[dict]:
    return [c for c in cases if c["status"] == Trajectory.DONE]


def cell_table(results: RunResults) -> list[dict]:
    """Table 2's cells laid out by category: {category, label, cells: {level: cell}}, a cell as table 2
    stores it ({pr, n}, with ``pass_hat_k`` and ``trials`` when a case has several trials), None for a
    cell that does not exist (Trip Design L0)."""
    stored = results.table2.get("cells") or {}
    return [
        {
            "category": category,
            "label": label,
            "cells": {
                level: stored.get(f"{category}/{level}", {"pr": None, "n": 0}) if (category, level) in CELLS else None
                for level in LEVEL_CODES
            },
        }
        for category, label in CATEGORIES
    ]


def category_breakdown(results: RunResults) -> list[dict]:
    """Per category (``results.categories``): rows, pass rate, each metric's mean in % where it applies,
    and average tokens."""
    empty = {"n": 0, "PR": None, "tokens": None}
    categories = results.categories or {}
    rows = [(category, label, categories.get(category) or empty) for category, label in CATEGORIES]
    return [
        {
            "category": category,
            "label": label,
            "n": row["n"],
            "pr": row["PR"],
            "tokens": row["tokens"],
            "metrics": {name: row.get(name) for name in TABLE3_METRICS},
        }
        for category, label, row in rows
    ]


def table3_rows(results: RunResults) -> list[dict]:
    """Table 3 of the paper for this run: one row per metric (process, outcome, PR, tokens), a column per level."""
    groups = [
        ("Process", ("IG", "TE", "RP")),
        ("Outcome", ("A", "PIoU", "RD_distance", "RD_time", "OC", "SC")),
        ("", ("PR", "tokens")),
    ]
    return [
        {
            "group": group,
            "metric": name,
            "values": [(results.table3.get(level) or {}).get(name) for level in LEVEL_CODES],
        }
        for group, names in groups
        for name in names
    ]


CURVE_SERIES = ("All", *CATEGORY_LABELS.values())


def curve_series(cases: list[dict], *, level: str) -> dict[str, dict[str, list[float]]]:
    """Figure 5's data: for RP, IG and TE, the values per series of CURVE_SERIES ("All" and each
    category's label) at ``level`` ("" for every level); series without a value are left out."""
    done = [c for c in done_cases(cases) if not level or c["level"] == level]
    series = {}
    for name in CURVE_METRICS:
        per = {"All": [c["metrics"][name] for c in done if c["metrics"][name] is not None]}
        for category, label in CATEGORIES:
            per[label] = [
                c["metrics"][name] for c in done if c["category"] == category and c["metrics"][name] is not None
            ]
        series[name] = {label: values for label, values in per.items() if values}
    return series


def tool_failures(*, run: EvaluationRun) -> dict:
    """Figure 6's data (one query): {"kinds": the error kinds of failed calls, figure 6's order first,
    "labels": the kinds that labelled calls that worked, "rows": [{"tool", "calls", "failed",
    "kinds": {kind: failed calls}, "labelled": {label: calls that worked}}] per tool}.

    A call failed when its observation is an error, as the replay decides (``web/replay/summary.py``):
    ``truncated`` and ``empty_result`` also label calls that worked (a cut list, no match), and those
    count as successes; any other kind is a failure whatever was stored with it.
    """
    counts = (
        Step.objects.filter(trajectory__run=run)
        .annotate(failed=_STEP_FAILED)
        .values_list("tool", "error_kind", "failed")
        .annotate(n=Count("id"))
        .order_by()
    )
    failures: dict[str, Counter] = {}
    labelled: dict[str, Counter] = {}
    for tool, kind, failed, n in counts:
        failures.setdefault(tool, Counter())
        labelled.setdefault(tool, Counter())
        (failures if failed else labelled)[tool][kind or "ok"] += n
    return {
        "kinds": _kinds_in_order(failures),
        "labels": _kinds_in_order(labelled),
        "rows": [
            {
                "tool": tool,
                "calls": sum(c.values()) + sum(labelled[tool].values()),
                "failed": sum(c.values()),
                "kinds": {kind: c.get(kind, 0) for kind in _kinds_in_order(failures)},
                "labelled": {kind: labelled[tool].get(kind, 0) for kind in _kinds_in_order(labelled)},
            }
            for tool, c in sorted(failures.items())
        ],
    }


# CASE evaluates in order, so only steps with a label kind have their (large, compressed) observation read.
_STEP_FAILED = SqlCase(
    When(error_kind="", then=Value(False)),
    When(~Q(error_kind__in=SUCCESS_LABELS), then=Value(True)),
    When(observation__has_key="error", then=Value(True)),
    default=Value(False),
    output_field=BooleanField(),
)


def _kinds_in_order(per_tool: dict[str, Counter]) -> list[str]:
    seen = {kind for c in per_tool.values() for kind in c if kind != "ok"}
    return [k for k in ERROR_KINDS if k in seen] + sorted(seen - set(ERROR_KINDS))


def failed_cases(cases: list[dict], *, filters: FailureFilters) -> list[dict]:
    """The done cases that did not pass, narrowed by the filters, each with its reasons' labels."""
    out = []
    for case in done_cases(cases):
        if case["passed"] is True:
            continue
        if filters.category and case["category"] != filters.category:
            continue
        if filters.level and case["level"] != filters.level:
            continue
        if filters.reason and filters.reason not in case["reasons"]:
            continue
        out.append({**case, "reason_labels": [REASON_LABELS[r] for r in case["reasons"]]})
    return out


def reason_counts(cases: list[dict], *, filters: FailureFilters | None = None) -> list[tuple[str, str, int]]:
    """(code, label, failed cases with that reason) for every reason that occurs, in table order: within the
    category and level ``filters`` name, so that each count is what choosing that reason would list."""
    chosen = [
        c
        for c in done_cases(cases)
        if filters is None
        or (
            (not filters.category or c["category"] == filters.category)
            and (not filters.level or c["level"] == filters.level)
        )
    ]
    counts = Counter(r for c in chosen for r in c["reasons"])
    return [(code, REASON_LABELS[code], counts[code]) for code in (*REASON_CODES, "other") if counts[code]]


def status_counts(cases: list[dict]) -> dict[str, int]:
    return dict(Counter(c["status"] for c in cases))
