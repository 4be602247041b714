#!/bin/sh
# The tests drive real programs from Debian, never downloaded at install or run time: Chromium's
# headless shell for the browser tests (the engine of Debian's Chromium, without its windowing
# parts: a fifth less CPU a test) and OpenSSH's server for the reachability checks. Installs the
# missing ones with one apt run when we may (root); otherwise says how.
set -eu
chromium="${CHROMIUM_PATH:-/usr/lib/chromium/chromium-headless-shell}"
sshd="${SSHD_PATH:-/usr/sbin/sshd}"
missing=""
[ -x "$chromium" ] || missing="$missing chromium-headless-shell"
[ -x "$sshd" ] || missing="$missing openssh-server"
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "ensure-test-tools: installing Debian's$missing" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  # shellcheck disable=SC2086 # one word per package
  apt-get install -y -qq --no-install-recommends $missing >&2
  exit 0
fi
echo "ensure-test-tools: missing$missing. Install them (Debian: apt-get install -y$missing), or set CHROMIUM_PATH / SSHD_PATH." >&2
exit 1
