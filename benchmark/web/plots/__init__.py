"""Plots drawn on the server as inline SVG (no JavaScript, no CDN): the paper's figure 5
(exceedance curves), figure 6 (tool-call failures by kind), a histogram of tokens per case and the
pass rate per level as bars.

Functions take plain numbers and labels and return safe markup; every label is escaped. Each
SVG scales to its container (static/css/plots.css), names itself for screen readers (role img,
a summary as aria-label and <title>) and carries its legend; colours come from CSS classes.
"""

from .exceedance import (
    EXCEEDANCE_AT,
    STYLES,
    coinciding,
    exceedance,
    exceedance_steps,
    exceedance_svg,
    exceedance_table,
)
from .failures import failures_svg
from .levels import MAX_SERIES, levels_svg
from .svg import Scale, count_scale, spans_orders
from .tokens import Bins, token_bins, token_histogram, tokens_svg

__all__ = [
    "EXCEEDANCE_AT",
    "MAX_SERIES",
    "STYLES",
    "Bins",
    "Scale",
    "coinciding",
    "count_scale",
    "exceedance",
    "exceedance_steps",
    "exceedance_svg",
    "exceedance_table",
    "failures_svg",
    "levels_svg",
    "spans_orders",
    "token_bins",
    "token_histogram",
    "tokens_svg",
]
