#!/usr/bin/env bash
# Debian's chromium for the replay page's browser test (tests/replay/test_browser.py) and
# for the screenshots (scripts/screenshots.py, scripts/replay_screenshots.py):
#
#   bash scripts/chromium.sh        # installs it when no chromium is on the PATH
#
# CI runs on a clean Debian machine, as root; elsewhere, install it yourself.
set -euo pipefail

die() { echo "chromium.sh: $*" >&2; exit 1; }

if command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1; then
    exit 0
fi
[ "$(id -u)" = 0 ] || die "chromium is not installed and installing it needs root (apt-get install chromium)"
command -v apt-get >/dev/null 2>&1 || die "chromium is not installed and apt-get is not available"
echo "chromium.sh: installing Debian's chromium package" >&2
export DEBIAN_FRONTEND=noninteractive
# Without the recommended packages (printing, mDNS, Perl, GTK's extras): 25 packages instead
# of 116, half the install time, and the browser test and the screenshots need none of them.
apt-get update -qq >&2 || die "apt-get update failed; chromium could not be installed"
apt-get install -y -qq --no-install-recommends chromium >&2 ||
    die "Debian's chromium package could not be installed (apt-get install chromium failed)"
command -v chromium >/dev/null 2>&1 || die "no chromium after installing it"
