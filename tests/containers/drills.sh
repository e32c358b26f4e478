#!/usr/bin/env bash
# The container drills (make test-containers, not part of make test): deploys dev and prod for real with the
# machine's engine on ports 42100-42199 under the project name pf-drill (never an operator's containers),
# runs the failure drills (tests/containers/drills.ts) and prints the figures. Everything it starts is
# removed at the end, also on failure or Ctrl-C; the images are kept (the next run is warm).
set -euo pipefail
cd "$(dirname "$0")/../.."
WORK=$(mktemp -d /tmp/pf-drill.XXXXXX)
BACKEND_PID="" DRILLS_PID=""
cleanup() {
  local status=$?
  # The drills' whole process group: a build or deploy they run is stopped with them.
  [[ -n "$DRILLS_PID" ]] && kill -- "-$DRILLS_PID" 2>/dev/null || true
  [[ -n "$BACKEND_PID" ]] && kill "$BACKEND_PID" 2>/dev/null || true
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
    "dev": { "ref": "develop", "buildApiUrl": "https://cms.dev.praticiens.example.org/api/v1/websites", "buildCmsOrigin": "https://cms.dev.praticiens.example.org",
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
for env in dev staging prod; do
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

# The demo content backend, on the host: the containers reach it as host.containers.internal.
DEMO_BACKEND_HOST=0.0.0.0 DEMO_BACKEND_PORT=$BACKEND_PORT node --import tsx ops/demo/backend/main.ts > "$WORK/backend.log" 2>&1 &
BACKEND_PID=$!

export ENVIRONMENTS_FILE="$WORK/environments.json" DEPLOY_ROOT="$WORK/deploy" DRILL_BACKEND="http://127.0.0.1:$BACKEND_PORT"
# In the background and waited for: a TERM to this script runs the cleanup at once (bash runs a trap only
# after the foreground command ends), and the cleanup stops the drills first, in their own process group.
NODE_EXTRA_CA_CERTS="$WORK/deploy/tls/practice-sites.crt" setsid node --import tsx tests/containers/drills.ts &
DRILLS_PID=$!
wait "$DRILLS_PID"
