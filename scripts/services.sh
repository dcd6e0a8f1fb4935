#!/usr/bin/env bash
# Make sure the system packages are installed and PostgreSQL (with PostGIS) and Redis run
# on 127.0.0.1. Safe to re-run: it only does what is missing. Needs root (or sudo) for apt.
set -euo pipefail

SUDO=""
if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi

APT_PACKAGES="postgresql postgresql-15-postgis-3 postgresql-contrib redis-server gdal-bin libproj-dev libgeos-c1v5 python3-venv chromium"
missing=""
for pkg in $APT_PACKAGES; do
  dpkg -s "$pkg" >/dev/null 2>&1 || missing="$missing $pkg"
done
if [ -n "$missing" ]; then
  echo "setup: installing system packages:$missing"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing >/dev/null
fi

# PostgreSQL: start the cluster when nothing answers on 127.0.0.1:5432.
if ! pg_isready -h 127.0.0.1 -p 5432 -q; then
  ver=$(ls /etc/postgresql | sort -n | tail -1)
  echo "setup: starting PostgreSQL $ver"
  $SUDO pg_ctlcluster --skip-systemctl-redirect "$ver" main start
  for _ in $(seq 1 30); do pg_isready -h 127.0.0.1 -p 5432 -q && break; sleep 1; done
fi

# Redis: start it when nothing answers on 127.0.0.1:6379.
if ! redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
  echo "setup: starting Redis"
  redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no
  for _ in $(seq 1 30); do redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1 && break; sleep 0.5; done
fi

# The role (superuser, so Django's test runner can create PostGIS in test databases) and database.
psql_admin() {
  if [ "$(id -u)" = "0" ]; then su postgres -c "psql -v ON_ERROR_STOP=1 -qtA $*"; else sudo -u postgres psql -v ON_ERROR_STOP=1 -qtA "$@"; fi
}
DB_USER="${LP_DB_USER:-lifeplanner}"
DB_NAME="${LP_DB_NAME:-lifeplanner}"
if [ "$(psql_admin "-c \"SELECT 1 FROM pg_roles WHERE rolname='$DB_USER'\"")" != "1" ]; then
  psql_admin "-c \"CREATE ROLE $DB_USER LOGIN SUPERUSER PASSWORD '$DB_USER'\""
fi
if [ "$(psql_admin "-c \"SELECT 1 FROM pg_database WHERE datname='$DB_NAME'\"")" != "1" ]; then
  psql_admin "-c \"CREATE DATABASE $DB_NAME OWNER $DB_USER\""
fi
for db in "$DB_NAME" template1; do
  psql_admin "-d $db -c \"CREATE EXTENSION IF NOT EXISTS postgis; CREATE EXTENSION IF NOT EXISTS pg_trgm;\""
done
echo "setup: PostgreSQL+PostGIS and Redis are ready on 127.0.0.1"
