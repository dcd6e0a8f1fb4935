from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from environment.build.pipeline import city_build, city_version, default_pbf
from environment.models import City


class Command(BaseCommand):
    help = "Build a city (OSM places, roads, social corpus) into PostGIS. Default: bundled central Helsinki."

    def add_arguments(self, parser):
        parser.add_argument("--pbf", type=Path, help="OSM extract (.osm.pbf or .osm). Default: the bundled Helsinki.")
        parser.add_argument("--name", default=None, help="City name (slug). Default: helsinki, or helsinki-xN.")
        parser.add_argument("--seed", type=int, default=0, help="Seed for every synthetic choice.")
        parser.add_argument("--scale", type=int, default=1, help="Tile the extract N times (scale benchmarks).")
        parser.add_argument("--corpus-jsonl", type=Path, help="Import a real corpus instead of the synthetic one.")
        parser.add_argument("--if-stale", action="store_true", help="Skip when this exact version is built.")

    def handle(self, *args, **opts):
        if opts["pbf"] and not opts["name"]:
            raise CommandError("--pbf needs --name (the slug the new city is stored under)")
        for key in ("pbf", "corpus_jsonl"):
            if opts[key] and not opts[key].is_file():
                raise CommandError(f"--{key.replace('_', '-')}: no such file: {opts[key]}")
        if opts["scale"] < 1:
            raise CommandError(f"--scale must be 1 or more, got {opts['scale']}")
        name = opts["name"] or ("helsinki" if opts["scale"] == 1 else f"helsinki-x{opts['scale']}")
        try:
            pbf = opts["pbf"] or default_pbf()
        except ValueError as exc:  # the bundled extract is missing or not the recorded file
            raise CommandError(str(exc)) from None
        if opts["if_stale"]:
            version = city_version(pbf=pbf, seed=opts["seed"], scale=opts["scale"], corpus_jsonl=opts["corpus_jsonl"])
            if City.objects.filter(name=name, version=version).exists():
                self.stdout.write(f"City {name!r} is up to date (version {version[:12]}).")
                return
        try:
            city = city_build(
                name=name,
                pbf=pbf,
                seed=opts["seed"],
                scale=opts["scale"],
                corpus_jsonl=opts["corpus_jsonl"],
                log=self.stdout.write,
            )
        except ValueError as exc:  # malformed input files: say what and where
            raise CommandError(str(exc)) from None
        self.stdout.write(format_report(city))


def format_report(city: City) -> str:
    report = city.report
    lines = [f"City {city.name!r} built: version {city.version[:12]}, seed {city.seed}, scale {city.scale}"]
    lines.append("Places by top-level type:")
    lines += [f"  {top:<28} {n:>6}" for top, n in report["places_by_top_type"].items()]
    counts = report["counts"]
    for key in ("places", "road_segments", "notes", "comments", "facts"):
        lines.append(f"{key.replace('_', ' ').capitalize():<30} {counts[key]:>6}")
    lines.append(f"Corpus: {report['corpus']}; facts by kind: {report['facts_by_kind']}")
    lines.append(f"Build time: {report['build_seconds']:.1f} s")
    return "\n".join(lines)
