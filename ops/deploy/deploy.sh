#!/usr/bin/env bash
# Deploys the frontend container of one environment, then runs the smoke checks.
#
#   ops/deploy/deploy.sh ENV [REF] [--quick] [--dry-run]
#
#   dev      deploys REF, default main (the map's ref: there is no develop branch; any branch may be tried on dev)
#   staging  deploys REF, default main
#   prod     deploys REF, which must be a tag v<major>.<minor>
#   --quick  deploys the working tree as it is, without fetching from git
#   --dry-run  prints every command instead of running it
#   --no-build uses the image practice-frontend:ENV-REF already built (a redeploy of the same ref)
#   --smoke  only runs the smoke checks of the environment as deployed (make smoke ENV=...)
#
# A failing smoke check does not roll back: the failures are printed, the exit status is non-zero,
# and reverting means deploying the previous ref.
set -euo pipefail
cd "$(dirname "$0")/../.."

usage() { sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
fail() { echo "deploy: $*" >&2; exit 1; }
# The TypeScript helpers run in one node process (`npx tsx` starts three: npm's, tsx's command line, then node).
tsx() { node --import tsx "$@"; }

ENV_NAME="" REF="" QUICK=0 DRY=0 BUILD=1 SMOKE_ONLY=0
for arg in "$@"; do
  case "$arg" in
    --quick) QUICK=1 ;;
    --dry-run) DRY=1 ;;
    --no-build) BUILD=0 ;;
    --smoke) SMOKE_ONLY=1 ;;
    -h|--help) usage ;;
    -*) fail "unknown option $arg" ;;
    *) if [[ -z "$ENV_NAME" ]]; then ENV_NAME="$arg"; elif [[ -z "$REF" ]]; then REF="$arg"; else usage; fi ;;
  esac
done

# The environment's ref, build constants, ports and limits come from the one map (ops/deploy/environments.json,
# or ENVIRONMENTS_FILE), never from the operator's shell. Build constants are never read from the env file:
# an empty BUILD_CMS_ORIGIN would silently drop frame-ancestors and break the CMS preview iframe.
case "$ENV_NAME" in
  dev|staging|prod) ;;
  "") usage ;;
  *) fail "ENV must be dev, staging or prod, got '$ENV_NAME'" ;;
esac
[[ -z "$REF" || "$REF" =~ ^[A-Za-z0-9._/-]+$ ]] || fail "REF may hold letters, digits and . _ / - only"
map=$(tsx ops/deploy/environments.ts shell "$ENV_NAME") || fail "the environment map is not valid (above)"
eval "$map"
case "$ENV_NAME" in
  dev|staging) REF="${REF:-$MAP_REF}" ;;
  prod)
    (( SMOKE_ONLY )) && [[ -z "$REF" ]] && REF=deployed
    [[ -n "$REF" ]] || fail "a production deploy needs a tag: make deploy ENV=prod REF=v1.4"
    [[ "$REF" =~ ^v[0-9]+\.[0-9]+$ ]] || (( SMOKE_ONLY )) || fail "REF must be a tag of the form v<major>.<minor>, got '$REF'" ;;
esac

# The decrypted env file lives on the server, owner-only, never in git (make decrypt ENV=...).
DEPLOY_ROOT="${DEPLOY_ROOT:-/srv/practice-frontend}"
ENV_FILE="$DEPLOY_ROOT/.env.$ENV_NAME"
# A dry run needs no secrets (it runs where they are not, a developer's machine or CI): without the file it
# says so and shows the commands with the values named; a file that is there must still be owner-only.
ENV_FILE_MISSING=0
if [[ ! -f "$ENV_FILE" ]]; then
  if [[ -f "ops/deploy/secrets/.env.$ENV_NAME.enc" ]]; then next_step="run 'make decrypt ENV=$ENV_NAME' on this server"
  else next_step="nothing is encrypted for $ENV_NAME yet: a first deploy writes it from .env.example (docs/operations.md, \"The first deploy\"; 'make decrypt ENV=$ENV_NAME' says the same)"; fi
  (( DRY )) || fail "$ENV_FILE is missing: $next_step"
  ENV_FILE_MISSING=1
  echo "deploy: (dry run) $ENV_FILE is missing: a real deploy would stop here ('make decrypt ENV=$ENV_NAME' on the server)"
else
  perms=$(stat -c '%a' "$ENV_FILE")
  [[ "$perms" == "600" || "$perms" == "400" ]] || fail "$ENV_FILE must be readable by its owner only (chmod 600), it is $perms"
fi

# Every value the deployment uses comes from the env file, never from the operator's shell: the container
# reads that file, so nginx and the build must too, or they could disagree. The file is read, never sourced.
env_value() {
  (( ENV_FILE_MISSING )) && { printf '<%s of %s>' "$1" "$ENV_FILE"; return; }
  local line
  line=$(grep -E "^$1=" "$ENV_FILE" | tail -n 1) || true
  line="${line#*=}"; line="${line%$'\r'}"
  [[ "$line" =~ ^\"(.*)\"$ || "$line" =~ ^\'(.*)\'$ ]] && line="${BASH_REMATCH[1]}"
  printf '%s' "$line"
}
unset PREVIEW_DOMAIN PUBLIC_ANALYTICS_URL PUBLIC_ANALYTICS_WEBSITE_ID PUBLIC_ERROR_TRACKING_DSN
PREVIEW_DOMAIN="$(env_value PREVIEW_DOMAIN)"
(( ENV_FILE_MISSING )) || [[ "$PREVIEW_DOMAIN" =~ ^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$ ]] \
  || fail "PREVIEW_DOMAIN in $ENV_FILE must be a host name such as preview.example.org, got '$PREVIEW_DOMAIN'"
PUBLIC_ANALYTICS_URL="$(env_value PUBLIC_ANALYTICS_URL)"
PUBLIC_ANALYTICS_WEBSITE_ID="$(env_value PUBLIC_ANALYTICS_WEBSITE_ID)"
PUBLIC_ERROR_TRACKING_DSN="$(env_value PUBLIC_ERROR_TRACKING_DSN)"
export PUBLIC_ANALYTICS_URL PUBLIC_ANALYTICS_WEBSITE_ID PUBLIC_ERROR_TRACKING_DSN

# TLS at the proxy: the operator's certificate and key (docs/decisions/0041-tls-at-the-proxy.md), or in dev and
# staging a self-signed pair made below.
TLS_CERTIFICATE="${TLS_CERTIFICATE:-$DEPLOY_ROOT/tls/practice-sites.crt}"
TLS_KEY="${TLS_KEY:-$DEPLOY_ROOT/tls/practice-sites.key}"
# The smoke checks of the environment as deployed: every instance, then the proxy over HTTPS with its
# certificate trusted (a self-signed one in dev and staging: Node trusts only what NODE_EXTRA_CA_CERTS adds).
SMOKE=(env SMOKE_ENV="$ENV_NAME" SMOKE_PROXY="https://127.0.0.1:${PROXY_HTTPS##*:}" SMOKE_PREVIEW_DOMAIN="$PREVIEW_DOMAIN"
  NODE_EXTRA_CA_CERTS="$TLS_CERTIFICATE" node --import tsx ops/deploy/smoke.ts)
if (( SMOKE_ONLY )); then
  (( ENV_FILE_MISSING )) && fail "$ENV_FILE is missing: the smoke checks of $ENV_NAME read its PREVIEW_DOMAIN"
  # The image's health check too, where nothing runs it on a schedule (podman without systemd).
  if command -v podman >/dev/null && ! docker info >/dev/null 2>&1; then
    for service in "${INSTANCE_SERVICES[@]}"; do
      podman healthcheck run "$PROJECT_NAME-$ENV_NAME-$service" >/dev/null 2>&1 \
        && echo "smoke: $PROJECT_NAME-$ENV_NAME-$service health check: healthy" \
        || echo "smoke: $PROJECT_NAME-$ENV_NAME-$service health check: failed (podman ps shows it unhealthy)"
    done
  fi
  exec "${SMOKE[@]}"
fi

run() {
  if (( DRY )); then printf '+'; printf ' %q' "$@"; printf '\n'; else "$@"; fi
}

if (( QUICK )); then
  # DEPLOY_LABEL names the image of a working-tree deploy (the drills reuse one); else the commit.
  REF="${DEPLOY_LABEL:-$(git rev-parse --short HEAD 2>/dev/null || echo local)}"
  echo "deploy: quick deploy of the working tree ($REF) to $ENV_NAME"
else
  run git fetch --tags --prune origin
  # A tag (v1.2, or any name git knows as a tag) is checked out as the tag; anything else is a branch of origin.
  if [[ "$ENV_NAME" == "prod" || "$REF" =~ ^v[0-9]+\.[0-9]+ ]] || git show-ref --verify -q "refs/tags/$REF"; then
    checkout="refs/tags/$REF" remote_ref="refs/tags/$REF"
  else checkout="origin/$REF" remote_ref="refs/heads/$REF"; fi
  # The ref must exist before anything is built: after the fetch, locally; in a dry run (no fetch), at origin
  # when origin answers, else as this clone last fetched it. A missing branch failed in git checkout, after
  # the dry run had said all was well ("origin/develop": there was no develop branch).
  missing="origin has no ${remote_ref#refs/} (deploy a branch or tag that exists: make deploy ENV=$ENV_NAME REF=<ref>)"
  if (( DRY )); then
    remote=$(git ls-remote origin "$remote_ref" 2>/dev/null) && { [[ -n "$remote" ]] || fail "(dry run) $missing"; } \
      || git rev-parse -q --verify "$checkout^{commit}" >/dev/null \
      || echo "deploy: (dry run) origin did not answer and this clone does not know $checkout: a real deploy fetches, then checks it exists"
  else
    git rev-parse -q --verify "$checkout^{commit}" >/dev/null || fail "$missing"
  fi
  run git checkout --detach "$checkout"
fi
# The image tag: the ref with its slashes made dashes (feature/x -> feature-x).
IMAGE_REF="${REF//\//-}"

# The engine is found, not assumed (ops/deploy/engine.sh): docker compose where a Docker engine answers, else podman.
# shellcheck source=ops/deploy/engine.sh
source ops/deploy/engine.sh
if (( DRY )); then engine_detect; else engine_find; fi
IMAGE="practice-frontend:$ENV_NAME-$IMAGE_REF"
run ops/images/images.sh
if (( BUILD )); then run ops/images/images.sh product "$ENV_NAME" "$IMAGE_REF"
elif (( ! DRY )); then "$ENGINE" image inspect "$IMAGE" >/dev/null 2>&1 || fail "--no-build: $IMAGE is not built"; fi

# The compose file of the environment, generated from the map beside the env file it names.
COMPOSE_FILE="$DEPLOY_ROOT/compose.$ENV_NAME.json"
if (( DRY )); then echo "+ node --import tsx ops/deploy/environments.ts compose $ENV_NAME $IMAGE $ENV_FILE > $COMPOSE_FILE"
else tsx ops/deploy/environments.ts compose "$ENV_NAME" "$IMAGE" "$ENV_FILE" > "$COMPOSE_FILE"; fi
PROJECT=(-p "$PROJECT_NAME-$ENV_NAME" -f "$COMPOSE_FILE")

# The reverse proxy: one nginx container for every environment of this machine (host network, reaching the
# instances' loopback ports), its server names from the same practice list as the frontend's.
# TLS: the operator's certificate and key (docs/decisions/0041-tls-at-the-proxy.md), only named by the config, so
# regenerating it keeps them. Production refuses to go on without them; dev and staging get a self-signed
# pair made once (kept on later deploys).
if [[ ! -s "$TLS_CERTIFICATE" || ! -s "$TLS_KEY" ]]; then
  if [[ "$ENV_NAME" == "prod" ]]; then
    (( DRY )) && echo "deploy: (dry run) $TLS_CERTIFICATE or $TLS_KEY is missing: a real prod deploy would stop here" \
      || fail "$TLS_CERTIFICATE and $TLS_KEY must hold the operator's certificate and key (TLS_CERTIFICATE, TLS_KEY)"
  fi
fi
# dev and staging: a self-signed pair, made once and kept; one that lacks this environment's names (a dev pair,
# then a staging deploy on the same host) gets them added; an operator's certificate lacking them is refused.
if [[ "$ENV_NAME" != "prod" ]]; then
  names=("*.$ENV_NAME.$PREVIEW_DOMAIN")
  [[ -n "$PROXY_MONITORING" ]] && names+=("monitoring.$PREVIEW_DOMAIN")
  run ops/deploy/nginx/self-signed.sh "$TLS_CERTIFICATE" "$TLS_KEY" "${names[@]}"
fi
PROXY_DIR="$DEPLOY_ROOT/proxy"
NEXT="$DEPLOY_ROOT/proxy.next"
# The monitoring alert UI (the map's proxy.monitoring) is served only behind a password: an empty htpasswd
# answers every visitor 401, so it is refused here rather than deployed.
if [[ -n "$PROXY_MONITORING" && ! -s "$PROXY_DIR/htpasswd" ]]; then
  msg="the map serves a monitoring UI ($PROXY_MONITORING) but $PROXY_DIR/htpasswd is empty or missing: printf 'ops:%s\\n' \"\$(openssl passwd -apr1)\" > $PROXY_DIR/htpasswd"
  if (( DRY )); then echo "deploy: (dry run) $msg"; else fail "$msg"; fi
fi
# gen_proxy [PORT...]: regenerates the proxy's configuration, tests it and reloads nginx (graceful: requests in
# flight finish); this environment's upstream lists PORT... (default: the map's instance ports).
gen_proxy() {
  local upstream=()
  (( $# )) && upstream=(--upstream "$ENV_NAME=$(printf '127.0.0.1:%s,' "$@" | sed 's/,$//')")
  rm -rf "$NEXT" && mkdir -p "$NEXT/acme" "$PROXY_DIR"
  cp ops/deploy/nginx/nginx.conf "$NEXT/nginx.conf"
  [[ -f "$PROXY_DIR/htpasswd" ]] && cp -p "$PROXY_DIR/htpasswd" "$NEXT/htpasswd" || : > "$NEXT/htpasswd"
  tsx ops/deploy/nginx/generate.ts --out "$NEXT/practice-sites.conf" --preview-domain "$PREVIEW_DOMAIN" \
    --listen "$PROXY_HTTP" --https-listen "$PROXY_HTTPS" --monitoring-htpasswd /etc/practice-proxy/htpasswd \
    --monitoring-upstream "$PROXY_MONITORING" \
    --acme-root /etc/practice-proxy/acme \
    --tls-certificate /etc/practice-proxy-tls/practice-sites.crt --tls-key /etc/practice-proxy-tls/practice-sites.key \
    "${upstream[@]}"
  # The new configuration is tested in a throw-away container before it replaces the running one's.
  "$ENGINE" run --rm --network host -v "$NEXT:/etc/practice-proxy:ro" \
    -v "$TLS_CERTIFICATE:/etc/practice-proxy-tls/practice-sites.crt:ro" -v "$TLS_KEY:/etc/practice-proxy-tls/practice-sites.key:ro" \
    docker.io/library/nginx:stable-bookworm nginx -q -t -c /etc/practice-proxy/nginx.conf
  # Copied into the mounted directory (a renamed directory would leave the container on the old one).
  cp -rp "$NEXT/." "$PROXY_DIR/" && rm -rf "$NEXT"
  if [[ "$("$ENGINE" container inspect -f '{{.State.Running}}' "$PROJECT_NAME-proxy" 2>/dev/null)" == true ]]; then
    # A reload is graceful but asynchronous: the old workers go on sending requests to the old upstreams
    # until they have finished theirs. The caller stops an instance just taken out of the upstream, so wait
    # (up to 20 s) until the workers running before the reload have exited.
    # A container started moments ago (the first call of this deploy) runs before its nginx has written its pid file,
    # and a reload then fails ("open() /tmp/nginx.pid failed": seen in a drill): wait for it (up to 20 s).
    for _ in $(seq 1 80); do
      "$ENGINE" exec "$PROJECT_NAME-proxy" test -s /tmp/nginx.pid 2>/dev/null && break
      sleep 0.25
    done
    local workers='for p in /proc/[0-9]*; do grep -qa "worker process" "$p/cmdline" 2>/dev/null && echo "${p#/proc/}"; done' old
    old=$("$ENGINE" exec "$PROJECT_NAME-proxy" sh -c "$workers" | tr '\n' ' ')
    "$ENGINE" exec "$PROJECT_NAME-proxy" nginx -s reload -c /etc/practice-proxy/nginx.conf
    for _ in $(seq 1 40); do
      [[ -z "$("$ENGINE" exec "$PROJECT_NAME-proxy" sh -c "for p in $old; do [ -d /proc/\$p ] && echo \$p; done")" ]] && break
      sleep 0.5
    done
  else
    # Started with the engine itself, not compose: podman-compose 1.0.3 adds a network to a host-network
    # service, which podman refuses.
    "$ENGINE" rm -f "$PROJECT_NAME-proxy" >/dev/null 2>&1 || true
    "$ENGINE" run -d --name "$PROJECT_NAME-proxy" --network host --restart unless-stopped \
      -v "$PROXY_DIR:/etc/practice-proxy:ro" -v "$TLS_CERTIFICATE:/etc/practice-proxy-tls/practice-sites.crt:ro" \
      -v "$TLS_KEY:/etc/practice-proxy-tls/practice-sites.key:ro" \
      docker.io/library/nginx:stable-bookworm nginx -g "daemon off;" -c /etc/practice-proxy/nginx.conf >/dev/null
  fi
}
proxy() { # [PORT...]
  if (( DRY )); then
    local upstream=""
    (( $# )) && upstream=" --upstream $ENV_NAME=$(printf '127.0.0.1:%s,' "$@" | sed 's/,$//')"
    echo "+ node --import tsx ops/deploy/nginx/generate.ts --out $NEXT/practice-sites.conf --preview-domain $PREVIEW_DOMAIN --listen $PROXY_HTTP --https-listen $PROXY_HTTPS --tls-certificate $TLS_CERTIFICATE --tls-key $TLS_KEY$upstream"
    echo "+ $ENGINE run --rm nginx:stable-bookworm nginx -t (the new configuration), then reload or start $PROJECT_NAME-proxy"
  else gen_proxy "$@"; fi
}

# Waits until an instance answers /readyz (seeded, joined, its backend answering), at most
# DEPLOY_READY_TIMEOUT_S (3 minutes): a new instance slower than that is refused. On a timeout it prints the
# instance's own reason (/readyz answers 503 with it, docs/decisions/0050-readiness-probed.md).
READY_TIMEOUT_S="${DEPLOY_READY_TIMEOUT_S:-180}"
[[ "$READY_TIMEOUT_S" =~ ^[1-9][0-9]*$ ]] || fail "DEPLOY_READY_TIMEOUT_S must be a number of seconds"
wait_ready() { # port name
  local deadline=$((SECONDS + READY_TIMEOUT_S))
  while (( SECONDS < deadline )); do
    curl -fsS -o /dev/null --max-time 2 "http://127.0.0.1:$1/readyz" 2>/dev/null && return 0
    sleep 0.5
  done
  local reason
  reason=$(curl -sS --max-time 5 "http://127.0.0.1:$1/readyz" 2>&1) || true
  echo "deploy: $2 is not ready after ${READY_TIMEOUT_S} s: ${reason:-no answer} (${ENGINE:-podman} logs $PROJECT_NAME-$ENV_NAME-$2)" >&2
  return 1
}
container_exists() { "$ENGINE" container inspect "$1" >/dev/null 2>&1; }

# A removed container's host port is free a moment after `rm` returns (podman: its conmon lets go of it after):
# the instance started again at once on its port found it still bound ("address already in use") and never
# started (a container drill, 2026-11-26). Wait, 30 s at most, until the port can be bound again.
port_free() { node -e 'const s = require("net").createServer(); s.once("error", () => process.exit(1)); s.listen(Number(process.argv[1]), "127.0.0.1", () => s.close());' "$1"; }
# Up to 60 s by the clock (a CI drill once saw podman hold a removed instance's port past 30 s on a busy machine); when
# it is still taken, says what holds it, for the operator who has to free it.
PORT_FREE_SECONDS=60
wait_port_free() {
  local until=$((SECONDS + PORT_FREE_SECONDS))
  while ((SECONDS < until)); do port_free "$1" && return 0; sleep 0.5; done
  port_free "$1" && return 0
  echo "deploy: port $1 is held by: $(ss -Hltnp "sport = :$1" 2>/dev/null | tr -s ' ' | head -3 || echo "(ss not available)")" >&2
  return 1
}

# Each instance is replaced without a gap, and only by a new instance proven first:
#   1. the new one starts beside it, as the candidate (the service <name>-next of the compose file: same image,
#      env file, network and Redis, on the instance port + 1000), is waited for and smoke-checked there;
#      refused, it is removed and the deploy stops: the old instance was never touched and still serves;
#   2. nginx is pointed at the candidate and reloaded (graceful), then the old instance is stopped (SIGTERM:
#      it drains the requests it holds);
#   3. the new image starts on the instance's own port and name, and once ready nginx is pointed back and
#      the candidate stopped (drained too).
# At rest every instance is on its map port under its compose name, so a deploy never has to find out which
# port is live. The other instances serve throughout.
(( HAS_REDIS )) && run "${COMPOSE[@]}" "${PROJECT[@]}" up -d redis
for i in "${!INSTANCE_SERVICES[@]}"; do
  service="${INSTANCE_SERVICES[$i]}" port="${INSTANCE_PORTS[$i]}"
  candidate="${CANDIDATE_SERVICES[$i]}" candidate_port="${CANDIDATE_PORTS[$i]}"
  live="$PROJECT_NAME-$ENV_NAME-$service" next="$PROJECT_NAME-$ENV_NAME-$candidate"
  # A candidate left by an interrupted deploy is not serving (nginx points back at the instance at rest).
  (( DRY )) || ! container_exists "$next" || "$ENGINE" rm -f -t 0 "$next" >/dev/null
  run "${COMPOSE[@]}" "${PROJECT[@]}" up -d --no-deps "$candidate"
  # The smoke checks of one instance, and every practice the live instance serves must be served by the new one.
  CHECK=(env SMOKE_HOST="http://127.0.0.1:$candidate_port" SMOKE_COMPARE="http://127.0.0.1:$port" node --import tsx ops/deploy/smoke.ts)
  if (( DRY )); then
    echo "+ wait until http://127.0.0.1:$candidate_port/readyz answers 200"
    run "${CHECK[@]}"
  elif ! wait_ready "$candidate_port" "$candidate" || ! "${CHECK[@]}"; then
    "$ENGINE" rm -f -t 0 "$next" >/dev/null
    fail "REFUSED: the new instance of $service ($IMAGE) did not pass (above) and was removed; $live was not touched and still serves"
  fi
  # The other instances keep their map ports in the proxy meanwhile.
  ports=("${INSTANCE_PORTS[@]}"); ports[i]="$candidate_port"
  proxy "${ports[@]}"
  if (( DRY )) || container_exists "$live"; then run "$ENGINE" rm -f -t 15 "$live"; fi
  (( DRY )) || wait_port_free "$port" || fail "$service: port $port still taken $PORT_FREE_SECONDS s after $live was removed; nginx still sends its traffic to $next, which serves the new image"
  run "${COMPOSE[@]}" "${PROJECT[@]}" up -d --no-deps "$service"
  if (( DRY )); then echo "+ wait until http://127.0.0.1:$port/readyz answers 200"
  else wait_ready "$port" "$service" || fail "$service did not start on its own port: nginx still sends its traffic to $next, which serves the new image; deploy again once the cause is fixed"; fi
  # podman without systemd has no timer for the image's HEALTHCHECK: its status would stay "starting" for
  # ever. Run once now that the instance is ready, it says "healthy" (make smoke ENV=... runs it again).
  [[ "${ENGINE:-}" == podman ]] && { run "$ENGINE" healthcheck run "$live" || echo "deploy: $live is ready but its health check failed (podman healthcheck run $live)" >&2; }
  proxy
  run "$ENGINE" rm -f -t 15 "$next"
done

# The smoke checks run against every instance of the environment, then through the proxy over HTTPS.
if (( DRY )); then
  run "${SMOKE[@]}"
  echo "deploy: dry run: nothing was changed; the commands above would deploy $REF to $ENV_NAME"
  exit 0
fi
echo "deploy: $ENV_NAME is at $REF; running the smoke checks"
if ! run "${SMOKE[@]}"; then
  echo "deploy: smoke checks FAILED on $ENV_NAME ($REF). No rollback was done: redeploy the previous ref to revert." >&2
  exit 1
fi
echo "deploy: $ENV_NAME ($REF) is live and passed the smoke checks"
