"""build_city: determinism, atomic rebuilds, versions, bad input, and the JSONL corpus importer."""

import hashlib
import io
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from environment.build import pipeline
from environment.build.corpus import generate_corpus, write_corpus_jsonl
from environment.build.osm import read_osm
from environment.build.pipeline import HELSINKI_PBF, HELSINKI_PBF_SHA256, city_version, default_pbf
from environment.models import City, Note, Place, RoadSegment
from environment.tools.context import city_context
from environment.tools.gateway import call_tool

pytestmark = pytest.mark.django_db
TINY = Path(__file__).parent / "data" / "tiny.osm"


def build(*args) -> str:
    out = io.StringIO()
    call_command("build_city", *args, stdout=out)
    return out.getvalue()


def test_build_prints_the_report_and_rebuilds_atomically():
    report = build("--pbf", str(TINY), "--name", "tiny", "--seed", "3")
    assert "Places by top-level type" in report and "Road segments" in report and "Build time" in report
    city = City.objects.get(name="tiny")
    places, roads = Place.objects.filter(city=city).count(), RoadSegment.objects.filter(city=city).count()
    assert places > 0 and roads > 0
    build("--pbf", str(TINY), "--name", "tiny", "--seed", "3")
    assert Place.objects.filter(city=city).count() == places and RoadSegment.objects.filter(city=city).count() == roads
    assert City.objects.filter(name="tiny").count() == 1


def test_if_stale_skips_an_identical_build():
    build("--pbf", str(TINY), "--name", "tiny2")
    assert "up to date" in build("--pbf", str(TINY), "--name", "tiny2", "--if-stale")
    assert "up to date" not in build("--pbf", str(TINY), "--name", "tiny2", "--seed", "9", "--if-stale")


def test_version_depends_on_inputs_and_seed():
    pbf = default_pbf()
    assert city_version(pbf=pbf, seed=0, scale=1, corpus_jsonl=None) == city_version(
        pbf=pbf, seed=0, scale=1, corpus_jsonl=None
    )
    assert city_version(pbf=pbf, seed=0, scale=1, corpus_jsonl=None) != city_version(
        pbf=pbf, seed=1, scale=1, corpus_jsonl=None
    )
    assert city_version(pbf=TINY, seed=0, scale=1, corpus_jsonl=None) != city_version(
        pbf=pbf, seed=0, scale=1, corpus_jsonl=None
    )


def test_the_bundled_extract_is_the_recorded_file():
    assert default_pbf() == HELSINKI_PBF
    assert HELSINKI_PBF.parent.name == "data" and (HELSINKI_PBF.parent / "README.md").is_file()


def test_a_changed_bundled_extract_is_refused_with_both_checksums(tmp_path, monkeypatch):
    damaged = tmp_path / "helsinki.osm.pbf"
    damaged.write_bytes(HELSINKI_PBF.read_bytes()[:-1])
    monkeypatch.setattr(pipeline, "HELSINKI_PBF", damaged)
    actual = hashlib.sha256(damaged.read_bytes()).hexdigest()
    with pytest.raises(CommandError) as refused:
        build("--name", "damaged")
    assert str(damaged) in str(refused.value) and actual in str(refused.value)
    assert HELSINKI_PBF_SHA256 in str(refused.value)
    assert not City.objects.filter(name="damaged").exists()


def test_a_missing_bundled_extract_names_the_path(tmp_path, monkeypatch):
    monkeypatch.setattr(pipeline, "HELSINKI_PBF", tmp_path / "gone.osm.pbf")
    with pytest.raises(ValueError, match="gone.osm.pbf: no such file"):
        default_pbf()


@pytest.mark.parametrize(
    "args, message",
    [
        (["--pbf", "/no/such.pbf", "--name", "x"], "no such file"),
        (["--pbf", str(TINY)], "--pbf needs --name"),
        (["--scale", "0"], "--scale must be 1 or more"),
    ],
)
def test_bad_arguments_are_clear_errors(args, message):
    with pytest.raises(CommandError, match=message):
        build(*args)


def test_same_seed_gives_byte_identical_tool_outputs(helsinki, helsinki_ctx):
    build("--name", "helsinki-copy", "--seed", "0")
    copy = city_context("helsinki-copy")
    calls = [
        ("place_search", {"query_name": "kahvila", "min_rating": 3}),
        ("search_notes", {"keyword": "quiet OR cozy"}),
        ("nearby_search", {"center": "N247416118", "radius_meters": 400}),
        ("routing", {"start_place_id": "N247416118", "end_place_id": "N2270234283", "vehicle": "cycling"}),
    ]
    for name, args in calls:
        a = call_tool("agent", name, args, context=helsinki_ctx).observation_text()
        b = call_tool("agent", name, args, context=copy).observation_text()
        assert a == b, name
    notes = Note.objects.filter(city__name="helsinki-copy").order_by("note_id")[:50]
    same = Note.objects.filter(city=helsinki).order_by("note_id")[:50]
    assert [(n.note_id, n.desc) for n in notes] == [(n.note_id, n.desc) for n in same]


def test_a_real_corpus_can_be_imported_from_jsonl(tmp_path):
    places = read_osm(TINY).places
    corpus = generate_corpus(places, 5)
    path = tmp_path / "corpus.jsonl"
    write_corpus_jsonl(corpus, path)
    report = build("--pbf", str(TINY), "--name", "tiny-real", "--corpus-jsonl", str(path))
    assert "Corpus: imported" in report
    stored = Note.objects.filter(city__name="tiny-real")
    assert stored.count() == len(corpus.notes)
    assert sorted(stored.values_list("note_id", flat=True)) == sorted(n.note_id for n in corpus.notes)


def test_a_malformed_corpus_file_names_the_line(tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text('{"note_id": "a1"}\n')
    with pytest.raises(CommandError, match="line 1"):
        build("--pbf", str(TINY), "--name", "tiny-bad", "--corpus-jsonl", str(path))
    assert not City.objects.filter(name="tiny-bad").exists()
