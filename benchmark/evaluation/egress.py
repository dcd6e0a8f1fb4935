"""The request forgery guard on where model requests may go (an endpoint's ``api_base``).

Users submit endpoints, so ``api_base`` is attacker-chosen: ``check_api_base`` refuses URLs whose
host resolves to an internal address (loopback, private, link-local such as the cloud metadata
service, ...) unless ``settings.ALLOW_PRIVATE_ENDPOINTS`` is on. DNS can change after an endpoint
is saved, so the model client calls ``assert_api_base_allowed`` again before each run.

Residual risk: the HTTP client resolves the host again when it connects, so a host whose DNS
answer flips between the check and the connection (DNS rebinding) is not caught here.
"""
from __future__ import annotations

import ipaddress
import re
import socket
from urllib.parse import urlsplit

from django.conf import settings
from django.core.exceptions import ValidationError

_NOT_IN_URL = re.compile(r"[\s\\\x00-\x1f\x7f]")  # parsers disagree on these: refuse rather than guess
_NAT64 = ipaddress.ip_network("64:ff9b::/96")
_UNIQUE_LOCAL = ipaddress.ip_network("fc00::/7")
_METADATA = {ipaddress.ip_address("169.254.169.254"), ipaddress.ip_address("fd00:ec2::254")}


class ApiBaseNotAllowed(ValueError):
    """An endpoint's api_base may not be requested (the request-time form of the guard)."""


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
    """The guard at request time: call before each run, since the host's addresses may have changed.

    Raises:
        ApiBaseNotAllowed: the URL is refused; the message names the host and why.
    """
    problem = api_base_problem(url)
    if problem:
        raise ApiBaseNotAllowed(problem)


def api_base_problem(url: str) -> str | None:
    """Why ``url`` may not be used as an api_base, or None when it may (an empty URL may)."""
    if not isinstance(url, str):
        return "api_base must be a URL string"
    url = url.strip()
    if not url:
        return None
    problem, host, port = _parse_api_base(url)
    if problem:
        return problem
    if getattr(settings, "ALLOW_PRIVATE_ENDPOINTS", False):
        return None
    return _host_problem(host, port)


def _parse_api_base(url: str) -> tuple[str | None, str, int]:
    if len(url) > 500:
        return "api_base is longer than 500 characters", "", 0
    if _NOT_IN_URL.search(url):
        return "api_base must not contain spaces, backslashes or control characters", "", 0
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https"):
        shown = f"scheme {parts.scheme!r} is" if parts.scheme else "URL has no scheme, which is"
        return f"api_base {shown} not allowed: use an http:// or https:// URL", "", 0
    if parts.username is not None or parts.password is not None:
        return (f"api_base host {parts.hostname or '?'}: credentials in the URL (user:password@) are not "
                "allowed; put the key in the API key field"), "", 0
    if not parts.hostname:
        return "api_base has no host: use e.g. https://api.example.com/v1", "", 0
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        return f"api_base host {parts.hostname}: the port is not a number from 1 to 65535", "", 0
    return None, parts.hostname, port


def _host_problem(host: str, port: int) -> str | None:
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as exc:
        return f"api_base host {host} does not resolve ({getattr(exc, 'strerror', None) or exc})"
    addresses = sorted({info[4][0].split("%", 1)[0] for info in infos})
    if not addresses:
        return f"api_base host {host} does not resolve"
    for address in addresses:
        reason = address_problem(ipaddress.ip_address(address))
        if reason:
            where = f"is {reason}" if address == host else f"resolves to {address}, {reason}"
            return f"api_base host {host} {where}; private endpoints are disabled (ALLOW_PRIVATE_ENDPOINTS)"
    return None


def address_problem(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> str | None:
    """What kind of non-public address ``address`` is ("a loopback address", ...), or None if public."""
    if isinstance(address, ipaddress.IPv6Address):
        embedded = address.ipv4_mapped or address.sixtofour or (
            ipaddress.IPv4Address(int(address) & 0xFFFFFFFF) if address in _NAT64 else None)
        if embedded is not None:
            inner = address_problem(embedded)
            return f"{inner} (IPv4 {embedded} embedded in IPv6)" if inner else None
    checks = [
        (address.is_unspecified, "an unspecified address"),
        (address.is_loopback, "a loopback address"),
        (address in _METADATA, "a link-local address (the cloud metadata service)"),
        (address.is_link_local, "a link-local address"),
        (address.is_multicast, "a multicast address"),
        (getattr(address, "is_site_local", False), "a site-local address"),
        (address.version == 6 and address in _UNIQUE_LOCAL, "a unique-local address"),
        (address.is_private, "a private address"),
        (address.is_reserved, "a reserved address"),
        (not address.is_global, "not a public address"),
    ]
    return next((reason for matched, reason in checks if matched), None)
