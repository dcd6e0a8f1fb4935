import json

from django.core.management.base import BaseCommand, CommandError


class Command(BaseCommand):
    help = "Benchmark tool latency: p50 and p95 per tool over varied seeded calls."

    def add_arguments(self, parser):
        parser.add_argument("--city", default=None, help="City name (default: settings.LIFEPLANNER_CITY)")
        parser.add_argument("--calls", type=int, default=300, help="Timed calls per tool.")
        parser.add_argument("--seed", type=int, default=0)
        parser.add_argument("--json", dest="json_path", help="Also write the rows as JSON to this file.")
        parser.add_argument(
            "--outputs", help="Write every call's arguments and observation as JSON lines (to compare implementations)."
        )

    def handle(self, *args, **opts):
        from dataclasses import asdict

        from devtools.tool_bench import bench_tools, format_rows
        from environment.tools.context import CityNotBuilt, city_context

        if opts["calls"] < 2:
            raise CommandError("--calls must be at least 2")
        try:
            ctx = city_context(opts["city"])
        except CityNotBuilt as exc:
            raise CommandError(str(exc)) from None
        if opts["outputs"]:
            with open(opts["outputs"], "w", encoding="utf-8") as outputs:
                rows = bench_tools(ctx=ctx, calls=opts["calls"], seed=opts["seed"], outputs=outputs)
        else:
            rows = bench_tools(ctx=ctx, calls=opts["calls"], seed=opts["seed"])
        self.stdout.write(format_rows(rows, ctx.city_name))
        if opts["json_path"]:
            with open(opts["json_path"], "w") as fh:
                json.dump([asdict(r) for r in rows], fh, indent=2)
