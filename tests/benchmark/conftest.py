"""Fixtures for the benchmark tests."""
from __future__ import annotations

import pytest

from benchmark.cases import verify
from benchmark.cases.verify import VerificationResult


class FakeVerification:
    """Stands in for ``verify_case`` (the checks need a full city): fails the case_ids in ``failing``."""

    def __init__(self):
        self.failing: dict[str, list[str]] = {}
        self.calls: list[tuple[str, frozenset[str]]] = []

    def __call__(self, doc, *, other_questions=frozenset()):
        self.calls.append((doc.case_id, other_questions))
        failures = self.failing.get(doc.case_id, [])
        return VerificationResult(ok=not failures, failures=list(failures), checks=6)


@pytest.fixture
def verification(monkeypatch) -> FakeVerification:
    fake = FakeVerification()
    monkeypatch.setattr(verify, "verify_case", fake)
    return fake
