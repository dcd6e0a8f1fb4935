"""The leaderboard as a CSV or JSON file: the home page with ``?format=csv`` or ``?format=json``.

The JSON is ``benchmark.board.search.leaderboard_document``, the REST API's answer; the CSV has a row per
leaderboard row (benchmark/web/files.py keeps a text cell from reading as a formula).
"""

from __future__ import annotations

from django.http import HttpResponse

from benchmark.board.leaderboard import CELL_KEYS
from benchmark.board.search import leaderboard_document
from benchmark.web.board.query import Board
from benchmark.web.files import attachment, csv_text, json_text

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


def leaderboard_download(board: Board, *, fmt: str) -> HttpResponse:
    """A ``query.Board`` as a CSV or JSON attachment named after its release."""
    document = leaderboard_document(release=board.release, releases=board.releases, rows=board.rows, query=board.query)
    name = f"lifeplanner-leaderboard-{board.release.name if board.release else 'none'}"
    if board.query.category:
        name += f"-{board.query.category}"
    body = leaderboard_csv(document) if fmt == "csv" else json_text(document)
    return attachment(body, filename=name, fmt=fmt)
