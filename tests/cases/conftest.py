"""Fixtures of the cases tests: a verification that fails the case_ids a test names."""

from __future__ import annotations

import pytest

from benchmark.cases.audit import verify
from benchmark.cases.audit.verify import VerificationResult


class FakeVerification:
    """Stands in for ``verify_case`` and the freeze-time independent verifier (the checks need a full city
    and engine-written queries): fails the case_ids in ``failing``."""

    def __init__(self):
        self.failing: dict[str, list[str]] = {}
        self.calls: list[tuple[str, frozenset[str]]] = []

    def audit(self, *, cases):
        return [(c.case_id, self.failing[c.case_id]) for c in cases if c.case_id in self.failing]

    def __call__(self, doc, *, other_questions=frozenset(), replay=True):
        self.calls.append((doc.case_id, other_questions))
        failures = self.failing.get(doc.case_id, [])
        return VerificationResult(ok=not failures, failures=list(failures), checks=6)


@pytest.fixture
def verification(monkeypatch) -> FakeVerification:
    from benchmark.cases.services import releases

    fake = FakeVerification()
    monkeypatch.setattr(verify, "verify_case", fake)
    monkeypatch.setattr(releases, "release_audit", fake.audit)
    return fake
