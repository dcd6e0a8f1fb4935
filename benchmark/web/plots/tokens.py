"""Tokens per case (input + output) as a histogram: per bin, a bar of passed cases and one of failed.

Bins: when the positive values span an order of magnitude or more (the largest at least
``LOG_BINS_SPAN`` times the smallest), log-spaced bins, so a few long cases do not squash the rest
into one bar; otherwise equal-width bins with round edges over [min, max] (at least ``MIN_BINS``: a lone
value gets empty bins either side). Cases with no token are
a bar of their own, "0", left of the axis. The y scale (cases) is log when the bar heights span two
orders of magnitude, else linear. Passed and failed cases stand side by side, not stacked, so both
read on a log scale; failed bars are outlined, passed ones filled, so they differ without colour.
"""

from __future__ import annotations

import math
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

from .svg import Box, Scale, count_scale, count_text, frame, n, text, x_axis, y_axis

LOG_BINS_SPAN = 10.0  # one order of magnitude
TARGET_BINS = 16
MIN_BINS = 5
WIDTH, HEIGHT = 720, 372
BOX = Box(left=78, top=48, right=WIDTH - 20, bottom=300)
KINDS = ("passed", "failed")
MIN_TICK_GAP = 44  # units between tick labels, so "100" and "200" never run together


@dataclass(frozen=True)
class Bins:
    """Bin edges over the positive values (bin i holds edges[i] <= v < edges[i + 1]; the last also its top
    edge), whether they are log-spaced, and whether a separate bar holds the zeros."""

    edges: tuple[float, ...]
    log: bool
    zeros: bool

    def index(self, value: float) -> int:
        """The bar of ``value``: 0 is the zeros' bar when there is one."""
        if value <= 0:
            return 0
        shift = 1 if self.zeros else 0
        return shift + min(max(bisect_right(self.edges, value) - 1, 0), len(self.edges) - 2)

    @property
    def bars(self) -> int:
        return len(self.edges) - 1 + (1 if self.zeros else 0)


def token_bins(values: Sequence[int]) -> Bins:
    """The bins for these values (at least one must be positive)."""
    positive = [v for v in values if v > 0]
    if not positive:
        raise ValueError("no case used any token")
    low, high = min(positive), max(positive)
    zeros = len(positive) < len(values)
    if high >= LOG_BINS_SPAN * low:
        decades = math.log10(high / low)
        per_decade = max(1, min(12, round(TARGET_BINS / decades)))
        first = math.floor(math.log10(low) * per_decade + 1e-9)
        last = math.ceil(math.log10(high) * per_decade - 1e-9)
        last = max(last, first + 1)
        return Bins(tuple(10 ** (i / per_decade) for i in range(first, last + 1)), log=True, zeros=zeros)
    step = _step(max(high - low, high / 10))
    first = math.floor(low / step)
    last = max(math.ceil(high / step), first + 1)
    if last - first < MIN_BINS:  # values close together: a few empty bins either side, not one wide bar
        pad = (MIN_BINS - (last - first) + 1) // 2
        first, last = max(first - pad, 0), last + pad
    return Bins(tuple(float(i * step) for i in range(first, last + 1)), log=False, zeros=zeros)


def _step(spread: float) -> float:
    """A round bin width (1, 2 or 5 times a power of ten, at least 1 token) giving about TARGET_BINS bins."""
    rough = max(spread / TARGET_BINS, 1.0)
    power = 10.0 ** math.floor(math.log10(rough))
    return next(m * power for m in (1, 2, 5, 10) if m * power >= rough - 1e-9)


def token_histogram(passed: Sequence[int], failed: Sequence[int]) -> tuple[Bins, list[dict]]:
    """The bins and, per bar, {"low", "high", "passed", "failed"} (the zeros' bar has low = high = 0)."""
    bins = token_bins([*passed, *failed])
    rows = [{"low": 0, "high": 0, "passed": 0, "failed": 0}] if bins.zeros else []
    rows += [
        {"low": round(bins.edges[i]), "high": round(bins.edges[i + 1]), "passed": 0, "failed": 0}
        for i in range(len(bins.edges) - 1)
    ]
    for kind, values in zip(KINDS, (passed, failed)):
        for v in values:
            rows[bins.index(v)][kind] += 1
    return bins, rows


def tokens_svg(passed: Sequence[int], failed: Sequence[int]) -> SafeString:
    """The histogram: x tokens per case (bins as above), y cases, passed and failed bars side by side."""
    bins, rows = token_histogram(passed, failed)
    y_scale = count_scale([c for r in rows for c in (r["passed"], r["failed"])])
    slot = (BOX.right - BOX.left) / bins.bars
    bars = [_bar(BOX.left + i * slot, slot, row, kind, y_scale) for i, row in enumerate(rows) for kind in KINDS]
    y_ticks = [(y_scale.fraction(t), count_text(t)) for t in y_scale.ticks() if t == int(t) and (t or not y_scale.log)]
    body = (
        _legend(len(passed), len(failed))
        + y_axis(BOX, y_ticks, "cases (log scale)" if y_scale.log else "cases")
        + mark_safe("".join(bars))
        + x_axis(BOX, _x_ticks(bins, slot), "tokens per case, input + output" + (" (log scale)" if bins.log else ""))
    )
    return frame(WIDTH, HEIGHT, name="tokens", summary=_summary(passed, failed, bins), body=body)


def _bar(x: float, slot: float, row: dict, kind: str, y_scale: Scale) -> str:
    count = row[kind]
    if not count:
        return ""
    half = (slot - 4) / 2
    left = x + 2 + (half if kind == "failed" else 0)
    top = BOX.y(min(y_scale.fraction(count), 1.0))
    span = "no tokens" if row["high"] == 0 else f"{row['low']:,}–{row['high']:,} tokens"
    return format_html(
        '<rect class="bar bar-{}" x="{}" y="{}" width="{}" height="{}"><title>{}: {} {}</title></rect>',
        kind,
        n(left),
        n(top),
        n(half),
        n(BOX.bottom - top),
        span,
        count,
        kind,
    )


def _x_ticks(bins: Bins, slot: float) -> list[tuple[float, str]]:
    """Tick labels at round token counts, placed where they fall in the bins (log or linear); "0" under
    the zeros' bar. A label too close to the one before it is left out."""
    scale = Scale(bins.edges[0], bins.edges[-1], log=bins.log)
    width = bins.bars * slot
    start = 1 if bins.zeros else 0
    ticks = [(0.5 * slot / width, "0")] if bins.zeros else []
    for t in scale.ticks():
        if t == int(t):
            fraction = (start + scale.fraction(t) * (len(bins.edges) - 1)) * slot / width
            if not ticks or (fraction - ticks[-1][0]) * (BOX.right - BOX.left) >= MIN_TICK_GAP:
                ticks.append((fraction, count_text(t)))
    return ticks


def _legend(passed: int, failed: int) -> SafeString:
    entries = []
    x = BOX.left
    for kind, count in zip(KINDS, (passed, failed)):
        label = f"{kind} ({count} case{'s' if count != 1 else ''})"
        entries.append(
            format_html(
                '<g class="legend-entry"><rect class="bar bar-{}" x="{}" y="{}" width="18" height="14"/>{}</g>',
                kind,
                n(x),
                n(BOX.top - 34),
                text(x + 24, BOX.top - 22, label, cls="legend", anchor="start"),
            )
        )
        x += 24 + len(label) * 9.5 + 24
    return mark_safe("".join(entries))


def _summary(passed: Sequence[int], failed: Sequence[int], bins: Bins) -> str:
    values = sorted([*passed, *failed])
    median = values[len(values) // 2]
    spacing = "log-spaced" if bins.log else "equal-width"
    return (
        f"Histogram of tokens per case, {len(passed)} passed and {len(failed)} failed cases, {spacing} bins; "
        f"median {median:,} tokens, fewest {values[0]:,}, most {values[-1]:,}."
    )
