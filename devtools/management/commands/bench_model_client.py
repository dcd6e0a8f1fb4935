import asyncio
import os
import subprocess
import sys
import time
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from devtools.management.commands.bench_evaluation import REPO


class Command(BaseCommand):
    help = (
        "CPU per model call of the model client alone: the litellm agent's first request of a case (figure 9's "
        "prompt, the agent toolset's function specs), sent N times one after another to the scripted endpoint "
        "(a process of its own), through LLMClient (litellm, with the egress checks, recording and caps off), "
        "through the openai SDK directly, and as a plain httpx POST. The last two are floors for comparison, "
        "not used by runs (LLM access is through litellm)."
    )

    def add_arguments(self, parser):
        parser.add_argument("--release", default="helsinki-v2")
        parser.add_argument("--calls", type=int, default=300)
        parser.add_argument("--port", type=int, default=8411)

    def handle(self, *args, **opts):
        from benchmark.cases.models import Release

        release = Release.objects.filter(name=opts["release"]).first()
        if release is None:
            raise CommandError(f"no release {opts['release']!r}")
        if not settings.ALLOW_PRIVATE_ENDPOINTS:
            raise CommandError("the scripted endpoint listens on 127.0.0.1: run with ALLOW_PRIVATE_ENDPOINTS=1")
        first = release.entries.order_by("position").first()
        if first is None:
            raise CommandError(f"release {release.name!r} has no cases")
        question = first.snapshot["question"]
        endpoint = subprocess.Popen(
            [
                sys.executable,
                "-u",
                "manage.py",
                "fake_endpoint",
                "--release",
                release.name,
                "--port",
                str(opts["port"]),
            ],
            cwd=REPO,
            env=os.environ.copy(),
            stdout=subprocess.PIPE,
            text=True,
        )
        try:
            assert endpoint.stdout is not None
            endpoint.stdout.readline()  # "Scripted endpoint ... at URL": listening
            url = f"http://127.0.0.1:{opts['port']}/v1"
            results = asyncio.run(_measure(url, question, opts["calls"]))
        finally:
            endpoint.terminate()
            endpoint.wait(10)
        load = os.getloadavg()[0]
        self.stdout.write(f"{opts['calls']} calls each, one after another; load average before: {load:.2f}")
        self.stdout.write(f"{'client':<46} {'CPU ms/call':>11} {'wall ms/call':>12}")
        for name, (cpu_ms, wall_ms) in results.items():
            self.stdout.write(f"{name:<46} {cpu_ms:>11.2f} {wall_ms:>12.2f}")


async def _measure(url: str, question: str, calls: int) -> dict[str, tuple[float, float]]:
    import httpx
    from openai import AsyncOpenAI

    from benchmark.agents.litellm_agent import function_specs, system_prompt
    from benchmark.endpoints.llm import EndpointSpec, LLMClient, model_calls_warm_up
    from environment.mcp_server import build_server

    await model_calls_warm_up()  # imports what litellm loads lazily (a worker does this before its first case)
    messages = [{"role": "system", "content": system_prompt(question)}, {"role": "user", "content": question}]
    tools = function_specs(await build_server(toolset="agent", record=False).list_tools())
    body: dict[str, Any] = {"model": "scripted", "messages": messages, "tools": tools, "temperature": 0.0}
    llm = LLMClient(EndpointSpec(endpoint_id=None, model="openai/scripted", api_base=url, api_key="sk-bench"))
    sdk = AsyncOpenAI(base_url=url, api_key="sk-bench", max_retries=0)
    plain = httpx.AsyncClient(headers={"Authorization": "Bearer sk-bench"})

    async def via_litellm():
        await llm.complete(messages, tools)

    async def via_sdk():
        (await sdk.chat.completions.create(**body)).model_dump()

    async def via_httpx():
        response = await plain.post(f"{url}/chat/completions", json=body)
        response.raise_for_status()
        response.json()

    results = {}
    for name, call in (
        ("LLMClient.complete (litellm.acompletion)", via_litellm),
        ("openai SDK chat.completions.create", via_sdk),
        ("httpx POST + JSON", via_httpx),
    ):
        for _ in range(20):  # connections, caches
            await call()
        cpu, wall = time.process_time(), time.perf_counter()
        for _ in range(calls):
            await call()
        results[name] = (
            (time.process_time() - cpu) * 1000 / calls,
            (time.perf_counter() - wall) * 1000 / calls,
        )
    await llm.aclose()
    await sdk.close()
    await plain.aclose()
    return results
