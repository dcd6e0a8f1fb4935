from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Serve the LifePlanner tools over MCP (stdio for desktop clients, streamable HTTP at /mcp)."

    def add_arguments(self, parser):
        parser.add_argument("--toolset", choices=["agent", "engine"], default="agent")
        parser.add_argument("--transport", choices=["stdio", "http"], default="stdio")
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", type=int, default=8765)
        parser.add_argument("--city", default=None, help="City name (default: settings.LIFEPLANNER_CITY)")
        parser.add_argument("--no-record", action="store_true", help="Do not keep calls in ToolCallLog.")

    def handle(self, *args, **opts):
        from environment.mcp_server import build_server

        server = build_server(toolset=opts["toolset"], city=opts["city"], record=not opts["no_record"])
        if opts["transport"] == "stdio":
            server.run("stdio")
        else:
            self.stderr.write(f"MCP ({opts['toolset']} toolset) on http://{opts['host']}:{opts['port']}/mcp")
            server.run("streamable-http", host=opts["host"], port=opts["port"])
