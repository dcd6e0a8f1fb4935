from django.core.management.base import BaseCommand, CommandError

from benchmark.agents.config import RunConfig, add_run_config_arguments, run_config_from_options
from kernel.vocabulary import Category, Level

INSTRUCTIONS = """\
Run {run_id} ({cases} cases) of the external agent on release {release}.

Run token (shown once, only its hash is stored):
  {token}

Serve the run-mode MCP server:
  python manage.py serve_run_mcp --port {port}
and connect your agent to it over streamable HTTP:
  URL:    http://{host}:{port}/mcp
  header: Authorization: Bearer {token}
(stdio clients: command "python manage.py serve_run_mcp --transport stdio" with LIFEPLANNER_RUN_TOKEN={token})

The agent calls next_case for a question, answers it with the agent tools and submit_answer,
and repeats until next_case reports done. Tool budget: {budget} calls per case.
Each next_case carries answer_format: the JSON object submit_answer expects and the fields the
case is scored on (docs/evaluation.md, "The answer format").
"""


class Command(BaseCommand):
    help = "Create a run for an external MCP agent and print its run token once, with connection instructions."

    def add_arguments(self, parser):
        parser.add_argument("--release", help="Release name (default: the newest release).")
        parser.add_argument("--name", default="external")
        parser.add_argument(
            "--model", default="", help="The model that answers (a listing on the leaderboard needs it)."
        )
        parser.add_argument(
            "--description", default="", help="Who runs the agent and how (a listing on the leaderboard needs it)."
        )
        parser.add_argument("--limit", type=int)
        parser.add_argument("--category", choices=[category.value for category in Category])
        parser.add_argument("--level", choices=[level.value for level in Level])
        add_run_config_arguments(parser.add_argument_group("the run's settings"), ("trials", "tool_budget", "seed"))
        parser.add_argument("--host", default="127.0.0.1", help="Host of serve_run_mcp, for the instructions.")
        parser.add_argument("--port", type=int, default=8766, help="Port of serve_run_mcp, for the instructions.")
        parser.add_argument("--add-token", type=int, metavar="RUN", help="Issue another token for external RUN.")
        parser.add_argument("--revoke", type=int, metavar="RUN", help="Revoke every token of RUN.")

    def handle(self, *args, **opts):
        from benchmark.cases.models import Release
        from benchmark.external import agents as external
        from benchmark.runs.models import EvaluationRun

        try:
            if opts["revoke"] or opts["add_token"]:
                run = EvaluationRun.objects.filter(id=opts["revoke"] or opts["add_token"]).first()
                if run is None:
                    raise LookupError(f"no run {opts['revoke'] or opts['add_token']}")
                if opts["revoke"]:
                    self.stdout.write(f"Revoked {external.run_tokens_revoke(run=run)} token(s) of run {run.id}.")
                    return
                token = external.run_token_create(run=run)
            else:
                run, token = external.external_run_create(
                    release=_release(Release, opts["release"]),
                    name=opts["name"],
                    limit=opts["limit"],
                    category=opts["category"],
                    level=opts["level"],
                    config=run_config_from_options(opts),
                    model_name=opts["model"],
                    description=opts["description"],
                )
        except (ValueError, LookupError) as exc:
            raise CommandError(str(exc)) from None
        unlisted = listing_note(run)
        if unlisted:
            self.stdout.write(unlisted)
        self.stdout.write(
            INSTRUCTIONS.format(
                run_id=run.id,
                cases=run.trajectories.count(),
                release=run.release.name,
                token=token,
                host=opts["host"],
                port=opts["port"],
                budget=RunConfig.from_stored(run.config).tool_budget,
            )
        )


def listing_note(run) -> str:
    """A line saying why ``run`` will not be listed on the leaderboard and how to list it, or "" when it will be."""
    from benchmark.runs.listing import run_listing_problems

    problems = run_listing_problems(run)
    if not problems:
        return ""
    return f"Not listed on the leaderboard: {'; '.join(problems)}. Give --model and --description to list a run."


def _release(model, name: str | None):
    release = model.objects.filter(name=name).first() if name else model.objects.order_by("-created_at").first()
    if release is None:
        raise LookupError(f"no release {name!r}" if name else "no release yet")
    return release
