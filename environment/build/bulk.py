"""Writing many rows at once: PostgreSQL's COPY, through the connection Django holds."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from django.db import connection


def copy_rows(table: str, columns: Sequence[str], rows: Iterable[Sequence]) -> None:
    """COPY ``rows`` (values in the order of ``columns``, adapted by psycopg) into ``table``."""
    quote = connection.ops.quote_name
    names = ", ".join(quote(column) for column in columns)
    with connection.cursor() as cursor, cursor.cursor.copy(f"COPY {quote(table)} ({names}) FROM STDIN") as copy:
        for row in rows:
            copy.write_row(row)
