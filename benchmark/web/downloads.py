"""Taking data away: the leaderboard and a run's failed cases as CSV and JSON files.

- CSV: UTF-8, a header row, one row per leaderboard row or failed case. A text cell that a
  spreadsheet would read as a formula (it starts with ``=``, ``+``, ``-``, ``@``, a tab or a carriage
  return) gets a ``'`` in front, so a run named ``=HYPERLINK(...)`` stays text.
- JSON: sorted keys, the fields documented in docs/dashboard.md ("Downloads"); the leaderboard's is
  ``benchmark.board.search.leaderboard_document``, the REST API's answer.
- Both are attachments whose file name names the release or the run.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Iterable, Sequence
from typing import Any

from django.http import HttpResponse

from benchmark.board.leaderboard import CELL_KEYS
from benchmark.board.search import leaderboard_document

from .board_query import Board

FORMATS = ("csv", "json")
# A spreadsheet may read a cell as a formula when it starts with one of these (after the blanks some trim on
# import), full-width forms included.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "\n", "\uff1d", "\uff0b", "\uff0d", "\uff20")
_BLANKS = " \t\r\n\u3000"
_UNSAFE_FILENAME = re.compile(r"[^A-Za-z0-9._-]+")


def download_format(value: str) -> str:
    """The ``format`` parameter, validated.

    Raises:
        ValueError: naming the value and the allowed formats.
    """
    if value not in FORMATS:
        raise ValueError(f"format must be one of {', '.join(FORMATS)}; got {value!r}")
    return value


def csv_cell(value: Any) -> str | int | float:
    """A value as a CSV cell: numbers as they are, None as empty, text safe from formula injection."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return value
    text = value if isinstance(value, str) else json.dumps(value, sort_keys=True, ensure_ascii=False)
    return "'" + text if text.startswith(FORMULA_START) or text.lstrip(_BLANKS).startswith(FORMULA_START) else text


def csv_text(header: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(header)
    writer.writerows([csv_cell(v) for v in row] for row in rows)
    return out.getvalue()


def attachment(body: str, *, filename: str, fmt: str) -> HttpResponse:
    """``body`` as a file download named ``filename``.``fmt`` (characters outside [A-Za-z0-9._-] become '-')."""
    content_type = "text/csv; charset=utf-8" if fmt == "csv" else "application/json; charset=utf-8"
    response = HttpResponse(body.encode("utf-8"), content_type=content_type)
    safe = _UNSAFE_FILENAME.sub("-", filename).strip("-.") or "download"
    response["Content-Disposition"] = f'attachment; filename="{safe}.{fmt}"'
    response["X-Content-Type-Options"] = "nosniff"
    return response


def json_text(document: Any) -> str:
    return json.dumps(document, sort_keys=True, ensure_ascii=False, indent=1) + "\n"


# ------------------------------------------------------------------ leaderboard

LEADERBOARD_COLUMNS = (
    "rank_best",
    "rank_worst",
    "run_id",
    "name",
    "agent",
    "provider",
    "model",
    "created_at",
    "status",
    "verified",
    "baseline",
    "complete",
    "n",
    "expected",
    "overall",
    "overall_low",
    "overall_high",
    "pass_k",
    "pass_k_trials",
    "pass_k_low",
    "pass_k_high",
    "macro",
    *CELL_KEYS,
    "avg_tokens",
    "cost",
)
CATEGORY_COLUMNS = ("category", "category_overall", "category_L0", "category_L1", "category_L2")


def leaderboard_csv(document: dict) -> str:
    """The rows of a ``leaderboard_document`` as CSV, in its order; the category view adds CATEGORY_COLUMNS."""
    rows = document["rows"]
    with_category = any(row["category"] for row in rows) or bool(document["query"].get("category"))
    header = LEADERBOARD_COLUMNS + (CATEGORY_COLUMNS if with_category else ())
    return csv_text(header, (_leaderboard_line(row, with_category=with_category) for row in rows))


def _leaderboard_line(row: dict, *, with_category: bool) -> list:
    rank, overall, pass_k = row["rank"] or [None, None], row["overall"] or {}, row["pass_k"] or {}
    values = {
        **row,
        "rank_best": rank[0],
        "rank_worst": rank[1],
        "overall": overall.get("value"),
        "overall_low": overall.get("low"),
        "overall_high": overall.get("high"),
        "pass_k": pass_k.get("value"),
        "pass_k_trials": pass_k.get("k"),
        "pass_k_low": pass_k.get("low"),
        "pass_k_high": pass_k.get("high"),
        **row["cells"],
    }
    line = [values[column] for column in LEADERBOARD_COLUMNS]
    if with_category:
        category = row["category"] or {"name": None, "overall": None, "cells": {}}
        line += [category["name"], category["overall"], *(category["cells"].get(lv) for lv in ("L0", "L1", "L2"))]
    return line


# ------------------------------------------------------------------ failed cases

FAILURE_COLUMNS = (
    "trajectory_id",
    "case_id",
    "category",
    "level",
    "trial",
    "ended",
    "reasons",
    "reason_labels",
    "first_failing_step",
    "first_failing_tool",
    "first_failing_error_kind",
    "replay_url",
    "final_answer",
    "explanations",
)


def failures_csv(document: dict) -> str:
    """The failed cases of a ``failures_document`` as CSV (lists joined with '; ', objects as JSON)."""
    return csv_text(FAILURE_COLUMNS, (_failure_line(row) for row in document["failures"]))


def _failure_line(row: dict) -> list:
    step = row["first_failing_step"] or {}
    values = {
        **row,
        "reasons": "; ".join(row["reasons"]),
        "reason_labels": "; ".join(row["reason_labels"]),
        "first_failing_step": step.get("number"),
        "first_failing_tool": step.get("tool"),
        "first_failing_error_kind": step.get("error_kind"),
    }
    return [values[column] for column in FAILURE_COLUMNS]


def leaderboard_download(board: Board, *, fmt: str) -> HttpResponse:
    """A ``board_query.Board`` as a CSV or JSON attachment named after its release."""
    document = leaderboard_document(release=board.release, releases=board.releases, rows=board.rows, query=board.query)
    name = f"lifeplanner-leaderboard-{board.release.name if board.release else 'none'}"
    if board.query.category:
        name += f"-{board.query.category}"
    body = leaderboard_csv(document) if fmt == "csv" else json_text(document)
    return attachment(body, filename=name, fmt=fmt)
