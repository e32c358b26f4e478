#!/usr/bin/env bash
# Runs the product on its embedded default: the demo content backend with the demo practices, then
# the production server (or, with --dev, the vite dev server). Ctrl-C stops both.
set -euo pipefail
cd "$(dirname "$0")/.."

set -a
# shellcheck disable=SC1091
source .env.development
set +a
export PORT="${PORT:-3000}"
DEMO_BACKEND_PORT="${DEMO_BACKEND_PORT:-4000}"
export FRONTEND_URL="http://127.0.0.1:${PORT}"
export FRONTEND_REVALIDATION_SECRET="$REVALIDATION_SECRET"

for port in "$PORT" "$DEMO_BACKEND_PORT"; do
  if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
    echo "Port $port is already in use: stop what listens there, or set PORT / DEMO_BACKEND_PORT." >&2
    exit 1
  fi
done

DEMO_BACKEND_PORT="$DEMO_BACKEND_PORT" npx tsx ops/demo-backend/main.ts &
backend_pid=$!
trap 'kill $backend_pid 2>/dev/null || true' EXIT
for _ in $(seq 1 50); do
  curl -fsS -o /dev/null "http://127.0.0.1:${DEMO_BACKEND_PORT}/api/v1/websites/sites/dupont/config/" && break
  sleep 0.2
done

codes=$(node -e 'for (const p of require("./tenants/practices.json")) console.log(p.code)')
print_urls() {
  echo
  echo "Demo practices (Chromium and most systems resolve *.localhost to this machine):"
  for code in $codes; do
    # The backend decides who is live: an inactive practice answers 404, and so does its site.
    if curl -fsS -o /dev/null "http://127.0.0.1:${DEMO_BACKEND_PORT}/api/v1/websites/sites/${code}/config/"; then
      echo "  http://${code}.dev.localhost:${PORT}/"
    else
      echo "  http://${code}.dev.localhost:${PORT}/  (inactive in the backend: answers 404)"
    fi
  done
  echo "Demo backend admin API: http://127.0.0.1:${DEMO_BACKEND_PORT}/admin/  (see README)"
  echo
}

if [[ "${1:-}" == "--dev" ]]; then
  print_urls
  npx vite --mode ssr --port "$PORT" --host 0.0.0.0
else
  npm run build
  print_urls
  node server/entry.express.js
fi
