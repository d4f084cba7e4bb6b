#!/usr/bin/env bash
# Sets up .venv if missing, installs Sortie with its test extra, then runs
# ruff (lint + format check), mypy and the whole pytest suite. Fails on the first red step.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3.11}
command -v "$PY" >/dev/null 2>&1 || PY=python3
[ -x .venv/bin/python ] || "$PY" -m venv .venv
.venv/bin/python -m pip install --quiet --upgrade pip >/dev/null
.venv/bin/python -m pip install --quiet -e ".[test]"
echo "== ruff check"; .venv/bin/ruff check .
echo "== ruff format --check"; .venv/bin/ruff format --check .
echo "== mypy"; .venv/bin/mypy
echo "== pytest"; .venv/bin/python -m pytest -q "$@"
