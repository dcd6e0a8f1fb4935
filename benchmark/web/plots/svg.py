"""The pieces every plot shares: the frame, the plot area, scales with their ticks, axes, text.

Sizes are in viewBox units. The SVG has no width or height: CSS (static/css/plots.css) makes it
as wide as its container and keeps its aspect ratio, so a figure fits a phone and fills a desktop
column. A unit is a CSS pixel when the figure is drawn at its viewBox width; the font sizes below
keep text at 13 px or more down to ``MIN_DESKTOP_SCALE`` of that width.
Colours are not written here: lines, bars and text carry classes (``series-N``, ``axis``, ``tick``)
and text is ``currentColor``, so a colour scheme restyles them in CSS.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

FONT = 16  # tick labels, legends
FONT_TITLE = 17  # axis titles
MIN_DESKTOP_SCALE = 0.82  # a figure drawn at 82% of its viewBox width still has 13 px text
CHAR_WIDTH = 0.56  # an average glyph's width in em, to fit labels without measuring them
LOG_SPAN = 100.0  # a log scale when the largest value is at least this many times the smallest: 2 orders


def n(value: float) -> str:
    """A coordinate as written in the SVG (fixed precision, so the same input gives the same bytes)."""
    text = f"{value:.1f}"
    return "0.0" if text == "-0.0" else text


def count_text(value: float) -> str:
    """A count or a token number for a tick: 950, 1.5k, 20k, 1.2M."""
    for size, suffix in ((1e6, "M"), (1e3, "k")):
        if value >= size:
            scaled = value / size
            return f"{scaled:.1f}".rstrip("0").rstrip(".") + suffix
    return f"{value:.1f}".rstrip("0").rstrip(".") if value != int(value) else str(int(value))


def fits(text: str, width: float, *, font: float = FONT) -> str:
    """``text`` cut with an ellipsis to about ``width`` units (the full text goes in a <title>)."""
    most = max(int(width / (font * CHAR_WIDTH)), 2)
    return text if len(text) <= most else text[: most - 1] + "…"


def spans_orders(values: Sequence[float], *, span: float = LOG_SPAN) -> bool:
    """Whether the positive values span ``span`` (default 100: two orders of magnitude) or more."""
    positive = [v for v in values if v > 0]
    return bool(positive) and max(positive) >= span * min(positive)


@dataclass(frozen=True)
class Box:
    """The plot area inside the frame: data go in here, ticks and titles around it."""

    left: float
    top: float
    right: float
    bottom: float

    def x(self, fraction: float) -> float:
        return self.left + fraction * (self.right - self.left)

    def y(self, fraction: float) -> float:
        return self.bottom - fraction * (self.bottom - self.top)


@dataclass(frozen=True)
class Scale:
    """A linear or log scale from ``low`` to ``high`` (log: both > 0)."""

    low: float
    high: float
    log: bool = False

    def fraction(self, value: float) -> float:
        if self.log:
            value = max(value, self.low)
            return (math.log10(value) - math.log10(self.low)) / (math.log10(self.high) - math.log10(self.low))
        return (value - self.low) / (self.high - self.low)

    def ticks(self) -> list[float]:
        """Tick values inside the scale: nice steps (linear) or powers of ten, with 2 and 5 when few (log)."""
        if not self.log:
            step = nice_step((self.high - self.low) / 5)
            first = math.ceil(self.low / step - 1e-9)
            return [round(i * step, 10) for i in range(first, int(self.high / step + 1e-9) + 1)]
        lo, hi = math.floor(math.log10(self.low)), math.ceil(math.log10(self.high))
        steps = (1, 2, 5) if hi - lo <= 3 else (1,)
        return [
            m * 10.0**e for e in range(lo, hi + 1) for m in steps if self.low <= m * 10.0**e <= self.high * 1.000001
        ]


def nice_step(rough: float) -> float:
    """The smallest of 1, 2, 2.5, 5 times a power of ten that is at least ``rough``."""
    if rough <= 0:
        return 1.0
    power = 10.0 ** math.floor(math.log10(rough))
    return next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= rough - 1e-12)


def count_scale(counts: Sequence[int], *, allow_log: bool = True) -> Scale:
    """A scale for counts: log (from half a case up to a power of ten) when they span two orders of
    magnitude and ``allow_log``, otherwise linear from 0 to a whole step at or above the largest."""
    top = max(counts, default=0) or 1
    if allow_log and spans_orders(counts):
        return Scale(0.5, 10.0 ** math.ceil(math.log10(top)), log=True)
    step = nice_step(max(top / 5, 1))
    return Scale(0, step * math.ceil(top / step - 1e-9))


def frame(width: int, height: int, *, name: str, summary: str, body: SafeString) -> SafeString:
    """The <svg>: role img, the summary as its accessible name and <title>, the body."""
    return format_html(
        '<svg class="plot plot-{}" viewBox="0 0 {} {}" role="img" aria-label="{}"'
        ' font-family="system-ui, sans-serif"><title>{}</title>{}</svg>',
        name,
        width,
        height,
        summary,
        summary,
        body,
    )


def text(
    x: float, y: float, content: str, *, cls: str = "tick", anchor: str = "middle", font: int = FONT
) -> SafeString:
    return format_html(
        '<text class="{}" x="{}" y="{}" text-anchor="{}" font-size="{}">{}</text>',
        cls,
        n(x),
        n(y),
        anchor,
        font,
        content,
    )


def x_axis(box: Box, ticks: Sequence[tuple[float, str]], title: str) -> SafeString:
    """The x axis line, a tick mark and label at each (fraction, label), and the title under them."""
    parts = [
        format_html(
            '<line class="axis" x1="{}" y1="{}" x2="{}" y2="{}"/>',
            n(box.left),
            n(box.bottom),
            n(box.right),
            n(box.bottom),
        )
    ]
    for fraction, label in ticks:
        x = box.x(fraction)
        parts.append(
            format_html(
                '<line class="axis" x1="{}" y1="{}" x2="{}" y2="{}"/>', n(x), n(box.bottom), n(x), n(box.bottom + 5)
            )
        )
        parts.append(text(x, box.bottom + 5 + FONT, label))
    parts.append(
        text((box.left + box.right) / 2, box.bottom + 12 + FONT + FONT_TITLE, title, cls="axis-title", font=FONT_TITLE)
    )
    return mark_safe("".join(parts))


def y_axis(box: Box, ticks: Sequence[tuple[float, str]], title: str) -> SafeString:
    """The y axis line, a grid line and label at each (fraction, label), the title turned along the axis."""
    parts = [
        format_html(
            '<line class="axis" x1="{}" y1="{}" x2="{}" y2="{}"/>', n(box.left), n(box.top), n(box.left), n(box.bottom)
        )
    ]
    for fraction, label in ticks:
        y = box.y(fraction)
        parts.append(
            format_html('<line class="grid" x1="{}" y1="{}" x2="{}" y2="{}"/>', n(box.left), n(y), n(box.right), n(y))
        )
        parts.append(text(box.left - 6, y + FONT * 0.35, label, anchor="end"))
    middle = (box.top + box.bottom) / 2
    parts.append(
        format_html(
            '<text class="axis-title" x="{}" y="{}" text-anchor="middle" font-size="{}" transform="rotate(-90 {} {})">'
            "{}</text>",
            n(FONT_TITLE),
            n(middle),
            FONT_TITLE,
            n(FONT_TITLE),
            n(middle),
            title,
        )
    )
    return mark_safe("".join(parts))


LEGEND_ROW = 26


def bar_legend(names: Sequence[str], width: float, *, most: float = 0) -> tuple[SafeString, float]:
    """A bar chart's legend: a swatch of class ``series-N`` and a name per series, wrapped into rows across a
    figure ``width`` wide; (the markup, the y under it). ``most``: cut names to about that many units
    (0: never), the whole name staying in the entry's <title>."""
    parts, x, y = [], 10.0, LEGEND_ROW - 6
    for index, name in enumerate(names):
        shown = fits(name, most) if most else name
        entry = 26 + len(shown) * FONT * CHAR_WIDTH + 18
        if x + entry > width and x > 10:
            x, y = 10.0, y + LEGEND_ROW
        parts.append(
            format_html(
                '<g class="legend-entry"><title>{}</title><rect class="bar series-{}" x="{}" y="{}" width="18"'
                ' height="14"/>{}</g>',
                name,
                index + 1,
                n(x),
                n(y - 12),
                text(x + 24, y, shown, cls="legend", anchor="start"),
            )
        )
        x += entry
    return mark_safe("".join(parts)), y + 6
