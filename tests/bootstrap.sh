#!/usr/bin/env bash
# Set up everything the tests need on a fresh machine: Debian's Chromium and CJK fonts for the
# browser tests, the shellcheck tool (used by actionlint on the workflows' scripts),
# and a virtual environment .venv with the project and its test dependencies. Safe to rerun.
#
#   bash tests/bootstrap.sh            the exact versions of requirements-dev-lock.txt (the runtime
#                                      lock's versions, plus the test tools), hash-checked
#   bash tests/bootstrap.sh --newest   the newest releases allowed by pyproject.toml (no lock;
#                                      the weekly workflow newest.yml)
set -euo pipefail
cd "$(dirname "$0")/.."

case "${1:-}" in
    "" | --newest) ;;
    *)
        echo "usage: bash tests/bootstrap.sh [--newest]" >&2
        exit 2
        ;;
esac

# fonts-noto-cjk: Chinese and Japanese glyphs, so that the browser tests lay those pages out with
# the widths a reader's browser has (no boxes, no fallback of other widths)
if ! command -v chromium >/dev/null 2>&1 || ! command -v shellcheck >/dev/null 2>&1 ||
    ! dpkg -s fonts-noto-cjk >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ]; then
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver shellcheck fonts-noto-cjk >/dev/null
    else
        sudo apt-get update -qq
        sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver shellcheck fonts-noto-cjk >/dev/null
    fi
fi

[ -x .venv/bin/python ] || python3 -m venv .venv
if [ "${1:-}" = --newest ]; then
    .venv/bin/python -m pip install -q --upgrade pip
    # pip 25.1 and newer read the dependency groups (--group)
    .venv/bin/python -m pip install -q --upgrade --upgrade-strategy eager -e '.[dask]' --group test
else
    # Every dependency at the version and with the sha256 of the lock; then the project itself,
    # editable, without dependencies and without build isolation (setuptools comes from the lock
    # too). uv installs them: 9 s where pip took 67 (no cache, the 2-core machine). uv
    # itself comes first, by pip, at the lock's version and hashes (its lines of the lock).
    # The lock is also the constraints (-c): its pins then hold for a requirement with extras
    # too (prefect's httpx[http2]).
    awk '/^uv==/ { keep = 1; print; next } keep && /^ / { print; next } { keep = 0 }' \
        requirements-dev-lock.txt > .venv/uv-requirements.txt
    .venv/bin/python -m pip install -q --require-hashes -r .venv/uv-requirements.txt
    .venv/bin/uv pip install -q --python .venv/bin/python --require-hashes -r requirements-dev-lock.txt -c requirements-dev-lock.txt
    .venv/bin/uv pip install -q --python .venv/bin/python --no-deps --no-build-isolation -e .
fi
