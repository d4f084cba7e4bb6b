# Sourced from the repository's root by run.sh and test.sh: makes .venv if it is missing
# (Python 3.11, else python3) and installs Sortie into it as "$1" names it (`.` for the bot,
# `.[test]` with the test extra). One place, so the two scripts cannot drift apart.
PY=${PYTHON:-python3.11}
command -v "$PY" >/dev/null 2>&1 || PY=python3
[ -x .venv/bin/python ] || "$PY" -m venv .venv
.venv/bin/python -m pip install --quiet --upgrade pip >/dev/null
.venv/bin/python -m pip install --quiet -e "$1"
