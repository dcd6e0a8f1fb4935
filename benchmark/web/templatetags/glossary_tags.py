"""``{% gloss "anchor" %}``: the "?" link from a metric's header to its glossary entry, with the entry's tooltip."""

from __future__ import annotations

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

from benchmark.web.glossary import BY_ANCHOR

register = template.Library()


@register.simple_tag
def gloss(anchor: str) -> SafeString:
    """The link the leaderboard's headers carry (board_sort_th.html), for headers drawn by hand."""
    term = BY_ANCHOR[anchor]
    return format_html(
        '<a class="gloss" href="{}" title="{}" aria-label="What {} means">?</a>', term.url, term.tip, term.name
    )
