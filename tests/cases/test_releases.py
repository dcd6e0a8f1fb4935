import hashlib
import io
import json

import pytest
from django.core.exceptions import ValidationError
from django.core.management import CommandError, call_command

from benchmark.cases.document import canonical_json
from benchmark.cases.models import Case, CaseEvent, Release, ReleaseCase
from benchmark.cases.services import (
    CaseImportError,
    HiddenAnswersRefused,
    case_create,
    case_update,
    case_validate,
    cases_export,
    cases_import,
    release_exposure,
    release_freeze,
)
from tests.factories import routing_document, staff_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def curator():
    return staff_user("cura", curator=True)


def validated_cases(n, actor, **overrides):
    return [case_validate(case=case_create(document=routing_document(**overrides)), actor=actor) for _ in range(n)]


def test_release_freeze_snapshots_cases_in_case_id_order_with_a_stable_hash(curator, verification):
    cases = validated_cases(3, curator)
    release = release_freeze(name="v1", split="public", cases=list(reversed(cases)), actor=curator)
    entries = list(release.entries.order_by("position"))
    assert [e.case.case_id for e in entries] == sorted(c.case_id for c in cases)
    snapshots = [e.snapshot for e in entries]
    assert release.content_hash == hashlib.sha256(canonical_json(snapshots).encode()).hexdigest()
    again = release_freeze(name="v1-again", split="hidden", cases=cases, actor=curator)
    assert again.content_hash == release.content_hash
    assert (release.city_name, release.city_version) == ("gridtown", "grid-1")


def test_a_release_does_not_change_when_a_case_is_edited(curator, verification):
    cases = validated_cases(2, curator)
    release = release_freeze(name="v1", split="public", cases=cases)
    before = [e.snapshot for e in release.entries.all()]
    case_update(case=cases[0], changes={"question": "Edited after freezing?"}, actor=curator)
    release.refresh_from_db()
    assert [e.snapshot for e in release.entries.all()] == before
    assert before[0]["question"] != "Edited after freezing?"


def test_release_freeze_refuses_drafts_mixed_city_versions_and_reused_names(curator, verification):
    draft = case_create(document=routing_document())
    with pytest.raises(ValidationError, match=f"not validated: {draft.case_id}"):
        release_freeze(name="v1", split="public", cases=[draft])
    mixed = validated_cases(1, curator) + validated_cases(1, curator, city_version="grid-2")
    with pytest.raises(ValidationError, match="one city version.*grid-1.*grid-2"):
        release_freeze(name="v1", split="public", cases=mixed)
    release_freeze(name="v1", split="public", cases=mixed[:1])
    with pytest.raises(ValidationError, match="never reused"):
        release_freeze(name="v1", split="public", cases=mixed[:1])
    assert Release.objects.count() == 1


def test_export_import_export_is_byte_identical(tmp_path, curator, verification):
    cases = validated_cases(3, curator)
    case_create(document=routing_document(answer="Kahvila Koira, Testikatu 1 ünïcode"))
    release_freeze(name="v1", split="hidden", cases=cases[:2])
    first, first_release = tmp_path / "all.jsonl", tmp_path / "v1.jsonl"
    assert cases_export(path=first, include_hidden=True).written == 4
    assert cases_export(path=first_release, release=Release.objects.get(name="v1"), include_hidden=True).written == 2
    hash_before = Release.objects.get(name="v1").content_hash

    ReleaseCase.objects.all().delete()
    Release.objects.all().delete()
    Case.objects.all().delete()
    cases_import(path=first)
    imported = cases_import(path=first_release, release_name="v1", split="hidden")
    assert imported.unchanged == [c.case_id for c in cases[:2]] and imported.created == []

    second, second_release = tmp_path / "all2.jsonl", tmp_path / "v1-2.jsonl"
    cases_export(path=second, include_hidden=True)
    cases_export(path=second_release, release=imported.release, include_hidden=True)
    assert second.read_bytes() == first.read_bytes()
    assert second_release.read_bytes() == first_release.read_bytes()
    assert imported.release.content_hash == hash_before
    assert set(CaseEvent.objects.values_list("action", flat=True)) == {"imported"}


def test_export_writes_one_canonical_document_per_line(tmp_path):
    doc = routing_document()
    case_create(document=doc)
    path = tmp_path / "out.jsonl"
    cases_export(path=path)
    assert path.read_text(encoding="utf-8") == doc.to_json() + "\n"


def test_import_updates_an_existing_case_and_records_the_changes(tmp_path, curator):
    doc = routing_document()
    case = case_create(document=doc)
    path = tmp_path / "in.jsonl"
    path.write_text(doc.model_copy(update={"question": "A new wording?"}).to_json() + "\n", encoding="utf-8")
    result = cases_import(path=path, actor=curator)
    case.refresh_from_db()
    assert result.updated == [doc.case_id] and case.question == "A new wording?"
    event = case.events.last()
    assert (event.action, event.actor, event.changes) == (
        "imported",
        curator,
        {"question": [doc.question, "A new wording?"]},
    )


def test_import_error_names_the_line_and_the_field(tmp_path):
    good = routing_document().to_json()
    bad = json.loads(routing_document().to_json())
    bad["level"] = "L7"
    path = tmp_path / "bad.jsonl"
    path.write_text(good + "\n" + json.dumps(bad) + "\n", encoding="utf-8")
    with pytest.raises(CaseImportError, match=r"line 2: field level: Input should be 'L0', 'L1' or 'L2'"):
        cases_import(path=path)
    path.write_text(good + "\n\n{not json\n", encoding="utf-8")
    with pytest.raises(CaseImportError, match="line 3: not valid JSON"):
        cases_import(path=path)
    assert not Case.objects.exists()


def test_import_as_release_refuses_drafts_and_writes_nothing(tmp_path):
    path = tmp_path / "drafts.jsonl"
    path.write_text(routing_document().to_json() + "\n", encoding="utf-8")
    with pytest.raises(ValidationError, match="only validated"):
        cases_import(path=path, release_name="v1")
    assert not Case.objects.exists() and not Release.objects.exists()


# ------------------------------------------------------------------ commands


def test_export_and_import_commands_round_trip(tmp_path, curator, verification, capsys):
    validated_cases(2, curator)
    call_command("freeze_release", "v1", "--split", "hidden", "--category", "routing", "--description", "first")
    release = Release.objects.get(name="v1")
    assert (release.split, release.description, release.entries.count()) == ("hidden", "first", 2)
    out = tmp_path / "v1.jsonl"
    call_command("export_cases", str(out), "--release", "v1", "--include-hidden")
    ReleaseCase.objects.all().delete()
    Release.objects.all().delete()
    Case.objects.all().delete()
    call_command("import_cases", str(out), "--release", "v1", "--split", "hidden")
    assert "2 created, 0 updated" in capsys.readouterr().out
    assert Release.objects.get(name="v1").content_hash == release.content_hash


def test_freeze_release_filters_by_level(curator, verification):
    validated_cases(1, curator)
    validated_cases(1, curator, level="L1", type="routing_L1")
    call_command("freeze_release", "l1-only", "--level", "L1")
    assert [e.snapshot["level"] for e in Release.objects.get(name="l1-only").entries.all()] == ["L1"]


def test_exporting_a_hidden_release_is_refused_without_include_hidden(tmp_path, curator, verification):
    hidden = release_freeze(name="hidden-v1", split="hidden", cases=validated_cases(2, curator))
    out = tmp_path / "hidden.jsonl"
    with pytest.raises(CommandError, match="release hidden-v1 is hidden.*--include-hidden"):
        call_command("export_cases", str(out), "--release", "hidden-v1")
    assert not out.exists()
    with pytest.raises(HiddenAnswersRefused):
        cases_export(path=out, release=hidden)
    assert not out.exists()


def test_exporting_every_case_leaves_out_hidden_only_cases_unless_asked(tmp_path, curator, verification):
    hidden_only, shared, public_only = (validated_cases(1, curator)[0] for _ in range(3))
    release_freeze(name="public-v1", split="public", cases=[shared, public_only])
    release_freeze(name="hidden-v1", split="hidden", cases=[hidden_only, shared])
    out, err = io.StringIO(), io.StringIO()
    path = tmp_path / "all.jsonl"
    call_command("export_cases", str(path), stdout=out, stderr=err)
    written = [json.loads(line)["case_id"] for line in path.read_text(encoding="utf-8").splitlines()]
    assert sorted(written) == sorted([shared.case_id, public_only.case_id])  # shared: its answer is public anyway
    assert "wrote 2 cases" in out.getvalue() and "left out 1 case(s) of hidden releases" in out.getvalue()
    assert err.getvalue() == ""
    call_command("export_cases", str(path), "--include-hidden", stdout=out, stderr=err)
    assert len(path.read_text(encoding="utf-8").splitlines()) == 3
    assert "holds the answers of a hidden release: keep it to curators" in err.getvalue()


def test_freezing_a_hidden_release_warns_of_cases_already_public(curator, verification):
    cases = validated_cases(3, curator)
    call_command("freeze_release", "public-v1", stdout=io.StringIO())
    Case.objects.filter(pk=cases[0].pk).update(status=Case.DRAFT)  # only cases[1:] go into the next releases
    out, err = io.StringIO(), io.StringIO()
    call_command("freeze_release", "hidden-v1", "--split", "hidden", stdout=out, stderr=err)
    assert "froze release hidden-v1: 2 cases" in out.getvalue()
    warning = err.getvalue()
    assert "2 case(s) of hidden release hidden-v1 are already in a public release" in warning
    assert f"{cases[1].case_id} (in public-v1)" in warning and cases[0].case_id not in warning
    assert release_exposure(release=Release.objects.get(name="hidden-v1")) == {
        cases[1].case_id: ["public-v1"],
        cases[2].case_id: ["public-v1"],
    }


def test_freezing_a_public_release_warns_of_cases_of_a_hidden_one_and_fresh_cases_do_not(curator, verification):
    cases = validated_cases(2, curator)
    err = io.StringIO()
    call_command("freeze_release", "hidden-v1", "--split", "hidden", stdout=io.StringIO(), stderr=err)
    assert err.getvalue() == ""  # nothing of it is public
    call_command("freeze_release", "public-v1", stdout=io.StringIO(), stderr=err)
    assert "2 case(s) of public release public-v1 are also in a hidden release" in err.getvalue()
    assert f"{cases[0].case_id} (in hidden-v1)" in err.getvalue()


def test_verify_cases_prints_failures_and_exits_1(curator, verification, capsys):
    good, bad = validated_cases(2, curator)
    verification.failing[bad.case_id] = ["note 123 does not exist", "question duplicates another case"]
    with pytest.raises(SystemExit) as exited:
        call_command("verify_cases")
    out = capsys.readouterr().out
    assert exited.value.code == 1
    assert f"FAIL {bad.case_id}: note 123 does not exist; question duplicates another case" in out
    assert good.case_id not in out
    assert out.strip().endswith("2 verified, 1 failed")


def test_verify_cases_of_a_release_checks_the_snapshots_and_exits_0(curator, verification, capsys):
    cases = validated_cases(2, curator)
    release_freeze(name="v1", split="public", cases=cases)
    case_update(case=cases[0], changes={"question": "Changed later"}, actor=curator)
    verification.calls.clear()
    call_command("verify_cases", "--release", "v1")
    assert capsys.readouterr().out.strip() == "2 verified, 0 failed"
    assert "Changed later" not in str(verification.calls)
    assert {case_id for case_id, _ in verification.calls} == {c.case_id for c in cases}
