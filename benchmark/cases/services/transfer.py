"""JSONL export and import of case documents: one canonical JSON document per line, lossless."""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pydantic
from django.db import transaction

from benchmark.models import Case, Release

from ..document import CaseDocument, canonical_json
from ..selectors import case_document
from .cases import case_apply, case_create
from .releases import release_check, release_store


class CaseImportError(ValueError):
    """A line of an import file is not a valid case document; the message names line and field."""


@dataclass(frozen=True)
class ImportResult:
    created: list[str]
    updated: list[str]
    unchanged: list[str]
    release: Release | None


def cases_export(*, path: str | Path, release: Release | None = None) -> int:
    """Write cases to ``path`` as JSONL and return how many lines were written.

    Args:
        path: the file to write (UTF-8, one document per line, "\\n" line ends).
        release: export the release's frozen snapshots (in position order) instead of
            every case (ordered by case_id).
    """
    if release is not None:
        lines = [canonical_json(e.snapshot) for e in release.entries.order_by("position")]
    else:
        lines = [case_document(c).to_json() for c in Case.objects.order_by("case_id")]
    with open(path, "w", encoding="utf-8", newline="\n") as out:
        out.writelines(line + "\n" for line in lines)
    return len(lines)


def cases_import(*, path: str | Path, release_name: str | None = None, split: str = Release.PUBLIC,
                 actor=None) -> ImportResult:
    """Create or update cases from a JSONL file; optionally freeze them as a release.

    The whole file is checked before anything is written, and the import is one
    transaction. With ``release_name`` the release's snapshots are the imported documents
    themselves, so exporting the release gives back the same bytes.

    Raises:
        CaseImportError: a line is not JSON, not a valid case document, or repeats a case_id.
        ValidationError: the imported cases cannot be frozen as the named release.
    """
    documents = documents_read(path=path)
    created, updated, unchanged, cases = [], [], [], []
    with transaction.atomic():
        for doc in documents:
            case = Case.objects.filter(case_id=doc.case_id).first()
            if case is None:
                cases.append(case_create(document=doc, actor=actor, action="imported"))
                created.append(doc.case_id)
                continue
            before = case_document(case)
            cases.append(case_apply(case=case, values=doc.model_dump(mode="json"), actor=actor, action="imported"))
            (unchanged if before == doc else updated).append(doc.case_id)
        release = _freeze_imported(release_name, split, cases, documents, actor) if release_name else None
    return ImportResult(created=created, updated=updated, unchanged=unchanged, release=release)


def documents_read(*, path: str | Path) -> list[CaseDocument]:
    """Parse and validate every line of a JSONL file (blank lines are skipped).

    Raises:
        CaseImportError: naming the line number and, for an invalid document, the field.
    """
    documents, seen = [], {}
    with open(path, encoding="utf-8") as lines:
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            doc = _parse_line(number, line)
            if doc.case_id in seen:
                raise CaseImportError(f"line {number}: case_id {doc.case_id!r} already on line {seen[doc.case_id]}")
            seen[doc.case_id] = number
            documents.append(doc)
    return documents


def _parse_line(number: int, line: str) -> CaseDocument:
    try:
        data = json.loads(line)
    except json.JSONDecodeError as exc:
        raise CaseImportError(f"line {number}: not valid JSON: {exc.msg} at column {exc.colno}") from None
    try:
        return CaseDocument.model_validate(data)
    except pydantic.ValidationError as exc:
        problems = "; ".join(
            f"field {'.'.join(map(str, e['loc'])) or '(document)'}: {e['msg']}" for e in exc.errors(include_url=False)
        )
        raise CaseImportError(f"line {number}: {problems}") from None


def _freeze_imported(name: str, split: str, cases: list[Case], documents: list[CaseDocument], actor) -> Release:
    ordered = release_check(name=name, split=split, cases=cases)
    snapshot_of = {d.case_id: d.model_dump(mode="json") for d in documents}
    return release_store(name=name, split=split, entries=[(c, snapshot_of[c.case_id]) for c in ordered],
                         actor=actor)
