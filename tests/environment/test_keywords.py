import pytest

from environment.tools.keywords import KeywordError, Op, Term, parse_keywords, to_tsquery_sql


def test_adjacent_words_are_joined_by_and():
    assert parse_keywords("quiet cafe") == Op("AND", (Term("quiet"), Term("cafe")))


def test_or_binds_looser_than_and():
    tree = parse_keywords("corgi AND cafe OR dog")
    assert tree == Op("OR", (Op("AND", (Term("corgi"), Term("cafe"))), Term("dog")))


def test_parentheses_group():
    tree = parse_keywords("corgi AND (cafe OR coffee)")
    assert tree == Op("AND", (Term("corgi"), Op("OR", (Term("cafe"), Term("coffee")))))


def test_binary_not_means_and_not():
    assert parse_keywords("cafe NOT closed") == Op("AND", (Term("cafe"), Op("NOT", (Term("closed"),))))


def test_quoted_phrase_is_one_term():
    assert parse_keywords('"reading sofa" OR books') == Op("OR", (Term("reading sofa", phrase=True), Term("books")))


def test_lowercase_operators_are_words():
    assert parse_keywords("rock and roll") == Op("AND", (Term("rock"), Term("and"), Term("roll")))


def test_tsquery_sql_uses_parameters_only():
    sql, params = to_tsquery_sql(parse_keywords("a' OR (b NOT c)"))
    assert "'a'" not in sql and params == ["a'", "b", "c"]
    assert sql == (
        "(plainto_tsquery('english', %s) || (plainto_tsquery('english', %s) && (!!plainto_tsquery('english', %s))))"
    )


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("", "empty"),
        ("   ", "empty"),
        ("cafe AND", "ends after 'AND'"),
        ("OR cafe", "unexpected 'OR'"),
        ("(cafe OR tea", "missing closing parenthesis"),
        ("cafe)", "unexpected ')'"),
        ('"unclosed phrase', "unbalanced double quote"),
        ('""', "empty phrase"),
        ("NOT", "ends after 'NOT'"),
        (" ".join(["w"] * 40), "too many terms"),
    ],
)
def test_malformed_keyword_logic_is_rejected_with_a_reason(text, fragment):
    with pytest.raises(KeywordError, match=fragment.replace("(", r"\(").replace(")", r"\)")):
        parse_keywords(text)
