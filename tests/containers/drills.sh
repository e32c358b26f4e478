#!/usr/bin/env bash
# The container drills (make test-containers, not part of make test): deploys dev and prod for real with the
# machine's engine on ports 42100-42199 under the project name pf-drill (never an operator's containers),
# runs the failure drills (tests/containers/drills.ts) and prints the figures. Everything it starts is
# removed at the end, also on failure or Ctrl-C; the images are kept (the next run is warm).
set -euo pipefail
cd "$(dirname "$0")/../.."
# One run of the drills at a time on a machine. They own fixed names and ports (pf-drill-*, 42100-42199, the
# backend's 42140) and their cleanup removes every pf-drill-* container: a second run beside this one (a second
# CI run on the same machine) would take the backend's port, or remove this run's containers under it. A CI
# run's first deploy failed so (its candidate found no backend: ECONNREFUSED); the second run waits instead.
LOCK=${PF_DRILL_LOCK:-/tmp/pf-drill.lock}
exec 9>>"$LOCK"
if ! flock -n 9; then
  echo "drills: another run of the drills holds $LOCK; waiting for it (at most 45 min)"
  flock -w 2700 9 || { echo "drills: $LOCK still held after 45 min" >&2; exit 1; }
fi
WORK=$(mktemp -d /tmp/pf-drill.XXXXXX)
BACKEND_PID="" DRILLS_PID=""
kill_tree() { local child; for child in $(pgrep -P "$1"); do kill_tree "$child"; done; kill "$1" 2>/dev/null || true; }
cleanup() {
  local status=$?
  # The drills' whole process group: a build or deploy they run is stopped with them.
  [[ -n "$DRILLS_PID" ]] && kill -- "-$DRILLS_PID" 2>/dev/null || true
  # The demo backend the first deploy started (npm run, then its children), by process id.
  [[ -n "$BACKEND_PID" ]] && kill_tree "$BACKEND_PID"
  rm -f demo-backend.log
  if command -v podman >/dev/null 2>&1; then
    podman ps -a --format '{{.Names}}' | grep -E '^pf-drill-' | xargs -r podman rm -f -t 0 >/dev/null 2>&1 || true
    podman network ls --format '{{.Name}}' | grep -E '^pf-drill-' | xargs -r podman network rm -f >/dev/null 2>&1 || true
  fi
  rm -rf "$WORK"
  echo "drills: containers, networks and $WORK removed"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

mkdir -p "$WORK/deploy"
cat > "$WORK/environments.json" <<'JSON'
{
  "project": "pf-drill",
  "proxy": { "http": "127.0.0.1:42180", "https": "127.0.0.1:42143" },
  "environments": {
    "dev": { "ref": "main", "buildApiUrl": "https://cms.dev.praticiens.example.org/api/v1/websites", "buildCmsOrigin": "https://cms.dev.praticiens.example.org",
      "instancePorts": [42102], "memory": "512m", "heapMb": 192, "renderWorkers": 2, "pageCacheMb": 96, "redis": null },
    "staging": { "ref": "main", "buildApiUrl": "https://cms.staging.praticiens.example.org/api/v1/websites", "buildCmsOrigin": "https://cms.staging.praticiens.example.org",
      "instancePorts": [42101], "memory": "512m", "heapMb": 192, "renderWorkers": 2, "pageCacheMb": 96, "redis": null },
    "prod": { "ref": null, "buildApiUrl": "https://cms.praticiens.example.org/api/v1/websites", "buildCmsOrigin": "https://cms.praticiens.example.org",
      "instancePorts": [42110, 42113], "memory": "1g", "heapMb": 512, "renderWorkers": 2, "pageCacheMb": 256,
      "redis": { "port": 42179, "db": 6, "maxMemoryMb": 256 } }
  }
}
JSON
BACKEND_PORT=42140
for env in staging prod; do
  printf 'BACKEND_API_URL=http://host.containers.internal:%s/api/v1/websites\nREVALIDATION_SECRET=drill-secret-0123456789abcdef\nPREVIEW_DOMAIN=preview.example.org\n' \
    "$BACKEND_PORT" > "$WORK/deploy/.env.$env"
  # prod has a Redis in the map: its instances join it with the password of the env file (ops/deploy/environments.ts).
  [[ $env == prod ]] && printf 'CACHE_URL=redis://:%s@redis:6379/6\n' "$(openssl rand -hex 16)" >> "$WORK/deploy/.env.$env"
  chmod 600 "$WORK/deploy/.env.$env"
done
# One certificate for every name the proxy serves here (production uses the operator's).
mapfile -t domains < <(node -e 'for (const p of require("./tenants/practices.json")) for (const d of p.domains) console.log(d)')
ops/deploy/nginx/self-signed.sh "$WORK/deploy/tls/practice-sites.crt" "$WORK/deploy/tls/practice-sites.key" \
  "${domains[@]}" '*.dev.preview.example.org' '*.prod.preview.example.org' monitoring.preview.example.org

export ENVIRONMENTS_FILE="$WORK/environments.json" DEPLOY_ROOT="$WORK/deploy" DRILL_BACKEND="http://127.0.0.1:$BACKEND_PORT"

# 0. The first deploy, as docs/operations.md writes it ("The first deploy"): each line of its block, in order, in
# this shell, dev's env file and the demo backend (the drills' backend) included. The departures are this run's
# places and ports: DEPLOY_ROOT (its `export DEPLOY_ROOT=` line is skipped), the secrets key and folder (never
# the clone's own encrypted files), the backend's port (the env file's :4000 becomes the drills' port), the map
# (ENVIRONMENTS_FILE) and the image's name (DEPLOY_LABEL).
export SECRETS_KEY_FILE="$WORK/secrets.key" SECRETS_DIR="$WORK/secrets" DEMO_BACKEND_PORT=$BACKEND_PORT DEPLOY_LABEL=drill
mapfile -t steps < <(awk '/^## The first deploy/ { f = 1 } f && /^```sh/ { b = 1; next } b && /^```/ { exit } b' docs/operations.md)
(( ${#steps[@]} >= 8 )) || { echo "drills: no first-deploy block in docs/operations.md" >&2; exit 1; }
first_start=$SECONDS
for step in "${steps[@]}"; do
  [[ "$step" =~ ^export\ DEPLOY_ROOT= ]] && continue
  started=$SECONDS
  if ! eval "$step" >> "$WORK/first-deploy.log" 2>&1; then
    tail -n 40 "$WORK/first-deploy.log" >&2
    # The backend's side of the same minutes (a candidate that cannot reach it says only ECONNREFUSED).
    if [[ -f demo-backend.log ]]; then
      state="not started by this run"
      [[ -n "$BACKEND_PID" ]] && { kill -0 "$BACKEND_PID" 2>/dev/null && state="pid $BACKEND_PID, running" || state="pid $BACKEND_PID, exited"; }
      echo "drills: demo-backend.log (the backend: $state):" >&2
      tail -n 20 demo-backend.log >&2
    fi
    echo "drills: the first deploy of docs/operations.md failed at: $step" >&2
    exit 1
  fi
  if [[ "$step" == *"npm run demo-backend"* ]]; then
    BACKEND_PID=$!
    # The backend is started in the background: the next step's container must find it listening. It prints
    # its address once it listens; if it exits first (its port taken, a broken install), say so here with its
    # own words, not three minutes later as a candidate that cannot reach it.
    until grep -q '^demo backend listening on' demo-backend.log 2>/dev/null; do
      if ! kill -0 "$BACKEND_PID" 2>/dev/null; then
        cat demo-backend.log >&2
        echo "drills: the demo backend exited before listening on port $BACKEND_PORT (above)" >&2
        exit 1
      fi
      (( SECONDS - started < 120 )) || { cat demo-backend.log >&2; echo "drills: the demo backend is not listening after 120 s" >&2; exit 1; }
      sleep 0.2
    done
  fi
  [[ "$step" == *".env.example"* ]] && sed -i "s/:4000\//:$BACKEND_PORT\//" "$DEPLOY_ROOT/.env.dev"
  echo "drills: first deploy: $((SECONDS - started)) s: ${step%%#*}"
done
grep -E '^(deploy|smoke: dev)' "$WORK/first-deploy.log" | tail -n 3
echo "drills: first deploy (docs/operations.md, every step): $((SECONDS - first_start)) s"
# In the background and waited for: a TERM to this script runs the cleanup at once (bash runs a trap only
# after the foreground command ends), and the cleanup stops the drills first, in their own process group.
NODE_EXTRA_CA_CERTS="$WORK/deploy/tls/practice-sites.crt" setsid node --import tsx tests/containers/drills.ts &
DRILLS_PID=$!
wait "$DRILLS_PID"
