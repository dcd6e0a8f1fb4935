"""The kinds of tool outcome (figure 6 of the paper), defined once.

A failed call carries one in its error (``{"error": {"kind": ...}}``) and in its step's
``error_kind``; a successful call is labelled ``truncated`` (a list was cut) or ``empty_result``
(nothing matched) when worth knowing, and otherwise carries no kind (""). The tools raise them
(``environment.tools.errors.ToolError``) and the gateway labels them. The members are
``StrEnum``s, equal to the plain strings stored on steps.
"""

from __future__ import annotations

from enum import StrEnum


class ErrorKind(StrEnum):
    """A tool call's outcome kind, in figure 6's order."""

    INVALID_PARAMETER = "invalid_parameter"  # a bad or missing argument; the error names it
    EMPTY_RESULT = "empty_result"  # nothing matched (a label), or no route connects the places (an error)
    TRUNCATED = "truncated"  # a list was cut to its limit (a label)
    NOT_FOUND = "not_found"  # an id or name that does not exist
    OTHER = "other"  # the city is not built, or an internal error


# The kinds that also label a call that worked (the gateway's ``_result_kind``): a step with one of
# these failed only when its observation is an error; a step with any other kind always failed.
SUCCESS_LABELS = frozenset({ErrorKind.EMPTY_RESULT, ErrorKind.TRUNCATED})
