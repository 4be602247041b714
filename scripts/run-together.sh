#!/bin/sh
# Runs the named npm scripts at the same time and fails when any of them failed. The static
# checks each keep one core busy, so on a 2-core machine two at once take half the time. Each
# script's output is printed whole once it ends, so failures do not interleave.
set -u
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
for script in "$@"; do
  npm run -s "$script" >"$dir/$script.log" 2>&1 &
  echo $! >"$dir/$script.pid"
done
status=0
for script in "$@"; do
  if wait "$(cat "$dir/$script.pid")"; then
    echo "ok: npm run $script"
  else
    echo "FAILED: npm run $script" >&2
    status=1
  fi
  cat "$dir/$script.log"
done
exit $status
