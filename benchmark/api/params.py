"""Request input of the API: query parameters, JSON bodies and pagination. A value that is not
allowed answers 400 naming the parameter or field and what is allowed; the schema documents each
query parameter."""

from __future__ import annotations

import codecs

from drf_spectacular.utils import OpenApiParameter
from rest_framework import parsers
from rest_framework.exceptions import ParseError, ValidationError
from rest_framework.pagination import LimitOffsetPagination

from benchmark.runs.models import EvaluationRun
from kernel.inputs import REQUEST_JSON, parse_json
from kernel.vocabulary import Category, Ending, Level

SLUG = r"[-a-zA-Z0-9_]+"
# The values a query parameter may take, as plain strings (the schema lists them).
CATEGORY_VALUES = [category.value for category in Category]
LEVEL_VALUES = [level.value for level in Level]
RUN_STATUSES = EvaluationRun.Status.values
PURPOSES = EvaluationRun.Purpose.values
ENDINGS = [ending.value for ending in Ending]


class Pagination(LimitOffsetPagination):
    """limit and offset, each a whole number in its range or a 400 naming it (DRF's own silently takes the
    default for ``offset=null`` and the maximum for a limit above it)."""

    default_limit = 100
    max_limit = 500

    def get_limit(self, request):
        return _whole(request, self.limit_query_param, self.default_limit, low=1, high=self.max_limit)

    def get_offset(self, request):
        return _whole(request, self.offset_query_param, 0, low=0, high=10**12)


def _whole(request, name: str, default: int, *, low: int, high: int) -> int:
    value = request.query_params.get(name)
    if value is None or value == "":
        return default
    if not value.isascii() or not value.isdigit() or len(value) > 13 or not low <= int(value) <= high:
        raise ValidationError({name: [f"{value[:40]!r} is not allowed; use a whole number from {low} to {high}"]})
    return int(value)


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


class JSONParser(parsers.JSONParser):
    """DRF's JSON parser with the hygiene of ``kernel.inputs``: a body too deep to parse, NaN,
    Infinity, a huge number, a NUL character or overlong text answers 400 naming the field (DRF's
    own parser answers a deep body with a 500, and lets NUL through to PostgreSQL)."""

    def parse(self, stream, media_type=None, parser_context=None):
        # get_encoding is in DRF 3.18.3 (installed) but not yet in djangorestframework-stubs 3.18.1.
        encoding = parsers.get_encoding(parser_context or {})  # type: ignore[attr-defined]
        try:
            text = codecs.getreader(encoding)(stream).read()
        except UnicodeDecodeError as exc:
            raise ParseError(f"JSON parse error - the body is not {encoding} text ({exc.reason})") from None
        data, problems = parse_json(text, limits=REQUEST_JSON)
        whole = next((p for p in problems if not p.path), None)
        if whole is not None:
            raise ParseError(f"JSON parse error - the body {whole.reason}")
        if problems:
            errors: dict[str, list[str]] = {}
            for problem in problems:
                errors.setdefault(problem.parameter or problem.path, []).append(str(problem))
            raise ValidationError(errors)
        return data
