import time

from django.core.management.base import BaseCommand, CommandError


class Command(BaseCommand):
    help = (
        "Serve a scripted OpenAI-compatible endpoint that answers each question of a release with its "
        "reference tool path (benchmarks, fault drills, demos). Not a model."
    )

    def add_arguments(self, parser):
        parser.add_argument("--release", required=True)
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", type=int, default=8400)
        parser.add_argument("--delay", type=float, default=0.0, help="Seconds per answer.")
        parser.add_argument("--fail-rate", type=float, default=0.0, help="Share of requests answered with 500.")

    def handle(self, *args, **opts):
        from benchmark.cases.models import Release
        from devtools.fake_endpoint import ScriptedEndpoint

        release = Release.objects.filter(name=opts["release"]).first()
        if release is None:
            raise CommandError(f"no release {opts['release']!r}")
        if not 0 <= opts["fail_rate"] < 1:
            raise CommandError("--fail-rate must be in [0, 1)")
        endpoint = ScriptedEndpoint.for_release(
            release, delay_s=opts["delay"], fail_rate=opts["fail_rate"], host=opts["host"], port=opts["port"]
        ).start()
        self.stdout.write(f"Scripted endpoint for {release.name} at {endpoint.url} (Ctrl-C stops)")
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            endpoint.stop()
