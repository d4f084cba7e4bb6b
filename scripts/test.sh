#!/usr/bin/env bash
# Sets up .venv if missing, installs Sortie with its test extra, compiles the strike's
# modules (scripts/build_native.py), then runs
# ruff (lint + format check), mypy and the whole pytest suite. Fails on the first red step.
# The database tests run on SQLite and on a real PostgreSQL: unless SORTIE_TEST_PG_URL
# names one, a throwaway server is started with scripts/pg.sh (which installs Debian's
# postgresql package if needed) and stopped at exit. In CI (CI set) no PostgreSQL is a
# failure; elsewhere the PostgreSQL tests are skipped with a warning. The replay page's
# browser test needs Debian's chromium: in CI it is installed (scripts/chromium.sh) and
# its absence is a failure; elsewhere that test is skipped with a warning.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/venv.sh ".[test]"
# The strike's modules compiled with mypyc (about a minute); in CI a failed build is a
# failure, elsewhere the engine runs its sources interpreted, with the same outputs.
echo "== native build"; .venv/bin/python scripts/build_native.py ${CI:+--strict} | tail -n 1
echo "== ruff check"; .venv/bin/ruff check .
echo "== ruff format --check"; .venv/bin/ruff format --check .
echo "== mypy"; .venv/bin/mypy
if [ -z "${SORTIE_TEST_PG_URL:-}" ]; then
    echo "== PostgreSQL"
    if pg_out=$(bash scripts/pg.sh start); then
        while IFS='=' read -r key value; do
            case "$key" in SORTIE_TEST_PG_URL | SORTIE_PG_DIR) export "$key=$value" ;; esac
        done <<<"$pg_out"
        trap 'bash scripts/pg.sh stop "$SORTIE_PG_DIR"' EXIT
        echo "$SORTIE_TEST_PG_URL"
    elif [ -n "${CI:-}" ]; then
        echo "PostgreSQL could not be started; CI needs it for the database tests" >&2
        exit 1
    else
        echo "warning: no PostgreSQL could be started; its tests will be skipped" >&2
    fi
fi
if ! command -v chromium >/dev/null 2>&1 && ! command -v chromium-browser >/dev/null 2>&1; then
    if [ -n "${CI:-}" ]; then
        echo "== chromium"; bash scripts/chromium.sh
    else
        echo "warning: chromium is not installed; the replay page's browser test will be skipped" >&2
    fi
fi
# One worker per core (SORTIE_TEST_WORKERS=0 runs in this process), each file's tests together.
echo "== pytest"; .venv/bin/python -m pytest -q -n "${SORTIE_TEST_WORKERS:-auto}" --dist loadfile "$@"
