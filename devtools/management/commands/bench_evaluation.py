import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlparse

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

REPO = Path(settings.BASE_DIR)  # the checkout: workers start here, where lifeplanner_site is
# A threads worker's connections: at most 10 per process (settings.DB_POOL_SIZE), unless DB_POOL_SIZE is set. Not for
# prefork workers, whose pool Celery's Django fixup closes after every task.
THREADS_DB_POOL_SIZE = "10"


class Command(BaseCommand):
    help = (
        "Throughput of evaluation runs: the litellm agent against the scripted endpoint (which answers with "
        "each case's reference path), on N Celery worker processes. Prints elapsed time, cases and model calls "
        "per second, the harness time per tool call, and the CPU per model call of the workers, the endpoint, "
        "PostgreSQL and Redis. Use a Redis database of its own (REDIS_URL) so that no other worker takes its "
        "tasks."
    )

    def add_arguments(self, parser):
        parser.add_argument("--release", required=True)
        parser.add_argument("--workers", type=int, default=2, help="Celery worker processes to start.")
        parser.add_argument("--pool", choices=["prefork", "threads"], default="prefork")
        parser.add_argument("--concurrency", type=int, default=1, help="Tasks at once per worker.")
        parser.add_argument("--delay", type=float, default=0.0, help="Seconds the endpoint takes per answer.")
        parser.add_argument(
            "--endpoint-concurrency",
            type=int,
            help="The endpoint's cap on requests in flight across workers (ModelEndpoint.concurrency); default: one "
            "per case running (workers x concurrency). Below that, the cases over the cap keep the endpoint busy "
            "while others are claimed, scored and written.",
        )
        parser.add_argument("--limit", type=int)
        parser.add_argument(
            "--profile",
            metavar="DIR",
            help="cProfile every worker thread after warm-up: DIR/worker-<pid>.prof and DIR/summary.txt.",
        )

    def handle(self, *args, **opts):
        from benchmark.cases.models import Release
        from benchmark.endpoints.services import endpoint_for_cli
        from benchmark.runs.models import EvaluationRun, ModelCall, Step
        from benchmark.runs.services import run_create, run_enqueue, run_progress
        from devtools.fake_endpoint import ScriptedEndpoint

        self._check(opts)
        release = Release.objects.filter(name=opts["release"]).first()
        if release is None:
            raise CommandError(f"no release {opts['release']!r}")
        if not settings.ALLOW_PRIVATE_ENDPOINTS:
            raise CommandError("the scripted endpoint listens on 127.0.0.1: run with ALLOW_PRIVATE_ENDPOINTS=1")
        endpoint = ScriptedEndpoint.for_release(release, delay_s=opts["delay"]).start()
        model = endpoint_for_cli(
            model="openai/scripted",
            api_base=endpoint.url,
            api_key="sk-bench-not-secret",
            concurrency=_in_flight(opts),
        )
        run = run_create(
            agent="litellm",
            release=release,
            endpoint=model,
            limit=opts["limit"],
            name=f"bench {opts['workers']}x{opts['concurrency']} {opts['pool']} delay {opts['delay']} "
            f"{time.strftime('%Y-%m-%d %H:%M:%S')}",  # run names are unique per release
        )
        names = [f"bench-{time.monotonic_ns()}-{i}" for i in range(opts["workers"])]
        workers = [self._worker(opts, name) for name in names]
        try:
            self._wait_ready(names, workers)  # started, warmed up and consuming: their start-up is not timed
            meter = CpuMeter(worker_pids=[w.pid for w in workers])
            started = time.perf_counter()
            run_enqueue(run=run)
            polls, stalled = 0, _Stall(run)
            while EvaluationRun.objects.get(id=run.id).status == EvaluationRun.RUNNING:
                time.sleep(0.2)
                polls += 1
                if polls % 10 == 0:
                    meter.sample()
                    stalled.check()
            elapsed = time.perf_counter() - started
            meter.sample()
        finally:
            for worker in workers:
                if worker.poll() is None:
                    os.killpg(worker.pid, signal.SIGTERM)
            if opts.get("profile"):  # they write their profiles as they shut down
                for worker in workers:
                    worker.wait(timeout=120)
            endpoint.stop()
        progress = run_progress(run=run)
        calls = ModelCall.objects.filter(trajectory__run=run).count()
        steps = Step.objects.filter(trajectory__run=run)
        harness_ms = sum(steps.values_list("latency_ms", flat=True)) / max(1, steps.count())
        run.refresh_from_db()
        self.stdout.write(
            f"run {run.id}: {progress['done']} cases ({progress['passed']} passed) on {opts['workers']} worker(s) "
            f"x {opts['concurrency']} ({opts['pool']}), endpoint delay {opts['delay']} s\n"
            f"elapsed {elapsed:.1f} s; {progress['done'] / elapsed:.1f} cases/s; {calls} model calls, "
            f"{calls / elapsed:.1f} calls/s; {steps.count()} tool calls, harness {harness_ms:.1f} ms per tool call "
            f"(MCP client, gateway, tool){_of_ideal(opts, calls / elapsed, endpoint.peak_in_flight)}\n"
            f"{meter.report(calls)}"
        )
        if opts.get("profile"):
            self._summarise(Path(opts["profile"]))

    def _summarise(self, folder: Path) -> None:
        from devtools.profiling import profile_summary

        paths = sorted(folder.glob("worker-*.prof"))
        if not paths:
            raise CommandError(f"the workers wrote no profile in {folder}")
        (folder / "summary.txt").write_text(profile_summary(paths))
        self.stdout.write(f"profiles: {', '.join(str(p) for p in paths)}; summary: {folder / 'summary.txt'}")

    def _check(self, opts) -> None:
        for name, low in (("workers", 1), ("concurrency", 1), ("limit", 1), ("endpoint_concurrency", 1)):
            if opts[name] is not None and opts[name] < low:
                raise CommandError(f"--{name.replace('_', '-')} must be {low} or more; got {opts[name]}")
        cases = opts["workers"] * opts["concurrency"]
        if (opts["endpoint_concurrency"] or 0) > cases:
            raise CommandError(
                "--endpoint-concurrency must be at most the cases running at once "
                f"(--workers x --concurrency = {cases}); got {opts['endpoint_concurrency']}"
            )
        if opts["delay"] < 0:
            raise CommandError(f"--delay must be 0 or more seconds; got {opts['delay']}")

    def _wait_ready(self, names: list[str], workers: list[subprocess.Popen], timeout_s: float = 180) -> None:
        from celery import current_app as app

        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            for name, worker in zip(names, workers):
                if worker.poll() is not None:
                    raise CommandError(
                        f"worker {name} exited while starting (exit status {worker.returncode}); "
                        f"its last output:\n{_tail(name)}"
                    )
            answered = {name.split("@")[0] for reply in app.control.ping(timeout=1.0) or [] for name in reply}
            if answered >= set(names):
                return
        raise CommandError(f"the workers did not answer a ping within {timeout_s:.0f} s")

    def _worker(self, opts, name: str) -> subprocess.Popen:
        from devtools.profiling import PROFILE_DIR_ENV

        env = os.environ.copy()
        if opts["pool"] == "threads":
            env.setdefault("DB_POOL_SIZE", THREADS_DB_POOL_SIZE)  # 0: no pool
        if opts.get("profile"):  # bench_scaleout passes its own options, without --profile
            env[PROFILE_DIR_ENV] = str(Path(opts["profile"]).resolve())
        return subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "lifeplanner_site",
                "worker",
                f"--pool={opts['pool']}",
                f"--concurrency={opts['concurrency']}",
                "--without-gossip",
                "--without-mingle",
                "--loglevel=WARNING",
                "-n",
                f"{name}@%h",
            ],
            cwd=REPO,
            env=env,
            start_new_session=True,
            stdout=subprocess.DEVNULL,
            stderr=_LOGS.setdefault(name, tempfile.TemporaryFile()),
        )


_LOGS: dict = {}  # worker name -> its stderr (a temporary file), read back by _tail when it dies


def _tail(name: str, limit: int = 3000) -> str:
    """The end of a worker's stderr, for the error that says why it died."""
    log = _LOGS[name]
    log.seek(0)
    return log.read().decode(errors="replace")[-limit:]


def _in_flight(opts) -> int:
    """The endpoint's cap: --in-flight, or one request per case running."""
    return opts["endpoint_concurrency"] or opts["workers"] * opts["concurrency"]


def _of_ideal(opts, rate: float, peak: int) -> str:
    """With a delay, the ideal rate (every slot always waiting on the endpoint), the share of it reached, and the
    most requests the endpoint held at once (the cap held if it is not above it)."""
    if opts["delay"] <= 0:
        return ""
    in_flight, cases = _in_flight(opts), opts["workers"] * opts["concurrency"]
    ideal = in_flight / opts["delay"]
    running = "" if in_flight == cases else f" ({cases} cases at once)"
    return (
        f"\n{in_flight} in flight{running}: ideal {ideal:.1f} calls/s, {rate / ideal:.2f} of it; "
        f"the endpoint held at most {peak} requests at once"
    )


class _Stall:
    """Gives up on a run in which no case has finished for ``patience_s``."""

    def __init__(self, run, patience_s: float = 300):
        self.run, self.patience_s = run, patience_s
        self.done, self.since = -1, time.monotonic()

    def check(self) -> None:
        from benchmark.runs.models import Trajectory

        done = self.run.trajectories.filter(status=Trajectory.DONE).count()
        if done != self.done:
            self.done, self.since = done, time.monotonic()
        elif time.monotonic() - self.since > self.patience_s:
            raise CommandError(
                f"no case of run {self.run.id} finished in {self.patience_s:.0f} s: another worker on "
                "this broker may be taking its tasks (use a Redis database of its own: REDIS_URL)"
            )


class CpuMeter:
    """CPU seconds spent on the run (Linux /proc): the workers, this process (the endpoint; the meter's own
    reading is left out), the PostgreSQL cluster, and Redis (shared with anything else using it). CPU time,
    unlike wall time, is little disturbed by other load on the machine.

    PostgreSQL is every process of the cluster, so that nothing the run makes it do is missed: the backends
    serving the workers, those that lived between two samples (a connection opened and closed within a
    couple of seconds: the postmaster's reaped children), autovacuum and the writers. Any other client of
    the cluster counts too: measure on a quiet machine. ``backends`` keeps the workers' own backends
    (the connections they hold).
    """

    def __init__(self, *, worker_pids: list[int]):
        spent = time.thread_time()
        self.worker_pids, self.own_s = worker_pids, 0.0
        self.postmaster = _pids_of("postgres", containing=" -D ")
        self.redis = _pids_of("redis-server", containing=f":{urlparse(settings.REDIS_URL).port or 6379}")
        self.backends: dict[int, list[float]] = {}  # the workers' backend pid -> [CPU first seen, CPU last seen]
        self.cluster: dict[int, list[float]] = {}  # every child of the postmaster, alike
        self.alive: set[int] = set()  # the postmaster's children at the last sample
        self.start = self._read(existing=True)
        self.own_s += time.thread_time() - spent

    def sample(self) -> None:
        """Read the CPU now (backends come and go with their connections: sample every few seconds)."""
        spent = time.thread_time()
        self.now = self._read(existing=False)
        self.own_s += time.thread_time() - spent

    def postgres_s(self) -> float:
        """The cluster's CPU seconds from the first sample to the last: the postmaster's own, its live children's
        since they were first seen, and its ended children's (their whole lives, less what those alive at the
        first sample had spent before it)."""
        alive = sum(last - first for pid, (first, last) in self.cluster.items() if pid in self.alive)
        ended_before_start = sum(first for pid, (first, _) in self.cluster.items() if pid not in self.alive)
        reaped = self.now["postgres reaped"] - self.start["postgres reaped"]
        own = self.now["postmaster"] - self.start["postmaster"]
        return own + alive + reaped - ended_before_start

    def report(self, calls: int) -> str:
        """One line: CPU milliseconds per model call, and CPU seconds, per part."""
        parts = {name: self.now[name] - self.start[name] for name in ("workers", "command (endpoint)", "redis")}
        parts["command (endpoint)"] -= self.own_s
        parts["postgres"] = self.postgres_s()
        total = sum(parts.values())
        per_call = {name: seconds * 1000 / max(1, calls) for name, seconds in parts.items()}
        return (
            f"CPU per model call: {total * 1000 / max(1, calls):.1f} ms ("
            + ", ".join(f"{name} {ms:.1f}" for name, ms in per_call.items())
            + "); CPU seconds: "
            + ", ".join(f"{name} {s:.1f}" for name, s in parts.items())
            + f"\nPostgreSQL: the whole cluster; {len(self.cluster)} processes seen ({len(self.backends)} serving "
            "the workers), "
            f"{self.now['postgres reaped'] - self.start['postgres reaped']:.1f} CPU seconds in those that ended "
            "(short connections, autovacuum)"
        )

    def _read(self, *, existing: bool) -> dict[str, float]:
        stats = _all_stats()  # pid -> (parent pid, CPU seconds)
        tree, todo = [], list(self.worker_pids)
        while todo:
            pid = todo.pop()
            tree.append(pid)
            todo.extend(child for child, (parent, _) in stats.items() if parent == pid)
        ports = _local_ports(tree, remote_port=5432)
        self.alive = set()
        for pid, (parent, cpu) in stats.items():
            if parent not in self.postmaster:
                continue
            self.alive.add(pid)
            # a process that exists before the run counts from now; a new one from its start
            seen = self.cluster.setdefault(pid, [cpu if existing else 0.0, cpu])
            seen[1] = max(seen[1], cpu)
            if pid in self.backends or _client_port(pid) in ports:
                self.backends[pid] = seen
        return {
            "workers": sum(stats.get(pid, (0, 0.0))[1] for pid in tree),
            "command (endpoint)": _own_cpu(),
            "redis": sum(stats.get(pid, (0, 0.0))[1] for pid in self.redis),
            "postmaster": sum(stats.get(pid, (0, 0.0))[1] for pid in self.postmaster),
            "postgres reaped": sum(_reaped_cpu(pid) for pid in self.postmaster),
        }


_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _all_stats() -> dict[int, tuple[int, float]]:
    stats = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()  # the name may hold spaces
            except (OSError, IndexError):
                continue
            stats[int(entry.name)] = (int(fields[1]), (int(fields[11]) + int(fields[12])) / _TICK)
    return stats


def _reaped_cpu(pid: int) -> float:
    """The CPU seconds of the ended children ``pid`` has waited for (cutime + cstime)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return 0.0
    return (int(fields[13]) + int(fields[14])) / _TICK


def _own_cpu() -> float:
    times = os.times()
    return times.user + times.system


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def _pids_of(command: str, *, containing: str = "") -> set[int]:
    """Processes whose program is named ``command``, with ``containing`` in their command line."""
    found = set()
    for entry in Path("/proc").iterdir():
        line = _cmdline(int(entry.name)) if entry.name.isdigit() else ""
        if line and Path(line.split(" ", 1)[0]).name == command and containing in line:
            found.add(int(entry.name))
    return found


def _client_port(backend_pid: int) -> int | None:
    """The client's port, from a PostgreSQL backend's title ("postgres: 15/main: user db 127.0.0.1(port) ...")."""
    match = re.match(r"postgres: .*?\((\d+)\)", _cmdline(backend_pid))
    return int(match.group(1)) if match else None


def _local_ports(pids: list[int], *, remote_port: int) -> set[int]:
    """Local ports of the TCP connections that ``pids`` hold to ``remote_port``."""
    inodes: set[str] = set()
    for pid in pids:
        try:
            links = [os.readlink(f) for f in Path(f"/proc/{pid}/fd").iterdir()]
        except OSError:
            continue
        inodes.update(link[8:-1] for link in links if link.startswith("socket:["))
    ports = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            if fields[9] in inodes and int(fields[2].rsplit(":", 1)[1], 16) == remote_port:
                ports.add(int(fields[1].rsplit(":", 1)[1], 16))
    return ports
