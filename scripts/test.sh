#!/usr/bin/env bash
# The whole suite. Installs what the tests need from Debian's packages when it is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
[ -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ] || need+=(chromium)
command -v redis-server >/dev/null 2>&1 || [ -n "${REDIS_URL:-}" ] || need+=(redis-server)
# The Nu HTML Checker (npm vnu-jar) runs on Java.
command -v java >/dev/null 2>&1 || need+=(default-jre-headless)
command -v pg_dump >/dev/null 2>&1 || true
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "Installing ${need[*]} from Debian's packages…"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
  else
    echo "Missing ${need[*]}. Install with: sudo apt-get install -y ${need[*]}" >&2
    exit 1
  fi
fi

export BUILD_DIR="${BUILD_DIR:-$PWD/build}"
react-router build >/dev/null
exec vitest run "$@"
