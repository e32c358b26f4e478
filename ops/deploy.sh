#!/usr/bin/env bash
# Deploys the frontend container of one environment, then runs the smoke checks.
#
#   ops/deploy.sh ENV [REF] [--quick] [--dry-run]
#
#   dev      deploys the develop branch (REF ignored)
#   staging  deploys REF, default main
#   prod     deploys REF, which must be a tag v<major>.<minor>
#   --quick  deploys the working tree as it is, without fetching from git
#   --dry-run  prints every command instead of running it
#
# A failing smoke check does not roll back: the failures are printed, the exit status is non-zero,
# and reverting means deploying the previous ref.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() { sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
fail() { echo "deploy: $*" >&2; exit 1; }

ENV_NAME="" REF="" QUICK=0 DRY=0
for arg in "$@"; do
  case "$arg" in
    --quick) QUICK=1 ;;
    --dry-run) DRY=1 ;;
    -h|--help) usage ;;
    -*) fail "unknown option $arg" ;;
    *) if [[ -z "$ENV_NAME" ]]; then ENV_NAME="$arg"; elif [[ -z "$REF" ]]; then REF="$arg"; else usage; fi ;;
  esac
done

# Build-time constants, fixed here per environment and never read from the env file: an empty
# BUILD_CMS_ORIGIN would silently drop frame-ancestors and break the CMS preview iframe.
case "$ENV_NAME" in
  dev)
    REF="develop"; HOST_PORT=3002
    BUILD_API_URL="https://cms.dev.praticiens.example.org/api/v1/websites"
    BUILD_CMS_ORIGIN="https://cms.dev.praticiens.example.org" ;;
  staging)
    REF="${REF:-main}"; HOST_PORT=3001
    BUILD_API_URL="https://cms.staging.praticiens.example.org/api/v1/websites"
    BUILD_CMS_ORIGIN="https://cms.staging.praticiens.example.org" ;;
  prod)
    [[ -n "$REF" ]] || fail "a production deploy needs a tag: make deploy ENV=prod REF=v1.4"
    [[ "$REF" =~ ^v[0-9]+\.[0-9]+$ ]] || fail "REF must be a tag of the form v<major>.<minor>, got '$REF'"
    HOST_PORT=3000
    BUILD_API_URL="https://cms.praticiens.example.org/api/v1/websites"
    BUILD_CMS_ORIGIN="https://cms.praticiens.example.org" ;;
  "") usage ;;
  *) fail "ENV must be dev, staging or prod, got '$ENV_NAME'" ;;
esac
[[ -n "$BUILD_API_URL" && -n "$BUILD_CMS_ORIGIN" ]] || fail "BUILD_API_URL and BUILD_CMS_ORIGIN must be set for $ENV_NAME"

# The decrypted env file lives on the server, owner-only, never in git (make decrypt ENV=...).
DEPLOY_ROOT="${DEPLOY_ROOT:-/srv/practice-frontend}"
ENV_FILE="$DEPLOY_ROOT/.env.$ENV_NAME"
if [[ ! -f "$ENV_FILE" ]]; then
  fail "$ENV_FILE is missing: run 'make decrypt ENV=$ENV_NAME' on this server"
fi
perms=$(stat -c '%a' "$ENV_FILE")
[[ "$perms" == "600" || "$perms" == "400" ]] || fail "$ENV_FILE must be readable by its owner only (chmod 600), it is $perms"

# Every value the deployment uses comes from the env file, never from the operator's shell: the container
# reads that file, so nginx and the build must too, or they could disagree. The file is read, never sourced.
env_value() {
  local line
  line=$(grep -E "^$1=" "$ENV_FILE" | tail -n 1) || true
  line="${line#*=}"; line="${line%$'\r'}"
  [[ "$line" =~ ^\"(.*)\"$ || "$line" =~ ^\'(.*)\'$ ]] && line="${BASH_REMATCH[1]}"
  printf '%s' "$line"
}
unset PREVIEW_DOMAIN PUBLIC_ANALYTICS_URL PUBLIC_ANALYTICS_WEBSITE_ID PUBLIC_ERROR_TRACKING_DSN
PREVIEW_DOMAIN="$(env_value PREVIEW_DOMAIN)"
[[ "$PREVIEW_DOMAIN" =~ ^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$ ]] \
  || fail "PREVIEW_DOMAIN in $ENV_FILE must be a host name such as preview.example.org, got '$PREVIEW_DOMAIN'"
PUBLIC_ANALYTICS_URL="$(env_value PUBLIC_ANALYTICS_URL)"
PUBLIC_ANALYTICS_WEBSITE_ID="$(env_value PUBLIC_ANALYTICS_WEBSITE_ID)"
PUBLIC_ERROR_TRACKING_DSN="$(env_value PUBLIC_ERROR_TRACKING_DSN)"
export PUBLIC_ANALYTICS_URL PUBLIC_ANALYTICS_WEBSITE_ID PUBLIC_ERROR_TRACKING_DSN

run() {
  if (( DRY )); then printf '+'; printf ' %q' "$@"; printf '\n'; else "$@"; fi
}

if (( QUICK )); then
  REF="$(git rev-parse --short HEAD 2>/dev/null || echo local)"
  echo "deploy: quick deploy of the working tree ($REF) to $ENV_NAME"
else
  run git fetch --tags --prune origin
  if [[ "$ENV_NAME" == "prod" ]]; then run git checkout --detach "refs/tags/$REF"
  else run git checkout --detach "origin/$REF"; fi
fi

export DEPLOY_ENV="$ENV_NAME" DEPLOY_REF="$REF" DEPLOY_ENV_FILE="$ENV_FILE" BUILD_API_URL BUILD_CMS_ORIGIN
COMPOSE=(docker compose -p "practice-frontend-$ENV_NAME" -f ops/compose/compose.yml -f "ops/compose/compose.$ENV_NAME.yml")
run "${COMPOSE[@]}" build
run "${COMPOSE[@]}" up -d --wait

# The reverse proxy's server names come from the same practice list as the frontend's.
# TLS: the operator's certificate and key (docs/decisions/tls-at-the-proxy.md), only named by the config, so
# regenerating it keeps them. Production refuses to go on without them; dev and staging get a self-signed
# pair made once (kept on later deploys).
NGINX_CONF="${NGINX_CONF:-/etc/nginx/conf.d/practice-sites.conf}"
TLS_CERTIFICATE="${TLS_CERTIFICATE:-/etc/nginx/tls/practice-sites.crt}"
TLS_KEY="${TLS_KEY:-/etc/nginx/tls/practice-sites.key}"
if [[ ! -s "$TLS_CERTIFICATE" || ! -s "$TLS_KEY" ]]; then
  if [[ "$ENV_NAME" == "prod" ]]; then
    (( DRY )) && echo "deploy: (dry run) $TLS_CERTIFICATE or $TLS_KEY is missing: a real prod deploy would stop here" \
      || fail "$TLS_CERTIFICATE and $TLS_KEY must hold the operator's certificate and key (TLS_CERTIFICATE, TLS_KEY)"
  else
    run ops/nginx/self-signed.sh "$TLS_CERTIFICATE" "$TLS_KEY" "*.$ENV_NAME.$PREVIEW_DOMAIN" "monitoring.$PREVIEW_DOMAIN"
  fi
fi
run npx tsx ops/nginx/generate.ts --out "$NGINX_CONF" --preview-domain "$PREVIEW_DOMAIN" \
  --tls-certificate "$TLS_CERTIFICATE" --tls-key "$TLS_KEY"
run nginx -t
run nginx -s reload

if (( DRY )); then
  run env SMOKE_HOST="${SMOKE_HOST:-http://127.0.0.1:$HOST_PORT}" npx tsx ops/smoke.ts
  echo "deploy: dry run: nothing was changed; the commands above would deploy $REF to $ENV_NAME"
  exit 0
fi
echo "deploy: $ENV_NAME is at $REF; running the smoke checks"
if ! run env SMOKE_HOST="${SMOKE_HOST:-http://127.0.0.1:$HOST_PORT}" npx tsx ops/smoke.ts; then
  echo "deploy: smoke checks FAILED on $ENV_NAME ($REF). No rollback was done: redeploy the previous ref to revert." >&2
  exit 1
fi
echo "deploy: $ENV_NAME ($REF) is live and passed the smoke checks"
