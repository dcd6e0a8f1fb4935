"""Query parameters and pagination of the API: a value that is not allowed answers 400 naming the
allowed ones; the schema documents each parameter."""
from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter
from rest_framework.exceptions import ValidationError
from rest_framework.pagination import LimitOffsetPagination

from benchmark.models import CATEGORIES, LEVELS, EvaluationRun, Trajectory

SLUG = r"[-a-zA-Z0-9_]+"
CATEGORY_VALUES = [c for c, _ in CATEGORIES]
LEVEL_VALUES = [lv for lv, _ in LEVELS]
RUN_STATUSES = [st for st, _ in EvaluationRun.STATUSES]
PURPOSES = [p for p, _ in EvaluationRun.PURPOSES]
ENDINGS = list(Trajectory.ENDINGS)


class Pagination(LimitOffsetPagination):
    default_limit = 100
    max_limit = 500


def choice_param(request, name: str, allowed: list[str]) -> str | None:
    """The query parameter ``name`` if given; a 400 naming the allowed values when it is not one."""
    value = request.query_params.get(name)
    if value is None or value == "":
        return None
    if value not in allowed:
        raise ValidationError({name: [f"{value!r} is not allowed; use one of {', '.join(allowed)}"]})
    return value


def int_param(request, name: str) -> int | None:
    value = request.query_params.get(name)
    if value is None or value == "":
        return None
    if not value.isascii() or not value.isdigit() or len(value) > 18:
        raise ValidationError({name: [f"{value!r} is not allowed; use a run id (a positive whole number)"]})
    return int(value)


def bool_param(request, name: str) -> bool | None:
    value = request.query_params.get(name)
    if value is None or value == "":
        return None
    if value not in ("true", "false"):
        raise ValidationError({name: [f"{value!r} is not allowed; use true or false"]})
    return value == "true"


def query_param(name: str, description: str, *, enum: list[str] | None = None, type_=str) -> OpenApiParameter:
    return OpenApiParameter(name, type_, OpenApiParameter.QUERY, required=False, description=description, enum=enum)
