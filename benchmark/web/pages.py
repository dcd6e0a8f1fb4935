"""What every part of the site's pages shares: the error page, a replay's URL, query strings, numbers as text."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import render
from django.urls import reverse
from django.utils.http import urlencode


def error_page(request: HttpRequest, message: str, *, status: int = 400) -> HttpResponse:
    """A page that says what was wrong (``message`` names the value and what is allowed) with ``status``."""
    return render(request, "web/board_error.html", {"message": message, "status": status}, status=status)


def trajectory_url(trajectory_id: int) -> str:
    """The replay page of a trajectory."""
    return reverse("trajectory", args=[trajectory_id])


def query(params: QueryDict, **changes: str | int | None) -> str:
    """``params`` as a query string ("?a=1&b=2") with ``changes`` applied, for links that set a parameter.

    A change's value sets its key, None removes it. Empty values are left out; a repeated key keeps its values.
    """
    kept = params.copy()
    for key, value in changes.items():
        if value is None:
            kept.pop(key, None)
        else:
            kept[key] = str(value)
    return "?" + urlencode([(key, value) for key, values in kept.lists() for value in values if value != ""])


def fmt(value: float | None, digits: int = 1, missing: str = "–") -> str:
    """A number as the tables show it (formatted here: the template filter costs 30 µs a cell)."""
    return missing if value is None else f"{value:,.{digits}f}"
