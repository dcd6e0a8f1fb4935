"""Read named POIs and the road network out of an OSM file (``.osm``/``.osm.pbf``).

Places: every named object carrying one of ``taxonomy.PRIMARY_KEYS``. Nodes are taken at
their location, ways at the representative point of their polygon (open ways: the middle
of the line), multipolygon relations at the representative point of the assembled area.
A relation whose area cannot be assembled (members cut at the extract border) is skipped.

Roads: one record per way whose ``highway`` is in ``ROAD_CLASSES``; other values
(platform, construction, proposed, elevator, ...) are skipped. ``trail`` is a
non-standard value found in the Helsinki extract and is treated like ``path``. A way whose
nodes are partly missing (cut by the extract border) keeps its longest stretch of located
nodes (7 Helsinki ways have a gap inside). ``tunnel`` marks underground ways (``tunnel=*``
other than ``building_passage``, or a negative ``layer``); routing never snaps a place
onto them.

==========  =====================================  =========================================
mode        classes open by default                 tags
==========  =====================================  =========================================
walk        every class except motorway, trunk      first of ``foot``, ``access`` decides;
            and their links                         one-way is ignored
cycle       roads (no motorway/trunk), cycleway,    first of ``bicycle``, ``vehicle``,
            path, trail, track, living_street,      ``access``; honours one-way unless
            service, road                           ``oneway:bicycle=no`` or a contraflow
                                                    ``cycleway*=opposite*``
drive       motorway, trunk, primary, secondary,    first of ``motorcar``, ``motor_vehicle``,
            tertiary, unclassified, residential,    ``vehicle``, ``access``; honours one-way
            living_street, service, road, links     (motorway and roundabout imply it)
==========  =====================================  =========================================

The deciding tag closes a way when its value is in ``_DENY`` (no, private, use_sidepath,
...). A class that is closed by default is opened by a mode's own tag set to yes,
designated or permissive (``foot=yes`` on a trunk, ``bicycle=yes`` on a footway or steps,
``motor_vehicle=yes`` on a track). One-way: ``oneway=yes|1|true`` forward only,
``-1|reverse`` backward only, ``junction=roundabout|circular`` forward unless
``oneway=no``; ``oneway:bicycle`` overrides it for cycling.

Driving speed: numeric ``maxspeed`` in km/h (``"30 mph"`` converted, ``FI:urban`` 50,
``FI:rural`` 80, ``FI:motorway`` 120, ``FI:living_street`` 20), else the class default in
``_DEFAULT_KMH``; 0.0 where the way is not drivable.
"""

from __future__ import annotations

import hashlib
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import osmium
from shapely import wkb
from shapely.geometry import LineString, Polygon

from environment.build.road_classes import DRIVE_CLASSES, MOTOR_ROAD_CLASSES, PATH_CLASSES
from environment.records import PlaceRecord, RoadRecord
from environment.taxonomy import PRIMARY_KEYS, humanise, place_type_for, spend_profile

ROAD_CLASSES = frozenset(DRIVE_CLASSES | PATH_CLASSES)
_CYCLE_CLASSES = (DRIVE_CLASSES - MOTOR_ROAD_CLASSES) | {"cycleway", "path", "trail", "track"}
_WALK_CLASSES = ROAD_CLASSES - MOTOR_ROAD_CLASSES

_MODE_TAGS = {
    "walk": ("foot", "access"),
    "cycle": ("bicycle", "vehicle", "access"),
    "drive": ("motorcar", "motor_vehicle", "vehicle", "access"),
}
_OPENING_TAGS = {"walk": ("foot",), "cycle": ("bicycle",), "drive": ("motorcar", "motor_vehicle")}
_DENY = {"no", "private", "use_sidepath", "agricultural", "forestry", "emergency", "delivery"}
_OPEN = {"yes", "designated", "permissive"}
_CLOSED = (False, False)

_DEFAULT_KMH = {
    "motorway": 100,
    "motorway_link": 60,
    "trunk": 80,
    "trunk_link": 50,
    "primary": 50,
    "primary_link": 40,
    "secondary": 50,
    "secondary_link": 40,
    "tertiary": 40,
    "tertiary_link": 30,
    "unclassified": 30,
    "residential": 30,
    "road": 30,
    "living_street": 10,
    "service": 20,
    "track": 20,
    "pedestrian": 10,
}
_ZONE_KMH = {"urban": 50, "rural": 80, "motorway": 120, "trunk": 100, "living_street": 20, "walk": 6}
_MAXSPEED = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(mph|km/h|kmh|kph)?\s*$")


@dataclass(frozen=True)
class OsmExtract:
    """Everything the later build stages need from one OSM file."""

    places: list[PlaceRecord]
    roads: list[RoadRecord]


def read_osm(path: str | Path) -> OsmExtract:
    """Read named POIs and highway ways (with per-mode access) from an OSM file.

    Args:
        path: an ``.osm`` (XML) or ``.osm.pbf`` file.

    Returns:
        An ``OsmExtract`` with places sorted by ``place_id`` and roads by ``gid``.
    """
    places: list[PlaceRecord] = []
    roads: list[RoadRecord] = []
    wkb_factory = osmium.geom.WKBFactory()
    for obj in osmium.FileProcessor(str(path)).with_locations().with_areas():
        # isinstance rather than is_node() and friends (which do the same) so the type narrows.
        if isinstance(obj, osmium.osm.Node):
            if "name" in obj.tags and obj.location.valid():
                location = obj.location
                _add_place(places, "node", obj.id, dict(obj.tags), location.lon, location.lat)
        elif isinstance(obj, osmium.osm.Way):
            _read_way(obj, places, roads)
        elif isinstance(obj, osmium.osm.Area) and not obj.from_way() and "name" in obj.tags:
            point = wkb.loads(wkb_factory.create_multipolygon(obj), hex=True).representative_point()
            _add_place(places, "relation", obj.orig_id(), dict(obj.tags), point.x, point.y)
    places.sort(key=lambda place: place.place_id)
    roads.sort(key=lambda road: road.gid)
    return OsmExtract(places=places, roads=roads)


def _read_way(way: osmium.osm.Way, places: list[PlaceRecord], roads: list[RoadRecord]) -> None:
    tags = dict(way.tags)
    is_road = tags.get("highway") in ROAD_CLASSES
    if not (is_road or _is_poi(tags)):
        return
    runs: list[list[tuple[int, tuple[float, float]]]] = [[]]
    for node in way.nodes:
        if node.location.valid():
            runs[-1].append((node.ref, (node.location.lon, node.location.lat)))
        elif runs[-1]:
            runs.append([])
    located = [node for run in runs for node in run]
    # A way cut by the extract border keeps its longest located stretch: joining the pieces
    # across the missing nodes would invent a straight road that does not exist.
    longest = max(runs, key=len)
    if is_road and len(longest) >= 2:
        roads.append(road_record(way.id, tags, longest))
    if _is_poi(tags) and located:
        lon, lat = _way_point([coord for _, coord in located])
        _add_place(places, "way", way.id, tags, lon, lat)


def _way_point(coords: list[tuple[float, float]]) -> tuple[float, float]:
    if len(coords) >= 4 and coords[0] == coords[-1]:
        point = Polygon(coords).representative_point()
    elif len(coords) >= 2:
        point = LineString(coords).interpolate(0.5, normalized=True)
    else:
        return coords[0]
    return point.x, point.y


def _is_poi(tags: dict) -> bool:
    return bool(tags.get("name")) and any(tags.get(key) for key in PRIMARY_KEYS)


def _add_place(places: list[PlaceRecord], osm_type: str, osm_id: int, tags: dict, lon: float, lat: float) -> None:
    if not _is_poi(tags):
        return
    places.append(
        PlaceRecord(
            place_id=f"{osm_type[0].upper()}{osm_id}",
            osm_type=osm_type,
            osm_id=osm_id,
            name=tags["name"],
            place_type=place_type_for(tags),
            lon=lon,
            lat=lat,
            address=address_for(tags),
            opentime_week=tags.get("opening_hours", ""),
            tag=static_tag_for(tags),
            alias=alias_for(tags),
            osm_tags=tags,
        )
    )


def address_for(tags: dict) -> str:
    """``"Mannerheimintie 5, 00100 Helsinki"`` from ``addr:*`` tags; ``""`` when none."""
    street = tags.get("addr:street") or tags.get("addr:place", "")
    first = " ".join(part for part in (street, tags.get("addr:housenumber", "")) if part)
    second = " ".join(part for part in (tags.get("addr:postcode", ""), tags.get("addr:city", "")) if part)
    return ", ".join(part for part in (first, second) if part)


_ALIAS_KEYS = ("alt_name", "short_name", "old_name", "official_name", "name:en", "name:sv", "name:fi")


def alias_for(tags: dict) -> str:
    """Other names that differ from ``name``, deduplicated, joined with ``" | "``."""
    seen = {tags.get("name", "")}
    aliases = []
    for key in _ALIAS_KEYS:
        for value in _split(tags.get(key, "")):
            if value not in seen:
                seen.add(value)
                aliases.append(value)
    return " | ".join(aliases)


def _split(raw: str) -> list[str]:
    return [part.strip() for part in raw.split(";") if part.strip()]


_DIETS = (
    ("vegan", "Vegan"),
    ("vegetarian", "Vegetarian"),
    ("gluten_free", "Gluten-free"),
    ("lactose_free", "Lactose-free"),
    ("halal", "Halal"),
    ("kosher", "Kosher"),
)
_WHEELCHAIR = {
    "yes": "Wheelchair accessible",
    "designated": "Wheelchair accessible",
    "limited": "Limited wheelchair access",
    "no": "Not wheelchair accessible",
}
_SMOKING = {
    "no": "No smoking",
    "yes": "Smoking allowed",
    "outside": "Outside only",
    "isolated": "Separate smoking room",
    "separated": "Separate smoking area",
    "dedicated": "Smokers only",
}
_PAYMENT = {
    "american_express": "American Express",
    "mastercard": "Mastercard",
    "visa": "Visa",
    "visa_electron": "Visa Electron",
    "credit_cards": "Credit cards",
    "debit_cards": "Debit cards",
    "contactless": "Contactless",
    "cash": "Cash",
}


def static_tag_for(tags: dict) -> str:
    """OSM static attributes in the paper's ``"Key: v1, v2; Key2: v3"`` form."""
    groups = {
        "Cuisine": [humanise(value) for value in _split(tags.get("cuisine", "").lower())],
        "Diet": _diet_labels(tags),
        "Facility": _facility_labels(tags),
        "Accessibility": _accessibility_labels(tags),
        "Service": _service_labels(tags),
        "Brand": _split(tags.get("brand", "")),
        "Payment": [
            _PAYMENT.get(key[8:], humanise(key[8:]))
            for key in sorted(tags)
            if key.startswith("payment:") and tags[key] == "yes"
        ],
        "Smoking": [_SMOKING[tags["smoking"]]] if tags.get("smoking") in _SMOKING else [],
    }
    return "; ".join(f"{key}: {', '.join(dict.fromkeys(values))}" for key, values in groups.items() if values)


def _diet_labels(tags: dict) -> list[str]:
    labels = []
    for key, label in _DIETS:
        value = tags.get(f"diet:{key}")
        if value in ("yes", "only"):
            labels.append(f"{label} {'options' if value == 'yes' else 'only'}")
    return labels


def _facility_labels(tags: dict) -> list[str]:
    checks = (
        (tags.get("outdoor_seating") == "yes", "Outdoor seating"),
        (tags.get("internet_access") in ("wlan", "yes", "wifi"), "WiFi"),
        (tags.get("toilets") == "yes", "Toilets"),
        (tags.get("air_conditioning") == "yes", "Air conditioning"),
    )
    return [label for present, label in checks if present]


def _accessibility_labels(tags: dict) -> list[str]:
    labels = [_WHEELCHAIR[tags["wheelchair"]]] if tags.get("wheelchair") in _WHEELCHAIR else []
    if tags.get("toilets:wheelchair") == "yes":
        labels.append("Wheelchair accessible toilet")
    return labels


def _service_labels(tags: dict) -> list[str]:
    checks = (
        (tags.get("takeaway") == "yes", "Takeaway"),
        (tags.get("takeaway") == "only", "Takeaway only"),
        (tags.get("delivery") == "yes", "Delivery"),
        (tags.get("drive_through") == "yes", "Drive-through"),
        (tags.get("reservation") in ("yes", "recommended"), "Reservations accepted"),
        (tags.get("reservation") == "required", "Reservation required"),
    )
    return [label for present, label in checks if present]


def road_record(gid: int, tags: dict, located: list[tuple[int, tuple[float, float]]]) -> RoadRecord:
    """Build a ``RoadRecord`` for a highway way from its tags and located nodes."""
    walk = mode_allowed("walk", tags)
    cycle_fwd, cycle_back = _directions(tags, "cycle") if mode_allowed("cycle", tags) else _CLOSED
    drive_fwd, drive_back = _directions(tags, "drive") if mode_allowed("drive", tags) else _CLOSED
    return RoadRecord(
        gid=gid,
        name=tags.get("name") or tags.get("ref", ""),
        highway=tags["highway"],
        node_ids=tuple(ref for ref, _ in located),
        coords=tuple(coord for _, coord in located),
        walk=walk,
        cycle_forward=cycle_fwd,
        cycle_backward=cycle_back,
        drive_forward=drive_fwd,
        drive_backward=drive_back,
        drive_speed_mps=drive_speed_mps(tags) if drive_fwd or drive_back else 0.0,
        tunnel=is_underground(tags),
    )


def is_underground(tags: dict) -> bool:
    """A tunnel (not a mere building passage) or a way on a negative layer."""
    if tags.get("tunnel", "no") not in ("no", "building_passage"):
        return True
    try:
        return int(tags.get("layer", "0")) < 0
    except ValueError:
        return False


def mode_allowed(mode: str, tags: dict) -> bool:
    """Whether ``mode`` ("walk", "cycle", "drive") may use a highway way at all."""
    highway = tags.get("highway", "")
    if highway not in ROAD_CLASSES:
        return False
    default = {"walk": _WALK_CLASSES, "cycle": _CYCLE_CLASSES, "drive": DRIVE_CLASSES}[mode]
    if highway not in default:
        return any(tags.get(key) in _OPEN for key in _OPENING_TAGS[mode])
    deciding = next((tags[key] for key in _MODE_TAGS[mode] if key in tags), "yes")
    return deciding not in _DENY


def _directions(tags: dict, mode: str) -> tuple[bool, bool]:
    oneway = tags.get("oneway", "")
    if mode == "cycle" and _cycle_contraflow(tags):
        oneway = "no"
    elif mode == "cycle" and "oneway:bicycle" in tags:
        oneway = tags["oneway:bicycle"]
    elif not oneway and (tags.get("junction") in ("roundabout", "circular") or tags.get("highway") == "motorway"):
        oneway = "yes"
    if oneway in ("yes", "1", "true"):
        return True, False
    if oneway in ("-1", "reverse"):
        return False, True
    return True, True


def _cycle_contraflow(tags: dict) -> bool:
    if tags.get("oneway:bicycle") == "no":
        return True
    sides = (tags.get(key, "") for key in ("cycleway", "cycleway:left", "cycleway:right", "cycleway:both"))
    return any(value.startswith("opposite") for value in sides)


def drive_speed_mps(tags: dict) -> float:
    """Driving speed in m/s from ``maxspeed`` or the highway class default."""
    kmh = parse_maxspeed(tags.get("maxspeed", ""))
    if kmh is None:
        kmh = _DEFAULT_KMH.get(tags.get("highway", ""), 30)
    return kmh / 3.6


def parse_maxspeed(raw: str) -> float | None:
    """``"50"`` -> 50, ``"30 mph"`` -> 48.28, ``"FI:urban"`` -> 50 (km/h); None if unknown."""
    first = _split(raw)[0] if _split(raw) else ""
    match = _MAXSPEED.match(first)
    if match:
        value = float(match.group(1))
        return value * 1.609344 if match.group(2) == "mph" else value
    zone = first.partition(":")[2] if ":" in first else first
    return _ZONE_KMH.get(zone.lower())


def enrich_rating_cost(places: Sequence[PlaceRecord], seed: int) -> dict[str, tuple[float | None, int | None]]:
    """Synthetic ``(rating, cost)`` per place, drawn from an RNG seeded by (seed, place_id).

    Each place has its own RNG, so adding or removing a place never changes the others.
    Ratings are 1.0-5.0 with one decimal; cost is the average spend per person in EUR,
    None where spending makes no sense (offices, monuments, parks).
    """
    return {place.place_id: _rating_cost(place, seed) for place in places}


def _rating_cost(place: PlaceRecord, seed: int) -> tuple[float | None, int | None]:
    digest = hashlib.sha256(f"{seed}:{place.place_id}".encode()).digest()
    rng = random.Random(int.from_bytes(digest[:8], "big"))
    rating_params, cost_range = spend_profile(place.place_type)
    rating_draw, cost_draw = rng.gauss(0.0, 1.0), rng.random()
    rating = None
    if rating_params:
        mean, sd = rating_params
        rating = round(min(5.0, max(1.0, mean + sd * rating_draw)), 1)
    cost = None
    if cost_range:
        low, high = cost_range
        cost = int(round(low + (high - low) * cost_draw**1.5))
    return rating, cost
