from django.core.management.base import BaseCommand, CommandError


class Command(BaseCommand):
    help = (
        "Measure each configured judge (JUDGE_MODELS) against curators' human scores: mean absolute error "
        "and correlation per category, and the recommended ensemble."
    )

    def add_arguments(self, parser):
        parser.add_argument("--metric", choices=["SC", "RP"], default="SC")
        parser.add_argument("--top", type=int, default=3, help="Size of the recommended ensemble.")

    def handle(self, *args, **opts):
        from benchmark.runs.models import HumanScore
        from benchmark.runs.scoring.judge_cache import DatabaseJudgeCache
        from benchmark.runs.scoring.judge_calibration import calibration_report, judges_calibrate
        from benchmark.runs.scoring.model_clients import platform_judges

        judges = platform_judges()
        if not judges:
            raise CommandError("no judge is configured: set JUDGE_MODELS (docs/judges.md)")
        if not HumanScore.objects.filter(metric=opts["metric"]).exists():
            raise CommandError(
                f"no human {opts['metric']} scores yet: curators enter them in the admin (Benchmark > Human scores)"
            )
        result = judges_calibrate(judges=judges, metric=opts["metric"], cache=DatabaseJudgeCache(), k=opts["top"])
        self.stdout.write(calibration_report(result))
