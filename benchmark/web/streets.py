"""The city's streets as one small GeoJSON document: the maps' base layer when no tile server answers.

Road segments (``environment.models.RoadSegment``) are simplified (about 2 m) and merged
into three features by class, ``major`` (primary to tertiary roads and their links, trunks,
motorways), ``street`` (residential, service, unclassified, living streets) and ``path``
(footways, cycleways, steps, paths and the rest), so the document stays small. It is built by
one query and cached per city version: a rebuilt city gets a new document.
"""
from __future__ import annotations

from django.core.cache import cache
from django.db import connection

from environment.models import City

SIMPLIFY_DEGREES = 0.00002  # about 2 m at Helsinki's latitude: invisible at street zoom
MAJOR = ("motorway", "trunk", "primary", "secondary", "tertiary", "motorway_link", "trunk_link", "primary_link",
         "secondary_link", "tertiary_link")
STREET = ("residential", "service", "unclassified", "living_street", "road")
CACHE_SECONDS = 24 * 3600

_SQL = """
SELECT CASE WHEN highway = ANY(%(major)s) THEN 'major' WHEN highway = ANY(%(street)s) THEN 'street' ELSE 'path' END
       AS class,
       ST_AsGeoJSON(ST_Collect(ST_Simplify(geometry, %(tolerance)s)), 6)
FROM environment_roadsegment WHERE city_id = (SELECT id FROM environment_city WHERE name = %(name)s)
GROUP BY 1 ORDER BY 1
"""


def city_version_get(*, name: str) -> str | None:
    """The version of the built city ``name``, or None when no such city is built."""
    return City.objects.filter(name=name).values_list("version", flat=True).first()


def city_streets_geojson(*, name: str, version: str) -> str:
    """The streets of city ``name`` (at ``version``) as a GeoJSON FeatureCollection text.

    Args:
        name: the city's name (``City.name``).
        version: its current version (from ``city_version_get``); part of the cache key.
    """
    key = f"lifeplanner:streets:{name}:{version}"
    text = cache.get(key)
    if text is None:
        text = _build(name)
        cache.set(key, text, CACHE_SECONDS)
    return text


def _build(name: str) -> str:
    with connection.cursor() as cursor:
        cursor.execute(_SQL, {"major": list(MAJOR), "street": list(STREET), "tolerance": SIMPLIFY_DEGREES,
                              "name": name})
        rows = cursor.fetchall()
    # The geometries are already GeoJSON text; assembling the document as text avoids re-encoding it.
    features = ",".join(f'{{"type":"Feature","properties":{{"class":"{cls}"}},"geometry":{geometry}}}'
                        for cls, geometry in rows)
    return f'{{"type":"FeatureCollection","features":[{features}]}}'
