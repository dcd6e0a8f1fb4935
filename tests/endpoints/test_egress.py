"""The egress policy of submitted endpoints, against local listeners that record whether they were contacted.

Every refused case asserts the listener it would have reached was never contacted; the key cases
run with canary keys in the worker's environment and assert the canaries never leave.
"""

from __future__ import annotations

import asyncio
import json
import socket
import threading
from types import SimpleNamespace

import pytest
from django.core.exceptions import ValidationError

from benchmark.endpoints.egress import ApiBaseNotAllowed, assert_api_base_allowed, check_api_base
from benchmark.endpoints.llm import EndpointSpec, LLMClient, ModelError, RetryPolicy
from benchmark.endpoints.models import ModelEndpoint
from benchmark.endpoints.providers import ALLOWED_PARAMS, NO_KEY, PROVIDERS, endpoint_route
from benchmark.endpoints.services import endpoint_create, endpoint_for_cli, endpoint_update
from tests.fakes.openai_server import FakeOpenAI, error, reply

KEY = "sk-user-key-0123456789abcdef"
CANARY = "canary-operator-key-7f3a9c"
MESSAGES = [{"role": "user", "content": "Where is Museo Kivi?"}]
REAL_GETADDRINFO = socket.getaddrinfo


class Listener:
    """A TCP listener on 127.0.0.1 that counts connections and answers each with ``response`` (raw HTTP)."""

    def __init__(self, response: bytes = b"", port: int = 0):
        self.contacted = 0
        self.response = response
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", port))
        self.sock.listen(16)
        self.port = self.sock.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.contacted += 1
            with conn:
                conn.settimeout(2)
                try:
                    conn.recv(65536)
                    if self.response:
                        conn.sendall(self.response)
                except OSError:
                    pass

    def close(self) -> None:
        self.sock.close()


@pytest.fixture
def listener():
    opened: list[Listener] = []

    def make(response: bytes = b"", port: int = 0) -> Listener:
        opened.append(Listener(response, port))
        return opened[-1]

    yield make
    for each in opened:
        each.close()


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch, settings):
    """No proxies, canary keys where litellm and the OpenAI SDK look for them, private endpoints off."""
    for name in (
        "HTTP_PROXY",
        "HTTPS_PROXY",
        "ALL_PROXY",
        "NO_PROXY",
        "http_proxy",
        "https_proxy",
        "all_proxy",
        "no_proxy",
        "OPENAI_BASE_URL",
        "OPENAI_API_BASE",
        "ANTHROPIC_API_BASE",
        "ANTHROPIC_BASE_URL",
    ):
        monkeypatch.delenv(name, raising=False)
    for name in (
        "OPENAI_API_KEY",
        "ANTHROPIC_API_KEY",
        "HOSTED_VLLM_API_KEY",
        "OPENAI_ADMIN_KEY",
        "ANTHROPIC_AUTH_TOKEN",
        "TOGETHERAI_API_KEY",
        "MISTRAL_API_KEY",
    ):
        monkeypatch.setenv(name, CANARY)
    settings.ALLOW_PRIVATE_ENDPOINTS = False
    settings.FIELD_ENCRYPTION_KEY = "egress test passphrase"


def fake_dns(monkeypatch, answers: dict[str, list[str]]) -> None:
    """Hosts in ``answers`` resolve to those addresses; every other host as usual."""

    def getaddrinfo(host, port, *args, **kwargs):
        if host not in answers:
            return REAL_GETADDRINFO(host, port, *args, **kwargs)
        return [
            (socket.AF_INET6 if ":" in a else socket.AF_INET, socket.SOCK_STREAM, 6, "", (a, port))
            for a in answers[host]
        ]

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)


def ask(model: str, api_base: str, api_key: str | None = KEY, params: dict | None = None) -> dict:
    """One model call through the model client (two attempts, a short timeout), closed afterwards."""
    client = LLMClient(
        EndpointSpec(endpoint_id=None, model=model, api_base=api_base, api_key=api_key, params=params or {}),
        retry=RetryPolicy(max_attempts=2, base_s=0.001, cap_s=0.01),
        timeout_s=5,
    )

    async def go():
        try:
            return await client.complete(MESSAGES)
        finally:
            await client.aclose()

    return asyncio.run(go())


def make(**changes) -> ModelEndpoint:
    fields = {
        "name": "egress-model",
        "model": "openai/gpt-4o-mini",
        "api_base": "http://93.184.216.34/v1",
        "api_key": KEY,
    } | changes
    return endpoint_create(**fields)


def anthropic_reply(_body: dict) -> dict:
    return {
        "status": 200,
        "delay_s": 0.0,
        "body": {
            "id": "msg_1",
            "type": "message",
            "role": "assistant",
            "model": "claude-x",
            "stop_reason": "end_turn",
            "content": [{"type": "text", "text": "hello"}],
            "usage": {"input_tokens": 3, "output_tokens": 1},
        },
    }


# --- keys: never the worker's own --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "model, script",
    [("openai/x", reply("hello")), ("hosted_vllm/x", reply("hello")), ("anthropic/claude-x", anthropic_reply)],
)
def test_a_keyless_endpoint_never_sends_the_workers_own_key(settings, model, script):
    settings.ALLOW_PRIVATE_ENDPOINTS = True
    with FakeOpenAI([script]) as fake:
        ask(model, fake.url, api_key=None)
    sent = json.dumps(fake.headers)
    assert len(fake.requests) == 1
    assert CANARY not in sent
    credentials = [h.get("authorization") or h.get("x-api-key") for h in fake.headers]
    assert credentials in (["Bearer " + NO_KEY], [NO_KEY])


def test_the_endpoints_key_is_sent_and_the_environments_headers_are_not(settings, monkeypatch):
    settings.ALLOW_PRIVATE_ENDPOINTS = True
    monkeypatch.setenv("OPENAI_ORG_ID", "org-" + CANARY)
    monkeypatch.setenv("OPENAI_PROJECT_ID", "proj-" + CANARY)
    monkeypatch.setenv("OPENAI_CUSTOM_HEADERS", f"X-Operator-Token: {CANARY}\nAuthorization: Bearer {CANARY}")
    with FakeOpenAI([reply("hello")]) as fake:
        ask("openai/x", fake.url)
    assert fake.headers[0]["authorization"] == f"Bearer {KEY}"
    assert CANARY not in json.dumps(fake.headers)


@pytest.mark.django_db
def test_an_empty_key_is_refused_unless_the_user_says_the_server_takes_none(settings):
    settings.ALLOW_PRIVATE_ENDPOINTS = True
    for empty in ("", None):
        with pytest.raises(ValidationError) as caught:
            make(api_base="http://127.0.0.1:9/v1", api_key=empty)
        assert "the API key is empty" in caught.value.message_dict["api_key"][0]
        assert "no_key" in caught.value.message_dict["api_key"][0]
    endpoint = make(api_base="http://127.0.0.1:9/v1", api_key="", no_key=True)
    assert endpoint.api_key_encrypted == ""
    endpoint_update(endpoint=endpoint, concurrency=2)  # already keyless: no need to say it again
    with pytest.raises(ValidationError, match="no_key is set but an API key was given"):
        make(name="both", api_base="http://127.0.0.1:9/v1", api_key=KEY, no_key=True)


@pytest.mark.django_db
def test_a_keyless_endpoint_at_a_providers_own_service_is_refused_when_saved_and_when_called():
    with pytest.raises(ValidationError) as caught:
        make(model="gpt-4o-mini", api_base="", api_key="", no_key=True)
    assert (
        "an API key is required: openai's own service (https://api.openai.com/v1)"
        in (caught.value.message_dict["api_key"][0])
    )
    with pytest.raises(ModelError, match="an API key is required"):
        ask("openai/gpt-4o-mini", "", api_key=None)


@pytest.mark.django_db
def test_the_command_line_without_a_key_is_a_keyless_server_so_it_needs_an_api_base(settings):
    settings.ALLOW_PRIVATE_ENDPOINTS = True
    with pytest.raises(ValidationError, match="an API key is required"):
        endpoint_for_cli(model="gpt-4o-mini", api_base="", api_key=None)
    assert endpoint_for_cli(model="hosted_vllm/qwen", api_base="http://127.0.0.1:9/v1", api_key=None).pk


# --- the URL actually contacted -----------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize(
    "model, port",
    [
        ("ollama/llama3", 11434),
        ("ollama_chat/llama3", 11434),
        ("llamafile/x", 8080),
        ("lm_studio/x", 1234),
        ("xinference/x", 9997),
        ("vllm/x", None),
    ],
)
def test_a_provider_whose_default_url_is_the_worker_is_refused_without_an_api_base(settings, listener, model, port):
    settings.ALLOW_PRIVATE_ENDPOINTS = True  # even so: the worker's own ports are not an endpoint
    with pytest.raises(ValidationError) as caught:
        make(model=model, api_base="")
    message = " ".join(m for ms in caught.value.message_dict.values() for m in ms)
    assert "is the evaluation worker itself" in message
    try:
        default = listener(port=port) if port else None
    except OSError:
        default = None  # the port is taken here: the refusal is still checked, not the silence
    with pytest.raises(ModelError, match="refused"):
        ask(model, "")
    assert default is None or default.contacted == 0


@pytest.mark.django_db
def test_a_local_provider_with_an_allowed_api_base_is_accepted(settings):
    settings.ALLOW_PRIVATE_ENDPOINTS = True
    with FakeOpenAI([reply("hello")]) as fake:
        make(model="llamafile/x", api_base=fake.url)
        assert ask("llamafile/x", fake.url)["choices"][0]["message"]["content"] == "hello"


@pytest.mark.parametrize("provider", sorted(set(PROVIDERS) - {"anthropic"}))
def test_every_allowed_provider_sends_through_the_endpoints_own_checked_client(settings, provider):
    """The model client refuses an answer that did not come through its egress transport, so this
    fails for a provider whose litellm request path ignores the client it is given."""
    settings.ALLOW_PRIVATE_ENDPOINTS = True
    with FakeOpenAI([reply("hello")]) as fake:
        response = ask(f"{provider}/some-model", fake.url)
    assert response["choices"][0]["message"]["content"] == "hello" and len(fake.requests) == 1
    assert CANARY not in json.dumps(fake.headers)


def test_anthropic_sends_through_the_endpoints_own_checked_client(settings):
    settings.ALLOW_PRIVATE_ENDPOINTS = True
    with FakeOpenAI([anthropic_reply]) as fake:
        response = ask("anthropic/claude-x", fake.url.removesuffix("/v1"))
    assert response["choices"][0]["message"]["content"] == "hello"
    assert fake.paths == ["/v1/messages"] and fake.headers[0]["x-api-key"] == KEY


class ClosingServer:
    """Answers one chat completion per connection, kept alive by its headers, then closes the connection:
    a client must notice the close before reusing the connection."""

    def __init__(self):
        self.connections = 0
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}/v1"
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        body = json.dumps(reply("hello")["body"]).encode()
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.connections += 1
            with conn:
                received = b""
                while b"\r\n\r\n" not in received:
                    received += conn.recv(65536)
                head, _, rest = received.partition(b"\r\n\r\n")
                length = int(
                    next(
                        line.split(b":")[1]
                        for line in head.split(b"\r\n")
                        if line.lower().startswith(b"content-length")
                    )
                )
                while len(rest) < length:
                    rest += conn.recv(65536)
                conn.sendall(
                    b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: keep-alive\r\n"
                    + f"Content-Length: {len(body)}\r\n\r\n".encode()
                    + body
                )


@pytest.mark.parametrize("model", ["openai/x", "hosted_vllm/x"])
def test_a_kept_alive_connection_the_server_closed_is_not_reused(settings, model):
    """The client checks an idle connection before reusing it (its socket known to the stream, not looked up
    through anyio on every request): the second call opens a new connection and gets its answer."""
    settings.ALLOW_PRIVATE_ENDPOINTS = True
    server = ClosingServer()
    spec = EndpointSpec(endpoint_id=None, model=model, api_base=server.url, api_key=KEY)
    client = LLMClient(spec, retry=RetryPolicy(max_attempts=1), timeout_s=5)  # no retry to hide a dead connection

    async def twice():
        try:
            first = await client.complete(MESSAGES)
            await asyncio.sleep(0.2)  # the server has closed the first connection by now
            return first, await client.complete(MESSAGES)
        finally:
            await client.aclose()

    answers = asyncio.run(twice())
    server.sock.close()
    assert [a["choices"][0]["message"]["content"] for a in answers] == ["hello", "hello"]
    assert server.connections == 2


@pytest.mark.django_db
def test_an_unsupported_provider_is_refused_with_the_alternatives():
    with pytest.raises(ValidationError) as caught:
        make(model="bedrock/anthropic.claude-v2", api_base="")
    message = caught.value.message_dict["model"][0]
    assert "provider 'bedrock' cannot be used for an endpoint here" in message
    assert "openai, openrouter" in message and "use openai/<model> with their api_base" in message


# --- redirects ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("model", ["openai/x", "hosted_vllm/x"])
def test_a_redirect_is_refused_not_followed(settings, listener, model):
    settings.ALLOW_PRIVATE_ENDPOINTS = True  # both listeners are local: the redirect alone must stop it
    target = listener()
    redirect = (
        f"HTTP/1.1 307 Temporary Redirect\r\nLocation: {target.url}/v1/chat/completions\r\n"
        "Content-Length: 0\r\nConnection: close\r\n\r\n"
    ).encode()
    redirector = listener(redirect)
    with pytest.raises(ModelError) as caught:
        ask(model, f"{redirector.url}/v1")
    assert target.contacted == 0
    assert "answered 307 redirecting to" in str(caught.value) and "never followed" in str(caught.value)
    assert redirector.contacted == 1  # a refusal is not retried


# --- params ------------------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_params_that_route_elsewhere_are_refused_naming_them_and_what_is_allowed():
    routing = {
        "fallbacks": [{"model": "openai/x", "api_base": "http://10.0.0.1/v1"}],
        "model_list": [{"model_name": "x", "litellm_params": {"api_key": "k"}}],
        "api_base": "http://10.0.0.1/v1",
        "temperature": 0.1,
    }
    with pytest.raises(ValidationError) as caught:
        make(params=routing)
    message = caught.value.message_dict["params"][0]
    assert message.startswith("params may not set api_base, fallbacks, model_list: the allowed params are ")
    assert all(name in message for name in ALLOWED_PARAMS)


@pytest.mark.parametrize(
    "params",
    [
        {"fallbacks": [{"model": "openai/other", "api_base": "OTHER"}]},
        {"base_url": "OTHER"},
        {"extra_headers": {"Authorization": "Bearer OTHER"}},
    ],
)
def test_params_that_route_elsewhere_are_refused_by_the_client_too(settings, listener, params):
    settings.ALLOW_PRIVATE_ENDPOINTS = True
    other = listener()
    params = json.loads(json.dumps(params).replace("OTHER", f"{other.url}/v1"))
    with FakeOpenAI([error(500)]) as fake, pytest.raises(ModelError) as caught:
        ask("openai/x", fake.url, params=params)
    assert other.contacted == 0 and len(fake.requests) == 0
    assert "refused: params may not set" in str(caught.value)


@pytest.mark.django_db
def test_a_stored_endpoint_from_before_the_checks_is_refused_at_run_time():
    with pytest.raises(ApiBaseNotAllowed, match="params may not set fallbacks"):
        endpoint_route(
            model="openai/x",
            api_base="https://models.example.org/v1",
            api_key=KEY,
            params={"fallbacks": ["openai/y"]},
            resolve=False,
        )
    with pytest.raises(ApiBaseNotAllowed, match="an API key is required"):
        endpoint_route(model="gpt-4o-mini", api_base="", api_key=None, resolve=False)
    route = endpoint_route(model="gpt-4o-mini", api_base="", api_key=KEY, resolve=False)
    assert (route.provider.name, route.api_base) == ("openai", "https://api.openai.com/v1")


# --- addresses: metadata always, rebinding at connect, proxies -----------------------------------------------


@pytest.mark.parametrize(
    "url, expected",
    [
        ("http://169.254.169.254/latest/meta-data/", "is a link-local address (the cloud metadata service)"),
        ("http://[fd00:ec2::254]/", "is the address of a cloud metadata service"),
        ("http://100.100.100.200/latest/meta-data/", "is the address of a cloud metadata service"),
        ("http://169.254.10.1:8000/v1", "is a link-local address"),
        ("http://[fe80::1]/v1", "is a link-local address"),
        ("http://[::ffff:169.254.169.254]/", "(IPv4 169.254.169.254 embedded in IPv6)"),
    ],
)
def test_metadata_and_link_local_addresses_are_refused_even_with_private_endpoints_on(settings, url, expected):
    settings.ALLOW_PRIVATE_ENDPOINTS = True
    with pytest.raises(ValidationError) as caught:
        check_api_base(url)
    message = caught.value.message_dict["api_base"][0]
    assert expected in message and "refused even with ALLOW_PRIVATE_ENDPOINTS" in message
    with pytest.raises(ApiBaseNotAllowed):
        assert_api_base_allowed(url)


def test_a_host_resolving_to_the_metadata_service_is_refused_at_connect(settings, monkeypatch, listener):
    settings.ALLOW_PRIVATE_ENDPOINTS = True
    local = listener()
    fake_dns(monkeypatch, {"metadata.test": ["169.254.169.254", "127.0.0.1"]})
    with pytest.raises(ModelError) as caught:
        ask("openai/x", f"http://metadata.test:{local.port}/v1")
    assert local.contacted == 0
    assert "metadata.test resolves to 169.254.169.254, a link-local address (the cloud metadata service)" in str(
        caught.value
    )


@pytest.mark.django_db
def test_dns_rebinding_after_the_checks_is_caught_when_the_client_connects(monkeypatch, listener):
    local = listener()
    url = f"http://models.test:{local.port}/v1"
    fake_dns(monkeypatch, {"models.test": ["93.184.216.34"]})
    make(api_base=url)
    assert_api_base_allowed(url)  # the check before the run: a public address
    fake_dns(monkeypatch, {"models.test": ["127.0.0.1"]})  # the answer flips before the connection
    with pytest.raises(ModelError) as caught:
        ask("openai/x", url)
    assert local.contacted == 0
    assert "models.test resolves to 127.0.0.1, a loopback address" in str(caught.value)


def test_a_configured_proxy_is_used_and_a_refused_target_never_reaches_it(settings, monkeypatch):
    with FakeOpenAI([reply("via the proxy")]) as proxy:
        monkeypatch.setenv("HTTP_PROXY", proxy.url.removesuffix("/v1"))
        fake_dns(monkeypatch, {"metadata.test": ["169.254.169.254"]})
        with pytest.raises(ModelError) as caught:
            ask("openai/x", "http://metadata.test/v1")
        assert proxy.requests == []
        assert "cloud metadata service" in str(caught.value)
        response = ask("openai/x", "http://93.184.216.34/v1")
    assert response["choices"][0]["message"]["content"] == "via the proxy"
    assert proxy.paths == ["http://93.184.216.34/v1/chat/completions"]


def test_behind_a_proxy_a_host_the_worker_cannot_resolve_is_left_to_the_proxy(monkeypatch):
    """Behind the deployment's egress proxy the worker may have no DNS for outside names: the proxy,
    which resolves them, refuses internal addresses itself (docs/operations.md, "Egress")."""
    with FakeOpenAI([reply("via the proxy")]) as proxy:
        monkeypatch.setenv("HTTP_PROXY", proxy.url.removesuffix("/v1"))
        fake_dns(monkeypatch, {})  # every outside name fails to resolve
        monkeypatch.setattr(
            socket,
            "getaddrinfo",
            lambda host, *a, **k: (
                (_ for _ in ()).throw(socket.gaierror(socket.EAI_NONAME, "Name or service not known"))
                if host == "models.test"
                else REAL_GETADDRINFO(host, *a, **k)
            ),
        )
        assert_api_base_allowed("http://models.test/v1")
        response = ask("openai/x", "http://models.test/v1")
        monkeypatch.delenv("HTTP_PROXY")
        with pytest.raises(ApiBaseNotAllowed, match="does not resolve"):
            assert_api_base_allowed("http://models.test/v1")
    assert response["choices"][0]["message"]["content"] == "via the proxy"
    assert proxy.paths == ["http://models.test/v1/chat/completions"]


# --- the run-time path of a stored endpoint ------------------------------------------------------------------


def factory_client(endpoint: ModelEndpoint):
    from benchmark.agents.catalog import RunConfig
    from benchmark.runs.llm_factory import llm_client

    trajectory = SimpleNamespace(run=SimpleNamespace(replay_of_id=None, endpoint=endpoint))
    return llm_client(trajectory=trajectory, config=RunConfig(), calls=[])


@pytest.mark.django_db
def test_a_stored_keyless_endpoint_runs_with_the_placeholder_not_the_workers_key(settings):
    settings.ALLOW_PRIVATE_ENDPOINTS = True
    with FakeOpenAI([reply("hello")]) as fake:
        stored = ModelEndpoint.objects.create(name="saved before the checks", model="openai/x", api_base=fake.url)
        client = factory_client(stored)

        async def go():
            try:
                return await client.complete(MESSAGES)
            finally:
                await client.aclose()

        asyncio.run(go())
    assert fake.headers[0]["authorization"] == f"Bearer {NO_KEY}" and CANARY not in json.dumps(fake.headers)


@pytest.mark.django_db
@pytest.mark.parametrize(
    "fields, expected",
    [
        ({"model": "gpt-4o-mini", "api_base": ""}, "an API key is required"),
        ({"model": "ollama/llama3", "api_base": ""}, "provider 'ollama' cannot be used"),
        (
            {"model": "openai/x", "api_base": "http://93.184.216.34/v1", "params": {"model_list": []}},
            "params may not set model_list",
        ),
    ],
)
def test_a_stored_endpoint_the_checks_refuse_does_not_get_a_client(fields, expected):
    stored = ModelEndpoint.objects.create(name="saved before the checks", **fields)
    with pytest.raises(ValueError, match=expected):  # ApiBaseNotAllowed, or the run-wide MissingApiKey
        factory_client(stored)


# --- the allow-list of private endpoint addresses (PRIVATE_ENDPOINT_ADDRESSES) --------------------------------


@pytest.mark.django_db
def test_a_listed_private_address_is_reached_on_its_own_port_only(settings):
    with FakeOpenAI([reply("hello from the local server")]) as fake:
        port = int(fake.url.rsplit(":", 1)[1].split("/")[0])
        settings.PRIVATE_ENDPOINT_ADDRESSES = [f"127.0.0.1:{port}"]
        assert make(api_base=fake.url).api_base == fake.url  # saved
        answer = ask("openai/local", fake.url)  # and reached, with ALLOW_PRIVATE_ENDPOINTS off
        assert answer["choices"][0]["message"]["content"] == "hello from the local server"
        other = f"http://127.0.0.1:{port + 1}/v1"
        with pytest.raises(ValidationError, match="not on the allow-list PRIVATE_ENDPOINT_ADDRESSES"):
            make(name="other port", api_base=other)
        with pytest.raises(ModelError, match="refused"):
            ask("openai/local", other)


@pytest.mark.parametrize(
    "entry, problem",
    [
        ("localhost:8091", "is not an IP address and port"),
        ("127.0.0.1", "is not an IP address and port"),
        ("127.0.0.1:99999", "is not an IP address and port"),
        ("169.254.169.254:80", "never allowed"),
        ("[fe80::1]:8091", "never allowed"),
    ],
)
def test_an_allow_list_entry_that_is_not_an_address_and_port_or_is_always_refused_is_a_configuration_error(
    settings, entry, problem
):
    from django.core.exceptions import ImproperlyConfigured

    settings.PRIVATE_ENDPOINT_ADDRESSES = [entry]
    with pytest.raises(ImproperlyConfigured, match=problem):
        check_api_base("http://127.0.0.1:8091/v1")


@pytest.mark.parametrize(
    "url, kind",
    [
        ("http://[fe80::1%25lo]/v1", "link-local"),
        ("http://[::ffff:169.254.169.254%25x]/", "metadata"),
        ("http://[fe80::1%25eth0]:8080/v1", "link-local"),
    ],
)
def test_an_ip_literal_with_a_zone_id_is_judged_as_its_address_when_saved_and_when_called(settings, url, kind):
    settings.ALLOW_PRIVATE_ENDPOINTS = True  # even so: link-local and metadata addresses are always refused
    with pytest.raises(ValidationError, match=kind):
        check_api_base(url)
    with pytest.raises(ModelError, match="refused"):
        ask("openai/x", url)
