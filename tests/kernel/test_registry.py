"""Registry: named plug-ins of one kind, unique names, readable errors, registration order."""

import pytest

from kernel.registry import NotRegistered, Registry


def test_items_come_back_by_name_and_in_registration_order():
    metrics = Registry("metric")
    metrics.add("PIoU", 1)
    metrics.add("A", 2)
    assert metrics.get("PIoU") == 1
    assert metrics.names() == ["PIoU", "A"]
    assert list(metrics) == [1, 2]
    assert "A" in metrics and "OC" not in metrics and len(metrics) == 2


def test_the_decorator_registers_the_function_and_returns_it_unchanged():
    judges = Registry("judge role")

    @judges.register("strict")
    def strict():
        return "strict"

    assert judges.get("strict") is strict and strict() == "strict"


def test_a_duplicate_name_is_rejected_naming_the_kind_and_the_name():
    tools = Registry("agent tool")
    tools.add("routing", 1)
    with pytest.raises(ValueError, match="agent tool 'routing' is already registered"):
        tools.add("routing", 2)
    with pytest.raises(ValueError, match="already registered"):
        tools.check_free("routing")
    tools.check_free("place_search")
    assert tools.get("routing") == 1


def test_an_unknown_name_lists_what_is_registered():
    metrics = Registry("metric")
    metrics.add("A", 1)
    metrics.add("SC", 2)
    with pytest.raises(NotRegistered) as raised:
        metrics.get("BLEU")
    assert str(raised.value) == "no metric 'BLEU'; registered: A, SC"
    assert isinstance(raised.value, KeyError)
    with pytest.raises(KeyError, match="registered: nothing"):
        Registry("metric").get("A")
