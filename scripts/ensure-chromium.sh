#!/bin/sh
# The browser tests drive Debian's Chromium (no browser download at install or run time).
# Installs it with apt when it is missing and we may (root); otherwise says how.
set -eu
bin="${CHROMIUM_PATH:-/usr/bin/chromium}"
[ -x "$bin" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "ensure-chromium: installing Debian's chromium package" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq chromium >&2
  exit 0
fi
echo "ensure-chromium: $bin not found. Install Chromium (Debian: apt-get install -y chromium) or set CHROMIUM_PATH." >&2
exit 1
