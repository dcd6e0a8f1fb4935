"""The synthetic social corpus: facts, labelled evidence and noise, the rule's verdicts, JSONL (no database)."""

from __future__ import annotations

import json
import random
import re
from collections import Counter, defaultdict
from datetime import UTC, date, datetime

import pytest

from environment.build.corpus import generate_corpus, read_corpus_jsonl, write_corpus_jsonl
from environment.build.corpus.kinds import kind_of
from environment.build.corpus.plan import held_facts
from environment.build.corpus.report import Masker, distinct_share
from environment.build.corpus.vocab import ALL_SPECS, LONG_TERM, SHORT_TERM, STATIC, fits_place
from environment.build.corpus.writer import _rng
from environment.evidence import CREDITS, ENDED, NEGATES, STANCES, SUPPORTS
from environment.records import PlaceRecord

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
    return places, generate_corpus(places, seed=0)


def _texts_by_note(corpus) -> dict[str, str]:
    texts = {n.note_id: [n.title, n.desc, n.tag_list] for n in corpus.notes}
    for c in corpus.comments:
        texts[c.note_id].append(c.content)
    return {k: "\n".join(v).lower() for k, v in texts.items()}


NEGATION = re.compile(r"\b(no|not|never|none|without|nothing|nobody|neither|nor|cannot|nowhere)\b|n't\b")


def test_generate_corpus_is_deterministic(small_places, small_corpus, tmp_path):
    again = generate_corpus(small_places, seed=3)
    assert again == small_corpus
    write_corpus_jsonl(small_corpus, tmp_path / "a.jsonl")
    write_corpus_jsonl(again, tmp_path / "b.jsonl")
    assert (tmp_path / "a.jsonl").read_bytes() == (tmp_path / "b.jsonl").read_bytes()
    assert generate_corpus(small_places, seed=4).notes != small_corpus.notes


def test_generation_reaches_paper_scale(city):
    places, corpus = city
    assert len(places) >= 1400
    assert len(corpus.notes) >= 20_000
    assert len(corpus.comments) >= 180_000
    assert len(corpus.notes) + len(corpus.comments) >= 200_000


def test_notes_and_comments_respect_limits(city):
    _, corpus = city
    per_place = Counter(n.place_id for n in corpus.notes if n.place_id)
    assert max(per_place.values()) <= 20
    written = Counter(c.note_id for c in corpus.comments)
    assert all(n.comment_count == written[n.note_id] <= 10 for n in corpus.notes)
    assert set(written) <= {n.note_id for n in corpus.notes}


def test_ids_are_rednote_style_unique_and_timestamped(city):
    _, corpus = city
    hex24 = re.compile(r"^[0-9a-f]{24}$")
    note_time = {}
    for n in corpus.notes:
        assert hex24.match(n.note_id) and int(n.note_id[:8], 16) == int(n.time.timestamp())
        assert datetime(2023, 1, 1, tzinfo=UTC) <= n.time <= datetime(2026, 12, 6, tzinfo=UTC)
        note_time[n.note_id] = n.time
    for c in corpus.comments:
        assert hex24.match(c.comment_id) and c.time > note_time[c.note_id]
    assert len(note_time) == len(corpus.notes)
    assert len({c.comment_id for c in corpus.comments}) == len(corpus.comments)


def test_engagement_is_heavy_tailed(city):
    _, corpus = city
    likes = sorted(n.liked_count for n in corpus.notes)
    assert likes[len(likes) // 2] < 60 and likes[-1] >= 1000
    assert all(min(n.liked_count, n.collected_count, n.share_count) >= 0 for n in corpus.notes)


def test_the_rule_finds_exactly_the_facts_each_place_was_given(city):
    places, corpus = city
    meant = {(p.place_id, f.spec.key) for p in places for f in held_facts(_rng(0, "facts", p.place_id), p)}
    assert {(f.place_id, f.key) for f in corpus.facts} == meant


def test_every_label_quotes_its_note_or_comment(city):
    places, corpus = city
    names = {p.place_id: p.name for p in places}
    desc = {n.note_id: n.desc for n in corpus.notes}
    content = {c.comment_id: c.content for c in corpus.comments}
    for label in corpus.labels:
        assert label.stance in STANCES
        where = content[label.comment_id] if label.comment_id else desc[label.note_id]
        assert label.text and label.text in where, label
        spec = ALL_SPECS[label.key]
        if spec.deniable or label.stance == SUPPORTS:
            assert any(word in label.text.lower() for word in spec.evidence), label
        if label.stance == CREDITS:
            assert names[label.credited_place_id] in label.text
        else:
            assert label.credited_place_id is None


def test_endings_are_told_without_negation_words_and_denials_with_them(city):
    _, corpus = city
    ended = [lab.text for lab in corpus.labels if lab.stance == ENDED]
    denied = [lab.text for lab in corpus.labels if lab.stance == NEGATES and ALL_SPECS[lab.key].deniable]
    assert ended and not [t for t in ended if NEGATION.search(t.lower())]
    assert sum(bool(NEGATION.search(t.lower()) or t.startswith("Zero")) for t in denied) == len(denied)


def test_facts_fit_their_place(city):
    places, corpus = city
    by_id = {p.place_id: p for p in places}
    for item in [*corpus.facts, *corpus.labels]:
        assert fits_place(item.key, by_id[item.place_id].place_type), (item.key, by_id[item.place_id].place_type)


@pytest.mark.parametrize(
    "key, place_type",
    [
        ("fresh_pastries", "Food & Beverages|Ice Cream Parlour"),  # croissants baked at an ice-cream chain
        ("huge_cinnamon_buns", "Food & Beverages|Ice Cream Parlour"),
        ("reindeer_dishes", "Food & Beverages|Fast Food"),  # reindeer at a fast-food chain
        ("reindeer_dishes", "Food & Beverages|Burger Restaurant"),
        ("kids_play_corner", "Shopping|Jewellery Store"),  # a play corner at a jeweller
        ("lake_sunset_spot", "Public Service|Pharmacy"),
        ("great_latte_art", "Food & Beverages|Pub"),
    ],
)
def test_facts_an_audit_found_absurd_are_refused(key, place_type):
    assert not fits_place(key, place_type)


def test_every_kind_fits_some_facts_and_each_fact_fits_its_kinds():
    """A walk over every place kind: the facts each may hold, and none that lists another kind."""
    from environment.build.corpus.kinds import KINDS, sub_of

    for kind in KINDS:
        fitting = [spec.key for spec in ALL_SPECS.values() if kind in spec.kinds]
        assert fitting or kind in ("other", "not_visited"), kind
    for spec in ALL_SPECS.values():
        assert set(spec.kinds) <= set(KINDS), spec.key
    assert sub_of("Food & Beverages|Coffee House") == "Coffee House"


def test_static_tags_are_worded_the_way_people_word_them(city):
    """Static facts join the visible tag, each place's in one of several wordings: a concept held by 5 or
    more places shows in at least 3 of them, so no table of exact labels finds every holder."""
    places, corpus = city
    by_id = {p.place_id: p for p in places}
    assert all(p.tag == by_id[p.place_id].tag for p in places)  # the OSM tag as read; memories carry the rest
    wordings = defaultdict(set)
    for fact in corpus.facts:
        if fact.kind == "static":
            assert fact.label in ALL_SPECS[fact.key].labels
            wordings[fact.key].add(fact.label)
            assert fact.label in corpus.memories[fact.place_id].social_tags.split("; ")
    holders = Counter(f.key for f in corpus.facts if f.kind == "static")
    common = [key for key, n in holders.items() if n >= 5]
    assert common and all(len(wordings[key]) >= 3 for key in common), {k: wordings[k] for k in common}
    labels = [label for spec in STATIC for label in spec.labels]
    assert len(labels) == len(set(labels))  # a wording names one fact


def test_text_never_quotes_a_label_or_key(city):
    _, corpus = city
    texts = _texts_by_note(corpus)
    labels = defaultdict(list)
    for fact in corpus.facts:
        labels[fact.place_id].append(fact.label.lower())
    for note in corpus.notes:
        text = texts[note.note_id]
        assert "_" not in text.replace("_official", "")  # vocabulary keys are snake_case; handles are not text
        assert "{" not in text  # no phrase left with a slot unfilled (a dated state's {dates})
        assert not any(label in text for label in labels.get(note.place_id, ()))


def test_each_place_gets_fitting_facts_of_three_kinds(city):
    places, corpus = city
    kinds = defaultdict(Counter)
    for fact in corpus.facts:
        kinds[fact.place_id][fact.kind] += 1
        spec = ALL_SPECS[fact.key]
        assert spec.kind == fact.kind
        if fact.kind == "short_term":
            assert date(2025, 1, 1) <= fact.valid_from <= fact.valid_until <= date(2027, 3, 31)
            assert str(fact.valid_until.year) in fact.label
        else:
            assert fact.label in spec.labels and fact.valid_from is None
    staffed = [p for p in places if kind_of(p.place_type) in ("cafe", "restaurant", "bar", "fashion_shop", "hotel")]
    for place in staffed:
        got = kinds[place.place_id]
        assert 1 <= got["static"] <= 3 and 1 <= got["long_term"] <= 3 and got["short_term"] <= 1
    short = [f for f in corpus.facts if f.kind == "short_term"]
    assert any(f.valid_until < date(2026, 1, 1) for f in short)  # some are already over
    assert any(f.valid_from > date(2026, 12, 13) for f in short)  # some are announced for later
    # and some hold in the week the cases are set in (2026-12-07 to 12-13), the winter terraces among them
    live = [f for f in short if f.valid_from <= date(2026, 12, 13) and date(2026, 12, 7) <= f.valid_until]
    assert len([f for f in live if f.key == "winter_terrace_heaters"]) >= 10
    # but no closure or special hours: the cases' opening hours are the posted ones
    assert not [f for f in live if f.key in ("closed_renovation", "temporary_hours", "summer_break")]


def test_places_without_a_fitting_kind_hold_no_social_fact(small_corpus, small_places):
    mystery = next(p for p in small_places if p.top_type == "Mystery Type")
    assert kind_of(mystery.place_type) == "other"
    assert not [f for f in small_corpus.facts if f.place_id == mystery.place_id]


def test_rare_facts_single_out_few_places(city):
    _, corpus = city
    holders = Counter(f.key for f in corpus.facts if f.kind == "static")
    assert sum(1 for n in holders.values() if n <= 5) >= 8
    assert max(holders.values()) >= 60


def test_vocabulary_parts_carry_evidence_and_read_as_their_stance():
    assert len(STATIC) >= 60 and len(LONG_TERM) >= 40 and len(SHORT_TERM) >= 15
    for spec in ALL_SPECS.values():
        assert re.match(r"^[a-z0-9]+(_[a-z0-9]+)+$", spec.key), spec.key
        assert spec.kinds and len(spec.phrases) >= 3 and len(spec.comments) >= 2
        for line in spec.phrases + spec.comments + spec.things + (spec.bare,) * bool(spec.bare) + spec.absent:
            assert any(w in line.lower() for w in spec.evidence), (spec.key, line)
            assert spec.label.split(":")[0] + ":" not in line
        for line in spec.gone:
            assert any(w in line.lower() for w in spec.evidence) and "{when}" in line, (spec.key, line)
            assert not NEGATION.search(line.lower()), (spec.key, line)
        assert all(NEGATION.search(line.lower()) for line in spec.absent), spec.key
    assert sum(spec.deniable for spec in ALL_SPECS.values()) >= 70


def test_all_noise_kinds_and_stances_occur(city):
    places, corpus = city
    names = {p.place_id: p.name.lower() for p in places}
    kinds = Counter(n.kind for n in corpus.notes)
    assert set(kinds) == {"about", "multi", "chatter", "duplicate", "outdated", "promo", "spam"}
    for n in corpus.notes:
        if n.kind == "chatter":
            assert n.place_id is None and n.mentioned_place_ids == ()
        else:
            assert n.mentioned_place_ids[0] == n.place_id
    about = [n for n in corpus.notes if n.kind == "about"]
    named = sum(names[n.place_id] in (n.title + " " + n.desc).lower() for n in about)
    assert 0.7 < named / len(about) < 0.95  # most, not all, name the place in full
    stances = Counter(lab.stance for lab in corpus.labels)
    assert set(stances) == set(STANCES) and min(stances.values()) >= 100
    assert stances[SUPPORTS] < 0.8 * sum(stances.values())  # a fifth or more of the talk does not count


def test_a_small_city_has_every_kind_of_noise():
    """117 places are enough for every note kind and every stance: a reader meets each kind of noise anywhere."""
    corpus = generate_corpus(_fake_places(0.08), seed=3)
    assert {n.kind for n in corpus.notes} == {"about", "multi", "chatter", "duplicate", "outdated", "promo", "spam"}
    assert {lab.stance for lab in corpus.labels} == set(STANCES)
    assert any(lab.valid_from for lab in corpus.labels)  # dated states
    assert any(lab.stance == SUPPORTS for lab in corpus.labels if lab.kind == "long_term")


def test_evidence_sentences_are_distinct_and_comments_mostly_so(city):
    """Even with place names, numbers and dates masked and filler dropped (docs/corpus.md, the corpus report)."""
    places, corpus = city
    mask = Masker(n for p in places for n in (p.name, *p.alias.split(" | ")) if n)
    evidence = [lab.text for lab in corpus.labels if lab.stance in (SUPPORTS, NEGATES, ENDED)]
    assert distinct_share(evidence) >= 0.95 and distinct_share(evidence, mask) >= 0.95
    comments = [c.content for c in corpus.comments]
    assert distinct_share(comments, mask) >= 0.3


def test_the_mask_sees_through_names_numbers_dates_and_filler():
    mask = Masker(["Café Regatta", "Kappeli"])
    assert mask("Heads up: Café Regatta has heaters from 20 to 24 December!") == mask(
        "Kappeli has heaters from 1 to 9 January, see you there."
    )
    assert Masker(["Cos"])("Cosy corner at Cos") == "cosy corner at <place>"  # a name inside a word is not one
    assert mask("They have a piano 😍") == mask("they have a piano")


def test_memories_are_the_joined_fact_labels(city):
    places, corpus = city
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


def _label(**overrides):
    label = {"comment_id": None, "place_id": "N1001", "kind": "static", "key": "corgi_cafe"}
    label.update(label="Pets: Corgi cafe", stance="supports", text="Two corgis came to our table.")
    label.update(overrides)
    return label


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
                "content": "Can confirm, the corgi is adorable",
                "like_count": 1,
            }
        ],
        "labels": [_label(), _label(comment_id="5de25964000000000100bc83", text="Can confirm, the corgi is adorable")],
    }
    row.update(overrides)
    return json.dumps(row)


def test_jsonl_import_of_a_real_style_file(small_places, tmp_path):
    path = tmp_path / "real.jsonl"
    chatter = _line(note_id="abc", place_id=None, mentioned_place_ids=[], comments=[], labels=[])
    path.write_text(_line() + "\n\n" + chatter + "\n", encoding="utf-8")
    corpus = read_corpus_jsonl(path, small_places)
    assert [n.kind for n in corpus.notes] == ["about", "chatter"]
    assert corpus.notes[0].comment_count == 1 and corpus.comments[0].time.tzinfo == UTC
    assert corpus.facts[0].note_ids == ("5de25964000000000100bc82",)  # two supports: the rule holds it
    assert corpus.memories["N1001"].social_tags == "Pets: Corgi cafe"


def test_jsonl_import_applies_the_rule_to_the_labels(small_places, tmp_path):
    path = tmp_path / "one.jsonl"
    one_voice = _line(labels=[_label()], comments=[])  # a single report: not held
    path.write_text(one_voice + "\n", encoding="utf-8")
    assert read_corpus_jsonl(path, small_places).facts == []


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
        (_line(author="aino.k"), "author"),  # no author field: the paper's notes show none
        (
            _line(comments=[{"comment_id": "c1", "time": "2025-03-02T10:00:00Z", "content": "hi"}]),
            "comments[0].like_count",
        ),
        (_line(labels=[_label(kind="rumour")]), "labels[0].kind"),
        (_line(labels=[_label(stance="likes")]), "labels[0].stance"),
        (_line(labels=[_label(place_id="N1002")]), "labels[0].place_id"),
        (_line(labels=[_label(key="Corgi Cafe")]), "labels[0].key"),
        (_line(labels=[_label(comment_id="nope")]), "labels[0].comment_id"),
        (_line(labels=[_label(stance="credits")]), "labels[0].credited_place_id"),
        (_line(note_id="5de25964000000000100bc82"), "note_id"),  # repeats line 1
    ],
)
def test_jsonl_errors_name_line_and_field(small_places, tmp_path, bad, field):
    path = tmp_path / "bad.jsonl"
    path.write_text(_line() + "\n" + bad + "\n", encoding="utf-8")
    with pytest.raises(ValueError) as err:
        read_corpus_jsonl(path, small_places)
    assert str(err.value).startswith(f"line 2: {field}"), str(err.value)
