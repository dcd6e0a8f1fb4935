#!/usr/bin/env bash
# One image, one entry point, several roles (docker/compose.yml). The test suite runs these same
# commands on the test database (tests/site/), so what the containers run is what was tested.
#
#   init                  wait for the database, apply migrations, build the bundled city if missing
#   web                   wait for the database, refuse unapplied migrations, serve with gunicorn on $PORT
#   worker QUEUES         a Celery worker consuming QUEUES (comma-separated), named $CELERY_NODE_NAME@host
#   beat                  the Celery scheduler (run exactly one)
#   mcp-runs              the run-mode MCP server for external agents (token-authenticated) on $MCP_PORT
#   health                exit 0 when the web server on $PORT reports healthy (GET /health/)
#   worker-health         exit 0 when this container's worker answers `celery inspect ping`
#   mcp-health            exit 0 when the MCP server accepts connections on $MCP_PORT
#   manage ARGS...        any manage.py command (createsuperuser, generate_cases, evaluate, ...)
set -euo pipefail
cd "$(dirname "$0")/.."

PY="${PYTHON:-.venv/bin/python}"
export DJANGO_SETTINGS_MODULE="${DJANGO_SETTINGS_MODULE:-lifeplanner_site.settings}"
BIND_HOST="${BIND_HOST:-0.0.0.0}"
PORT="${PORT:-8000}"
MCP_PORT="${MCP_PORT:-8766}"
NODE="${CELERY_NODE_NAME:-worker}"
LOG_LEVEL="${LOG_LEVEL:-INFO}"

connect_database() {
  "$PY" -c "import django; django.setup(); from django.db import connection; connection.ensure_connection()"
}

wait_for_database() {
  local deadline=$((SECONDS + ${DATABASE_WAIT_SECONDS:-60}))
  until connect_database >/dev/null 2>&1; do
    if [ "$SECONDS" -ge "$deadline" ]; then
      echo "entrypoint: the database did not answer within ${DATABASE_WAIT_SECONDS:-60} s:" >&2
      connect_database 2>&1 | tail -n 2 >&2 || true
      exit 1
    fi
    sleep 2
  done
}

role="${1:-}"
[ $# -gt 0 ] && shift
case "$role" in
  init)
    wait_for_database
    "$PY" manage.py migrate --noinput
    exec "$PY" manage.py build_city --if-stale
    ;;
  web)
    wait_for_database
    if ! "$PY" manage.py migrate --check >/dev/null; then
      echo "entrypoint: the database has unapplied migrations; run the init service first" >&2
      exit 1
    fi
    exec "$PY" -m gunicorn lifeplanner_site.wsgi:application -c docker/gunicorn.conf.py --bind "$BIND_HOST:$PORT" \
      --workers "${WEB_CONCURRENCY:-3}" --timeout "${WEB_TIMEOUT:-60}" --graceful-timeout 30 \
      --forwarded-allow-ips "${FORWARDED_ALLOW_IPS:-127.0.0.1}" --no-control-socket
    ;;
  worker)
    queues="${1:?usage: entrypoint.sh worker QUEUES (comma-separated, e.g. evaluation,scoring,housekeeping)}"
    exec "$PY" -m celery -A lifeplanner_site worker -Q "$queues" -n "$NODE@%h" \
      --concurrency "${CELERY_CONCURRENCY:-2}" --without-gossip --without-mingle --loglevel "$LOG_LEVEL"
    ;;
  beat)
    exec "$PY" -m celery -A lifeplanner_site beat --loglevel "$LOG_LEVEL" \
      --schedule "${CELERY_BEAT_SCHEDULE_FILE:-/tmp/celerybeat-schedule}"
    ;;
  mcp-runs)
    exec "$PY" manage.py serve_run_mcp --transport http --host "$BIND_HOST" --port "$MCP_PORT"
    ;;
  health)
    exec "$PY" -m lifeplanner_site.health --port "$PORT"
    ;;
  worker-health)
    exec "$PY" -m celery -A lifeplanner_site inspect ping -d "$NODE@$(hostname)" --timeout 5
    ;;
  mcp-health)
    exec "$PY" -c "import socket, sys; socket.create_connection(('127.0.0.1', int(sys.argv[1])), timeout=5).close()" \
      "$MCP_PORT"
    ;;
  manage)
    exec "$PY" manage.py "$@"
    ;;
  *)
    echo "usage: entrypoint.sh init|web|worker QUEUES|beat|mcp-runs|health|worker-health|mcp-health|manage ARGS" >&2
    exit 64
    ;;
esac
