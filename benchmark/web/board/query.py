"""The leaderboard as a request asks for it: the release, the query, the rows (page and downloads alike)."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.http import urlencode

from benchmark.board import leaderboard
from benchmark.board.search import Q_MAX, LeaderboardQuery, leaderboard_refine, provider_of
from benchmark.cases.models import Release
from benchmark.web.cases import browser
from kernel.vocabulary import Category


class BoardRequestError(Exception):
    """A query the leaderboard cannot answer: ``status`` 400 (a bad value) or 404 (no such release)."""

    def __init__(self, message: str, *, status: int = 400):
        super().__init__(message)
        self.message, self.status = message, status


@dataclass
class Board:
    releases: list[Release]
    release: Release | None
    query: LeaderboardQuery
    rows: list[dict]  # the rows shown, in order
    all_rows: int  # the release's listed runs before the filters
    case_count: int
    providers: list[str]  # the providers of the release's runs ("none" for runs without one)


def board_for(*, params, user) -> Board:
    """Resolve ``params`` (a request's GET) into the leaderboard ``user`` asked for.

    Raises:
        BoardRequestError: an unknown release (404) or a bad parameter (400), naming it.
    """
    releases = leaderboard.leaderboard_releases(user=user)
    release = leaderboard.default_release(releases)
    if params.get("release"):
        try:
            release = browser.release_by_name(releases, params["release"])
        except LookupError as exc:
            raise BoardRequestError(f"{exc} (releases with runs)", status=404) from None
    try:
        query = LeaderboardQuery.parse(params)
    except ValueError as exc:
        raise BoardRequestError(str(exc)) from None
    case_count = release.entries.count() if release else 0
    every = leaderboard.leaderboard_rows(release=release, user=user, cases=case_count) if release else []
    try:
        rows = leaderboard_refine(every, query=query)
    except ValueError as exc:
        raise BoardRequestError(str(exc)) from None
    providers = sorted({provider_of(r["model"]) or "none" for r in every})
    return Board(releases, release, query, rows, len(every), case_count, providers)


def search_context(board: Board) -> dict:
    """What the search form, the category table and the download links need (templates/web/board_search.html)."""
    params = board.query.as_params()
    if board.release:
        params = {"release": board.release.name, **params}
    category = board.query.category
    return {
        "table_template": "web/board_category_table.html" if category else "web/board_leaderboard_table.html",
        "search": {
            "q": board.query.q,
            "provider": board.query.provider,
            "since": board.query.since.isoformat() if board.query.since else "",
            "until": board.query.until.isoformat() if board.query.until else "",
            "category": category,
            "category_label": Category(category).label if category else "",
            "providers": board.providers,
            "categories": [(c.value, c.label) for c in Category],
            "q_max": Q_MAX,
            "filtered": any(params.get(k) for k in ("q", "provider", "since", "until", "verified")),
            "csv_url": "?" + urlencode({**params, "format": "csv"}),
            "json_url": "?" + urlencode({**params, "format": "json"}),
        },
    }
