import os

from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = (
        "Serve the run-mode MCP server for external agents: the agent toolset plus next_case, every call "
        "recorded on the run of the caller's token (HTTP: 'Authorization: Bearer <token>' at /mcp; "
        "stdio: LIFEPLANNER_RUN_TOKEN)."
    )

    def add_arguments(self, parser):
        parser.add_argument("--transport", choices=["http", "stdio"], default="http")
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", type=int, default=8766)

    def handle(self, *args, **opts):
        from benchmark.external.mcp_server import TOKEN_ENV, build_run_server

        if opts["transport"] == "stdio":
            build_run_server(default_token=os.environ.get(TOKEN_ENV)).run("stdio")
            return
        self.stderr.write(f"Run-mode MCP on http://{opts['host']}:{opts['port']}/mcp")
        build_run_server().run("streamable-http", host=opts["host"], port=opts["port"])
