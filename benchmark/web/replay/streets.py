"""The city's streets as one small GeoJSON document: the maps' base layer when no tile server answers.

The city's road segments are simplified (about 2 m) and merged into three features by class,
``major`` (primary to tertiary roads and their links, trunks, motorways), ``street``
(residential, service, unclassified, living streets) and ``path`` (footways, cycleways,
steps, paths and the rest), so the document stays small. It is built by one query
(``environment.selectors.road_geometries_by_class``) and cached per city version: a rebuilt
city gets a new document.
"""

from __future__ import annotations

from django.core.cache import cache

from environment.build.road_classes import MAJOR_ROAD_CLASSES, STREET_CLASSES
from environment.selectors import road_geometries_by_class

SIMPLIFY_DEGREES = 0.00002  # about 2 m at Helsinki's latitude: invisible at street zoom
CACHE_SECONDS = 24 * 3600


def city_streets_geojson(*, name: str, version: str) -> str:
    """The streets of city ``name`` (at ``version``) as a GeoJSON FeatureCollection text.

    Args:
        name: the city's name (``City.name``).
        version: its current version (from ``environment.selectors.city_version_get``); part of the cache key.
    """
    key = f"lifeplanner:streets:{name}:{version}"
    text = cache.get(key)
    if text is None:
        text = _build(name)
        cache.set(key, text, CACHE_SECONDS)
    return text


def _build(name: str) -> str:
    rows = road_geometries_by_class(
        city_name=name,
        classes={"major": MAJOR_ROAD_CLASSES, "street": STREET_CLASSES},
        rest="path",
        tolerance_deg=SIMPLIFY_DEGREES,
    )
    # The geometries are already GeoJSON text; assembling the document as text avoids re-encoding it.
    features = ",".join(
        f'{{"type":"Feature","properties":{{"class":"{cls}"}},"geometry":{geometry}}}' for cls, geometry in rows
    )
    return f'{{"type":"FeatureCollection","features":[{features}]}}'
