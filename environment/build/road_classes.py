"""OSM highway classes, one table for the whole platform: which ways the road network keeps and how the
maps' base layer groups them (``benchmark/web/replay/streets.py``).

``MAJOR_ROAD_CLASSES`` (motorways to tertiary roads and their links) and ``STREET_CLASSES`` (residential,
service, unclassified, living streets, untyped roads) are the ways cars may drive (``DRIVE_CLASSES``);
``PATH_CLASSES`` are the footways, cycleways, paths and the rest, for walking and cycling only.
"""

from __future__ import annotations

MAJOR_ROAD_CLASSES = (
    "motorway",
    "trunk",
    "primary",
    "secondary",
    "tertiary",
    "motorway_link",
    "trunk_link",
    "primary_link",
    "secondary_link",
    "tertiary_link",
)
STREET_CLASSES = ("residential", "service", "unclassified", "living_street", "road")
DRIVE_CLASSES = frozenset(MAJOR_ROAD_CLASSES + STREET_CLASSES)
PATH_CLASSES = frozenset(
    {"pedestrian", "footway", "path", "trail", "cycleway", "steps", "track", "bridleway", "corridor"}
)
MOTOR_ROAD_CLASSES = frozenset({"motorway", "motorway_link", "trunk", "trunk_link"})  # no walking, no cycling
