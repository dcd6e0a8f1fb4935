"""Files to take away: CSV and JSON attachments, for the leaderboard's and a run's downloads.

- CSV: UTF-8, a header row, one row per leaderboard row or failed case. A text cell that a
  spreadsheet would read as a formula (it starts with ``=``, ``+``, ``-``, ``@``, a tab or a carriage
  return) gets a ``'`` in front, so a run named ``=HYPERLINK(...)`` stays text.
- JSON: sorted keys, the fields documented in docs/dashboard.md ("Downloads").
- Both are attachments whose file name names the release or the run (``board/downloads.py``,
  ``runs/failure_export.py``).
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Iterable, Sequence
from typing import Any

from django.http import HttpResponse

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
