#!/usr/bin/env bash
# Set up everything the tests need on a fresh machine: Debian's Chromium for the browser tests,
# shellcheck (used by actionlint on the workflows' scripts),
# and a virtual environment .venv with the project and its test dependencies. Safe to rerun.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v chromium >/dev/null 2>&1 || ! command -v shellcheck >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ]; then
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver shellcheck >/dev/null
    else
        sudo apt-get update -qq
        sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver shellcheck >/dev/null
    fi
fi

[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -e '.[test]'
