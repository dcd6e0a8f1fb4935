"""Small fixture cities for fast tests, loaded through the real build loader into PostGIS."""

from __future__ import annotations

from environment.records import PlaceRecord, RoadRecord

# A 5 x 5 street grid around (24.94, 60.17), about 110 m between streets.
ORIGIN_LON, ORIGIN_LAT = 24.94, 60.17
STEP_LON, STEP_LAT = 0.002, 0.001
GRID = 5


def node_id(i: int, j: int) -> int:
    return 1000 + i * GRID + j


def node_coord(i: int, j: int) -> tuple[float, float]:
    return (ORIGIN_LON + j * STEP_LON, ORIGIN_LAT + i * STEP_LAT)


def grid_roads() -> list[RoadRecord]:
    """Rows are east-west streets, columns north-south. Row 2 is one-way eastbound for cars."""
    roads = []
    for i in range(GRID):
        nodes = tuple(node_id(i, j) for j in range(GRID))
        oneway = i == 2
        roads.append(
            RoadRecord(
                gid=100 + i,
                name=f"Row {i} Street",
                highway="residential",
                node_ids=nodes,
                coords=tuple(node_coord(i, j) for j in range(GRID)),
                walk=True,
                cycle_forward=True,
                cycle_backward=not oneway,
                drive_forward=True,
                drive_backward=not oneway,
                drive_speed_mps=8.33,
            )
        )
    for j in range(GRID):
        nodes = tuple(node_id(i, j) for i in range(GRID))
        roads.append(
            RoadRecord(
                gid=200 + j,
                name=f"Column {j} Avenue",
                highway="primary" if j == 4 else "residential",
                node_ids=nodes,
                coords=tuple(node_coord(i, j) for i in range(GRID)),
                walk=True,
                cycle_forward=True,
                cycle_backward=True,
                drive_forward=True,
                drive_backward=True,
                drive_speed_mps=16.7 if j == 4 else 8.33,
            )
        )
    return roads


PLACE_SPECS = [
    # (place_id, name, place_type, i, j, opening_hours, tag)
    ("N1", "Kahvila Koira", "Food & Beverages|Coffee House", 0, 0, "Mo-Fr 08:00-18:00", "Facility: WiFi"),
    ("N2", "Ravintola Meri", "Food & Beverages|Restaurant", 0, 2, "Mo-Su 11:00-22:00", "Cuisine: Seafood"),
    ("N3", "Kirjakauppa Lumi", "Shopping|Bookstore", 1, 1, "Mo-Sa 10:00-19:00", ""),
    ("N4", "Hotel Aurora", "Accommodation|Hotel", 2, 2, "24/7", "Facility: WiFi"),
    ("N5", "Museo Kivi", "Culture|Museum", 2, 4, "Tu-Su 10:00-17:00", "Accessibility: Wheelchair accessible"),
    ("N6", "Pub Karhu", "Food & Beverages|Pub", 3, 0, "Mo-Su 16:00-02:00", ""),
    ("N7", "Kahvila Aamu", "Food & Beverages|Coffee House", 4, 4, "Mo-Fr 07:00-15:00", "Diet: Vegan options"),
    ("N8", "Apteekki Tammi", "Healthcare|Pharmacy", 4, 0, "broken hours ((", ""),
    ("N9", "Pizzeria Tähti", "Food & Beverages|Pizzeria", 1, 3, "Mo-Su 11:00-23:00", "Cuisine: Pizza"),
    ("N10", "Puisto Valo", "Scenery Spot|Park", 3, 3, "", ""),
]


def grid_places() -> list[PlaceRecord]:
    places = []
    for pid, name, ptype, i, j, hours, tag in PLACE_SPECS:
        lon, lat = node_coord(i, j)
        places.append(
            PlaceRecord(
                place_id=pid,
                osm_type="node",
                osm_id=int(pid[1:]),
                name=name,
                place_type=ptype,
                lon=lon + 0.00005,
                lat=lat + 0.00003,
                address=f"Testikatu {pid[1:]}, 00100 Helsinki",
                opentime_week=hours,
                tag=tag,
                alias="",
            )
        )
    return places


def build_grid_city(name: str = "gridtown", seed: int = 1):
    """Load the grid city (with a generated corpus) under ``name`` and return the City row."""
    from django.contrib.gis.geos import Polygon

    from environment.build.corpus import generate_corpus
    from environment.build.loader import city_load
    from environment.build.osm import enrich_rating_cost
    from environment.models import City

    places, roads = grid_places(), grid_roads()
    city = City.objects.filter(name=name).first() or City(name=name)
    city.version, city.seed, city.scale, city.source = f"grid-{seed}", seed, 1, "tests/factories.py"
    city.bbox = Polygon.from_bbox((24.93, 60.16, 24.96, 60.18))
    counts = city_load(
        city=city,
        places=places,
        roads=roads,
        ratings=enrich_rating_cost(places, seed),
        corpus=generate_corpus(places, seed),
    )
    city.report = {"counts": counts}
    city.save(update_fields=["report"])
    return city
