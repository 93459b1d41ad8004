#!/usr/bin/env bash
# Opt-in check of the container files on a machine with a container engine (not part of `npm test`):
# builds the image, runs compose.yaml's production shape (PostgreSQL, Redis, the one-shot migration,
# two APIs, a worker) as the project `tessera-check` with throwaway secrets, and checks that
#   - each API answers /healthz with package.json's version and its container turns healthy,
#   - the processes run as a non-root user, the worker runs, and the `tessera` CLI works inside;
# then removes the project's containers and volumes.
#
#   bash scripts/container-check.sh
#
# CHECK_API_1_PORT / CHECK_API_2_PORT: host ports of the APIs (4001, 4002). CONTAINER_BUILD_NETWORK:
# the network `docker build` uses (`host` on an engine without a default bridge). NODE_IMAGE,
# POSTGRES_IMAGE, REDIS_IMAGE: other base images (scripts/container-standins.sh builds some where
# no image can be pulled).
set -euo pipefail
cd "$(dirname "$0")/.."

if docker compose version >/dev/null 2>&1; then compose=(docker compose); else compose=(docker-compose); fi
project=tessera-check
api_ports=("${CHECK_API_1_PORT:-4001}" "${CHECK_API_2_PORT:-4002}")
version=$(node -p "require('./package.json').version")
secret() { node -e "process.stdout.write(require('crypto').randomBytes(32).toString('$1'))"; }
say() { echo "[container-check] $*"; }

env_file=$(mktemp)
run() { "${compose[@]}" -p "$project" --env-file "$env_file" -f compose.yaml "$@"; }
cleanup() {
  local status=$?
  if [ "$status" -ne 0 ]; then run logs --no-color --tail 40 || true; fi
  run down -v --remove-orphans >/dev/null 2>&1 || true
  rm -f "$env_file"
  exit "$status"
}
trap cleanup EXIT

cat > "$env_file" <<EOF
POSTGRES_PASSWORD=$(secret hex)
TESSERA_MASTER_KEY=$(secret base64)
JWT_SECRET=$(secret base64)
PUBLIC_BASE_URL=http://localhost:${api_ports[0]}
MAIL_SMTP_URL=smtp://mail.invalid:25
MAIL_FROM=Tessera <no-reply@tessera.invalid>
API_1_PORT=${api_ports[0]}
API_2_PORT=${api_ports[1]}
EOF

start=$(date +%s)
docker build ${CONTAINER_BUILD_NETWORK:+--network "$CONTAINER_BUILD_NETWORK"} ${NODE_IMAGE:+--build-arg NODE_IMAGE="$NODE_IMAGE"} -t tessera:local .
say "image built in $(( $(date +%s) - start ))s: $(docker image inspect tessera:local --format '{{.Size}}' | awk '{ printf "%.0f MB", $1 / 1e6 }')"

start=$(date +%s)
run up -d --no-build
for service in api-1 api-2; do
  id=$(run ps -q "$service")
  for _ in $(seq 1 150); do
    health=$(docker inspect --format '{{.State.Health.Status}}' "$id")
    [ "$health" = healthy ] && break
    sleep 2
  done
  [ "$health" = healthy ] || { say "$service is $health, not healthy"; exit 1; }
done
say "both APIs healthy $(( $(date +%s) - start ))s after compose up"

for port in "${api_ports[@]}"; do
  body=$(curl -fsS "http://127.0.0.1:$port/healthz")
  [ "$body" = "{\"status\":\"ok\",\"version\":\"$version\"}" ] || { say "127.0.0.1:$port/healthz answered $body"; exit 1; }
  say "127.0.0.1:$port/healthz: $body"
done

uid=$(run exec -T api-1 id -u)
[ "$uid" != 0 ] || { say "api-1 runs as root"; exit 1; }
say "api-1 runs as uid $uid"

run exec -T api-1 tessera ledger:check >/dev/null
say "tessera ledger:check ran inside api-1"

for _ in $(seq 1 60); do
  run logs --no-color worker | grep -q 'Worker running' && break
  sleep 2
done
run logs --no-color worker | grep -q 'Worker running' || { say "the worker did not start"; exit 1; }
say "the worker runs"

traces=$(run logs --no-color api-1 api-2 worker migrate | grep -E '\| +at |Unhandled' || true)
[ -z "$traces" ] || { say "a process printed a stack trace:"; echo "$traces"; exit 1; }
say "no process printed a stack trace"
say "all checks passed"
