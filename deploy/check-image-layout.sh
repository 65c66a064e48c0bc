#!/usr/bin/env bash
# What apps/api/Dockerfile does, without a container builder: build the workspace packages the API imports,
# `pnpm deploy --prod` the API into a scratch folder, drop the source maps, then start the server from there
# (no `@spkg/source` condition, NODE_ENV=production settings except the issuer) on a fresh PostgreSQL database and
# check /api/health/ready, the player at /, /metrics on METRICS_PORT only, and a clean exit on SIGTERM.
# Usage: deploy/check-image-layout.sh   (needs DATABASE_URL's server, default postgres://postgres@127.0.0.1:5432/postgres)
# Takes a few minutes (the builds); not part of the test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
base=${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}
out=$(mktemp -d /tmp/spkg-image-layout.XXXXXX)
db=spkg_layout_$RANDOM$RANDOM
pid=
cleanup() {
  [ -n "$pid" ] && kill "$pid" 2>/dev/null || true
  psql "$base" -qc "drop database if exists $db with (force)" >/dev/null 2>&1 || true
  rm -rf "$out"
}
trap cleanup EXIT

pnpm --filter "@spkg/api^..." build >/dev/null
pnpm --filter @spkg/player build >/dev/null
pnpm --filter @spkg/api deploy --prod --legacy "$out/app" >/dev/null
cp -r apps/player/dist "$out/app/player"
find "$out/app" -name '*.map' -type f -delete
for dev in drizzle-kit s3rver vitest typescript; do
  if [ -e "$out/app/node_modules/$dev" ]; then echo "FAIL: devDependency $dev in the deployed tree"; exit 1; fi
done
echo "deployed: $(du -sh "$out/app" | cut -f1)"

psql "$base" -qc "create database $db"
url=${base%/*}/$db
port=$((20000 + RANDOM % 20000)); mport=$((port + 1))
(cd "$out/app" && NODE_ENV=production PLAYER_DIR="$out/app/player" HOST=127.0.0.1 PORT=$port METRICS_PORT=$mport DATABASE_URL=$url \
  OIDC_ISSUER=https://id.invalid PUBLIC_URL=https://api.example.org LOG_LEVEL=warn \
  exec node --import tsx src/server.ts) >"$out/server.log" 2>&1 &
pid=$!
for _ in $(seq 1 120); do
  curl -sf "http://127.0.0.1:$port/api/health/ready" >/dev/null && break
  kill -0 "$pid" 2>/dev/null || { cat "$out/server.log"; echo "FAIL: the server exited"; exit 1; }
  sleep 0.5
done
test "$(curl -s "http://127.0.0.1:$port/api/health/ready")" = '{"status":"ready"}' || { echo "FAIL: not ready"; exit 1; }
curl -sf "http://127.0.0.1:$port/" | grep -qi '<!doctype html>' || { echo "FAIL: the player is not served at /"; exit 1; }
test "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/metrics")" = 404 || { echo "FAIL: /metrics on the public port"; exit 1; }
curl -sf "http://127.0.0.1:$mport/metrics" | grep -q '^spkg_database_up 1$' || { echo "FAIL: metrics"; exit 1; }
kill -TERM "$pid"
wait "$pid" && code=0 || code=$?
pid=
test "$code" = 0 || { cat "$out/server.log"; echo "FAIL: exit $code on SIGTERM"; exit 1; }
echo "OK: the deployed layout starts, is ready, serves the player at / and metrics on METRICS_PORT only, exits 0 on SIGTERM"
