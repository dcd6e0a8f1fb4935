"""Social-media tools: search_notes and note_detail (tables 7, 8 and 10).

search_notes matches the note's title, text, tags and comments with PostgreSQL full-text
search (english configuration) and orders by ts_rank (title weighs most, then text and
tags, then comments), then liked_count (highest first), then note_id.
"""

from __future__ import annotations

from typing import Annotated

from django.db import connection

from .context import ToolContext
from .errors import invalid, not_found
from .keywords import KeywordError, parse_keywords, to_tsquery_sql
from .spec import tool

AGENT_CAP = 20
ENGINE_CAP = 10
LIGHT_FIELDS = ("note_id", "title", "time", "liked_count", "collected_count", "comment_count")
FULL_FIELDS = (
    "note_id",
    "title",
    "desc",
    "time",
    "liked_count",
    "collected_count",
    "comment_count",
    "share_count",
    "tag_list",
)
Keyword = Annotated[str, "Search keyword; multiple keywords must be separated by 'AND'/'OR'/'NOT' logic"]


def _fmt_time(value) -> str:
    return value.strftime("%Y-%m-%d %H:%M:%S")


def _rows_to_dicts(fields, rows) -> list[dict]:
    out = []
    for row in rows:
        record = dict(zip(fields, row))
        record["time"] = _fmt_time(record["time"])
        out.append(record)
    return out


def _comments(note_pks: list[int]) -> dict[int, list[dict]]:
    if not note_pks:
        return {}
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT note_id, comment_id, time, content, like_count FROM environment_comment "
            "WHERE note_id = ANY(%s) ORDER BY note_id, time, comment_id",
            [note_pks],
        )
        grouped: dict[int, list[dict]] = {pk: [] for pk in note_pks}
        for note_pk, comment_id, time, content, likes in cursor.fetchall():
            grouped[note_pk].append(
                {"comment_id": comment_id, "time": _fmt_time(time), "content": content, "like_count": likes}
            )
    return grouped


def _search(ctx: ToolContext, keyword: str, fields, cap: int, with_comments: bool) -> dict:
    try:
        tree = parse_keywords(keyword)
    except KeywordError as exc:
        raise invalid(
            "keyword",
            f"malformed keyword logic: {exc}",
            "words joined by AND / OR / NOT with parentheses, e.g. 'corgi AND (cafe OR coffee) NOT closed'",
        ) from None
    query_sql, query_params = to_tsquery_sql(tree)
    cols = ", ".join(f'n."{f}"' for f in fields)
    # Each match is ranked as it is read, and only its rank and sort keys go on to be counted and
    # sorted: carrying the search vectors (half a kilobyte each) through the count spilled to disk.
    sql = (
        f"WITH q AS (SELECT {query_sql} AS query) "
        f"SELECT numnode(q.query), top.total, n.id, {cols} FROM ("
        "SELECT count(*) OVER () AS total, m.* FROM ("
        "SELECT n.id, ts_rank(n.search_vector, q.query) AS rank, n.liked_count, n.note_id "
        "FROM environment_note n, q WHERE n.city_id = %s AND n.search_vector @@ q.query OFFSET 0) m "
        "ORDER BY m.rank DESC, m.liked_count DESC, m.note_id LIMIT %s) top "
        "JOIN environment_note n ON n.id = top.id, q "
        "ORDER BY top.rank DESC, top.liked_count DESC, top.note_id"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [*query_params, ctx.city_id, cap])
        rows = cursor.fetchall()
        if not rows:
            cursor.execute(f"SELECT numnode({query_sql})", query_params)
            if cursor.fetchone()[0] == 0:
                raise invalid(
                    "keyword",
                    f"keyword {keyword!r} has no searchable word (only stop words or symbols)",
                    "at least one content word",
                )
    total = rows[0][1] if rows else 0
    results = _rows_to_dicts(fields, [row[3:] for row in rows])
    if with_comments:
        comments = _comments([row[2] for row in rows])
        for record, row in zip(results, rows):
            record["comments"] = comments[row[2]]
    out = {
        "keyword": keyword,
        "total_matched": total,
        "returned": len(results),
        "truncated": total > len(results),
        "results": results,
    }
    if total > len(results):
        out["note"] = f"Showing {len(results)} of {total} matching notes; use more specific keywords."
    elif total == 0:
        out["note"] = "No note matched; try other or fewer keywords."
    return out


@tool("search_notes", toolsets=("agent",))
def search_notes(ctx: ToolContext, keyword: Keyword) -> dict:
    """Search social media posts by keyword logic and return a lightweight post list (note_id, title, time, counts)."""
    return _search(ctx, keyword, LIGHT_FIELDS, AGENT_CAP, with_comments=False)


@tool("search_notes", toolsets=("engine",))
def search_notes_engine(ctx: ToolContext, keyword: Keyword) -> dict:
    """Search social media posts and return full post information with comments. Required when generated data cites social-memory evidence."""  # noqa: E501
    return _search(ctx, keyword, FULL_FIELDS, ENGINE_CAP, with_comments=True)


@tool("note_detail", toolsets=("agent",))
def note_detail(ctx: ToolContext, note_id: Annotated[str, "Post ID (from search_notes result)"]) -> dict:
    """Get full post details for one social media note, including description and comments."""
    cols = ", ".join(f'"{f}"' for f in FULL_FIELDS)
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT id, {cols} FROM environment_note WHERE city_id = %s AND note_id = %s",
            [ctx.city_id, note_id.strip()],
        )
        row = cursor.fetchone()
    if row is None:
        raise not_found("note_id", f"no note with note_id {note_id!r}; use a note_id from search_notes")
    record = _rows_to_dicts(FULL_FIELDS, [row[1:]])[0]
    record["comments"] = _comments([row[0]])[row[0]]
    return record
