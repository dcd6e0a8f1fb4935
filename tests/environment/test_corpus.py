"""The synthetic social corpus writer and the JSONL importer (pure Python, no database)."""

from __future__ import annotations

import json
import random
import re
import time
from collections import Counter, defaultdict
from datetime import UTC, date, datetime

import pytest

from environment.build.corpus import generate_corpus, read_corpus_jsonl, write_corpus_jsonl
from environment.build.corpus.vocab import ALL_SPECS, LONG_TERM, SHORT_TERM, STATIC
from environment.build.records import PlaceRecord

TYPES = [
    ("Food & Beverages|Coffee House", 85),
    ("Food & Beverages|Restaurant", 213),
    ("Food & Beverages|Fast Food", 54),
    ("Food & Beverages|Pub", 51),
    ("Food & Beverages|Bar", 22),
    ("Food & Beverages|Bakery", 14),
    ("Shopping|Clothing Store", 200),
    ("Shopping|Gift Shop", 60),
    ("Shopping|Bookstore", 30),
    ("Shopping|Other Shop", 96),
    ("Business|Office", 218),
    ("Accommodation|Hotel", 29),
    ("Culture|Museum", 35),
    ("Culture|Library", 30),
    ("Scenery Spot|Tourist Attraction", 50),
    ("Scenery Spot|Park", 31),
    ("Sports & Recreation|Fitness Centre", 10),
    ("Beauty & Personal Care|Hairdresser", 73),
    ("Healthcare|Dentist", 13),
    ("Public Service|Pharmacy", 43),
    ("Finance|Bank", 37),
    ("Education|University", 7),
    ("Transport|Parking", 31),
    ("Crafts|Jeweller", 6),
    ("Entertainment|Cinema", 21),
    ("Mystery Type|Thing", 0),
]
WORDS = [
    "Kappeli",
    "Fazer",
    "Regatta",
    "Aleksi",
    "Sininen",
    "Pikku",
    "Helmi",
    "Kulma",
    "Töölö",
    "Ekberg",
    "Strindberg",
    "Löyly",
    "Sävy",
    "Andante",
    "Kuu",
    "Lasipalatsi",
]


def _fake_places(count_scale: float, seed: int = 7) -> list[PlaceRecord]:
    rng, out = random.Random(seed), []
    for place_type, n in TYPES:
        for _ in range(max(1, round(n * count_scale))):
            i = len(out) + 1
            name = f"{rng.choice(['Café', 'Ravintola', 'Kauppa', 'Hotel', 'Studio'])} {rng.choice(WORDS)} {i}"
            out.append(
                PlaceRecord(
                    place_id=f"N{1000 + i}",
                    osm_type="node",
                    osm_id=1000 + i,
                    name=name,
                    place_type=place_type,
                    lon=24.93 + rng.random() * 0.03,
                    lat=60.16 + rng.random() * 0.012,
                    address=f"Mannerheimintie {i % 60 + 1}, Helsinki",
                    alias=rng.choice(["", "", "Kap | Kappis"]),
                )
            )
    return out


def _helsinki_places() -> list[PlaceRecord]:
    from environment.build.osm import read_osm
    from environment.build.pipeline import default_pbf

    return list(read_osm(default_pbf()).places)


@pytest.fixture(scope="module")
def small_places():
    return _fake_places(0.04)


@pytest.fixture(scope="module")
def small_corpus(small_places):
    return generate_corpus(small_places, seed=3)


@pytest.fixture(scope="module")
def city():
    places = _helsinki_places()
    started = time.perf_counter()
    corpus = generate_corpus(places, seed=0)
    return places, corpus, time.perf_counter() - started


def _texts_by_note(corpus) -> dict[str, str]:
    texts = {n.note_id: [n.title, n.desc, n.tag_list] for n in corpus.notes}
    for c in corpus.comments:
        texts[c.note_id].append(c.content)
    return {k: "\n".join(v).lower() for k, v in texts.items()}


def test_generate_corpus_is_deterministic(small_places, small_corpus, tmp_path):
    again = generate_corpus(small_places, seed=3)
    assert again == small_corpus
    write_corpus_jsonl(small_corpus, tmp_path / "a.jsonl")
    write_corpus_jsonl(again, tmp_path / "b.jsonl")
    assert (tmp_path / "a.jsonl").read_bytes() == (tmp_path / "b.jsonl").read_bytes()
    assert generate_corpus(small_places, seed=4).notes != small_corpus.notes


def test_removing_a_place_leaves_other_places_notes_alone(small_places, small_corpus):
    removed = small_places[5].place_id
    smaller = generate_corpus([p for p in small_places if p.place_id != removed], seed=3)

    def keep(corpus):
        return [n for n in corpus.notes if n.place_id not in (None, removed) and n.kind != "multi"]

    assert keep(smaller) == keep(small_corpus)
    assert [f for f in smaller.facts] == [f for f in small_corpus.facts if f.place_id != removed]


def test_generation_reaches_paper_scale_quickly(city):
    places, corpus, seconds = city
    assert len(places) >= 1400
    assert len(corpus.notes) >= 20_000
    assert len(corpus.comments) >= 180_000
    assert len(corpus.notes) + len(corpus.comments) >= 200_000
    assert seconds < 20


def test_notes_and_comments_respect_limits(city):
    _, corpus, _ = city
    per_place = Counter(n.place_id for n in corpus.notes if n.place_id)
    assert max(per_place.values()) <= 20
    written = Counter(c.note_id for c in corpus.comments)
    assert all(n.comment_count == written[n.note_id] <= 10 for n in corpus.notes)
    assert sorted(written) == sorted(k for k, v in written.items() if v)  # no stray comments
    assert set(written) <= {n.note_id for n in corpus.notes}


def test_ids_are_rednote_style_unique_and_timestamped(city):
    _, corpus, _ = city
    hex24 = re.compile(r"^[0-9a-f]{24}$")
    note_time = {}
    for n in corpus.notes:
        assert hex24.match(n.note_id) and int(n.note_id[:8], 16) == int(n.time.timestamp())
        assert datetime(2023, 1, 1, tzinfo=UTC) <= n.time <= datetime(2026, 11, 1, tzinfo=UTC)
        note_time[n.note_id] = n.time
    for c in corpus.comments:
        assert hex24.match(c.comment_id) and c.time > note_time[c.note_id]
    assert len(note_time) == len(corpus.notes)
    assert len({c.comment_id for c in corpus.comments}) == len(corpus.comments)


def test_engagement_is_heavy_tailed(city):
    _, corpus, _ = city
    likes = sorted(n.liked_count for n in corpus.notes)
    assert likes[len(likes) // 2] < 60 and likes[-1] >= 1000
    assert all(min(n.liked_count, n.collected_count, n.share_count) >= 0 for n in corpus.notes)


def test_every_fact_is_expressed_by_its_notes(city):
    _, corpus, _ = city
    texts = _texts_by_note(corpus)
    place_of = {n.note_id: n.place_id for n in corpus.notes}
    for fact in corpus.facts:
        assert fact.note_ids, fact
        evidence = ALL_SPECS[fact.key].evidence
        for note_id in fact.note_ids:
            assert place_of[note_id] == fact.place_id
            assert any(word in texts[note_id] for word in evidence), (fact, texts[note_id])


def test_text_never_quotes_a_label_or_key(city):
    _, corpus, _ = city
    texts = _texts_by_note(corpus)
    labels = defaultdict(list)
    for fact in corpus.facts:
        labels[fact.place_id].append(fact.label.lower())
    for note in corpus.notes:
        text = texts[note.note_id]
        assert "_" not in text  # every vocabulary key is snake_case with an underscore
        assert not any(label in text for label in labels.get(note.place_id, ()))


def test_each_place_gets_fitting_facts_of_three_kinds(city):
    places, corpus, _ = city
    kinds = defaultdict(Counter)
    for fact in corpus.facts:
        kinds[fact.place_id][fact.kind] += 1
        spec = ALL_SPECS[fact.key]
        assert spec.kind == fact.kind
        if fact.kind == "short_term":
            assert date(2025, 1, 1) <= fact.valid_from <= fact.valid_until <= date(2026, 10, 31)
            assert str(fact.valid_until.year) in fact.label
        else:
            assert fact.label == spec.label and fact.valid_from is None
    for place in places:
        got = kinds[place.place_id]
        assert 1 <= got["static"] <= 3 and 1 <= got["long_term"] <= 3 and got["short_term"] <= 1
    short = [f for f in corpus.facts if f.kind == "short_term"]
    assert any(f.valid_until < date(2026, 1, 1) for f in short)  # some are already outdated
    assert any(f.valid_from > date(2026, 3, 1) for f in short)


def test_rare_static_tags_single_out_few_places(city):
    _, corpus, _ = city
    holders = Counter(f.key for f in corpus.facts if f.kind == "static")
    assert sum(1 for n in holders.values() if n <= 3) >= 8
    assert max(holders.values()) >= 100


def test_vocabulary_size_and_phrases_carry_evidence():
    assert len(STATIC) >= 60 and len(LONG_TERM) >= 40 and len(SHORT_TERM) >= 15
    for spec in ALL_SPECS.values():
        assert re.match(r"^[a-z0-9]+(_[a-z0-9]+)+$", spec.key), spec.key
        assert len(spec.phrases) >= 3 and len(spec.comments) >= 2
        for line in spec.phrases + spec.comments:
            assert any(w in line.lower() for w in spec.evidence), (spec.key, line)
            assert spec.label.split(":")[0] + ":" not in line


def test_unknown_top_type_falls_back_to_generic_facts(small_corpus, small_places):
    mystery = next(p for p in small_places if p.top_type == "Mystery Type")
    keys = [f.key for f in small_corpus.facts if f.place_id == mystery.place_id]
    assert keys and all("*" in ALL_SPECS[k].types or ALL_SPECS[k].kind != "static" for k in keys)


def test_all_noise_kinds_occur(city):
    places, corpus, _ = city
    names = {p.place_id: p.name.lower() for p in places}
    kinds = Counter(n.kind for n in corpus.notes)
    assert set(kinds) == {"about", "multi", "chatter", "duplicate", "outdated"}
    for n in corpus.notes:
        if n.kind == "chatter":
            assert n.place_id is None and n.mentioned_place_ids == ()
        elif n.kind == "multi":
            assert len(n.mentioned_place_ids) >= 2 and n.mentioned_place_ids[0] == n.place_id
        else:
            assert n.mentioned_place_ids == (n.place_id,)
    about = [n for n in corpus.notes if n.kind == "about"]
    named = sum(names[n.place_id] in (n.title + " " + n.desc).lower() for n in about)
    assert 0.7 < named / len(about) < 0.95  # most, not all, name the place in full
    contradictions = {c for s in ALL_SPECS.values() for c in s.contra}
    assert sum(c.content in contradictions for c in corpus.comments) > 100
    assert any(n.time.year == 2023 for n in corpus.notes if n.kind == "outdated")


def test_memories_are_the_joined_fact_labels(city):
    places, corpus, _ = city
    assert set(corpus.memories) == {p.place_id for p in places}
    for place in places[:300]:
        facts = [f for f in corpus.facts if f.place_id == place.place_id]
        memory = corpus.memories[place.place_id]
        assert memory.social_tags == "; ".join(f.label for f in facts if f.kind == "static")
        assert memory.long_mem == "; ".join(f.label for f in facts if f.kind == "long_term")
        assert memory.short_mem == "; ".join(f.label for f in facts if f.kind == "short_term")


def test_jsonl_round_trip_is_identical(small_places, small_corpus, tmp_path):
    path = tmp_path / "corpus.jsonl"
    write_corpus_jsonl(small_corpus, path)
    back = read_corpus_jsonl(path, small_places)
    assert back == small_corpus
    write_corpus_jsonl(back, tmp_path / "again.jsonl")
    assert (tmp_path / "again.jsonl").read_bytes() == path.read_bytes()


def _line(**overrides):
    row = {
        "note_id": "5de25964000000000100bc82",
        "place_id": "N1001",
        "mentioned_place_ids": ["N1001"],
        "title": "Corgis!",
        "desc": "Two corgis came to our table.",
        "time": "2025-03-01T10:00:00+00:00",
        "liked_count": 3,
        "collected_count": 1,
        "share_count": 0,
        "tag_list": "helsinki,corgi",
        "comments": [
            {
                "comment_id": "5de25964000000000100bc83",
                "time": "2025-03-02T10:00:00Z",
                "content": "so cute",
                "like_count": 1,
            }
        ],
        "facts": [
            {
                "place_id": "N1001",
                "kind": "static",
                "key": "corgi_cafe",
                "label": "Pets: Corgi cafe",
                "valid_from": None,
                "valid_until": None,
            }
        ],
    }
    row.update(overrides)
    return json.dumps(row)


def test_jsonl_import_of_a_real_style_file(small_places, tmp_path):
    path = tmp_path / "real.jsonl"
    chatter = _line(note_id="abc", place_id=None, mentioned_place_ids=[], comments=[], facts=[])
    path.write_text(_line() + "\n\n" + chatter + "\n", encoding="utf-8")
    corpus = read_corpus_jsonl(path, small_places)
    assert [n.kind for n in corpus.notes] == ["about", "chatter"]
    assert corpus.notes[0].comment_count == 1 and corpus.comments[0].time.tzinfo == UTC
    assert corpus.facts[0].note_ids == ("5de25964000000000100bc82",)
    assert corpus.memories["N1001"].social_tags == "Pets: Corgi cafe"


@pytest.mark.parametrize(
    "bad, field",
    [
        ("{not json", "not valid JSON"),
        (_line(place_id="N999999", mentioned_place_ids=["N999999"]), "place_id"),
        (_line(mentioned_place_ids=["N1001", "X1"]), "mentioned_place_ids"),
        (_line(time="2025-03-01 10:00"), "time"),
        (_line(liked_count=-1), "liked_count"),
        (_line(share_count=True), "share_count"),
        (_line(kind="rumour"), "kind"),
        (_line(colour="red"), "colour"),
        (json.dumps({"note_id": "x1"}), "title"),
        (
            _line(comments=[{"comment_id": "c1", "time": "2025-03-02T10:00:00Z", "content": "hi"}]),
            "comments[0].like_count",
        ),
        (_line(facts=[{"place_id": "N1001", "kind": "rumour", "key": "corgi_cafe", "label": "x"}]), "facts[0].kind"),
        (
            _line(facts=[{"place_id": "N1002", "kind": "static", "key": "corgi_cafe", "label": "x"}]),
            "facts[0].place_id",
        ),
        (_line(facts=[{"place_id": "N1001", "kind": "static", "key": "Corgi Cafe", "label": "x"}]), "facts[0].key"),
        (_line(note_id="5de25964000000000100bc82"), "note_id"),  # repeats line 1
    ],
)
def test_jsonl_errors_name_line_and_field(small_places, tmp_path, bad, field):
    path = tmp_path / "bad.jsonl"
    path.write_text(_line() + "\n" + bad + "\n", encoding="utf-8")
    with pytest.raises(ValueError) as err:
        read_corpus_jsonl(path, small_places)
    assert str(err.value).startswith(f"line 2: {field}"), str(err.value)
