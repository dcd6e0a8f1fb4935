"""The look-alike report and command: every L2 gold hides among places a solver without notes cannot tell apart.

On cases the data engine wrote on Helsinki, then on one of them turned into a case a visible tag
settles (the gold's record shows the need's label), which the report and the command list.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from django.core.management import call_command

from benchmark.cases.audit import AuditWorld, audit_world
from benchmark.cases.audit import lookalike_report as report_module
from benchmark.cases.audit.lookalike_report import lookalike_report
from environment.build.corpus.vocab import ALL_SPECS

pytestmark = pytest.mark.django_db


def _tag_settled(doc) -> tuple[AuditWorld, str]:
    """The city with the gold of ``doc`` carrying its need's label in its visible tag."""
    city = audit_world(doc.city_name)
    [row] = lookalike_report(documents=[doc]).rows
    label = ALL_SPECS[row.need].label.split(" ({")[0]
    places = [replace(p, tag=f"{p.tag}; {label}" if p.place_id == row.gold else p.tag) for p in city.places.values()]
    world = AuditWorld(
        city_name=city.city_name,
        city_version=city.city_version,
        places=places,
        network=city.network,
        evidence=city.evidence,
        notes=city.notes,
    )
    return world, row.gold


def test_every_generated_l2_case_has_three_lookalikes_and_is_settled_by_a_memory(generated_cases):
    documents = generated_cases[0]
    report = lookalike_report(documents=documents)
    l2 = {d.case_id for d in documents if d.level == "L2"}
    assert {r.case_id for r in report.rows} == l2 and len(l2) >= 3
    assert report.short() == []
    assert all(r.count >= 3 and r.gold not in r.lookalikes for r in report.rows)
    assert {r.fact_kind for r in report.rows} <= {"long_term", "short_term"}
    assert "long_term" in report.table() and "look-alikes min" in report.table()
    assert all(r.decoys >= 2 and r.signals is not None for r in report.rows)  # the verifier asks for 2 decoys
    assert "decoys min" in report.evidence_table() and "most keyword hits" in report.rank_table()
    for row in report.rows:  # counting hits never leads to the gold: the verifier refuses such a case
        hits = row.signals.signals["hits"]
        assert max(hits.values()) > hits[row.gold] or list(hits.values()).count(hits[row.gold]) > 1


def test_a_case_a_visible_tag_settles_is_listed(generated_cases):
    doc = next(d for d in generated_cases[0] if d.type == "nearby_L2")
    world, gold = _tag_settled(doc)
    [row] = lookalike_report(documents=[doc], world=world).rows
    assert row.gold == gold and row.problem.startswith("visible: the gold's tag")
    assert row.count < 3 and lookalike_report(documents=[doc], world=world).short() == [row]


def test_the_command_lists_tag_settled_cases_and_fails(generated_cases, monkeypatch, capsys):
    from benchmark.cases.services import case_create

    docs = [d for d in generated_cases[0] if d.level == "L2"]
    for d in docs:
        case_create(document=d.model_copy(update={"case_id": "look-" + d.case_id}))
    call_command("lookalikes", "--names", "--replay")
    out = capsys.readouterr().out
    assert "L2 cases with fewer than 3 look-alikes: 0" in out and "look-" in out
    assert "searches full pages notes listed" in out  # the paths replayed through the real search_notes
    cells = {d.type for d in docs}
    replayed = [line.split() for line in out.splitlines() if line.split()[:1] and line.split()[0] in cells]
    assert replayed and all(
        len(row) == 11 and int(row[1]) >= 1 and int(row[8]) == int(row[1]) for row in replayed[-len(cells) :]
    )
    tagged = next(d for d in docs if d.type == "nearby_L2")
    world, _ = _tag_settled(tagged)
    monkeypatch.setattr(report_module, "audit_world", lambda _name: world)
    with pytest.raises(SystemExit) as ended:
        call_command("lookalikes", "--case", "look-" + tagged.case_id)
    out = capsys.readouterr().out
    assert ended.value.code == 1
    assert "L2 cases with fewer than 3 look-alikes: 1" in out and f"look-{tagged.case_id}: visible" in out
