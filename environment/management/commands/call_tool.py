import json

from django.core.management.base import BaseCommand

from environment.tools.gateway import call_tool


class Command(BaseCommand):
    help = (
        "Call a tool through the gateway and print its JSON result or error, "
        'e.g. call_tool place_search \'{"query_name": "Kamppi"}\''
    )

    def add_arguments(self, parser):
        parser.add_argument("name", help="Tool name, e.g. place_search")
        parser.add_argument("arguments", nargs="?", default="{}", help="JSON object of parameters")
        parser.add_argument("--toolset", choices=["agent", "engine"], default="agent")
        parser.add_argument("--city", default=None, help="City name (default: settings.LIFEPLANNER_CITY)")

    def handle(self, *args, **opts):
        call = call_tool(opts["toolset"], opts["name"], opts["arguments"], city=opts["city"])
        self.stdout.write(json.dumps(call.observation(), ensure_ascii=False, indent=2))
        if not call.ok:
            raise SystemExit(1)
