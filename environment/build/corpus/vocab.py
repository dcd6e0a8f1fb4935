"""The fact vocabulary: what a place can hide, how it is distilled, how people phrase it.

Every fact kind (:class:`~.fact_spec.FactSpec`) of the data modules, collected: ``STATIC``
(lasting offerings and facilities, shown in the visible ``tag`` in one of several wordings),
``LONG_TERM`` (impressions) and ``SHORT_TERM`` (dated states), both hidden, and ``ALL_SPECS`` by
key. ``STATIC_KEY_OF_LABEL`` finds a static fact from any of its wordings.
"""

from __future__ import annotations

from dataclasses import replace

from .fact_spec import FactSpec
from .kinds import kind_of, sub_of
from .vocab_dynamic import long_term_specs, short_term_specs
from .vocab_static import static_specs
from .wordings import ALTERNATIVES

STATIC: tuple[FactSpec, ...] = tuple(replace(s, wordings=ALTERNATIVES.get(s.key, ())) for s in static_specs())
LONG_TERM: tuple[FactSpec, ...] = long_term_specs()
SHORT_TERM: tuple[FactSpec, ...] = short_term_specs()
ALL_SPECS: dict[str, FactSpec] = {s.key: s for s in STATIC + LONG_TERM + SHORT_TERM}
STATIC_KEY_OF_LABEL: dict[str, str] = {label: s.key for s in STATIC for label in s.labels}


def fitting(specs: tuple[FactSpec, ...], kind: str, sub: str) -> list[FactSpec]:
    """The specs a place of this kind and sub-type may hold."""
    return [s for s in specs if s.fits(kind, sub)]


def fits_place(key: str, place_type: str) -> bool:
    """Whether the fact ``key`` makes sense at a place of this ``"Top|Sub"`` type."""
    return ALL_SPECS[key].fits(kind_of(place_type), sub_of(place_type))
