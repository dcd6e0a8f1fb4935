"""The fact vocabulary: what a place can hide, how it is distilled, how people phrase it.

Every fact kind (:class:`~.fact_spec.FactSpec`) of the data modules, collected: ``STATIC``
(lasting offerings and facilities), ``LONG_TERM`` (impressions) and ``SHORT_TERM`` (dated
states), and ``ALL_SPECS`` by key.
"""

from __future__ import annotations

from .fact_spec import ANY, FactSpec
from .vocab_dynamic import long_term_specs, short_term_specs
from .vocab_static import static_specs

STATIC: tuple[FactSpec, ...] = static_specs()
LONG_TERM: tuple[FactSpec, ...] = long_term_specs()
SHORT_TERM: tuple[FactSpec, ...] = short_term_specs()
ALL_SPECS: dict[str, FactSpec] = {s.key: s for s in STATIC + LONG_TERM + SHORT_TERM}
KNOWN_TOP_TYPES = frozenset(t for s in ALL_SPECS.values() for t in s.types if t != ANY)


def fitting(specs: tuple[FactSpec, ...], top: str, sub: str) -> list[FactSpec]:
    """Specs that fit a place; an unknown top type gets only the generic (``ANY``) ones."""
    if top not in KNOWN_TOP_TYPES:
        return [s for s in specs if ANY in s.types and not s.subs]
    return [s for s in specs if s.fits(top, sub)]
