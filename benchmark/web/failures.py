"""Why a trajectory failed: reasons read from how it ended and from its stored metric scores.

``failure_reasons`` is a pure function over plain data (the trajectory's ``ended``, ``passed``,
category and ``scores`` as stored: ``{metric: {"value", "details", ...}}``). A failed case can
have several reasons; they come back in the order of ``REASONS``, so the first one is the most
basic (a run that never finished beats a wrong answer, a wrong answer beats a missing citation).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from kernel.vocabulary import Category, Ending

_ONE = 1 - 1e-9  # "equals 1", as the pass rule reads it
PLACE_REQUIREMENTS = (
    "place_type",
    "min_rating",
    "max_cost",
    "radius_m",
    "route_buffer_m",
    "known place",
    "target place",
)


@dataclass(frozen=True)
class Reason:
    """One kind of failure: a code for filters, a label for people and the rule that finds it."""

    code: str
    label: str
    rule: str
    test: Callable[[dict], bool]


def _ended(ending: Ending, label: str, rule: str) -> Reason:
    """The reason of a trajectory that ended ``ending``; its code is the ending."""
    return Reason(ending.value, label, rule, lambda t: t["ended"] == ending)


def _value(scores: dict, name: str) -> float | None:
    value = (scores.get(name) or {}).get("value")
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def _details(scores: dict, name: str) -> dict:
    details = (scores.get(name) or {}).get("details")
    return details if isinstance(details, dict) else {}


def _failed_checks(scores: dict, name: str, key: str) -> frozenset[str]:
    checks = _details(scores, name).get("checks")
    return frozenset(str(c.get(key)) for c in checks or [] if isinstance(c, dict) and c.get("ok") is False)


def _facts(*, ended: str, passed: bool | None, category: str, scores: dict, alpha: float) -> dict:
    """What the rules look at, read once from the stored scores."""
    inverted = _details(scores, "OC").get("inverted_pairs")
    return {
        "ended": ended or "",
        "passed": passed,
        "category": category,
        "alpha": alpha,
        "error": "error" in scores,
        **{name: _value(scores, name) for name in ("A", "PIoU", "RD_distance", "RD_time", "SC")},
        "A_failed": _failed_checks(scores, "A", "requirement"),
        "SC_failed": _failed_checks(scores, "SC", "check"),
        "inverted": inverted if isinstance(inverted, int) else 0,
        "flags": bool(_details(scores, "grounding").get("flags") or _details(scores, "RP").get("flags")),
    }


def _below_one(value: float | None) -> bool:
    return value is not None and value < _ONE


def _wrong_place(t: dict) -> bool:
    if t["category"] != Category.PLACE_PERCEPTION and set(PLACE_REQUIREMENTS) & t["A_failed"]:
        return True
    return t["PIoU"] is not None and t["PIoU"] == 0


def _route_off(t: dict) -> bool:
    """A route total is off beyond what the place set explains (RD = PIoU x closeness, closeness < 1)."""
    piou = 1.0 if t["PIoU"] is None else t["PIoU"]
    return any(v is not None and v < piou * _ONE for v in (t["RD_distance"], t["RD_time"]))


_NAMED_SC_CHECKS = frozenset({"vehicle", "mode", "visit order", "open on arrival", "implicit need"})


def _constraint_violated(t: dict) -> bool:
    """SC at or below alpha for a reason the more specific SC reasons do not name."""
    if t["SC"] is None or t["SC"] > t["alpha"]:
        return False
    return not t["SC_failed"] or bool(t["SC_failed"] - _NAMED_SC_CHECKS)


REASONS: tuple[Reason, ...] = (
    _ended(Ending.BUDGET_EXHAUSTED, "budget exhausted", "the agent used up its tool-call budget"),
    _ended(Ending.TIMEOUT, "timeout", "the agent ran out of time"),
    _ended(Ending.MODEL_ERROR, "model error", "the model endpoint failed or could not be reached"),
    _ended(Ending.INVALID_ANSWER, "invalid answer", "the agent crashed or its answer could not be read"),
    _ended(Ending.CONTEXT_EXCEEDED, "context exceeded", "the conversation grew past the model's context window"),
    _ended(Ending.TOOL_CALL_AS_TEXT, "tool call as text", "the model wrote a tool call as text, which is never run"),
    _ended(Ending.NO_SUBMISSION, "no answer", "the agent never called submit_answer"),
    Reason(
        "scoring_failed", "scoring failed", "the scorer raised an error (kept for a re-score)", lambda t: t["error"]
    ),
    Reason("undecided", "undecided", "SC applies but no judge or rule scored it", lambda t: t["passed"] is None),
    Reason(
        "wrong_answer",
        "wrong answer",
        "Place Perception: the value or the chosen place is not the reference's (A = 0)",
        lambda t: t["category"] == Category.PLACE_PERCEPTION and _below_one(t["A"]),
    ),
    Reason(
        "wrong_travel",
        "wrong travel mode",
        "vehicle or optimisation mode is not the question's (an A or SC check)",
        lambda t: bool({"vehicle", "mode"} & (t["A_failed"] | t["SC_failed"])),
    ),
    Reason(
        "wrong_place",
        "wrong place",
        "a chosen place breaks an explicit requirement (an A check), or none of "
        "the reference places is in the answer (PIoU = 0)",
        _wrong_place,
    ),
    Reason(
        "wrong_set",
        "wrong set",
        "some but not all places match the reference (0 < PIoU < 1)",
        lambda t: t["PIoU"] is not None and 0 < t["PIoU"] < _ONE,
    ),
    Reason(
        "route_off",
        "route off",
        "a route total is off beyond what the place set explains (RD_distance or RD_time below PIoU)",
        _route_off,
    ),
    Reason(
        "order_violated",
        "order violated",
        'stops in the wrong order (OC has inverted pairs, or an SC "visit a before b" check fails)',
        lambda t: t["inverted"] > 0 or "visit order" in t["SC_failed"],
    ),
    Reason(
        "closed_on_arrival",
        "closed on arrival",
        "a stop is closed when the plan arrives (SC check)",
        lambda t: "open on arrival" in t["SC_failed"],
    ),
    Reason(
        "implicit_need",
        "implicit need missed",
        "L2: no chosen place holds the fact the notes describe (SC check)",
        lambda t: "implicit need" in t["SC_failed"],
    ),
    Reason(
        "constraint_violated",
        "constraint violated",
        "SC at or below alpha for another reason (another rule check, or the judges' score)",
        _constraint_violated,
    ),
    Reason(
        "hallucinated_evidence",
        "hallucinated evidence",
        "the answer cites a place, note or number that no observation held (fetched-before-cited flags)",
        lambda t: t["flags"],
    ),
)
REASON_CODES = tuple(r.code for r in REASONS)
REASON_LABELS = {r.code: r.label for r in REASONS} | {"other": "other"}


def failure_reasons(
    *, ended: str, passed: bool | None, category: str, scores: dict[str, Any] | None, alpha: float = 0.9
) -> list[str]:
    """The reason codes of a trajectory that did not pass, most basic first; ``[]`` when it passed.

    Args:
        ended: how the trajectory ended (a ``kernel.vocabulary.Ending``, or "" while it runs).
        passed: the stored verdict (True, False, or None for undecided).
        category: the case's category (a wrong value only exists in Place Perception).
        scores: the stored scores, ``{metric: {"value", "details", ...}}``.
        alpha: the SC threshold of the pass rule.

    Returns ``["other"]`` when the case failed and no rule names why.
    """
    if passed is True:
        return []
    facts = _facts(
        ended=ended, passed=passed, category=category, scores=scores if isinstance(scores, dict) else {}, alpha=alpha
    )
    found = [r.code for r in REASONS if r.test(facts)]
    return found or ["other"]
