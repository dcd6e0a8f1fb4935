"""The HTTP client of a submitted endpoint: the egress policy applied where the connection is made.

``endpoint_client(route)`` builds what litellm takes as ``client=`` for the route's provider (an
``openai.AsyncOpenAI``, or litellm's ``AsyncHTTPHandler``) on one ``EgressTransport``, which sees
every request litellm sends for the endpoint, whatever URL litellm built:

- each connection's host is resolved once, every address is checked (``egress.resolve_allowed``)
  and the socket is opened to a checked address: DNS rebinding cannot swap it after the check;
- redirects are refused, never followed: a 3xx answer ends the request with an error;
- only the headers a model request needs are sent (others, such as an OpenAI-Organization the
  SDK read from the worker's environment, are dropped), and a credential header must carry the
  endpoint's own key, or the request is refused;
- an answer's body is read up to ``max_response_bytes`` (``MAX_RESPONSE_BYTES`` unless the client was
  made with less, as a connection test is): past it the request is refused, not retried;
- a proxy named by the standard HTTPS_PROXY / HTTP_PROXY / NO_PROXY variables is used, as any
  HTTP client would (the deployment's egress proxy, docs/operations.md): the host is checked
  before the request is handed to it, and the proxy, which resolves the host again itself,
  refuses internal addresses at its own connect.

A worker keeps one client per endpoint and event loop (``shared_endpoint_client``, for the process's
long-lived loop): the trajectories of one endpoint reuse its kept-alive connections instead of opening
one each. Its transport ignores ``aclose`` (litellm closes a client it built on the transport for a retry
after a connect error; that would close every case's connections). Since the client is shared,
what its transport saw of a request is told per request: ``egress_watch()``, called before the request
in the same task, returns the record the transport fills in (the requests handed to it, and why the
last was refused, "" if it was not), so the model client can tell a request that bypassed the transport,
and a refusal from a failure worth retrying.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import select
import ssl
import time
import urllib.request
import weakref
from collections import deque
from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

import httpcore
import httpx

from .egress import ApiBaseNotAllowed, environment_proxy, parse_url, resolve_allowed
from .providers import OPENAI_SDK, Route

# What a model request needs; every other header is dropped before the request leaves.
SENT_HEADERS = frozenset(
    {
        "host",
        "accept",
        "accept-encoding",
        "connection",
        "content-type",
        "content-length",
        "transfer-encoding",
        "user-agent",
        "authorization",
        "x-api-key",
        "anthropic-version",
        "anthropic-beta",
    }
)
SENT_HEADER_PREFIXES = ("x-stainless-",)  # the OpenAI SDK's description of itself (version, retry count)
CREDENTIAL_HEADERS = ("authorization", "x-api-key")


KEEPALIVE_S = 5.0  # an idle connection to an endpoint is closed after this (httpx's default)
MAX_RESPONSE_BYTES = 8 * 1024 * 1024  # a model answer; one of max_tokens 32k is about 150 kB of JSON
SHARED_CLIENTS_PER_LOOP = 32  # endpoints a worker keeps clients for (the oldest is dropped, not closed, past it)
_shared: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[tuple, tuple[Any, EgressTransport]]] = (
    weakref.WeakKeyDictionary()
)


@dataclass
class EgressWatch:
    """What the endpoint transports saw of the requests one task sent since ``egress_watch()``."""

    requests: int = 0  # requests handed to a transport (a request litellm sent elsewhere is not counted)
    refusal: str = ""  # why the last one was refused; "" when it was not


_watch: ContextVar[EgressWatch | None] = ContextVar("egress_watch", default=None)


def egress_watch() -> EgressWatch:
    """A fresh record of the requests this task hands to endpoint transports from now on."""
    watch = EgressWatch()
    _watch.set(watch)
    return watch


def shared_endpoint_client(route: Route, *, timeout_s: float) -> tuple[Any, EgressTransport]:
    """``endpoint_client(route)``, made once per event loop and endpoint (provider, URL, key, timeout).

    Not closed by its users: it lives as long as its loop, so use it on a loop that lives as long as the
    process (the workers' ``run_in_process_loop``), not in ``asyncio.run``. Past ``SHARED_CLIENTS_PER_LOOP``
    endpoints the oldest is forgotten (requests in flight keep it until they end).
    """
    clients = _shared.setdefault(asyncio.get_running_loop(), {})
    key = (route.provider.name, route.api_base, route.api_key, timeout_s)
    if key not in clients:
        if len(clients) >= SHARED_CLIENTS_PER_LOOP:
            del clients[next(iter(clients))]
        clients[key] = endpoint_client(route, timeout_s=timeout_s, shared=True)
    return clients[key]


def endpoint_client(
    route: Route, *, timeout_s: float, shared: bool = False, max_response_bytes: int = MAX_RESPONSE_BYTES
) -> tuple[Any, EgressTransport]:
    """(the client to pass to ``litellm.acompletion(client=...)``, its transport) for ``route``.

    ``shared``: the transport ignores ``aclose`` (see the module's docstring); close the client of an
    unshared one with ``endpoint_client_close`` when done.
    ``max_response_bytes``: the most of an answer's body that is read (see the module's docstring).
    """
    transport = EgressTransport(api_key=route.api_key, shared=shared, max_response_bytes=max_response_bytes)
    if route.provider.client == OPENAI_SDK:
        import openai

        http = httpx.AsyncClient(transport=transport, follow_redirects=False, trust_env=False, timeout=timeout_s)
        # Every value given: the SDK reads what it is not given from OPENAI_* variables of the environment.
        client = openai.AsyncOpenAI(
            api_key=route.api_key,
            base_url=route.api_base,
            admin_api_key="",
            organization="",
            project="",
            webhook_secret="",
            max_retries=0,
            # The SDK types only httpx2 clients but accepts an httpx one at runtime.
            timeout=timeout_s,
            http_client=http,  # type: ignore[arg-type]
            default_headers={"Authorization": f"Bearer {route.api_key}"},
        )
        return client, transport
    from litellm.llms.custom_httpx.http_handler import AsyncHTTPHandler

    return AsyncHTTPHandler(timeout=timeout_s, transport=transport, follow_redirects=False), transport


async def endpoint_client_close(client: Any) -> None:
    """Close a client made by ``endpoint_client`` (its connections; a shared one keeps them)."""
    close = getattr(client, "close", None)
    if close is not None:
        await close()


class EgressTransport(httpx.AsyncBaseTransport):
    """Every request of one endpoint: headers filtered, address checked and pinned, redirects refused."""

    def __init__(self, *, api_key: str, shared: bool = False, max_response_bytes: int = MAX_RESPONSE_BYTES):
        self.api_key = api_key
        self.shared = shared
        self.max_response_bytes = max_response_bytes
        self._direct = _PinnedTransport()
        self._proxied: dict[str, httpx.AsyncHTTPTransport] = {}
        self._proxy_environment = urllib.request.getproxies_environment()  # a worker's environment does not change

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        watch = _watch.get() or EgressWatch()
        watch.requests += 1
        watch.refusal = ""
        try:
            response = await self._send(request)
            if 300 <= response.status_code < 400:
                await response.aclose()
                location = response.headers.get("location", "nowhere")
                raise ApiBaseNotAllowed(
                    f"the endpoint answered {response.status_code} redirecting to "
                    f"{location[:200]}; redirects are never followed"
                )
            length = response.headers.get("content-length", "")
            if length.isdigit() and int(length) > self.max_response_bytes:
                await response.aclose()
                raise ApiBaseNotAllowed(_too_long(self.max_response_bytes, f"declared {int(length):,} bytes"))
        except ApiBaseNotAllowed as exc:
            watch.refusal = str(exc)
            raise
        capped = _Capped(response.stream, self.max_response_bytes, watch)
        return httpx.Response(
            response.status_code, headers=response.headers, stream=capped, extensions=response.extensions
        )

    async def _send(self, request: httpx.Request) -> httpx.Response:
        problem, host, port = parse_url(str(request.url), what="the request URL")
        if problem:
            raise ApiBaseNotAllowed(problem)
        _filter_headers(request, self.api_key)
        proxy = environment_proxy(request.url.scheme, host, self._proxy_environment)
        if proxy is None:
            return await self._direct.handle_async_request(request)  # checked and pinned at connect
        await resolve_allowed(host, port, proxied=True)  # the proxy connects, and refuses internal addresses itself
        if proxy not in self._proxied:
            self._proxied[proxy] = httpx.AsyncHTTPTransport(proxy=proxy, trust_env=False)
        return await self._proxied[proxy].handle_async_request(request)

    async def aclose(self) -> None:
        if self.shared:  # every case's connections: not closed by one of its users
            return
        await self._direct.aclose()
        for transport in self._proxied.values():
            await transport.aclose()


def _filter_headers(request: httpx.Request, api_key: str) -> None:
    for name in list(request.headers.keys()):
        lowered = name.lower()
        if lowered not in SENT_HEADERS and not lowered.startswith(SENT_HEADER_PREFIXES):
            del request.headers[name]
    allowed = {api_key, f"Bearer {api_key}"}
    for name in CREDENTIAL_HEADERS:
        if any(value not in allowed for value in request.headers.get_list(name)):
            raise ApiBaseNotAllowed(
                f"the request carried a {name} header that is not the endpoint's own key; it was not sent"
            )


class _PinnedBackend(httpcore.AsyncNetworkBackend):
    """Opens each connection to an address of the host that the egress policy allowed, resolved once."""

    def __init__(self) -> None:
        self._inner = httpcore.AnyIOBackend()

    async def connect_tcp(
        self, host: str, port: int, timeout: float | None = None, local_address: str | None = None, socket_options=None
    ) -> httpcore.AsyncNetworkStream:
        failure: Exception | None = None
        for address in await resolve_allowed(host, port):
            try:
                stream = await self._inner.connect_tcp(
                    address, port, timeout=timeout, local_address=local_address, socket_options=socket_options
                )
            except (httpcore.ConnectError, httpcore.ConnectTimeout) as exc:
                failure = exc
            else:
                return _SocketKnownStream(stream)
        raise failure or httpcore.ConnectError(f"no address to connect to for {host}")

    async def connect_unix_socket(self, path: str, timeout: float | None = None, socket_options=None):
        raise ApiBaseNotAllowed("unix sockets are not an endpoint")

    async def sleep(self, seconds: float) -> None:
        await self._inner.sleep(seconds)


class _SocketKnownStream(httpcore.AsyncNetworkStream):
    """A connection's stream that knows its socket: httpcore asks whether an idle kept-alive connection is
    readable (closed by the server) before every request, and anyio answers by building every attribute of
    the socket (a dict of callables, a ``getpeername`` call), which cost about 4% of a worker's CPU."""

    def __init__(self, inner: httpcore.AsyncNetworkStream) -> None:
        self._inner = inner
        self._socket = inner.get_extra_info("socket")  # the same socket under TLS: the TLS stream wraps it

    async def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return await self._inner.read(max_bytes, timeout)

    async def write(self, buffer: bytes, timeout: float | None = None) -> None:
        await self._inner.write(buffer, timeout)

    async def aclose(self) -> None:
        await self._inner.aclose()

    async def start_tls(
        self, ssl_context: ssl.SSLContext, server_hostname: str | None = None, timeout: float | None = None
    ) -> httpcore.AsyncNetworkStream:
        return _SocketKnownStream(await self._inner.start_tls(ssl_context, server_hostname, timeout))

    def get_extra_info(self, info: str) -> Any:
        if info == "socket":
            return self._socket
        if info == "is_readable":  # what httpcore's own check does, on the socket already known
            if self._socket is None or self._socket.fileno() < 0:
                return True  # no socket left: the next read returns the end, as for a closed one
            poll = select.poll()
            poll.register(self._socket.fileno(), select.POLLIN)
            return bool(poll.poll(0))
        return self._inner.get_extra_info(info)


class _PinnedTransport(httpx.AsyncHTTPTransport):
    """httpx's transport, its requests on ``_Lanes`` whose connections ``_PinnedBackend`` opens (TLS still checks
    the host name)."""

    def __init__(self) -> None:
        super().__init__(verify=_ssl_context(), trust_env=False)
        self._pool = _Lanes()  # type: ignore[assignment]  # httpx asks its pool for handle_async_request and aclose only


class _Lanes:
    """Connections kept for the next request, one request at a time on each: a lane is one of httpcore's
    connections, taken by a request and given back when its response is closed (the one given back last is
    taken first).

    One pool of many connections scans all of them at every request and every response: for each one,
    whether the server closed it (a ``poll`` call) and how many are idle. With a worker's cases sharing the
    endpoint's connections (``shared_endpoint_client``, 32 at once), that scan was 12% of a worker's CPU. A
    pool of one connection per lane still did its bookkeeping, and the check, at the request and again at
    the response (5% of a worker's CPU). A lane is checked once, when a request takes it: idle (its last
    response read to the end) and not closed by the server. There are as many lanes as requests were in
    flight at once (the endpoint's caps bound them). A lane idle for ``KEEPALIVE_S`` is closed when a
    request next comes, and a lane given back with its connection not idle (its request failed or was
    cancelled, its response not read to the end) is closed instead of being handed to another request.
    """

    def __init__(self) -> None:
        # Idle lanes by origin (scheme, host, port; an endpoint's client sends to one), (lane, given back at),
        # oldest first.
        self._idle: dict[tuple[bytes, bytes, int], deque[tuple[httpcore.AsyncHTTPConnection, float]]] = {}
        self._lanes: list[httpcore.AsyncHTTPConnection] = []
        self._backend = _PinnedBackend()

    async def handle_async_request(self, request: httpcore.Request) -> httpcore.Response:
        await self._close_expired()
        origin = request.url.origin
        lane = await self._take(origin)
        try:
            response = await lane.handle_async_request(request)
        except BaseException:
            await self._give_back(lane, origin)
            raise
        response.stream = _GivesBack(response.stream, functools.partial(self._give_back, lane, origin))
        return response

    async def _take(self, origin: httpcore.Origin) -> httpcore.AsyncHTTPConnection:
        idle = self._idle.get(_key(origin))
        while idle:
            lane = idle.pop()[0]
            if lane.is_idle() and not lane.has_expired():  # has_expired: whether the server closed it (a poll)
                return lane
            await self._close(lane)
        lane = httpcore.AsyncHTTPConnection(
            origin, ssl_context=_ssl_context(), keepalive_expiry=KEEPALIVE_S, network_backend=self._backend
        )
        self._lanes.append(lane)
        return lane

    async def _give_back(self, lane: httpcore.AsyncHTTPConnection, origin: httpcore.Origin) -> None:
        # A connection never made (its connect failed or was cancelled) says it is idle and closed.
        if lane.is_idle() and not lane.is_closed():
            self._idle.setdefault(_key(origin), deque()).append((lane, time.monotonic()))
        else:
            await self._close(lane)

    async def _close_expired(self) -> None:
        expired = time.monotonic() - KEEPALIVE_S
        for idle in list(self._idle.values()):  # a lane given back meanwhile may add an origin
            while idle and idle[0][1] < expired:
                await self._close(idle.popleft()[0])

    async def _close(self, lane: httpcore.AsyncHTTPConnection) -> None:
        self._lanes.remove(lane)
        with contextlib.suppress(Exception):  # a connection that cannot even be closed is left to its socket's end
            await lane.aclose()

    async def aclose(self) -> None:
        for lane in list(self._lanes):  # a lane closed meanwhile leaves the list
            await lane.aclose()


def _key(origin: httpcore.Origin) -> tuple[bytes, bytes, int]:
    return origin.scheme, origin.host, origin.port  # an Origin compares but does not hash


class _GivesBack:
    """A response's body that gives its lane back once, when it is closed."""

    def __init__(self, inner: Any, give_back: Callable[[], Awaitable[None]]) -> None:
        self._inner = inner
        self._give_back: Callable[[], Awaitable[None]] | None = give_back

    async def __aiter__(self):
        async for part in self._inner:
            yield part

    async def aclose(self) -> None:
        try:
            if hasattr(self._inner, "aclose"):
                await self._inner.aclose()
        finally:
            give_back, self._give_back = self._give_back, None
            if give_back is not None:
                await give_back()


def _too_long(cap: int, seen: str) -> str:
    return f"the endpoint's answer is longer than {cap:,} bytes ({seen}), the most that is read of one answer"


class _Capped(httpx.AsyncByteStream):
    """An answer's body, read up to ``cap`` bytes: past it, the request is refused (``watch.refusal`` says so)."""

    def __init__(self, inner: Any, cap: int, watch: EgressWatch) -> None:
        self._inner, self._cap, self._watch = inner, cap, watch

    async def __aiter__(self):
        seen = 0
        async for part in self._inner:
            seen += len(part)
            if seen > self._cap:
                message = _too_long(self._cap, f"{seen:,} bytes read so far")
                self._watch.refusal = message
                raise ApiBaseNotAllowed(message)
            yield part

    async def aclose(self) -> None:
        if hasattr(self._inner, "aclose"):
            await self._inner.aclose()


@functools.cache
def _ssl_context() -> ssl.SSLContext:
    """httpx's default context (certifi's CAs, host names checked), made once per process.

    Loading the CA bundle costs tens of milliseconds of CPU; every endpoint client of every case
    would otherwise load it twice. A context holds configuration only, and may serve any number of
    connections at once.
    """
    return httpx.create_ssl_context()
