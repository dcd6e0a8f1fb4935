"""The egress policy: which addresses the model requests of submitted endpoints may reach.

Users submit endpoints, so the URL a model request goes to is attacker-chosen. One policy,
``address_problem``, decides for every address:

- always refused, whatever the settings: link-local addresses (169.254.0.0/16, fe80::/10), the
  cloud metadata services (169.254.169.254, fd00:ec2::254, Alibaba's 100.100.100.200, Oracle's
  192.0.0.192), unspecified, multicast and reserved addresses;
- refused unless ``settings.ALLOW_PRIVATE_ENDPOINTS`` is on, or the address and port are on the
  allow-list ``settings.PRIVATE_ENDPOINT_ADDRESSES`` (e.g. ``127.0.0.1:8091``, the local model server of
  the demo): loopback, private, shared (100.64.0.0/10), unique-local and every other non-public address.

It is applied three times: when an endpoint is saved (``check_api_base``), before each run
(``assert_api_base_allowed``, since DNS can change after a save), and, the check that holds, when
the model client connects (``resolve_allowed`` in ``egress_http``): the host is resolved once,
every address is checked and the connection is made to a checked address, so a host whose DNS
answer flips between a check and the connection (DNS rebinding) cannot swap it. Which URL is
contacted for a model string, and with which key, is decided in ``providers``.
"""

from __future__ import annotations

import asyncio
import ipaddress
import re
import socket
import urllib.request
from urllib.parse import urlsplit

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured, ValidationError

_NOT_IN_URL = re.compile(r"[\s\\\x00-\x1f\x7f]")  # parsers disagree on these: refuse rather than guess
_NAT64 = ipaddress.ip_network("64:ff9b::/96")
_UNIQUE_LOCAL = ipaddress.ip_network("fc00::/7")
_SHARED = ipaddress.ip_network("100.64.0.0/10")
METADATA_ADDRESSES = frozenset(
    ipaddress.ip_address(a)
    for a in ("169.254.169.254", "169.254.170.2", "fd00:ec2::254", "100.100.100.200", "192.0.0.192")
)
PRIVATE_SETTING = (
    "private endpoints are disabled (ALLOW_PRIVATE_ENDPOINTS), and this address and port are not on the "
    "allow-list PRIVATE_ENDPOINT_ADDRESSES"
)
ALWAYS_REFUSED = "refused even with ALLOW_PRIVATE_ENDPOINTS"

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address


API_BASE_SHAPE = "An API base URL looks like http(s)://host[:port][/path], e.g. https://api.example.com/v1"


class ApiBaseNotAllowed(ValueError):
    """A model request may not go where it would go: the URL, the address, the key or the params are refused."""


def allow_private() -> bool:
    """Whether loopback and private addresses may be reached (``settings.ALLOW_PRIVATE_ENDPOINTS``)."""
    return bool(settings.ALLOW_PRIVATE_ENDPOINTS)


def allowed_private_addresses() -> frozenset[tuple[IPAddress, int]]:
    """The (address, port) pairs of ``settings.PRIVATE_ENDPOINT_ADDRESSES`` ("127.0.0.1:8091", "[::1]:8091").

    Raises:
        ImproperlyConfigured: an entry is not an IP address literal with a port (names are not taken: what a
            name resolves to can change), or names an address that is always refused.
    """
    pairs = set()
    for entry in settings.PRIVATE_ENDPOINT_ADDRESSES:
        pair = _address_port(str(entry).strip())
        if pair is None:
            raise ImproperlyConfigured(
                f"PRIVATE_ENDPOINT_ADDRESSES: {entry!r} is not an IP address and port such as 127.0.0.1:8091 "
                "or [::1]:8091"
            )
        reason, always = address_problem(pair[0])
        if always:
            raise ImproperlyConfigured(f"PRIVATE_ENDPOINT_ADDRESSES: {entry!r} is {reason}, which is never allowed")
        pairs.add(pair)
    return frozenset(pairs)


def _address_port(entry: str) -> tuple[IPAddress, int] | None:
    host, _, port = entry.rpartition(":")
    host = host[1:-1] if host.startswith("[") and host.endswith("]") else host
    if not port.isdigit() or not 0 < int(port) < 65536:
        return None
    try:
        return ipaddress.ip_address(host), int(port)
    except ValueError:
        return None


def check_api_base(url: str) -> str:
    """Validate an endpoint's ``api_base``; returns it stripped ("" means the provider's default).

    Raises:
        ValidationError: keyed ``api_base``, naming the host and why it is refused.
    """
    problem = api_base_problem(url)
    if problem:
        raise ValidationError({"api_base": [problem]})
    return url.strip()


def assert_api_base_allowed(url: str) -> None:
    """The guard before a run: call it then, since the host's addresses may have changed.

    Raises:
        ApiBaseNotAllowed: the URL is refused; the message names the host and why.
    """
    problem = api_base_problem(url)
    if problem:
        raise ApiBaseNotAllowed(problem)


def api_base_problem(url: str, *, resolve: bool = True) -> str | None:
    """Why ``url`` may not be used as an api_base, or None when it may (an empty URL may).

    Args:
        resolve: also resolve the host and check its addresses (the model client checks them
            again when it connects, whatever this says).
    """
    if not isinstance(url, str):
        return "api_base must be a URL string"
    url = url.strip()
    if not url:
        return None
    problem, host, port = parse_url(url)
    if problem:
        return f"{problem}. {API_BASE_SHAPE}"
    if not resolve:
        return None
    return host_problem(host, port, proxied=environment_proxy(urlsplit(url).scheme, host) is not None)


def parse_url(url: str, what: str = "api_base") -> tuple[str | None, str, int]:
    """(problem or None, host, port) of an http(s) URL; credentials in the URL are a problem."""
    if len(url) > 500:
        return f"{what} is longer than 500 characters", "", 0
    if _NOT_IN_URL.search(url):
        return f"{what} must not contain spaces, backslashes or control characters", "", 0
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https"):
        shown = f"scheme {parts.scheme!r} is" if parts.scheme else "URL has no scheme, which is"
        return f"{what} {shown} not allowed: use an http:// or https:// URL", "", 0
    if parts.username is not None or parts.password is not None:
        return (
            (
                f"{what} host {parts.hostname or '?'}: credentials in the URL (user:password@) are not "
                "allowed; put the key in the API key field"
            ),
            "",
            0,
        )
    if not parts.hostname:
        return f"{what} has no host: use e.g. https://api.example.com/v1", "", 0
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        return f"{what} host {parts.hostname}: the port is not a number from 1 to 65535", "", 0
    return None, parts.hostname, port


def host_problem(host: str, port: int, *, proxied: bool = False) -> str | None:
    """Why ``host`` may not be reached (it resolves to a refused address, or not at all), or None.

    Args:
        proxied: requests to the host go through an egress proxy, which resolves the host itself
            (behind one, the worker may have no DNS for outside names): a host that does not
            resolve here is left to the proxy's own checks.
    """
    literal = ip_literal(host)
    if literal is not None:  # judged as the address it is, whether or not it resolves (a zone id never does)
        return addresses_problem(host, [literal], port=port)
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as exc:
        if allow_private() or proxied:
            return None  # e.g. a compose service name; the client or the proxy checks the address at connect
        return f"api_base host {host} does not resolve ({getattr(exc, 'strerror', None) or exc})"
    return addresses_problem(host, _addresses(infos), port=port)


def environment_proxy(scheme: str, host: str, proxies: dict[str, str] | None = None) -> str | None:
    """The proxy the standard variables name for a URL (HTTPS_PROXY, HTTP_PROXY, ALL_PROXY, less NO_PROXY).

    ``proxies``: those variables as ``urllib.request.getproxies_environment()`` read them (read now when not
    given; reading them scans the whole environment, so a client that sends many requests reads them once).
    """
    if proxies is None:
        proxies = urllib.request.getproxies_environment()
    proxy = proxies.get(scheme) or proxies.get("all")
    # proxy_bypass_environment is public in urllib.request but missing from typeshed.
    if not proxy or urllib.request.proxy_bypass_environment(host, proxies):  # type: ignore[attr-defined]
        return None
    return proxy


async def resolve_allowed(host: str, port: int, *, proxied: bool = False) -> list[str]:
    """The addresses to connect to for ``host``, every one of them allowed: the check at connect time.

    Args:
        proxied: an egress proxy connects (see ``host_problem``): a host that does not resolve here is
            left to it, and [] is returned.

    Raises:
        ApiBaseNotAllowed: the host does not resolve, or one of its addresses is refused.
    """
    literal = ip_literal(host)
    if literal is not None:  # an address, not a name: no lookup, and its zone id cannot hide what it is
        problem = addresses_problem(host, [literal], what="host", port=port)
        if problem:
            raise ApiBaseNotAllowed(problem)
        return [literal]
    try:
        infos = await asyncio.get_running_loop().getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as exc:
        if proxied:
            return []
        raise ApiBaseNotAllowed(f"host {host} does not resolve ({getattr(exc, 'strerror', None) or exc})") from None
    addresses = _addresses(infos)
    problem = addresses_problem(host, addresses, what="host", port=port)
    if problem:
        raise ApiBaseNotAllowed(problem)
    return addresses


def ip_literal(host: str) -> str | None:
    """The address ``host`` is when it is an IP literal (an IPv6 zone id, "%lo" or "%25lo" in a URL, stripped);
    None for a name."""
    address = host.split("%", 1)[0]
    try:
        ipaddress.ip_address(address)
    except ValueError:
        return None
    return address


def _addresses(infos) -> list[str]:
    seen: dict[str, None] = {}
    for info in infos:
        seen.setdefault(info[4][0].split("%", 1)[0])
    return list(seen)


def addresses_problem(
    host: str, addresses: list[str], what: str = "api_base host", *, port: int | None = None
) -> str | None:
    """Why ``host`` with these resolved addresses may not be reached on ``port`` (any refused address
    refuses it); a private address on the allow-list is allowed on its own port only."""
    if not addresses:
        return f"{what} {host} does not resolve"
    private_ok = allow_private()
    listed = allowed_private_addresses()
    for address in addresses:
        ip = ipaddress.ip_address(address)
        reason, always = address_problem(ip)
        if reason and (always or not (private_ok or (ip, port) in listed)):
            where = f"is {reason}" if address == host else f"resolves to {address}, {reason}"
            return f"{what} {host} {where}; {ALWAYS_REFUSED if always else PRIVATE_SETTING}"
    return None


def address_problem(address: IPAddress) -> tuple[str | None, bool]:
    """(what kind of non-public address ``address`` is, or None if public; whether it is always refused)."""
    if isinstance(address, ipaddress.IPv6Address):
        embedded = (
            address.ipv4_mapped
            or address.sixtofour
            or (ipaddress.IPv4Address(int(address) & 0xFFFFFFFF) if address in _NAT64 else None)
        )
        if embedded is not None:
            inner, always = address_problem(embedded)
            return (f"{inner} (IPv4 {embedded} embedded in IPv6)", always) if inner else (None, False)
    checks = [  # (matched, reason, always refused), in order: ::1 is also "reserved", and loopback is what it is
        (
            address in METADATA_ADDRESSES and address.is_link_local,
            "a link-local address (the cloud metadata service)",
            True,
        ),
        (address in METADATA_ADDRESSES, "the address of a cloud metadata service", True),
        (address.is_unspecified, "an unspecified address", True),
        (address.is_link_local, "a link-local address", True),
        (address.is_multicast, "a multicast address", True),
        (address.is_loopback, "a loopback address", False),
        (address.is_reserved, "a reserved address", True),
        (getattr(address, "is_site_local", False), "a site-local address", False),
        (address.version == 6 and address in _UNIQUE_LOCAL, "a unique-local address", False),
        (address.version == 4 and address in _SHARED, "a shared (carrier-grade NAT) address", False),
        (address.is_private, "a private address", False),
        (not address.is_global, "not a public address", False),
    ]
    return next(((reason, always) for matched, reason, always in checks if matched), (None, False))
