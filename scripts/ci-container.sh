#!/usr/bin/env bash
# CI's container step: where a container engine can run on this machine, builds the image and runs
# compose.yaml's production shape (scripts/container-check.sh); where none can (no engine installable
# from Debian's packages, or dockerd refused by the machine), says so and skips. Once an engine runs,
# a failure of the check fails CI.
#
# The engine runs without a default bridge and without iptables rules (`--bridge=none
# --iptables=false`: compose's own networks still join the containers), and no image can be pulled
# here, so the stand-ins of scripts/container-standins.sh take the public images' place (built once,
# kept by the engine).
set -uo pipefail
cd "$(dirname "$0")/.."
say() { echo "[ci-container] $*"; }

missing=false
command -v dockerd >/dev/null || missing=true
command -v debootstrap >/dev/null || missing=true
docker compose version >/dev/null 2>&1 || command -v docker-compose >/dev/null || missing=true
if $missing; then
  (export DEBIAN_FRONTEND=noninteractive; apt-get install -y -qq docker.io docker-compose debootstrap >/dev/null 2>&1) \
    || { say "no container engine could be installed from Debian's packages: the container check is skipped"; exit 0; }
fi

engine=""
stop_engine() { if [ -n "$engine" ]; then kill "$engine" 2>/dev/null; wait "$engine" 2>/dev/null; fi; }
trap stop_engine EXIT
if ! docker info >/dev/null 2>&1; then
  log=$(mktemp)
  dockerd --bridge=none --iptables=false >"$log" 2>&1 &
  engine=$!
  for _ in $(seq 1 60); do docker info >/dev/null 2>&1 && break; sleep 1; done
  if ! docker info >/dev/null 2>&1; then
    say "dockerd did not start here: the container check is skipped. Its last lines:"; tail -5 "$log"
    exit 0
  fi
fi

export CONTAINER_BUILD_NETWORK=host
standins=$(bash scripts/container-standins.sh) || { say "the stand-in images could not be built"; exit 1; }
eval "$standins"
bash scripts/container-check.sh
