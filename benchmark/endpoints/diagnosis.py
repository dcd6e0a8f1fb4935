"""What went wrong with a model call, in words a person understands, read from the exception's chain.

litellm wraps every failure in its own exception ("litellm.InternalServerError: InternalServerError:
OpenAIException - Connection error."), which says little: the cause is further down the chain (openai's
APIConnectionError, httpx's ConnectError, the socket's ConnectionRefusedError) or in the HTTP status the
server answered. ``plain_reason`` finds it and says it with the address and what to check, e.g.
"connection refused at 127.0.0.1:9: is the server running, and is the URL right?". The model client puts it
in front of the technical message (``LLMClient._describe``), so the connection test, the run's recorded
error and the replay's "why it failed" all read it.
"""

from __future__ import annotations

import socket
import ssl
from collections.abc import Iterator
from urllib.parse import urlsplit

MAX_CHAIN = 12


def plain_reason(exc: BaseException, *, api_base: str, provider: str = "") -> str:
    """The failure of a model call to ``api_base`` (or ``provider``'s own server) in plain words; "" if unknown."""
    where = _where(api_base, provider)
    for link in _chain(exc):
        name = type(link).__name__
        if isinstance(link, ConnectionRefusedError):
            return f"connection refused at {where}: is the server running, and is the URL right?"
        if isinstance(link, socket.gaierror):
            return f"the host of {where} was not found (DNS): is the URL right?"
        if isinstance(link, ssl.SSLError):
            return f"the TLS handshake with {where} failed: does the server speak https, with a valid certificate?"
        if name == "ConnectTimeout":
            return f"no connection to {where} in time: is the address reachable from here (a firewall, a VPN)?"
        if name in ("ReadTimeout", "APITimeoutError", "Timeout"):
            return f"{where} took the request but sent no answer in time: is the model loaded, or too slow?"
        if isinstance(link, ConnectionResetError) or name in ("RemoteProtocolError", "ReadError"):
            return f"{where} closed the connection mid-answer: is it an OpenAI-compatible server?"
    status = next((s for s in (_status(link) for link in _chain(exc)) if s), None)
    if status in (401, 403):
        return f"{where} refused the API key (HTTP {status}): check the key, and that it may use this model"
    if status == 404:
        return (
            f"{where} answered HTTP 404: the model name or the path is wrong (an OpenAI-compatible server's "
            "URL usually ends in /v1)"
        )
    if status == 429:
        return f"{where} is limiting requests (HTTP 429): lower the concurrency or the requests per minute"
    if status is not None and status >= 500 and not _connection_error(exc):
        return f"{where} failed to answer (HTTP {status}): the server's own error, see below"
    return ""


def _chain(exc: BaseException) -> Iterator[BaseException]:
    """The exception and its causes (``raise ... from``) or contexts, each once."""
    seen: set[int] = set()
    link: BaseException | None = exc
    while link is not None and id(link) not in seen and len(seen) < MAX_CHAIN:
        seen.add(id(link))
        yield link
        link = link.__cause__ or link.__context__


def _status(link: BaseException) -> int | None:
    """The HTTP status a server answered, when the exception carries one (litellm's and openai's do)."""
    response = getattr(link, "response", None)
    status = getattr(response, "status_code", None) or getattr(link, "status_code", None)
    return status if isinstance(status, int) and 100 <= status < 600 else None


def _connection_error(exc: BaseException) -> bool:
    """litellm reports a connection that never answered as HTTP 500: that is no server error."""
    return any(type(link).__name__ in ("APIConnectionError", "ConnectError") for link in _chain(exc))


def _where(api_base: str, provider: str) -> str:
    """host:port of ``api_base`` (the scheme's port when none is written), or the provider's name."""
    if not api_base:
        return f"{provider or 'the provider'}'s server"
    parts = urlsplit(api_base)
    if not parts.hostname:
        return api_base
    port = parts.port or (443 if parts.scheme == "https" else 80)
    host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    return f"{host}:{port}"
