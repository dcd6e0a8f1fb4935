import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError


class Command(BaseCommand):
    help = (
        "Score one answer offline: prints every metric (value, applicability, explanation, source) as JSON. "
        "Formats: docs/metrics.md."
    )

    def add_arguments(self, parser):
        parser.add_argument("--case", required=True, type=Path, help="A case document (one line of export_cases).")
        parser.add_argument(
            "--answer",
            required=True,
            type=Path,
            help="The agent's answer: the JSON passed to submit_answer (figure 9's format).",
        )
        parser.add_argument(
            "--trajectory",
            type=Path,
            help="A JSON list of tool calls [{tool, arguments, observation}] or {steps: [...]}.",
        )
        parser.add_argument("--judges", action="store_true", help="Use the configured LLM judges (JUDGE_MODELS).")

    def handle(self, *args, **opts):
        from pydantic import ValidationError

        from benchmark.cases.document import CaseDocument
        from benchmark.runs.scoring.judge_cache import DatabaseJudgeCache
        from benchmark.runs.scoring.model_clients import platform_judges
        from benchmark.runs.scoring.services import answer_score
        from environment.tools.context import CityNotBuilt
        from judging.types import Trajectory

        try:
            document = CaseDocument.model_validate(_read(opts["case"], "--case"))
            answer = _read(opts["answer"], "--answer")
            raw = _read(opts["trajectory"], "--trajectory") if opts["trajectory"] else None
            steps = raw if isinstance(raw, list) else (raw or {}).get("steps", [])
            trajectory = (
                None
                if raw is None
                else Trajectory.model_validate(
                    {
                        **(raw if isinstance(raw, dict) else {}),
                        "steps": [{"index": i, **s} for i, s in enumerate(steps)],
                    }
                )
            )
        except ValidationError as exc:
            raise CommandError(f"invalid input: {exc.errors(include_url=False)[0]}") from None
        judges = platform_judges() if opts["judges"] else None
        if opts["judges"] and not judges:
            raise CommandError("--judges: no judge is configured (set JUDGE_MODELS, see docs/judges.md)")
        try:
            results = answer_score(
                document=document, answer=answer, trajectory=trajectory, judges=judges, cache=DatabaseJudgeCache()
            )
        except CityNotBuilt as exc:
            raise CommandError(str(exc)) from None
        out = {
            "case_id": document.case_id,
            "type": document.type,
            "metrics": {name: result.to_dict() for name, result in results.items()},
        }
        self.stdout.write(json.dumps(out, indent=2, ensure_ascii=False))


def _read(path: Path, flag: str):
    try:
        text = path.read_text()
    except OSError as exc:
        raise CommandError(f"{flag}: cannot read {path}: {exc.strerror}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise CommandError(f"{flag}: {path} is not JSON: {exc.msg} at line {exc.lineno}") from None
    except ValueError as exc:  # e.g. an integer with more digits than Python converts
        raise CommandError(f"{flag}: {path} cannot be read: {exc}") from None
