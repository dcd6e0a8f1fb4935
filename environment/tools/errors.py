"""Structured tool errors: what was wrong, with which parameter, and what is allowed."""

from __future__ import annotations

from kernel.error_kinds import ErrorKind

# The kinds the tools raise and label, under the names the tool modules import.
INVALID_PARAMETER = ErrorKind.INVALID_PARAMETER
NOT_FOUND = ErrorKind.NOT_FOUND
EMPTY_RESULT = ErrorKind.EMPTY_RESULT
TRUNCATED = ErrorKind.TRUNCATED
OTHER = ErrorKind.OTHER


class ToolError(Exception):
    """Raised by a tool; the gateway turns it into an error result the agent can read."""

    def __init__(self, kind: str, message: str, *, parameter: str | None = None, allowed: str | None = None):
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.parameter = parameter
        self.allowed = allowed

    def to_dict(self) -> dict:
        out = {"kind": self.kind, "message": self.message}
        if self.parameter:
            out["parameter"] = self.parameter
        if self.allowed:
            out["allowed"] = self.allowed
        return out


def invalid(parameter: str, message: str, allowed: str | None = None) -> ToolError:
    return ToolError(INVALID_PARAMETER, message, parameter=parameter, allowed=allowed)


def not_found(parameter: str, message: str) -> ToolError:
    return ToolError(NOT_FOUND, message, parameter=parameter)
