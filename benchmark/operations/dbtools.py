"""PostgreSQL client binaries and table fingerprints, for backups and restores.

The password of a database never appears on a command line or in output: the client
binaries get it through ``PGPASSWORD`` in their own environment only.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
from dataclasses import dataclass

LIBPQ_OPTIONS = {
    "sslmode": "PGSSLMODE",
    "sslrootcert": "PGSSLROOTCERT",
    "sslcert": "PGSSLCERT",
    "sslkey": "PGSSLKEY",
    "connect_timeout": "PGCONNECT_TIMEOUT",
}  # DATABASES OPTIONS the client binaries must honour too
CLIENT_MAJOR = "15"  # the server's major version; pg_dump must not be older than the server
FETCH_ROWS = 2000


class DatabaseToolError(RuntimeError):
    """A client binary is missing or failed; the message says which and why (never the password)."""


@dataclass(frozen=True)
class Target:
    """Where a client binary connects: Django's settings dict of one database."""

    name: str
    user: str
    password: str
    host: str
    port: str
    libpq_env: tuple[tuple[str, str], ...] = ()

    @classmethod
    def from_settings(cls, db: dict) -> Target:
        options = db.get("OPTIONS") or {}
        libpq_env = tuple((var, str(options[key])) for key, var in LIBPQ_OPTIONS.items() if key in options)
        return cls(
            name=db["NAME"],
            user=db.get("USER") or "",
            password=db.get("PASSWORD") or "",
            host=db.get("HOST") or "127.0.0.1",
            port=str(db.get("PORT") or 5432),
            libpq_env=libpq_env,
        )

    def args(self) -> list[str]:
        return ["--host", self.host, "--port", self.port, "--username", self.user, "--dbname", self.name]

    def env(self) -> dict[str, str]:
        """The child's environment: this one, with this database's password and TLS options."""
        env = {k: v for k, v in os.environ.items() if k not in ("PGPASSWORD", "PGDATABASE", "PGSERVICE")}
        env.update(self.libpq_env)
        if self.password:
            env["PGPASSWORD"] = self.password
        return env


def client_binary(name: str) -> str:
    """The path of a PostgreSQL client binary (``pg_dump``, ``pg_restore``), preferring the 15 client."""
    versioned = f"/usr/lib/postgresql/{CLIENT_MAJOR}/bin/{name}"
    path = versioned if os.access(versioned, os.X_OK) else shutil.which(name)
    if not path:
        raise DatabaseToolError(
            f"{name} is not installed: install the PostgreSQL {CLIENT_MAJOR} client "
            f"(apt-get install postgresql-client-{CLIENT_MAJOR})"
        )
    return path


def run_client(name: str, args: list[str], *, target: Target, timeout_s: float = 3600) -> str:
    """Run a client binary against ``target``; returns its stderr (warnings); raises on failure."""
    command = [client_binary(name), *target.args(), *args]
    try:
        done = subprocess.run(command, env=target.env(), capture_output=True, text=True, timeout=timeout_s)
    except subprocess.TimeoutExpired:
        raise DatabaseToolError(f"{name} did not finish within {timeout_s:g} s") from None
    stderr = _without_password(done.stderr, target.password)
    if done.returncode != 0:
        raise DatabaseToolError(f"{name} failed (exit {done.returncode}): {stderr.strip()[-2000:]}")
    return stderr


def client_version(name: str) -> str:
    done = subprocess.run([client_binary(name), "--version"], capture_output=True, text=True, timeout=30)
    return done.stdout.strip()


def _without_password(text: str, password: str) -> str:
    return text.replace(password, "********") if password else text


def table_fingerprint(cursor, *, table: str, pk: str) -> tuple[int, str]:
    """(rows, SHA-256) of a table's content: every row as JSONB text (keys sorted), in primary-key order.

    ``cursor`` should be a server-side cursor for big tables (rows are streamed, not loaded at once).
    Equal on two databases exactly when the rows are equal, whatever the physical order or column order.
    """
    digest, rows = hashlib.sha256(), 0
    cursor.execute(f'SELECT to_jsonb(t)::text FROM "{table}" AS t ORDER BY t."{pk}"')  # names from model meta
    while batch := cursor.fetchmany(FETCH_ROWS):
        for (text,) in batch:
            digest.update(text.encode() + b"\n")
        rows += len(batch)
    return rows, digest.hexdigest()
