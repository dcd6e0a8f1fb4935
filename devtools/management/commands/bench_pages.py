"""Server time of the dashboard pages with many stored runs, measured in a transaction that is rolled back.

Inside one transaction: store N runs on a release by copying, in bulk (INSERT ... SELECT), the
trajectories and steps of the release's finished source runs, with a seeded share of passed
cases turned into failures (some of them "budget_exhausted"); recompute each run's aggregates
from its stored rows with ``run_aggregates``; then request the leaderboard, a run page and a
trajectory replay page through Django's test client and print p50/p95 server time and the
number of queries of each. The transaction is rolled back at the end: the database is left as
it was (then VACUUM ANALYZE frees the space the copies took).
"""

from __future__ import annotations

import os
import statistics
import time
from urllib.parse import quote

from django.core.management.base import BaseCommand, CommandError
from django.db import connection, reset_queries, transaction

TARGETS_MS = {"leaderboard": 150, "run page": 300, "replay page": 200, "compare": 300, "compare case": 300}
# Pages whose result is cached (the paired comparison, per pair of run fingerprints): each timed request
# first drops that cache entry, so the figure is a first view's, the case the issue complained about.
COLD = ("compare", "compare case")
SKIPPED = {"replay page": "the run has no failed trajectory to replay", "compare": "one stored run: no pair to compare"}

_COPY_TRAJECTORIES = """
INSERT INTO benchmark_trajectory (run_id, entry_id, trial, status, claimed_at, claimed_by, attempts, ended,
    final_answer, error, input_tokens, output_tokens, scores, passed, started_at, finished_at)
SELECT %(new)s, entry_id, trial, status, NULL, '', attempts,
    CASE WHEN flip AND hashed %% 5 = 0 THEN 'budget_exhausted' ELSE ended END,
    final_answer, error, input_tokens, output_tokens,
    CASE WHEN flip THEN jsonb_set(scores, '{pass_rate,value}', '0'::jsonb) ELSE scores END,
    CASE WHEN flip THEN false ELSE passed END, started_at, finished_at
FROM (SELECT t.*, abs(hashtext(t.id::text || ':' || %(seed)s)) AS hashed FROM benchmark_trajectory t
      WHERE t.run_id = %(source)s) AS s,
     LATERAL (SELECT coalesce(s.passed, false) AND s.hashed %% 1000 < %(permille)s AS flip) AS f
"""
_COPY_STEPS = """
INSERT INTO benchmark_step (trajectory_id, index, tool, arguments, observation, error_kind, latency_ms, model_text,
    input_tokens, output_tokens)
SELECT nt.id, s.index, s.tool, s.arguments, s.observation, s.error_kind, s.latency_ms, s.model_text,
    s.input_tokens, s.output_tokens
FROM benchmark_step s
JOIN benchmark_trajectory st ON st.id = s.trajectory_id AND st.run_id = %(source)s
JOIN benchmark_trajectory nt ON nt.run_id = %(new)s AND nt.entry_id = st.entry_id AND nt.trial = st.trial
"""


class Rollback(Exception):
    """Raised at the end of the measurement so the transaction never commits."""


class Command(BaseCommand):
    help = (
        "Server time (p50, p95) and query counts of the leaderboard, a run page, a replay page and the compare "
        "page with N stored runs copied from a release's finished runs; everything is rolled back afterwards."
    )

    def add_arguments(self, parser):
        parser.add_argument("--release", default="helsinki-v2")
        parser.add_argument("--runs", type=int, default=50, help="Runs to store (copies of the source runs).")
        parser.add_argument("--requests", type=int, default=50, help="Timed requests per page.")
        parser.add_argument(
            "--sources",
            default="reference,heuristic",
            help="Agents whose newest finished run on the release is copied (comma-separated).",
        )
        parser.add_argument(
            "--profile",
            action="store_true",
            help="Also profile 5 requests per page (cProfile) and print the slowest queries.",
        )

    def handle(self, *args, **opts):
        from benchmark.cases.models import Release

        if not 1 <= opts["runs"] <= 500 or not 1 <= opts["requests"] <= 1000:
            raise CommandError("--runs must be between 1 and 500 and --requests between 1 and 1000")
        release = Release.objects.filter(name=opts["release"]).first()
        if release is None:
            raise CommandError(f"no release named {opts['release']!r}")
        sources = self._sources(release, [a.strip() for a in opts["sources"].split(",") if a.strip()])
        try:
            with transaction.atomic():
                self._measure(release, sources, opts)
                raise Rollback
        except Rollback:
            self.stdout.write("rolled back: the database is as it was")
        self._vacuum()

    def _vacuum(self) -> None:
        """Mark the rolled-back rows' space free and refresh the planner's statistics, so that the
        tables the copies bloated do not mislead the planner (seq scans over dead pages) until
        autovacuum comes. Skipped inside a transaction (tests), where VACUUM cannot run."""
        if connection.in_atomic_block:
            return
        started = time.perf_counter()
        with connection.cursor() as cursor:
            for table in ("benchmark_trajectory", "benchmark_step", "benchmark_evaluationrun"):
                cursor.execute(f"VACUUM ANALYZE {table}")
        self.stdout.write(f"vacuumed the copied tables ({time.perf_counter() - started:.1f} s)")

    def _sources(self, release, agents: list[str]) -> list:
        from django.db.models import Count

        from benchmark.runs.models import EvaluationRun

        cases = release.entries.count()
        found = []
        for agent in agents:
            complete = (  # the newest run of every case: a run with --limit is no source
                EvaluationRun.objects.filter(release=release, agent=agent, status=EvaluationRun.COMPLETED)
                .annotate(trajectory_count=Count("trajectories"))
                .filter(trajectory_count=cases)
            )
            run = complete.order_by("-id").first()
            if run is None:
                raise CommandError(
                    f"no completed {agent!r} run of all {cases} cases on {release.name}: run "
                    f"`python manage.py evaluate --agent {agent} --release {release.name} --sync`"
                )
            found.append(run)
        return found

    def _measure(self, release, sources, opts) -> None:
        started = time.perf_counter()
        runs = self._store_runs(release, sources, opts["runs"])
        with connection.cursor() as cursor:
            for table in ("benchmark_trajectory", "benchmark_step", "benchmark_evaluationrun"):
                cursor.execute(f"ANALYZE {table}")  # planner statistics as a settled database would have them
            cursor.execute("SELECT count(*) FROM benchmark_trajectory WHERE run_id = ANY(%s)", [[r.id for r in runs]])
            trajectories = cursor.fetchone()[0]
            cursor.execute(
                "SELECT count(*) FROM benchmark_step s JOIN benchmark_trajectory t ON t.id = s.trajectory_id"
                " WHERE t.run_id = ANY(%s)",
                [[r.id for r in runs]],
            )
            steps = cursor.fetchone()[0]
        self.stdout.write(
            f"stored {len(runs)} runs on {release.name}: {trajectories} trajectories, {steps} steps, "
            f"aggregates recomputed ({time.perf_counter() - started:.1f} s)"
        )
        pages = self._pages(release, runs)
        self._report(pages, opts["requests"])
        if opts["profile"]:
            self._profile(pages)
            self._compare_case_queries(runs)

    def _store_runs(self, release, sources, count: int) -> list:
        from benchmark.endpoints.models import ModelEndpoint
        from benchmark.runs.aggregates import run_aggregates
        from benchmark.runs.models import EvaluationRun

        priced = ModelEndpoint.objects.create(name="bench-pages gpt-4o-mini", model="gpt-4o-mini")
        runs = []
        for k in range(count):
            source = sources[k % len(sources)]
            run = EvaluationRun.objects.create(
                name=f"bench-pages {k:02d} ({source.name})",
                agent="upload" if k % 7 == 6 else source.agent,
                release=release,
                status=EvaluationRun.COMPLETED,
                verified=k % 7 != 6,
                config=source.config,
                endpoint=priced if k % 5 == 4 else None,
                model_name=f"bench-pages model {k % 4}",
                description=f"A copy of run {source.id} with some verdicts flipped, written by manage.py bench_pages.",
                started_at=source.started_at,
                finished_at=source.finished_at,
            )
            with connection.cursor() as cursor:
                params = {"new": run.id, "source": source.id, "seed": k, "permille": 40 * (k % 10)}
                cursor.execute(_COPY_TRAJECTORIES, params)
                cursor.execute(_COPY_STEPS, params)
            run.aggregates = run_aggregates(run=run)
            run.save(update_fields=["aggregates"])
            runs.append(run)
        return runs

    def _pages(self, release, runs) -> dict[str, str | None]:
        """The URL of each page; the run page of the copy with the most failures, and the replay of its
        failed trajectory with the most steps (None when the run has no failed trajectory); the comparison
        of the copy with the fewest failures (A) with that one (B), the pair with the longest lists of won
        cases, and the same with that trajectory's case side by side."""
        from django.db.models import Count
        from django.urls import reverse

        from benchmark.runs.models import Trajectory

        def overall(run) -> float:
            return run.aggregates["table2"]["overall"]["value"]

        worst, best = min(runs, key=overall), max(runs, key=overall)
        longest = (
            Trajectory.objects.filter(run=worst, passed=False)
            .annotate(n=Count("steps"))
            .order_by("-n", "id")
            .select_related("entry__case")
            .first()
        )
        replay = reverse("trajectory", args=[longest.id]) if longest else None
        compare = f"{reverse('compare')}?a={best.id}&b={worst.id}" if best.id != worst.id else None
        case = quote(longest.entry.case.case_id, safe="") if longest else ""
        side = f"{compare}&case={case}&trial={longest.trial}" if compare and longest else None
        self._pair = (best, worst)
        return {
            "leaderboard": f"{reverse('home')}?release={release.name}",
            "run page": reverse("run", args=[worst.id]),
            "replay page": replay,
            "compare": compare,
            "compare case": side,
        }

    def _report(self, pages: dict[str, str | None], requests: int) -> None:
        from django.test import Client
        from django.test.utils import CaptureQueriesContext, override_settings

        client = Client()
        load = os.getloadavg()
        self.stdout.write(
            f"load average before timing: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} "
            f"({os.cpu_count()} CPUs); {requests} requests per page after 3 untimed ones; DEBUG off; "
            f"compare pages without their cached comparison (a first view)"
        )
        self.stdout.write(
            f"{'page':<12} {'url':<34} {'p50 ms':>7} {'p95 ms':>7} {'max ms':>7} {'queries':>7}  target p95"
        )
        # DEBUG off and the compare page's anonymous request budget lifted: 50 requests a minute from one
        # client are the measurement, not abuse
        with override_settings(DEBUG=False, PAGE_THROTTLE_RATES={"compare": None}):
            for name, url in pages.items():
                if url is None:
                    self.stdout.write(f"{name:<12} skipped: {SKIPPED.get(name, SKIPPED['replay page'])}")
                    continue
                for _ in range(3):
                    self._get(client, url)
                reset_queries()  # the request_started signal empties the log; start from an empty one
                self._forget(name)
                with CaptureQueriesContext(connection) as queries:
                    self._get(client, url)
                count = len(queries)  # read now: the next request empties the connection's log
                times = sorted(self._timed(client, url, name) for _ in range(requests))
                p95 = times[max(0, round(0.95 * len(times)) - 1)]
                verdict = "ok" if p95 <= TARGETS_MS[name] else "MISSED"
                self.stdout.write(
                    f"{name:<12} {url:<34} {statistics.median(times):7.1f} {p95:7.1f} "
                    f"{times[-1]:7.1f} {count:7d}  {TARGETS_MS[name]} ms {verdict}"
                )
        load = os.getloadavg()
        self.stdout.write(f"load average after timing: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")

    def _profile(self, pages: dict[str, str | None]) -> None:
        import cProfile
        import io
        import pstats

        from django.test import Client
        from django.test.utils import CaptureQueriesContext, override_settings

        client = Client()
        with override_settings(DEBUG=False, PAGE_THROTTLE_RATES={"compare": None}):
            for name, url in pages.items():
                if url is None:
                    continue
                profile = cProfile.Profile()
                profile.enable()
                for _ in range(5):
                    self._timed(client, url, name)
                profile.disable()
                out = io.StringIO()
                pstats.Stats(profile, stream=out).sort_stats("cumulative").print_stats(
                    r"benchmark|judging|template", 20
                )
                self.stdout.write(f"--- {name}: 5 requests, cumulative time\n" + out.getvalue())
                reset_queries()
                self._forget(name)
                with CaptureQueriesContext(connection) as queries:
                    self._get(client, url)
                for query in sorted(queries.captured_queries, key=lambda q: -float(q["time"])):
                    self.stdout.write(f"  {float(query['time']) * 1000:7.1f} ms  {query['sql'][:160]}")

    def _compare_case_queries(self, runs) -> None:
        """The run page's main query with one decompression of ``scores`` per value, and once per row."""
        from benchmark.web.runs.report import _cases_sql

        run = runs[len(runs) // 2]
        with connection.cursor() as cursor:
            for once in (False, True):
                sql = _cases_sql(decompress_once=once)
                cursor.execute(sql, [run.id])
                times = []
                for _ in range(10):
                    started = time.perf_counter()
                    cursor.execute(sql, [run.id])
                    rows = cursor.fetchall()
                    times.append((time.perf_counter() - started) * 1000)
                label = "scores decompressed once per row" if once else "scores decompressed once per value"
                self.stdout.write(
                    f"run page query, {label}: median {statistics.median(times):.1f} ms over 10, {len(rows)} rows"
                )

    def _forget(self, name: str) -> None:
        """Drop the cached comparison of the compared pair before a compare page's request (not timed)."""
        if name in COLD:
            from django.core.cache import cache

            from benchmark.web.replay.compare import compare_cache_key

            cache.delete(compare_cache_key(a=self._pair[0], b=self._pair[1]))

    def _timed(self, client, url: str, name: str) -> float:
        self._forget(name)
        return self._get(client, url)

    @staticmethod
    def _get(client, url: str) -> float:
        started = time.perf_counter()
        response = client.get(url)
        elapsed = (time.perf_counter() - started) * 1000
        if response.status_code != 200:
            raise CommandError(f"GET {url} answered {response.status_code}")
        return elapsed
