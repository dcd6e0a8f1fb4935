"""JSONL export and import of case documents: one canonical JSON document per line, lossless."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pydantic
from django.db import transaction

from benchmark.cases.models import Case, Release

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


@dataclass(frozen=True)
class ExportResult:
    written: int
    withheld: list[str]  # case_ids left out: they are in a hidden release and in no public one
    holds_hidden_answers: bool  # the file holds answers that only curators may see


class HiddenAnswersRefused(ValueError):
    """An export would write the answers of a hidden release without ``include_hidden``."""


def cases_export(*, path: str | Path, release: Release | None = None, include_hidden: bool = False) -> ExportResult:
    """Write cases to ``path`` as JSONL.

    A hidden release keeps its answers for curators, so its cases are written only with
    ``include_hidden`` (a file for curators): exporting a hidden release without it is refused,
    and an export of every case leaves out those in a hidden release and in no public one.

    Args:
        path: the file to write (UTF-8, one document per line, "\\n" line ends).
        release: export the release's frozen snapshots (in position order) instead of
            every case (ordered by case_id).
        include_hidden: write the answers of hidden releases too.

    Raises:
        HiddenAnswersRefused: ``release`` is hidden and ``include_hidden`` is false (nothing is written).
    """
    withheld: list[str] = []
    if release is not None:
        if release.split == Release.HIDDEN and not include_hidden:
            raise HiddenAnswersRefused(
                f"release {release.name} is hidden: its snapshots hold the answers curators "
                "keep; pass --include-hidden (include_hidden=True) to write them to a file "
                "for curators"
            )
        lines = [canonical_json(e.snapshot) for e in release.entries.order_by("position")]
        holds_hidden = release.split == Release.HIDDEN
    else:
        hidden_only = set(
            Case.objects.filter(releases__split=Release.HIDDEN)
            .exclude(releases__split=Release.PUBLIC)
            .values_list("case_id", flat=True)
        )
        cases = Case.objects.order_by("case_id")
        if not include_hidden:
            withheld = sorted(hidden_only)
            cases = cases.exclude(case_id__in=withheld)
        lines = [case_document(c).to_json() for c in cases]
        holds_hidden = include_hidden and bool(hidden_only)
    with open(path, "w", encoding="utf-8", newline="\n") as out:
        out.writelines(line + "\n" for line in lines)
    return ExportResult(written=len(lines), withheld=withheld, holds_hidden_answers=holds_hidden)


def cases_import(
    *, path: str | Path, release_name: str | None = None, split: str = Release.PUBLIC, actor=None
) -> ImportResult:
    """Create or update cases from a JSONL file; optionally freeze them as a release.

    The whole file is checked before anything is written, and the import is one
    transaction. With ``release_name`` the release's snapshots are the imported documents
    themselves, so exporting the release gives back the same bytes.

    Raises:
        CaseImportError: a line is not JSON, not a valid case document, or repeats a case_id.
        ValidationError: the imported cases cannot be frozen as the named release.
    """
    documents = documents_read(path=path)
    created: list[str] = []
    updated: list[str] = []
    unchanged: list[str] = []
    cases: list[Case] = []
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
    documents: list[CaseDocument] = []
    seen: dict[str, int] = {}  # case_id -> line number
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
    return release_store(name=name, split=split, entries=[(c, snapshot_of[c.case_id]) for c in ordered], actor=actor)
