#!/usr/bin/env bash
# Runs the product as a cluster on this machine: a dedicated Redis, the demo content backend, two
# production server instances sharing that Redis, and nginx in front of both (README, "Several
# instances"). Prints how to watch an edit reach both instances. Ctrl-C stops everything.
set -euo pipefail
cd "$(dirname "$0")/../.."

set -a
# shellcheck disable=SC1091
source .env.development
set +a
PORT_A="${PORT_A:-3000}"
PORT_B="${PORT_B:-3001}"
NGINX_PORT="${NGINX_PORT:-8080}"
REDIS_PORT="${REDIS_PORT:-6390}"
DEMO_BACKEND_PORT="${DEMO_BACKEND_PORT:-4000}"
WORK="$PWD/tmp/demo-cluster"
# The instances read the demo backend wherever it listens (.env.development names port 4000).
backend_origin="http://127.0.0.1:${DEMO_BACKEND_PORT}"
export BACKEND_API_URL="${backend_origin}/api/v1/websites" BUILD_API_URL="${backend_origin}/api/v1/websites"
export BUILD_CMS_ORIGIN="$backend_origin"
# shellcheck source=ops/demo/demo-build.sh
source ops/demo/demo-build.sh

for port in "$PORT_A" "$PORT_B" "$NGINX_PORT" "$REDIS_PORT" "$DEMO_BACKEND_PORT"; do
  if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
    echo "Port $port is already in use: stop what listens there, or set PORT_A / PORT_B / NGINX_PORT / REDIS_PORT / DEMO_BACKEND_PORT." >&2
    exit 1
  fi
done
for tool in redis-server nginx; do
  command -v "$tool" >/dev/null || { echo "$tool is missing: run 'make chromium' (installs Debian's nginx and redis-server)." >&2; exit 1; }
done

rm -rf "$WORK" && mkdir -p "$WORK"

pids=()
cleanup() {
  [[ -f "$WORK/nginx.pid" ]] && nginx -c "$WORK/nginx.conf" -p "$WORK" -s stop 2>/dev/null || true
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
}
trap cleanup EXIT
trap 'exit 130' INT TERM

redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --save "" --appendonly no --maxmemory 128mb \
  --maxmemory-policy allkeys-lru --logfile "$WORK/redis.log" &
pids+=($!)

# The backend's webhook goes to instance A; the invalidation reaches B through Redis.
FRONTEND_URL="http://127.0.0.1:${PORT_A}" FRONTEND_REVALIDATION_SECRET="$REVALIDATION_SECRET" \
  DEMO_BACKEND_PORT="$DEMO_BACKEND_PORT" node --import tsx ops/demo/backend/main.ts > "$WORK/backend.log" 2>&1 &
pids+=($!)
for _ in $(seq 1 100); do
  curl -fs -o /dev/null "${backend_origin}/api/v1/websites/sites/dupont/config/" 2>/dev/null && break
  sleep 0.1
done
# The build's pre-pass reads the backend: built once it answers, and only when something changed.
build_if_changed

export CACHE_URL="redis://127.0.0.1:${REDIS_PORT}/8"
for port in "$PORT_A" "$PORT_B"; do
  PORT="$port" METRICS_PORT="$((port + 10000))" node server/entry.express.js > "$WORK/instance-$port.log" 2>&1 &
  pids+=($!)
done
for port in "$PORT_A" "$PORT_B"; do
  for _ in $(seq 1 100); do
    curl -fs -o /dev/null "http://127.0.0.1:${port}/readyz" 2>/dev/null && break
    sleep 0.1
  done
done

: > "$WORK/htpasswd"
npx tsx ops/deploy/nginx/generate.ts --out "$WORK/practice-sites.conf" --preview-domain localhost \
  --listen "127.0.0.1:${NGINX_PORT}" --monitoring-htpasswd "$WORK/htpasswd" \
  --upstream "dev=127.0.0.1:${PORT_A},127.0.0.1:${PORT_B}"
cat > "$WORK/nginx.conf" <<CONF
worker_processes 1;
pid $WORK/nginx.pid;
error_log $WORK/nginx-error.log;
events { worker_connections 256; }
http {
  access_log off;
  client_body_temp_path $WORK/body; proxy_temp_path $WORK/proxy; fastcgi_temp_path $WORK/fcgi;
  uwsgi_temp_path $WORK/uwsgi; scgi_temp_path $WORK/scgi;
  include $WORK/practice-sites.conf;
}
CONF
nginx -c "$WORK/nginx.conf" -p "$WORK"

cat <<TEXT

Cluster up: Redis :$REDIS_PORT (database 8), instances A :$PORT_A and B :$PORT_B, nginx :$NGINX_PORT in front.
Logs in $WORK/.

  Through nginx:   http://dupont.dev.localhost:$NGINX_PORT/
  Instance A:      http://dupont.dev.localhost:$PORT_A/     Instance B: http://dupont.dev.localhost:$PORT_B/

Watch an edit reach both (the backend's webhook goes to A only):

  title() { curl -s -H 'Host: dupont.dev.localhost' "http://127.0.0.1:\$1/tarifs/" | grep -o '<title[^>]*>[^<]*'; }
  title $PORT_A; title $PORT_B
  curl -s -X PATCH http://127.0.0.1:$DEMO_BACKEND_PORT/admin/sites/dupont/pages/tarifs \\
       -H 'content-type: application/json' -d '{"title": "Tarifs modifiés"}' | grep -o '"webhook":{[^}]*}'
  title $PORT_A; title $PORT_B

Stop one instance (kill the node process on :$PORT_B) and nginx keeps answering; stop Redis and both keep
serving (the webhook then answers 503: see README, "Several instances").
Ctrl-C stops everything.
TEXT
# Runs until Ctrl-C (or the demo backend ends): stopping Redis or an instance is part of the demo, not its end.
wait "${pids[1]}"
