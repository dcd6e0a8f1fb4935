"""The margins a gold answer must clear, stated once (docs/cases.md quotes them).

A gold answer is right when it is right by more than the noise of any honest way to reach
it: rounding of tool outputs, the spheroid versus a sphere, a few minutes of slack in a
timetable. Each comparison below says by how much the gold must win.
"""

from __future__ import annotations

NEAREST_M = 15.0  # the runner-up is at least this much farther ...
NEAREST_RATIO = 0.10  # ... and at least 10% farther
ROUTE_RATIO = 0.03  # a route choice (which stop on the way, which place is quicker to reach): 3% ...
ROUTE_S, ROUTE_M = 20.0, 30.0  # ... and at least 20 s (time) or 30 m (distance)
ORDER_RATIO = 0.02  # an ordering of stops: 2% ...
ORDER_S, ORDER_M = 15.0, 20.0  # ... and at least 15 s or 20 m
RATING = 0.2  # the best-rated place leads by at least 0.2 stars
COST_EUR = 3.0  # the cheapest place is at least 3 EUR cheaper
OPEN_MIN = 10  # an opening state holds for at least 10 minutes either side of the moment asked about
RADIUS_BAND_M, RADIUS_BAND_RATIO = 5.0, 0.02  # "within R m" is unsure within max(5 m, 2% of R) of R
BUDGET_EUR = 3.0  # a yes/no budget question: the total is at least 3 EUR away from the budget
TOTAL_TOLERANCE = 0.25  # route totals agree with the verifier's own to this much (m or s)


def route_margin(best: float, mode: str) -> float:
    """How much worse the runner-up stop must be."""
    return max(ROUTE_RATIO * best, ROUTE_S if mode == "time" else ROUTE_M)


def order_margin(best: float, mode: str) -> float:
    """How much worse the next valid ordering must be (and how much better a ruled-out one)."""
    return max(ORDER_RATIO * best, ORDER_S if mode == "time" else ORDER_M)


def nearest_margin(best: float) -> float:
    return max(NEAREST_M, NEAREST_RATIO * best)


def radius_band(radius: float) -> float:
    return max(RADIUS_BAND_M, RADIUS_BAND_RATIO * radius)
