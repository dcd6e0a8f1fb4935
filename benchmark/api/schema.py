"""The OpenAPI schema's error answers: every operation documents the 4xx it can give (a drf-spectacular hook).

Views declare the answers particular to them (a 409 of a delete, a 429 of the submission limit); this adds,
where a view did not say otherwise, the ones every operation of a kind shares:

- 400 where the operation takes query parameters or a body: field or parameter -> list of problems;
- 404 where its path names an object (or, for any path, a route that does not exist);
- 429 on every operation: the API's request budget (THROTTLE_API_ANON / THROTTLE_API_USER), see Retry-After.
"""

from __future__ import annotations

DETAIL = {"type": "object", "properties": {"detail": {"type": "string"}}, "required": ["detail"]}
PROBLEMS = {
    "type": "object",
    "description": "Each parameter or field that was not allowed -> what was wrong and what is allowed",
    "additionalProperties": {},
}


def _answer(description: str, schema: dict) -> dict:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def documented_errors(result, generator, request, public):
    """Add the shared error answers to each operation that does not declare them."""
    for item in result.get("paths", {}).values():
        for method, operation in item.items():
            if method not in ("get", "post", "put", "patch", "delete"):
                continue
            responses = operation.setdefault("responses", {})
            parameters = operation.get("parameters", [])
            if "400" not in responses and (
                "requestBody" in operation or any(p.get("in") == "query" for p in parameters)
            ):
                responses["400"] = _answer("A query parameter or field is not allowed (each named)", PROBLEMS)
            if "404" not in responses and any(p.get("in") == "path" for p in parameters):
                responses["404"] = _answer("No such object, or not one you may see", DETAIL)
            if "429" not in responses:
                responses["429"] = _answer(
                    "Too many requests from you; the Retry-After header says when to retry", DETAIL
                )
    return result
