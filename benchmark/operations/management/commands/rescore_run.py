import json

from django.core.management.base import BaseCommand, CommandError


class Command(BaseCommand):
    help = (
        "Score a finished run again with the current metric and judge code, recompute its aggregates and record "
        "what changed (a RunRescore). See docs/operations.md."
    )

    def add_arguments(self, parser):
        parser.add_argument("run", type=int, help="The run's id.")
        parser.add_argument("--reason", default="", help="Why: which metric or judge changed (required to re-score).")
        parser.add_argument(
            "--metrics",
            default="",
            help="Comma-separated results to replace (e.g. SC,RP,pass_rate); default all. The pass "
            "verdict changes only when pass_rate is included.",
        )
        parser.add_argument("--dry-run", action="store_true", help="Show what would change; save nothing.")
        parser.add_argument("--show", type=int, default=20, help="Changed trajectories to list (default 20).")
        parser.add_argument(
            "--threads",
            type=int,
            default=1,
            help="Trajectories scored at once (default 1); the scores do not depend on it.",
        )
        parser.add_argument(
            "--check-threads",
            type=int,
            metavar="N",
            help="Save nothing: score every trajectory at 1 and at N threads from a cold start and "
            "say whether the scores are identical byte for byte.",
        )

    def handle(self, *args, **opts):
        from benchmark.operations.rescore import run_rescore, thread_check
        from benchmark.runs.models import EvaluationRun

        run = EvaluationRun.objects.filter(id=opts["run"]).first()
        if run is None:
            raise CommandError(f"no run {opts['run']}")
        for flag in ("threads", "check_threads"):
            if opts[flag] is not None and opts[flag] < 1:
                raise CommandError(f"--{flag.replace('_', '-')} must be 1 or more, got {opts[flag]}")
        if opts["check_threads"]:
            count, differ = thread_check(run, opts["check_threads"])
            verdict = "identical" if not differ else f"{len(differ)} differ: {', '.join(differ[:20])}"
            self.stdout.write(
                f"Run {run.id}: {count} trajectories scored at 1 and at {opts['check_threads']} threads: {verdict}."
            )
            if differ:
                raise CommandError("scores depend on the number of threads")
            return
        try:
            record = run_rescore(
                run=run,
                reason=opts["reason"],
                metrics=opts["metrics"].split(","),
                dry_run=opts["dry_run"],
                threads=opts["threads"],
            )
        except ValueError as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(_summary(record, dry_run=opts["dry_run"], show=max(opts["show"], 0)))


def _summary(record, *, dry_run: bool, show: int) -> str:
    what = "would change" if dry_run else f"changed (rescore {record.id})"
    lines = [
        f"Run {record.run_id}: {record.n_trajectories} trajectories re-scored; {what}: "
        f"{record.n_pass_changed} pass verdicts, {record.n_metric_changed} with a metric value."
    ]
    for change in record.changes[:show]:
        lines.append(
            f"  {change['case_id']}#{change['trial']}: "
            + json.dumps({k: change[k] for k in ("passed", "metrics") if k in change}, ensure_ascii=False)
        )
    if len(record.changes) > show:
        lines.append(f"  ... and {len(record.changes) - show} more")
    before = (record.aggregates_before.get("table2") or {}).get("overall", {}).get("value")
    after = (record.aggregates_after.get("table2") or {}).get("overall", {}).get("value")
    lines.append(f"Overall pass rate: {before} -> {after}")
    return "\n".join(lines)
