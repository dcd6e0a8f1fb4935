"""Call every tool call recorded in runs again through the gateway and write what comes back.

Run it before and after a tool change and compare the two files: at the same city every line
must be byte-identical (``cmp before.jsonl after.jsonl``).
"""

from __future__ import annotations

import hashlib
import json

from django.core.management.base import BaseCommand

from benchmark.runs.models import EvaluationRun, Step
from environment.tools.context import city_context
from environment.tools.gateway import call_tool


class Command(BaseCommand):
    help = "Replay the recorded tool calls of runs through the gateway; write one JSON line per step."

    def add_arguments(self, parser):
        parser.add_argument("--run", type=int, action="append", required=True, help="Run id (repeatable).")
        parser.add_argument("--output", required=True, help="JSON lines: step id, tool, observation.")
        parser.add_argument("--toolset", default="agent")

    def handle(self, *args, **options):
        digest, count = hashlib.sha256(), 0
        with open(options["output"], "w", encoding="utf-8") as out:
            for run_id in options["run"]:
                run = EvaluationRun.objects.select_related("release").get(pk=run_id)
                ctx = city_context(_city_name(run))
                steps = Step.objects.filter(trajectory__run_id=run_id).order_by("trajectory_id", "index")
                for step in steps.iterator(chunk_size=2000):
                    call = call_tool(options["toolset"], step.tool, step.arguments, context=ctx)
                    line = json.dumps(
                        {"step": step.pk, "tool": step.tool, "observation": call.observation()}, ensure_ascii=False
                    )
                    out.write(line + "\n")
                    digest.update(line.encode())
                    count += 1
        self.stdout.write(f"{count} tool calls replayed, sha256 {digest.hexdigest()}")


def _city_name(run: EvaluationRun) -> str:
    return run.release.city_name
