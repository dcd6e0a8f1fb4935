"""The skeptic's need-to-tag table, built from the city's whole visible tag vocabulary.

Every label a place's ``tag`` shows ("Facility: Power outlets", "Family: Toy corner") is what
anyone sees who calls place_detail on every place; the table maps each content word of those
labels, cut to its stem, to the labels holding it. A want's words are looked up in it, and the
labels they hit become a ``geo_tag`` filter: the places a search with that filter returns are the
ones whose visible record speaks of the want, and the vote counts that for them. The table is
built once per city and process.
"""

from __future__ import annotations

from functools import cache

from environment.selectors import visible_tag_labels

from .ask import content_words, stem


@cache
def tag_table(city: str) -> dict[str, tuple[str, ...]]:
    """Stem -> the tag values holding a word of that stem (``"outlet" -> ("Power outlets", ...)``)."""
    table: dict[str, set[str]] = {}
    for label in visible_tag_labels(city_name=city):
        value = label.split(":", 1)[-1].strip()
        for part in value.split(","):
            part = part.strip()
            for word in content_words(part):
                if len(word) >= 4:
                    table.setdefault(stem(word), set()).add(part)
    return {key: tuple(sorted(values)) for key, values in sorted(table.items())}


def tag_hits(city: str, words: list[str]) -> list[str]:
    """The tag values a want's words hit, in the words' order, without repeats (at most 8)."""
    table, out = tag_table(city), []
    for word in words:
        for value in table.get(stem(word), ()):
            if value not in out:
                out.append(value)
    return out[:8]
