"""Finding runs on the leaderboard: search, filters, the category view, and the rows as a document.

The page, its CSV/JSON downloads and the REST API's leaderboard all go through ``leaderboard_view``:
the release's rows from ``leaderboard_rows`` (ranks computed over every listed run of the release),
then the category view (when asked), the sort, and last the filters, so a run that a filter keeps
keeps the rank it has among all runs of the release. ``leaderboard_document`` turns the rows into
plain JSON values, the one shape of the API's answer and of the page's JSON download.

- ``q``: a case-insensitive substring of the run's name, its agent or its endpoint's model string.
- ``provider``: the litellm provider prefix of the endpoint's model string ("openai" in
  "openai/gpt-4o"); ``none`` picks runs without one (agents without an endpoint, and a bare model
  name such as "gpt-4o-mini", whose provider litellm would infer: the page does not load litellm
  to guess it).
- ``since`` / ``until``: ISO dates (YYYY-MM-DD), both days included, on the day the run was created
  (the leaderboard's Date column), in the site's time zone.
- ``category``: one of the four task categories; each row gets that category's pass rate and its
  level cells, and ``rank`` becomes the rank by that pass rate.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass
from datetime import date, datetime

from django.utils import timezone

from benchmark.cases.models import Release
from kernel.vocabulary import CELLS, Category, Level, cell_key

from .leaderboard import DEFAULT_SORT, leaderboard_rows, leaderboard_sort

Q_MAX = 200
NO_PROVIDER = "none"
_PROVIDER = re.compile(r"[a-z0-9][a-z0-9_\-]{0,39}")
_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
CATEGORY_VALUES = tuple(c.value for c in Category)
LEVELS = tuple(level.value for level in Level)


def provider_of(model: str) -> str:
    """The litellm provider prefix of a model string ("openai" in "openai/gpt-4o"); "" for none."""
    prefix, slash, rest = (model or "").partition("/")
    return prefix.lower() if slash and prefix and rest else ""


class QueryError(ValueError):
    """A bad leaderboard parameter: ``field`` names it, the message says what is allowed."""

    def __init__(self, field: str, message: str):
        super().__init__(message)
        self.field = field


@dataclass(frozen=True)
class LeaderboardQuery:
    """The leaderboard's validated query: '' / None / False mean "any"."""

    q: str = ""
    provider: str = ""
    since: date | None = None
    until: date | None = None
    category: str = ""
    verified: bool = False
    sort: str = DEFAULT_SORT

    @classmethod
    def parse(cls, params) -> LeaderboardQuery:
        """The query from a mapping of query parameters (``request.GET``).

        Raises:
            QueryError: naming the parameter, the value given and what is allowed.
        """
        q = (params.get("q") or "").strip()
        if len(q) > Q_MAX:
            raise QueryError("q", f"q must be at most {Q_MAX} characters; got {q[:40]!r}... ({len(q)} characters)")
        provider = (params.get("provider") or "").strip().lower()
        if provider and not _PROVIDER.fullmatch(provider):
            raise QueryError(
                "provider",
                f"provider must be '{NO_PROVIDER}' or a litellm provider prefix (lower-case letters, digits,"
                f" '_' or '-', up to 40 characters, e.g. openai); got {params.get('provider')!r}",
            )
        since, until = _date(params, "since"), _date(params, "until")
        if since and until and until < since:
            raise QueryError("until", f"until must not be before since; got since={since} and until={until}")
        category = params.get("category") or ""
        if category and category not in CATEGORY_VALUES:
            raise QueryError("category", f"category must be one of {', '.join(CATEGORY_VALUES)}; got {category!r}")
        verified = params.get("verified") or ""
        if verified not in ("", "0", "1"):
            raise QueryError("verified", f"verified must be 1 (verified runs only) or 0; got {verified!r}")
        sort = params.get("sort") or DEFAULT_SORT
        return cls(q, provider, since, until, category, verified == "1", sort)

    def as_params(self) -> dict[str, str]:
        """The query as it was given, without its defaults (for links and the JSON document)."""
        values = {k: "" if v is None else str(v) for k, v in asdict(self).items()}
        values["verified"] = "1" if self.verified else ""
        if self.sort == DEFAULT_SORT:
            values["sort"] = ""
        return {k: v for k, v in values.items() if v}


def _date(params, name: str) -> date | None:
    value = (params.get(name) or "").strip()
    if not value:
        return None
    try:
        if _ISO_DATE.fullmatch(value):
            return date.fromisoformat(value)
    except ValueError:
        pass  # a day that does not exist, e.g. 2026-02-30
    raise QueryError(name, f"{name} must be an ISO date, YYYY-MM-DD (e.g. 2026-12-01); got {value!r}")


def leaderboard_view(*, release: Release, user, query: LeaderboardQuery, cases: int | None = None) -> list[dict]:
    """The rows of ``release`` that ``user`` may see, as ``query`` asks (``leaderboard_refine``).

    Raises:
        ValueError: an unknown sort column (``leaderboard_sort``'s message).
    """
    return leaderboard_refine(leaderboard_rows(release=release, user=user, cases=cases), query=query)


def leaderboard_refine(rows: list[dict], *, query: LeaderboardQuery) -> list[dict]:
    """``leaderboard_rows``'s rows as ``query`` asks: the category view, the sort, then the filters.

    Ranks are those among every listed run of the release: a filter hides rows, it does not rank again.

    Raises:
        ValueError: an unknown sort column (``leaderboard_sort``'s message).
    """
    if query.category:
        rows = category_view(rows, category=query.category)
    rows = leaderboard_sort(rows, sort=query.sort)
    return [row for row in rows if _matches(row, query)]


def _matches(row: dict, query: LeaderboardQuery) -> bool:
    if query.verified and not row["verified"]:
        return False
    if query.q:
        needle = query.q.casefold()
        if not any(needle in (row[k] or "").casefold() for k in ("name", "agent", "model")):
            return False
    if query.provider and (provider_of(row["model"]) or NO_PROVIDER) != query.provider:
        return False
    day = timezone.localdate(row["created_at"])
    return not (query.since and day < query.since) and not (query.until and day > query.until)


def category_view(rows: list[dict], *, category: str) -> list[dict]:
    """The rows with ``category`` set to the category's pass rate and level cells, and ``rank`` the rank
    by that pass rate among the ranked table's runs (complete, verified runs of models).

    The category's pass rate is the mean of its cells weighted by their scored trajectories (the pass
    rate over the category's cases). The stored results keep no interval per category, so this rank is
    a plain competition rank ("1, 2, 2, 4": equal rates share one), not a range of overlapping intervals.
    """
    levels = {level.value: cell_key(c, level) for c, level in CELLS if c == category}
    out = []
    for row in rows:
        overall = (row.get("categories") or {}).get(category)
        cells = {level: row["cells"].get(levels[level]) if level in levels else None for level in LEVELS}
        out.append({**row, "rank": None, "category": {"name": category, "overall": overall, "cells": cells}})
    ranked = [r for r in out if r["section"] == "verified" and r["category"]["overall"] is not None]
    for row in ranked:
        place = 1 + sum(1 for other in ranked if other["category"]["overall"] > row["category"]["overall"])
        row["rank"] = [place, place]
    return out


# ------------------------------------------------------------------ the rows as JSON values


def leaderboard_document(*, release: Release | None, releases: list[Release], rows: list[dict], query=None) -> dict:
    """The leaderboard as plain JSON values: the REST API's answer and the page's JSON download.

    ``{"release", "releases", "query", "rows"}``; each row has the fields of ``leaderboard_rows`` (see
    there) with ``created_at`` as ISO 8601 text, plus ``provider`` and ``category`` (null unless the
    query asks for a category view: ``{"name", "overall", "cells": {"L0", "L1", "L2"}}``).
    """
    return {
        "release": release.name if release else None,
        "releases": [r.name for r in releases],
        "query": query.as_params() if query else {},
        "rows": [document_row(row) for row in rows],
    }


def document_row(row: dict) -> dict:
    """One leaderboard row as JSON values (the fields DOCUMENT_FIELDS, in that order)."""
    values = {**row, "created_at": _iso(row["created_at"]), "provider": provider_of(row["model"])}
    values.setdefault("category", None)
    return {name: values[name] for name in DOCUMENT_FIELDS}


DOCUMENT_FIELDS = (
    "run_id",
    "name",
    "agent",
    "provider",
    "model",
    "created_at",
    "status",
    "verified",
    "baseline",
    "section",
    "description",
    "submitter",
    "complete",
    "n",
    "expected",
    "rank",
    "overall",
    "pass_k",
    "macro",
    "cells",
    "categories",
    "levels",
    "avg_tokens",
    "cost",
    "category",
)


def _iso(value: datetime) -> str:
    """As Django REST framework writes a datetime: in the current time zone, "Z" for UTC."""
    text = timezone.localtime(value).isoformat()
    return text[:-6] + "Z" if text.endswith("+00:00") else text
