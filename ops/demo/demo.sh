#!/usr/bin/env bash
# Runs the product on its embedded default: the demo content backend with the demo practices, then
# the production server (or, with --dev, the vite dev server). Ctrl-C stops both.
set -euo pipefail
cd "$(dirname "$0")/../.."

set -a
# shellcheck disable=SC1091
source .env.development
set +a
export PORT="${PORT:-3000}"
DEMO_BACKEND_PORT="${DEMO_BACKEND_PORT:-4000}"
# .env.development names port 4000: every URL of the backend follows DEMO_BACKEND_PORT instead.
backend_origin="http://127.0.0.1:${DEMO_BACKEND_PORT}"
export BACKEND_API_URL="${backend_origin}/api/v1/websites" BUILD_API_URL="${backend_origin}/api/v1/websites"
export BUILD_CMS_ORIGIN="$backend_origin"
export FRONTEND_URL="http://127.0.0.1:${PORT}"
export FRONTEND_REVALIDATION_SECRET="$REVALIDATION_SECRET"
# For people: the JSON log lines printed readable (pino-pretty); containers keep JSON (LOG_FORMAT=json).
export LOG_FORMAT="${LOG_FORMAT:-pretty}"
export METRICS_PORT="${METRICS_PORT:-9464}"
# The pre-pass renders for the URLs printed below (http, the preview host, this port), not the practices'
# https://www… domains: the cache key holds scheme, host and port, so the first page of the demo is a HIT.
# A BUILD_ constant: a demo on another PORT rebuilds (ops/demo/demo-build.sh).
demo_origins="http://{code}.${ENVIRONMENT}.${PREVIEW_DOMAIN}:${PORT}"
export BUILD_PREPASS_ORIGINS="${BUILD_PREPASS_ORIGINS:-$demo_origins}"
# shellcheck source=ops/demo/demo-build.sh
source ops/demo/demo-build.sh

for port in "$PORT" "$DEMO_BACKEND_PORT"; do
  if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
    echo "Port $port is already in use: stop what listens there, or set PORT / DEMO_BACKEND_PORT." >&2
    exit 1
  fi
done

# Every child is a process of its own (node, not npx's wrapper, which would outlive a kill), and every one
# is stopped when this script ends, however it ends: Ctrl-C, or the server exiting on its own.
pids=()
stop_children() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
}
trap stop_children EXIT
trap 'exit 130' INT TERM

DEMO_BACKEND_PORT="$DEMO_BACKEND_PORT" node --import tsx ops/demo/backend/main.ts &
pids+=($!)
backend_pid=$!
# With the build in place, the server starts beside the backend instead of after it (both take seconds to
# load): a second `make demo` is ready sooner. It becomes ready once its probe finds the backend.
server_started=""
if [[ "${1:-}" != "--dev" ]] && build_is_current; then
  echo "Build up to date (nothing changed since the last demo build): not rebuilding."
  node server/entry.express.js &
  pids+=($!)
  server_started=1
fi
for _ in $(seq 1 100); do
  curl -fs -o /dev/null "${backend_origin}/api/v1/websites/sites/dupont/config/" 2>/dev/null && break
  kill -0 "$backend_pid" 2>/dev/null || { echo "The demo backend exited before answering." >&2; exit 1; }
  sleep 0.1
done

codes=$(node -e 'for (const p of require("./tenants/practices.json")) console.log(p.code)')
print_urls() {
  echo
  echo "Demo practices (Chromium and most systems resolve *.localhost to this machine):"
  for code in $codes; do
    # The backend decides who is live: an inactive practice answers 404, and so does its site.
    if curl -fs -o /dev/null "${backend_origin}/api/v1/websites/sites/${code}/config/" 2>/dev/null; then
      echo "  http://${code}.dev.localhost:${PORT}/"
    else
      echo "  http://${code}.dev.localhost:${PORT}/  (inactive in the backend: answers 404)"
    fi
  done
  echo "Demo backend admin API: ${backend_origin}/admin/  (see README)"
  if [[ "${1:-}" != "--dev" && "$METRICS_PORT" != "0" ]]; then
    echo "Metrics: http://127.0.0.1:${METRICS_PORT}/metrics   operator: npm run ops -- practices|cache|purge <code>"
  fi
  echo
}

if [[ "${1:-}" == "--dev" ]]; then
  print_urls --dev
  node node_modules/vite/bin/vite.js --mode ssr --port "$PORT" --host 0.0.0.0 &
  pids+=($!)
elif [[ -n "$server_started" ]]; then
  print_urls
else
  build_if_changed
  print_urls
  node server/entry.express.js &
  pids+=($!)
fi
# Ends when any child ends (the server exiting stops the backend too, through the EXIT trap).
wait -n "${pids[@]}"
