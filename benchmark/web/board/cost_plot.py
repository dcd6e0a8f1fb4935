"""Score against cost: a scatter of a release's listed runs, overall pass rate (y) against mean tokens
per case or cost in USD (x), drawn on the server as SVG (no JavaScript), each point labelled with its
run's name (escaped).

The figures are the leaderboard's (``leaderboard_rows``: stored results, no trajectory read). The x
axis is logarithmic when the plotted values span two orders of magnitude or more; a log axis cannot
show 0, so runs at 0 (agents without a model) are then listed as not plotted.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

AXES = {"tokens": ("avg_tokens", "Mean tokens per case"), "cost": ("cost", "Cost of the run (USD)")}
LOG_SPAN = 100.0  # max / min at or above which the x axis is logarithmic
WIDTH, HEIGHT = 640, 400
LEFT, RIGHT, TOP, BOTTOM = 52, 24, 16, 44


@dataclass(frozen=True)
class CostPoint:
    run_id: int
    name: str
    x: float
    y: float
    baseline: bool
    complete: bool  # a partial run's overall covers only the cases it scored


def default_axis(rows: list[dict]) -> str:
    """ "cost" when some run has a cost, else "tokens"."""
    return "cost" if any(r["cost"] is not None for r in rows) else "tokens"


def cost_points(rows: list[dict], *, axis: str) -> tuple[list[CostPoint], list[dict], bool]:
    """(points to plot, rows not plotted, whether x is logarithmic) for leaderboard ``rows``.

    A row is a point when it has an overall pass rate and a value on ``axis`` ("tokens" or "cost").

    Raises:
        ValueError: an unknown axis, naming the allowed ones.
    """
    if axis not in AXES:
        raise ValueError(f"x must be one of {', '.join(AXES)}; got {axis!r}")
    key = AXES[axis][0]
    candidates = [r for r in rows if r["overall"] and r[key] is not None]
    positive = [r[key] for r in candidates if r[key] > 0]
    log = len(positive) >= 2 and max(positive) / min(positive) >= LOG_SPAN
    plotted = [r for r in candidates if r[key] > 0 or not log]
    points = [
        CostPoint(
            run_id=r["run_id"],
            name=r["name"],
            x=float(r[key]),
            y=r["overall"]["value"],
            baseline=r["baseline"],
            complete=r["complete"],
        )
        for r in plotted
    ]
    left_out = [r for r in rows if r not in plotted]
    return points, left_out, log


def cost_svg(points: list[CostPoint], *, axis: str, log: bool) -> SafeString:
    """The scatter as inline SVG: y is the overall pass rate in % (0 to 100), x ``axis``'s value."""
    scale = _log_scale(points) if log else _linear_scale(points)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def px(x: float) -> float:
        return LEFT + scale(x) * plot_w

    def py(y: float) -> float:
        return TOP + (1 - y / 100) * plot_h

    ticks_x = _log_ticks(points) if log else _linear_ticks(points)
    parts = [
        format_html(
            '<line class="axis" x1="{}" y1="{}" x2="{}" y2="{}"/>', LEFT, TOP + plot_h, LEFT + plot_w, TOP + plot_h
        ),
        format_html('<line class="axis" x1="{}" y1="{}" x2="{}" y2="{}"/>', LEFT, TOP, LEFT, TOP + plot_h),
        format_html_join(
            "",
            '<text class="tick" x="{}" y="{}" text-anchor="middle">{}</text>',
            ((_n(px(v)), TOP + plot_h + 14, text) for v, text in ticks_x),
        ),
        format_html_join(
            "",
            '<line class="grid" x1="{}" y1="{}" x2="{}" y2="{}"/>'
            '<text class="tick" x="{}" y="{}" text-anchor="end">{}</text>',
            ((LEFT, _n(py(y)), LEFT + plot_w, _n(py(y)), LEFT - 4, _n(py(y) + 4), y) for y in range(0, 101, 20)),
        ),
        format_html(
            '<text class="axis-label" x="{}" y="{}" text-anchor="middle">{}{}</text>',
            LEFT + plot_w / 2,
            HEIGHT - 6,
            AXES[axis][1],
            " (log scale)" if log else "",
        ),
        format_html(
            '<text class="axis-label" x="12" y="{}" text-anchor="middle" transform="rotate(-90 12 {})">'
            "Overall PR@0.9 (%)</text>",
            TOP + plot_h / 2,
            TOP + plot_h / 2,
        ),
        format_html_join("", "{}", ((_point(p, px(p.x), py(p.y), axis),) for p in points)),
    ]
    label = f"Overall pass rate against {AXES[axis][1].lower()}"
    return format_html(
        '<svg class="plot cost" viewBox="0 0 {} {}" width="{}" height="{}" role="img" aria-label="{}">'
        "<title>{}</title>{}</svg>",
        WIDTH,
        HEIGHT,
        WIDTH,
        HEIGHT,
        label,
        label,
        format_html_join("", "{}", ((p,) for p in parts)),
    )


def _point(p: CostPoint, x: float, y: float, axis: str) -> SafeString:
    anchor = "end" if x > WIDTH - 140 else "start"
    dx = -7 if anchor == "end" else 7
    return format_html(
        '<g class="run-point" data-run="{}" data-x="{}" data-y="{}">'
        '<circle class="point{}" cx="{}" cy="{}" r="5"><title>{}: {} {}, {}%</title></circle>'
        '<text class="label" x="{}" y="{}" text-anchor="{}">{}</text></g>',
        p.run_id,
        p.x,
        p.y,
        " baseline" if p.baseline else "",
        _n(x),
        _n(y),
        p.name,
        _fmt(p.x),
        axis,
        p.y,
        _n(x + dx),
        _n(y - 7),
        anchor,
        p.name,
    )


def _linear_scale(points: list[CostPoint]):
    top = _nice_top(max((p.x for p in points), default=1.0))
    return lambda x: x / top


def _linear_ticks(points: list[CostPoint]) -> list[tuple[float, str]]:
    top = _nice_top(max((p.x for p in points), default=1.0))
    return [(top * i / 4, _fmt(top * i / 4)) for i in range(5)]


def _nice_top(value: float) -> float:
    """The smallest of 1, 2, 2.5, 5 x 10^n at or above ``value`` (1 when value is 0)."""
    if value <= 0:
        return 1.0
    power = 10 ** math.floor(math.log10(value))
    return next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= value)


def _decades(points: list[CostPoint]) -> tuple[int, int]:
    low = math.floor(math.log10(min(p.x for p in points)))
    high = math.ceil(math.log10(max(p.x for p in points)))
    return low, max(high, low + 1)


def _log_scale(points: list[CostPoint]):
    low, high = _decades(points)
    return lambda x: (math.log10(x) - low) / (high - low)


def _log_ticks(points: list[CostPoint]) -> list[tuple[float, str]]:
    low, high = _decades(points)
    return [(10.0**e, _fmt(10.0**e)) for e in range(low, high + 1)]


def _fmt(value: float) -> str:
    if value >= 1000:
        return f"{value:,.0f}"
    return f"{value:.4g}"


def _n(value: float) -> str:
    return f"{value:.1f}"
