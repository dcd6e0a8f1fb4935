"""The checks behind verify_case (see verify.py for the list)."""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping
from typing import Any

from benchmark.cases.document import CaseDocument, ToolStep, normalise_question, observation_digest
from environment.selectors import fact_note_ids, note_ids_existing, place_get
from environment.tools.context import CityNotBuilt, ToolContext, city_context
from environment.tools.gateway import call_tool
from judging.grounding import leaf_values
from kernel.text import fold


def run_checks(
    doc: CaseDocument, *, other_questions: Collection[str], replay_engine: bool = True
) -> tuple[list[str], int]:
    try:
        ctx = city_context(doc.city_name)
    except CityNotBuilt as exc:
        return [str(exc)], 1
    failures: list[str] = []
    checks = 0
    if ctx.city_version != doc.city_version:
        failures.append(
            f"case was written for city version {doc.city_version[:12]}, the city is now {ctx.city_version[:12]}"
        )
    observations = []
    paths = [("reference", "agent", doc.reference_path)]
    if replay_engine:
        paths.append(("engine", "engine", doc.engine_path))
    for label, toolset, path in paths:
        changed = []
        for index, (failure, observation) in enumerate(_replay(ctx, toolset, path, label), start=1):
            checks += 1
            if failure == CHANGED:
                changed.append(index)
            elif failure:
                failures.append(failure)
            if toolset == "agent":
                observations.append(observation)
        if changed:
            failures.append(
                f"{label} {_steps(changed)} return{'s' if len(changed) == 1 else ''} a different "
                "observation than when the case was written"
            )
    checks += 1
    failures += _check_submission(doc)
    for check in (_check_uniqueness, _check_cited, _check_evidence, _check_totals):
        checks += 1
        failures += check(ctx, doc, observations)
    checks += 1
    question = normalise_question(doc.question)
    if question in other_questions:
        failures.append(_duplicate(question, other_questions))
    return failures, checks


def _duplicate(question: str, other_questions: Collection[str]) -> str:
    """The failure of a duplicated question, naming the other case when ``other_questions`` maps each
    question to its case id."""
    other = other_questions.get(question) if isinstance(other_questions, Mapping) else None
    where = f" ({other})" if other else ""
    return f"the question duplicates another case's question{where}"


# ------------------------------------------------------------------ replay

CHANGED = "changed"


def _replay(ctx: ToolContext, toolset: str, path: list[ToolStep], label: str) -> Iterator[tuple[str, Any]]:
    for index, step in enumerate(path, start=1):
        call = call_tool(toolset, step.tool, step.arguments, context=ctx)
        if call.error is not None:  # not call.ok
            yield f"{label} step {index} {step.tool} now fails: {call.error['message']}", None
        elif step.observation_sha256 and observation_digest(call.result) != step.observation_sha256:
            yield CHANGED, call.result
        else:
            yield "", call.result


def _steps(indexes: list[int]) -> str:
    """'step 3', 'steps 2, 5 and 9', 'steps 8-117 (110 of them)'."""
    if len(indexes) == 1:
        return f"step {indexes[0]}"
    if indexes == list(range(indexes[0], indexes[-1] + 1)) and len(indexes) > 3:
        return f"steps {indexes[0]}-{indexes[-1]} ({len(indexes)} of them)"
    shown = ", ".join(map(str, indexes[:-1])) + f" and {indexes[-1]}"
    return f"steps {shown}"


def _check_submission(doc: CaseDocument) -> list[str]:
    if not doc.reference_path or doc.reference_path[-1].tool != "submit_answer":
        return ["the reference path does not end with submit_answer"]
    if doc.reference_path[-1].arguments.get("result") != doc.answer:
        return ["the reference path submits a different answer than the case's answer"]
    return []


# ------------------------------------------------------------------ answer contents


def answer_place_ids(answer: Any) -> list[str]:
    """Every place_id in an answer document (top level, start, end, waypoints, optimal_order)."""
    found = []
    if isinstance(answer, dict):
        if isinstance(answer.get("place_id"), str):
            found.append(answer["place_id"])
        for key in ("start", "end"):
            found += answer_place_ids(answer.get(key))
        for key in ("waypoints", "optimal_order"):
            for item in answer.get(key) or []:
                found += answer_place_ids(item)
    return list(dict.fromkeys(found))


def answer_names(answer: Any) -> list[str]:
    """Every place name in an answer document."""
    found = []
    if isinstance(answer, dict):
        if isinstance(answer.get("name"), str):
            found.append(answer["name"])
        for key in ("start", "end"):
            found += answer_names(answer.get(key))
        for key in ("waypoints", "optimal_order"):
            for item in answer.get(key) or []:
                found += answer_names(item)
    return list(dict.fromkeys(found))


def answer_note_ids(answer: Any) -> list[str]:
    found = []
    if isinstance(answer, dict):
        note_field = (answer.get("ref") or {}).get("note_id", "") if isinstance(answer.get("ref"), dict) else ""
        found += [n.strip() for n in str(note_field).split(",") if n.strip()]
        for key in ("start", "end"):
            found += answer_note_ids(answer.get(key))
        for item in answer.get("waypoints") or []:
            found += answer_note_ids(item)
    return list(dict.fromkeys(found))


def _check_cited(ctx, doc: CaseDocument, observations: list) -> list[str]:
    """Fetched before cited: every place_id and note_id of the answer is in a reference observation."""
    seen: set[str] = set()
    for observation in observations[:-1]:  # the last is submit_answer's echo of the answer itself
        if observation is not None:
            seen.update(v for v in leaf_values(observation) if isinstance(v, str))
    failures = []
    for place_id in answer_place_ids(doc.answer):
        if place_id not in seen:
            failures.append(f"answer cites place {place_id} that no reference observation contains")
    for note_id in answer_note_ids(doc.answer):
        if note_id not in seen:
            failures.append(f"answer cites note {note_id} that no reference observation contains")
    return failures


# ------------------------------------------------------------------ evidence


def _check_evidence(ctx, doc: CaseDocument, observations: list) -> list[str]:
    failures = []
    cited = set(answer_note_ids(doc.answer)) | set(doc.required_evidence.note_ids)
    existing = note_ids_existing(city_id=ctx.city_id, note_ids=cited)
    for missing in sorted(cited - existing):
        failures.append(f"note {missing} does not exist in city {doc.city_name}")
    fact = doc.constraints.get("fact")
    if cited & existing:
        if not fact:
            failures.append("the case cites notes but names no fact they support")
        else:
            supporting = fact_note_ids(city_id=ctx.city_id, place_id=fact["place_id"], key=fact["key"])
            for note_id in sorted((cited & existing) - supporting):
                failures.append(f"note {note_id} does not support {fact['key']} at {fact['place_id']}")
    for attribute in doc.required_evidence.attributes:
        failures += _check_attribute(ctx, attribute["place_id"], attribute["key"])
    return failures


def _check_attribute(ctx, place_id: str, key: str) -> list[str]:
    place = place_get(city_id=ctx.city_id, place_id=place_id)
    if place is None:
        return [f"place {place_id} does not exist"]
    if key.startswith("tag:"):
        wanted = fold(key[4:].strip())
        return [] if wanted and wanted in fold(place["tag"]) else [f"place {place_id} has no tag {key[4:]!r}"]
    if key not in {"name", "place_type", "address", "opentime_week", "rating", "cost", "alias"}:
        return [f"unknown attribute key {key!r}"]
    return [] if place[key] not in (None, "") else [f"place {place_id} has no {key}"]


# ------------------------------------------------------------------ route totals


def _check_totals(ctx, doc: CaseDocument, observations: list) -> list[str]:
    answer = doc.answer
    if not isinstance(answer, dict) or "total_distance_m" not in answer:
        return []
    order = [p["place_id"] for p in answer.get("optimal_order") or []]
    legs = {}
    for step, observation in zip(doc.reference_path, observations):
        if step.tool == "routing" and observation is not None:
            legs[
                observation["start"]["place_id"],
                observation["end"]["place_id"],
                observation["vehicle"],
                observation["mode"],
            ] = observation
    try:
        used = [legs[a, b, answer["vehicle"], answer["mode"]] for a, b in zip(order, order[1:])]
    except KeyError as exc:
        return [f"the reference path has no routing leg {exc.args[0][:2]} for the answer's order"]
    distance = round(sum(leg["total_distance_m"] for leg in used), 1)
    seconds = round(sum(leg["total_time_s"] for leg in used), 1)
    failures = []
    if distance != answer["total_distance_m"]:
        failures.append(f"total_distance_m {answer['total_distance_m']} differs from the legs' sum {distance}")
    if seconds != answer["total_time_s"]:
        failures.append(f"total_time_s {answer['total_time_s']} differs from the legs' sum {seconds}")
    return failures


# ------------------------------------------------------------------ uniqueness


def _check_uniqueness(ctx, doc: CaseDocument, observations: list) -> list[str]:
    """The independent verifier: the gold is the one right answer against the whole city; and, for each L2
    gold it checked, the verifier's reading path replayed through the real ``search_notes`` settles the gold
    within the agent's tool budget (what the verifier cannot check without a tool: the tool lists more than
    its own reading, so pages fill and more notes name each place)."""
    from benchmark.cases.audit import audit_case, audit_world
    from benchmark.cases.audit.evidence import recording_lookalikes
    from benchmark.cases.audit.reading import TOOL_BUDGET, reading_path

    with recording_lookalikes() as found:
        failures = audit_case(doc)
    if failures or not found:
        return failures
    world, query = audit_world(doc.city_name), (doc.uniqueness or {}).get("query") or {}
    for checked in found:
        try:
            path = reading_path(world, query, checked, search=tool_search(ctx))
        except ValueError as exc:  # the tool refused one of the path's searches: a defect, never a crash
            failures.append(f"independent check: not readable through search_notes: {exc}")
            continue
        if path.outcome != "settled":
            failures.append(f"independent check: not readable through search_notes: {path.problem}")
        elif path.length > TOOL_BUDGET:
            failures.append(
                f"independent check: over budget through search_notes: reading what the real searches list "
                f"takes {path.length} tool calls ({', '.join(f'{n} {t}' for t, n in path.counts().items())}), "
                f"more than the agent's {TOOL_BUDGET}"
            )
    return failures


def tool_search(ctx: ToolContext):
    """The agent's ``search_notes`` in a city, as the note ids it lists for a keyword (a reading path's search,
    :mod:`.audit.reading`); a keyword the tool refuses raises ValueError naming it and the tool's error."""

    def search(keyword: str) -> list[str]:
        call = call_tool("agent", "search_notes", {"keyword": keyword}, context=ctx)
        if not call.ok:
            raise ValueError(f"search_notes refused {keyword!r}: {call.error}")
        return [row["note_id"] for row in call.result["results"]]

    return search
