import os
import sys

from django.core.management.base import BaseCommand, CommandError


class Command(BaseCommand):
    help = "Write benchmark cases with the data engine (default: the paper's table 4, 667 cases) as drafts."

    def add_arguments(self, parser):
        parser.add_argument("--seed", type=int, default=0)
        parser.add_argument(
            "--count",
            type=int,
            default=None,
            help="Total cases, split over the 11 cells in table 4's proportions (default 667).",
        )
        parser.add_argument("--cell", action="append", default=[], help="Only this cell, e.g. routing_L1 (repeatable).")
        parser.add_argument("--city", default=None, help="City name (default: settings.LIFEPLANNER_CITY)")
        parser.add_argument(
            "--validate", action="store_true", help="Verify every generated case and validate those that pass."
        )
        parser.add_argument(
            "--release",
            help="Validate the generated cases and freeze them as this release; does nothing when the release exists.",
        )
        parser.add_argument(
            "--workers",
            type=int,
            default=min(2, os.cpu_count() or 1),
            help="Processes writing cells at once (default: 2, or 1 on a one-core machine); the "
            "cases are the same whatever the number.",
        )
        parser.add_argument(
            "--split",
            choices=("public", "hidden"),
            default="public",
            help="Wording banks: public (default) or hidden. The two share no question skeleton and no need "
            "phrasing; with --release, the release is frozen with this split. Give a hidden release its own "
            "--seed, so its golds differ too.",
        )
        parser.add_argument("--no-progress", action="store_true")
        parser.add_argument(
            "--paraphrase-model",
            help="litellm model string; questions are paraphrased through it "
            "(the key comes from the PARAPHRASE_API_KEY variable).",
        )
        parser.add_argument("--paraphrase-api-base", help="API base URL of the paraphrasing model.")

    def handle(self, *args, **opts):
        from django.core.exceptions import ValidationError

        from benchmark.cases.engine.generate_flow import generate_and_store
        from benchmark.cases.engine.paraphrase import NO_CLIENT, PARAPHRASE_CLIENTS, Paraphraser
        from environment.tools.context import CityNotBuilt

        paraphraser = None
        if opts["paraphrase_model"] and not PARAPHRASE_CLIENTS.names():
            raise CommandError(f"--paraphrase-model: {NO_CLIENT}")
        if opts["paraphrase_model"]:
            paraphraser = Paraphraser(
                model=opts["paraphrase_model"],
                api_base=opts["paraphrase_api_base"],
                api_key=os.environ.get("PARAPHRASE_API_KEY"),
            )
        if opts["workers"] < 1:
            raise CommandError(f"--workers must be 1 or more; got {opts['workers']}")
        try:
            summary = generate_and_store(
                seed=opts["seed"],
                count=opts["count"],
                cells=opts["cell"],
                city=opts["city"],
                validate=opts["validate"],
                progress=None if opts["no_progress"] else sys.stderr,
                paraphraser=paraphraser,
                release=opts["release"],
                workers=opts["workers"],
                split=opts["split"],
            )
        except (CityNotBuilt, ValueError, ValidationError) as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(summary)
