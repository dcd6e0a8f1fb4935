from django.core.management.base import BaseCommand, CommandError


class Command(BaseCommand):
    help = (
        "Upload answers and trajectories produced elsewhere (JSONL, one line per case and trial; see "
        "docs/evaluation.md), score them and record them as a self-reported (unverified) run."
    )

    def add_arguments(self, parser):
        parser.add_argument("path", help="The JSONL file.")
        parser.add_argument("--release", required=True, help="Release name the answers are for.")
        parser.add_argument("--name", required=True, help="Name of the run (the agent or model that answered).")
        parser.add_argument(
            "--model", default="", help="The model that answered, e.g. Qwen2.5-7B-Instruct (a listing needs it)."
        )
        parser.add_argument(
            "--description",
            default="",
            help="Who ran it and how: the agent, its prompts, the settings (a listing on the leaderboard needs it).",
        )

    def handle(self, *args, **opts):
        from benchmark.cases.models import Release
        from benchmark.external.management.commands.external_run import listing_note
        from benchmark.external.upload import run_upload
        from benchmark.runs.driver import run_summary

        release = Release.objects.filter(name=opts["release"]).first()
        if release is None:
            raise CommandError(f"no release {opts['release']!r}")
        try:
            run = run_upload(
                release=release,
                path=opts["path"],
                name=opts["name"],
                model_name=opts["model"],
                description=opts["description"],
            )
        except (ValueError, OSError) as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(run_summary(run=run) + "\nSelf-reported: this run is marked unverified.")
        note = listing_note(run)
        self.stdout.write(note or "Listed on the leaderboard as self-reported: never ranked among the verified runs.")
