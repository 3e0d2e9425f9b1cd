#!/usr/bin/env bash
# Makes Debian's Chromium available for the admin page's browser check and prints its path.
# Installs the `chromium` package with apt when it is missing (CI runs as root); exits 1 with
# the reason on stderr when it cannot, so the caller can report the check as skipped.
set -euo pipefail

find_chromium() {
    command -v chromium || command -v chromium-browser || true
}

found=$(find_chromium)
if [ -z "$found" ]; then
    if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
        echo "Chromium is not installed, and apt-get as root is not available to install it" >&2
        exit 1
    fi
    echo "installing Debian's chromium package" >&2
    if ! { apt-get update -qq &&
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
            chromium >/dev/null; }; then
        echo "apt-get could not install chromium" >&2
        exit 1
    fi
    found=$(find_chromium)
fi
if [ -z "$found" ] || ! "$found" --version >/dev/null 2>&1; then
    echo "Chromium ($found) does not run here" >&2
    exit 1
fi
echo "$found"
