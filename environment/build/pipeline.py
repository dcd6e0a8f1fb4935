"""Build a city: read OSM, tile (optional), enrich, write or import the corpus, load PostGIS."""

from __future__ import annotations

import hashlib
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from django.contrib.gis.geos import Polygon

from environment.models import City
from environment.records import PlaceRecord, RoadRecord

BUILD_DIR = Path(__file__).resolve().parent
# Offsets that keep tiled copies' ids apart from the originals (OSM ids are below 2**36).
TILE_WAY_OFFSET = 10**11
TILE_NODE_OFFSET = 10**12
# The bundled central-Helsinki extract and its checksum (environment/data/README.md: origin and licence).
HELSINKI_PBF = BUILD_DIR.parent / "data" / "helsinki.osm.pbf"
HELSINKI_PBF_SHA256 = "b73e9c2c82054d654209b0127f1c3287d5900d6780a6083bf3a45ead8ba3e5ee"


def default_pbf() -> Path:
    """The bundled central-Helsinki OSM extract, once its SHA-256 matches the recorded one.

    Raises:
        ValueError: the file is missing or its content is not the recorded one.
    """
    return verified_file(HELSINKI_PBF, sha256=HELSINKI_PBF_SHA256)


def verified_file(path: Path, *, sha256: str) -> Path:
    """Return ``path`` when its SHA-256 is ``sha256``; raise a ValueError naming the path and both sums if not."""
    if not path.is_file():
        raise ValueError(f"{path}: no such file (the bundled OSM extract; restore it from the repository)")
    actual = hashlib.sha256(path.read_bytes()).hexdigest()
    if actual != sha256:
        raise ValueError(
            f"{path}: SHA-256 is {actual}, expected {sha256}; the bundled OSM extract was changed or "
            "damaged (restore it from the repository)"
        )
    return path


def build_code_version() -> str:
    """A hash of the build code itself: changing how a city is built changes its version."""
    digest = hashlib.sha256()
    for path in sorted(BUILD_DIR.rglob("*.py")):
        digest.update(path.relative_to(BUILD_DIR).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def city_version(*, pbf: Path, seed: int, scale: int, corpus_jsonl: Path | None) -> str:
    digest = hashlib.sha256()
    digest.update(pbf.read_bytes())
    if corpus_jsonl is not None:
        digest.update(corpus_jsonl.read_bytes())
    digest.update(f"seed={seed};scale={scale};code={build_code_version()}".encode())
    return digest.hexdigest()


def tile_city(
    places: list[PlaceRecord], roads: list[RoadRecord], scale: int
) -> tuple[list[PlaceRecord], list[RoadRecord]]:
    """Copy the city ``scale`` times side by side (east), with new ids, for scale benchmarks."""
    if scale == 1:
        return places, roads
    lons = [lon for r in roads for lon, _ in r.coords] + [p.lon for p in places]
    width = (max(lons) - min(lons)) * 1.02
    out_places, out_roads = list(places), list(roads)
    for k in range(1, scale):
        shift = width * k
        out_places += [replace(p, place_id=f"T{k}{p.place_id}", lon=p.lon + shift, osm_id=p.osm_id) for p in places]
        out_roads += [
            replace(
                r,
                gid=r.gid + k * TILE_WAY_OFFSET,
                node_ids=tuple(n + k * TILE_NODE_OFFSET for n in r.node_ids),
                coords=tuple((lon + shift, lat) for lon, lat in r.coords),
            )
            for r in roads
        ]
    return out_places, out_roads


def _bbox(places: list[PlaceRecord], roads: list[RoadRecord]) -> Polygon:
    lons = [lon for r in roads for lon, _ in r.coords] + [p.lon for p in places]
    lats = [lat for r in roads for _, lat in r.coords] + [p.lat for p in places]
    return Polygon.from_bbox((min(lons), min(lats), max(lons), max(lats)))


def city_build(
    *,
    name: str,
    pbf: Path | None = None,
    seed: int = 0,
    scale: int = 1,
    corpus_jsonl: Path | None = None,
    log: Callable[[str], None] = print,
) -> City:
    """Build (or rebuild, atomically) the city ``name`` and return its row with a report."""
    from .corpus import generate_corpus, read_corpus_jsonl
    from .loader import city_load
    from .osm import enrich_rating_cost, read_osm

    started = time.perf_counter()
    pbf = Path(pbf) if pbf else default_pbf()
    if scale < 1:
        raise ValueError(f"scale must be a positive integer, got {scale}")
    timings: dict[str, float] = {}

    def stage(label: str, t0: float) -> float:
        now = time.perf_counter()
        timings[label] = round(now - t0, 2)
        log(f"  {label}: {timings[label]:.2f} s")
        return now

    log(f"Building city {name!r} from {pbf} (seed {seed}, scale {scale})")
    t = time.perf_counter()
    extract = read_osm(pbf)
    places, roads = tile_city(extract.places, extract.roads, scale)
    t = stage("read OSM", t)
    ratings = enrich_rating_cost(places, seed)
    corpus = read_corpus_jsonl(corpus_jsonl, places) if corpus_jsonl else generate_corpus(places, seed)
    t = stage("social corpus", t)
    city = City.objects.filter(name=name).first() or City(name=name)
    city.version = city_version(pbf=pbf, seed=seed, scale=scale, corpus_jsonl=corpus_jsonl)
    city.seed, city.scale, city.source = seed, scale, str(pbf)
    city.bbox = _bbox(places, roads)
    counts = city_load(city=city, places=places, roads=roads, ratings=ratings, corpus=corpus)
    t = stage("load PostGIS", t)
    city.report = {
        "counts": counts,
        "places_by_top_type": dict(sorted(Counter(p.top_type for p in places).items())),
        "facts_by_kind": dict(sorted(Counter(f.kind for f in corpus.facts).items())),
        "corpus": "imported" if corpus_jsonl else "synthetic",
        "timings_s": timings,
        "build_seconds": round(time.perf_counter() - started, 2),
    }
    city.save(update_fields=["report"])
    return city
