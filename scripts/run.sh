#!/usr/bin/env bash
# Sets up .venv if missing, installs Sortie, then runs the bot: `bash scripts/run.sh`
# (needs DISCORD_TOKEN in .env) or `bash scripts/run.sh demo` (offline).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/venv.sh .
# The strike's modules compiled when mypyc is at hand (the test extra); else interpreted.
if .venv/bin/python -c "import mypyc" 2>/dev/null; then
    .venv/bin/python scripts/build_native.py | tail -n 1
fi
exec .venv/bin/python -m bot "$@"
