"""A failed model call said in plain words: connection refused, unknown host, a key refused, a wrong path.

Real sockets and the scripted OpenAI-compatible server; the message is the connection test's result and the
start of the error a run records (the technical text follows it in brackets).
"""

from __future__ import annotations

import socket

import pytest

from benchmark.endpoints.diagnosis import plain_reason
from benchmark.endpoints.probe import endpoint_probe
from tests.fakes.openai_server import FakeOpenAI, error


@pytest.fixture(autouse=True)
def private_endpoints_on(settings):
    settings.ALLOW_PRIVATE_ENDPOINTS = True  # the endpoints below listen on 127.0.0.1


def _closed_port() -> int:
    """A port on 127.0.0.1 where nothing listens (bound, then closed)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_a_closed_port_is_connection_refused_at_its_address():
    port = _closed_port()
    result = endpoint_probe(model="openai/x", api_base=f"http://127.0.0.1:{port}/v1", api_key=None, no_key=True)
    assert not result.ok
    assert result.message.startswith(
        f"connection refused at 127.0.0.1:{port}: is the server running, and is the URL right? ("
    )
    assert "gave up after 1 attempts" not in result.message  # one attempt is no giving up
    assert "Connection error" in result.message  # the technical text, after the plain words


@pytest.mark.parametrize(
    ("status", "says"),
    [
        (401, "refused the API key (HTTP 401): check the key"),
        (403, "refused the API key (HTTP 403)"),
        (404, "answered HTTP 404: the model name or the path is wrong"),
        (429, "is limiting requests (HTTP 429)"),
        (503, "failed to answer (HTTP 503)"),
    ],
)
def test_an_http_status_is_said_with_what_to_check(status, says):
    with FakeOpenAI([error(status)] * 5) as fake:
        result = endpoint_probe(model="openai/fake", api_base=fake.url, api_key="sk-x")
        host_port = fake.url.split("//")[1].split("/")[0]
    assert not result.ok and result.message.startswith(f"{host_port} {says}"), result.message


def test_the_reason_is_read_down_the_chain_and_names_the_scheme_port():
    try:
        try:
            raise ConnectionRefusedError(111, "Connect call failed")
        except ConnectionRefusedError as inner:
            raise RuntimeError("litellm.InternalServerError: Connection error.") from inner
    except RuntimeError as outer:
        wrapped = outer
    assert plain_reason(wrapped, api_base="https://llm.example.org/v1").startswith(
        "connection refused at llm.example.org:443"
    )
    assert plain_reason(wrapped, api_base="", provider="openai").startswith("connection refused at openai's server")
    assert plain_reason(RuntimeError("something else"), api_base="http://[::1]:8000/v1") == ""
    dns = socket.gaierror(-2, "Name or service not known")
    assert plain_reason(dns, api_base="http://nowhere.example:8000/v1") == (
        "the host of nowhere.example:8000 was not found (DNS): is the URL right?"
    )
