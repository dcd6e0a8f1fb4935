"""The data engine on the real Helsinki build: distribution, verification, determinism, tampering."""

import io
import re

import pytest
from django.core.management import call_command

from benchmark.cases.audit.checks import answer_note_ids
from benchmark.cases.audit.verify import verify_case
from benchmark.cases.document import TABLE4, CaseDocument
from benchmark.cases.engine.generate_flow import cell_counts
from benchmark.cases.engine.runner import generate_cases
from benchmark.cases.models import Case
from environment.build.corpus.vocab import ALL_SPECS
from environment.tools.registry import tools_for
from kernel.vocabulary import CELLS

pytestmark = pytest.mark.django_db


@pytest.fixture
def generated(generated_cases):
    return generated_cases


def by_type(documents, case_type):
    return next(d for d in documents if d.type == case_type)


def test_table4_distribution_and_scaling():
    assert sum(cell_counts(None, []).values()) == 667 == sum(TABLE4.values())
    assert cell_counts(None, []) == TABLE4
    scaled = cell_counts(22, [])
    assert sum(scaled.values()) == 22 and all(n >= 1 for n in scaled.values())
    assert cell_counts(None, ["trip_L2"]) == {("trip_design", "L2"): 35}
    with pytest.raises(ValueError, match="unknown cell"):
        cell_counts(None, ["trip_L0"])


def test_every_cell_gets_its_cases(generated):
    documents, reports = generated
    counts = cell_counts(22, [])
    for cell in CELLS:
        made = [d for d in documents if (d.category, d.level) == cell]
        assert len(made) == counts[cell], cell
    assert all(r.made == r.target for r in reports)


def test_every_generated_case_verifies(generated):
    documents, _ = generated
    for document in documents:
        result = verify_case(document)
        assert result.ok, (document.case_id, result.failures)


def test_paths_use_the_right_toolsets(generated):
    agent_tools = {t.name for t in tools_for("agent")}
    engine_tools = {t.name for t in tools_for("engine")}
    for document in generated[0]:
        assert {s.tool for s in document.reference_path} <= agent_tools
        assert {s.tool for s in document.engine_path} <= engine_tools
        assert document.reference_path[-1].tool == "submit_answer"
        assert all(s.observation_sha256 for s in document.reference_path + document.engine_path)


def test_same_seed_gives_byte_identical_cases(generated, helsinki):
    from environment.tools.context import city_context

    ctx = city_context("helsinki")
    again, _ = generate_cases(context=ctx, seed=7, counts={("routing", "L1"): 2, ("trip_design", "L2"): 1})
    first = [d for d in generated[0] if d.type in ("routing_L1", "trip_L2")]
    assert [d.to_json() for d in again] == [d.to_json() for d in first]
    other, _ = generate_cases(context=ctx, seed=8, counts={("routing", "L1"): 2})
    assert [d.question for d in other] != [d.question for d in first[:2]]


def test_l2_questions_never_name_the_hidden_fact(generated):
    for document in generated[0]:
        fact = document.constraints.get("fact")
        if document.level != "L2" or not fact:
            continue
        spec = ALL_SPECS[fact["key"]]
        question = document.question.lower()
        assert spec.label.split(":", 1)[1].strip().lower() not in question, document.case_id
        assert fact["key"].replace("_", " ") not in question
        assert not any(re.search(rf"\b{re.escape(word.lower())}\b", question) for word in spec.evidence), (
            document.case_id,
            document.question,
        )


def tampered(document: CaseDocument, **changes) -> CaseDocument:
    data = document.model_dump(mode="json")
    data.update(changes)
    return CaseDocument.model_validate(data)


def test_a_tampered_route_total_is_caught(generated):
    document = by_type(generated[0], "routing_L1")
    answer = {**document.answer, "total_distance_m": document.answer["total_distance_m"] + 25}
    failures = verify_case(tampered(document, answer=answer)).failures
    assert any("total_distance_m" in f for f in failures)


def test_a_wrong_note_id_is_caught(generated):
    document = next(d for d in generated[0] if answer_note_ids(d.answer) and d.category == "nearby_discovery")
    wrong = "0" * 24
    answer = {**document.answer, "ref": {**document.answer["ref"], "note_id": wrong}}
    failures = verify_case(tampered(document, answer=answer)).failures
    assert any(wrong in f and "does not exist" in f for f in failures)
    assert any(wrong in f and "no reference observation" in f for f in failures)


def test_a_note_that_does_not_support_the_fact_is_caught(generated):
    document = by_type(generated[0], "place_L2")
    other = by_type(generated[0], "nearby_L2")
    foreign = other.required_evidence.note_ids[0]
    evidence = {**document.required_evidence.model_dump(), "note_ids": [foreign]}
    failures = verify_case(tampered(document, required_evidence=evidence)).failures
    assert any(foreign in f and "does not support" in f for f in failures)


def test_a_gold_that_is_not_the_best_in_the_city_is_caught(generated):
    document = by_type(generated[0], "nearby_L0")
    query = document.uniqueness["query"]
    # Ask for a place one kilometre away instead: the verifier finds the real nearest and refuses.
    far = {**document.uniqueness, "query": {**query, "rank": "only"}}
    failures = verify_case(tampered(document, uniqueness=far)).failures
    assert any(f.startswith("independent check: rival meets the question") for f in failures), failures
    strict = {**document.uniqueness, "query": {**query, "noun": "museum"}}
    assert any(
        "is not a museum" in f or "does not say 'museum'" in f
        for f in verify_case(tampered(document, uniqueness=strict)).failures
    )


def test_a_case_without_a_query_is_refused(generated):
    document = by_type(generated[0], "routing_L0")
    failures = verify_case(tampered(document, uniqueness={})).failures
    assert "the case states no query the independent verifier can solve (uniqueness.query)" in failures


def test_a_different_answer_than_the_reference_submission_is_caught(generated):
    document = by_type(generated[0], "place_L0")
    answer = {**document.answer, "answer": "something else"}
    failures = verify_case(tampered(document, answer=answer)).failures
    assert "the reference path submits a different answer than the case's answer" in failures


def test_a_changed_observation_is_caught(generated):
    document = by_type(generated[0], "routing_L0")
    steps = [s.model_dump() for s in document.reference_path]
    steps[0]["observation_sha256"] = "0" * 64
    failures = verify_case(tampered(document, reference_path=steps)).failures
    assert any("different observation" in f for f in failures)


def test_a_duplicate_question_is_caught(generated):
    from benchmark.cases.document import normalise_question

    document = generated[0][0]
    result = verify_case(document, other_questions=frozenset({normalise_question(document.question)}))
    assert "the question duplicates another case's question" in result.failures


def test_generate_cases_command_stores_drafts_and_validates(helsinki):
    out = io.StringIO()
    call_command(
        "generate_cases",
        "--cell",
        "place_L0",
        "--cell",
        "routing_L0",
        "--count",
        "3",
        "--seed",
        "11",
        "--no-progress",
        "--validate",
        stdout=out,
    )
    text = out.getvalue()
    assert "place_L0" in text and "routing_L0" in text and "Validated 3 cases; 0 failed" in text
    stored = Case.objects.filter(case_id__startswith="helsinki-e3-s11-")
    assert stored.count() == 3 and set(stored.values_list("status", flat=True)) == {"validated"}
    again = io.StringIO()
    call_command(
        "generate_cases",
        "--cell",
        "place_L0",
        "--cell",
        "routing_L0",
        "--count",
        "3",
        "--seed",
        "11",
        "--no-progress",
        stdout=again,
    )
    assert "kept 3 (reviewed; 0 differ from this generation)" in again.getvalue()
    # A reviewed case that no longer matches what the engine writes is kept as it is, and counted.
    changed = stored.order_by("case_id").first()
    Case.objects.filter(pk=changed.pk).update(question=changed.question + " Thanks!")
    third = io.StringIO()
    call_command(
        "generate_cases",
        "--cell",
        "place_L0",
        "--cell",
        "routing_L0",
        "--count",
        "3",
        "--seed",
        "11",
        "--no-progress",
        stdout=third,
    )
    assert "kept 3 (reviewed; 1 differ from this generation)" in third.getvalue()
    assert Case.objects.get(pk=changed.pk).question.endswith(" Thanks!")


def test_generate_cases_can_freeze_a_release_once(helsinki):
    from benchmark.cases.models import Release

    args = ["--cell", "nearby_L1", "--count", "2", "--seed", "21", "--no-progress", "--release", "engine-test-v1"]
    out = io.StringIO()
    call_command("generate_cases", *args, stdout=out)
    release = Release.objects.get(name="engine-test-v1")
    assert release.entries.count() == 2 and "Froze release 'engine-test-v1'" in out.getvalue()
    again = io.StringIO()
    call_command("generate_cases", *args, stdout=again)
    assert "already exists; nothing generated" in again.getvalue()


def test_questions_use_the_right_articles_and_no_leftover_slots(generated):
    for document in generated[0]:
        question = document.question
        assert "{" not in question and "}" not in question, question
        assert not re.search(r"\ba (?:[AEIOU]|[aeiou](?!ni|ur|se|su))\w", question), question
        assert not re.search(r"\ban [^aeiouhAEIOUH\W]", question), question
        assert not re.search(r"(?<!\.)\.\.(?!\.)", question), question


def test_a_name_ending_in_a_full_stop_gets_no_second_one():
    from benchmark.cases.engine.kit.question_phrasing import fill

    assert (
        fill("I have to visit {a}. Then {b}...", a="Virgin Oil Co.", b="home")
        == "I have to visit Virgin Oil Co. Then home..."
    )


def test_every_question_bank_uses_only_slots_the_recipes_fill():
    import benchmark.cases.engine.wording.nearby as nearby
    import benchmark.cases.engine.wording.place as place
    import benchmark.cases.engine.wording.routing as routing
    import benchmark.cases.engine.wording.trip as trip
    from benchmark.cases.engine.kit.question_phrasing import slot_names

    known = {
        "n",
        "day",
        "nouns",
        "options",
        "all",
        "x",
        "y",
        "o",
        "d",
        "b",
        "time",
        "date",
        "by",
        "going",
        "Going",
        "go",
        "delay",
        "dwell",
        "people_a",
        "people_b",
        "a",
        "plan_a",
        "Plan_a",
        "plan_b",
        "budget",
        "noun",
        "a_noun",
        "want",
        "need",
        "R",
        "D",
        "errand",
        "best",
        "Best",
        "goal",
        "s",
        "e",
        "w",
        "Rule",
        "X",
    }
    for module in (place, nearby, routing, trip):
        for name, bank in vars(module).items():
            if name.isupper():
                skeletons = [s for v in bank.values() for s in v] if isinstance(bank, dict) else list(bank)
                for skeleton in skeletons:
                    assert slot_names(skeleton) <= known, (name, skeleton)
                assert len(skeletons) >= 2, name


@pytest.fixture(scope="module")
def two_workers(helsinki, django_db_blocker):
    """Three cells written by one process and by two (forked) processes."""
    from environment.tools.context import city_context

    counts = {("place_perception", "L0"): 2, ("routing", "L1"): 1, ("trip_design", "L1"): 1}
    with django_db_blocker.unblock():
        ctx = city_context("helsinki")
        return (
            generate_cases(context=ctx, seed=13, counts=counts, workers=1)[0],
            generate_cases(context=ctx, seed=13, counts=counts, workers=2)[0],
        )


def test_cells_written_in_two_processes_are_the_same_cases(two_workers):
    alone, together = two_workers
    assert len(alone) == 4 and [d.to_json() for d in alone] == [d.to_json() for d in together]


def test_question_stats_prints_skeletons_per_cell(generated):
    for document in generated[0]:
        Case.objects.update_or_create(
            case_id=document.case_id, defaults={**document.model_dump(mode="json", exclude={"case_id"})}
        )
    out = io.StringIO()
    call_command("question_stats", stdout=out)
    lines = out.getvalue().splitlines()
    assert lines[0].split() == ["cell", "cases", "skeletons", "largest", "share"]
    place_l0 = next(line for line in lines if line.startswith("place_L0"))
    assert int(place_l0.split()[1]) == Case.objects.filter(type="place_L0").count() >= 2


def test_question_stats_reports_what_two_releases_share(generated):
    from benchmark.cases.audit.skeletons import case_needs_and_phrases, shared
    from benchmark.cases.services import release_freeze

    l2 = [d for d in generated[0] if d.level == "L2"]
    needs = {n for d in l2 for n in case_needs_and_phrases(d)[0]}
    phrases = {p for d in l2 for p in case_needs_and_phrases(d)[1]}
    assert needs and phrases and shared(l2, []) == shared([], l2)
    assert set(shared(l2, l2).needs) == needs and set(shared(l2, l2).phrasings) == phrases
    assert shared(l2, l2).skeletons  # the same questions share their skeleton ids (bank#position)
    for document in l2:
        Case.objects.update_or_create(
            case_id=document.case_id,
            defaults={**document.model_dump(mode="json", exclude={"case_id"}), "status": Case.VALIDATED},
        )
    cases = Case.objects.filter(case_id__in=[d.case_id for d in l2])
    release_freeze(name="qs-a", split="public", cases=cases, audit=False)
    release_freeze(name="qs-b", split="public", cases=cases.filter(type="trip_L2"), audit=False)
    out = io.StringIO()
    call_command("question_stats", release="qs-a", against="qs-b", stdout=out)
    text = out.getvalue()
    trip_needs = {n for d in l2 if d.type == "trip_L2" for n in case_needs_and_phrases(d)[0]}
    assert f"needs           {len(trip_needs):>3}" in text and "shared by qs-a and qs-b (goal: nothing)" in text
    assert re.search(r"^quiet_for_studying\s+12\s+0$", text, re.M)  # phrasings per need in each bank: a public need
    assert re.search(r"^great_latte_art\s+0\s+12$", text, re.M)  # and a hidden one


def test_freezing_refuses_a_case_the_independent_verifier_rejects(generated):
    from django.core.exceptions import ValidationError

    from benchmark.cases.services import case_create, release_freeze

    good = by_type(generated[0], "routing_L0")
    bad = tampered(
        by_type(generated[0], "nearby_L0"),
        case_id="tampered-nearby",
        status="validated",
        uniqueness={"query": {**by_type(generated[0], "nearby_L0").uniqueness["query"], "rank": "only"}},
    )
    cases = [
        case_create(document=good.model_copy(update={"case_id": "frozen-good", "status": "validated"})),
        case_create(document=bad),
    ]
    with pytest.raises(ValidationError, match="1 case.s. fail the independent verifier: tampered-nearby"):
        release_freeze(name="audit-refusal", split="public", cases=cases)
    assert release_freeze(name="audit-ok", split="public", cases=cases[:1]).entries.count() == 1


def test_verification_replays_each_l2_reading_path_through_the_real_search(generated, monkeypatch):
    """verify_case replays the verifier's reading path of each L2 gold through search_notes: a case whose gold the
    real searches do not show holding its need, or whose replayed path is over the agent's budget, fails."""
    import benchmark.cases.audit.checks as checks
    import benchmark.cases.audit.reading as reading

    doc = by_type(generated[0], "nearby_L2")
    assert verify_case(doc).ok  # the real search_notes: the replayed path settles the gold within 30 calls
    real = checks.tool_search
    monkeypatch.setattr(reading, "TOOL_BUDGET", 3)  # what the replay is held to (the verifier's own reading is not)
    failures = verify_case(doc).failures
    assert any(
        f.startswith("independent check: over budget through search_notes: reading what the real") for f in failures
    )
    monkeypatch.setattr(reading, "TOOL_BUDGET", 30)
    monkeypatch.setattr(checks, "tool_search", lambda ctx: lambda keyword: [])  # a search that lists nothing
    failures = verify_case(doc).failures
    assert failures == [f"independent check: not readable through search_notes: {reading.GOLD_UNREAD}"]

    def refusing(ctx):
        def search(keyword):
            raise ValueError(f"search_notes refused {keyword!r}: too many terms")

        return search

    monkeypatch.setattr(checks, "tool_search", refusing)  # a refused search is a failure, never a crash
    (failure,) = verify_case(doc).failures
    assert failure.startswith("independent check: not readable through search_notes: search_notes refused")
    monkeypatch.setattr(checks, "tool_search", real)
    assert verify_case(doc).ok


def test_variants_keep_their_shares_and_never_stall_on_one_the_city_no_longer_allows():
    import random

    from benchmark.cases.engine.kit.question_phrasing import TRIES_PER_CASE, Phrasebook

    book, rng = Phrasebook(), random.Random(0)
    weights = {"timed": 1.0, "untimed": 1.0}
    picked = []
    for _ in range(4):  # every attempt kept: the variants alternate, keeping their shares
        picked.append(book.variant(rng, "demo", weights))
        book.commit([f"variant:demo:{picked[-1]}"])
    assert sorted(picked) == ["timed", "timed", "untimed", "untimed"]
    book.commit(["variant:demo:timed"])  # one more timed case was kept: untimed is behind its share
    # nothing is kept any more (the city no longer allows either variant): each gives way after its tries...
    drawn = [book.variant(rng, "demo", weights) for _ in range(TRIES_PER_CASE * 4 + TRIES_PER_CASE * 3 + 200)]
    # ...and then both are drawn by weight, never one alone forever
    tail = drawn[-200:]
    assert {"timed", "untimed"} == set(tail) and 60 < tail.count("timed") < 140


@pytest.fixture(scope="module")
def verified_twice(generated_cases, django_db_blocker):
    """The engine's 22 cases verified by one process and by two (forked) processes, outside a transaction."""
    from benchmark.cases.engine.generate_flow import verified
    from benchmark.cases.engine.runner import _in_transaction
    from environment.tools.context import city_context

    documents = generated_cases[0]
    with django_db_blocker.unblock():
        assert not _in_transaction()  # so two workers really fork
        ctx = city_context("helsinki")
        return documents, verified(ctx, documents, documents, workers=1), verified(ctx, documents, documents, workers=2)


def test_cases_verified_in_two_processes_get_the_same_results(verified_twice):
    """generate_cases --release verifies what it wrote in forked workers: the same verdicts as in one process."""
    documents, alone, together = verified_twice
    assert list(alone) == [d.case_id for d in documents] == list(together)
    assert all(r.ok for r in alone.values()), [(c, r.failures) for c, r in alone.items() if not r.ok]
    assert {c: r.to_dict() for c, r in alone.items()} == {c: r.to_dict() for c, r in together.items()}


def test_nearby_l2_anchors_keep_every_other_holder_clearly_farther(helsinki_ctx):
    """An untimed nearby_L2 question needs its gold to be clearly the nearest holder of the need: the anchors the
    recipe aims from (``clear``) put every other holder farther than the gold by the nearest-margin."""
    from benchmark.cases.audit import audit_world
    from benchmark.cases.engine.kit.session import EngineSession
    from benchmark.cases.engine.recipes.nearby import NEAREST_SLACK
    from benchmark.cases.engine.recipes.nearby_needs import _holders_of, anchors_at_rank
    from benchmark.cases.needs import PUBLIC, needs_in

    world = audit_world(helsinki_ctx.city_name)
    session = EngineSession(helsinki_ctx)
    checked = 0
    for need in sorted(needs_in(PUBLIC))[:4]:
        holders = _holders_of(world, None, need)
        for gold in holders[:3]:
            for rank in (2, 3):
                everywhere = anchors_at_rank(session, gold, None, need, rank)
                clear = anchors_at_rank(session, gold, None, need, rank, clear=True)
                assert set(clear) <= set(everywhere)
                for anchor, to_gold in clear[:5]:
                    nearest_other = min(world.distance_m(anchor, h) for h in holders if h != gold)
                    assert nearest_other - to_gold >= max(15.0, 0.1 * to_gold) * NEAREST_SLACK - 1.0
                    checked += 1
    assert checked >= 10


def test_routing_l2_puts_each_best_stop_to_the_verifiers_checks_before_writing_the_case(generated, helsinki_ctx):
    """The recipe asks the verifier's L2 checks and the cell's quota about a need's best stop, so an attempt goes
    on to its next need: a written case passes them, and the same gold is refused once its rank is full."""
    from datetime import datetime

    from benchmark.cases.audit import audit_world
    from benchmark.cases.audit.common import lookalikes
    from benchmark.cases.audit.plans import detour_costs
    from benchmark.cases.engine.kit.session import EngineSession
    from benchmark.cases.engine.recipes.routing import _notes_blind_problem
    from benchmark.cases.lexicon import noun_of
    from benchmark.cases.rank_rules import RankQuota

    world = audit_world(helsinki_ctx.city_name)
    cases = [d for d in generated[0] if d.type == "routing_L2"]
    assert cases
    for document in cases:
        q, gold = document.uniqueness["query"], document.answer["waypoints"][0]["place_id"]
        a, b = {"place_id": q["start"]}, {"place_id": q["end"]}
        noun = noun_of(q["stop"]["noun"]) if q["stop"].get("noun") else None
        depart = datetime.fromisoformat(q["depart"]) if q.get("depart") else None
        args = (a, b, q["vehicle"], q["mode"], noun, q["stop"]["need"], gold, depart)
        assert _notes_blind_problem(EngineSession(helsinki_ctx), *args) is None
        pool = [p for p in lookalikes(world, q["stop"]["noun"], q["stop"]["need"]) if p not in (q["start"], q["end"])]
        costs = detour_costs(world, q["start"], q["end"], q["vehicle"], q["mode"], [gold, *pool], depart)
        rank = 1 + sum(1 for p, c in costs.items() if p != gold and c < costs[gold])
        full = RankQuota(target=10)
        full.taken["measure", rank] = full.cap(len(costs), "measure")
        problem = _notes_blind_problem(EngineSession(helsinki_ctx, rank_quota=full), *args)
        assert problem == "the gold's rank by detour among its look-alikes is already common in the cell"
