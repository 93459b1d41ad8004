# Tessera's production image: `docker build -t tessera .` (README.md, Running in a container).
# Stage 1 builds with the dev dependencies; stage 2 holds the compiled code and the production
# dependencies only, and runs as the unprivileged `node` user of the base image.

ARG NODE_IMAGE=node:24-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
# The dashboard is an npm workspace: its package.json is part of the install.
COPY package.json package-lock.json ./
COPY dashboard/package.json ./dashboard/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

FROM ${NODE_IMAGE}
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=4000
WORKDIR /app
COPY package.json package-lock.json ./
COPY dashboard/package.json ./dashboard/
# Production dependencies only (the dashboard's are all dev dependencies: its build is in dist/). --omit=optional also leaves out what optional peers bring back
# (ts-node, an optional peer of typeorm) and the embedded PostgreSQL's binaries: the image runs
# against DATABASE_URL. typescript is a dependency only so that `npm start` can build a checkout
# installed without its dev dependencies; the image runs the compiled code, which never loads it.
# No install script runs: none of these needs one.
RUN npm ci --omit=dev --omit=optional --ignore-scripts --no-audit --no-fund \
 && npm uninstall --no-save --omit=dev --omit=optional --ignore-scripts --no-audit --no-fund typescript \
 && npm cache clean --force \
 && ln -s /app/bin/tessera.js /usr/local/bin/tessera
COPY --from=build /app/dist ./dist
COPY schema.graphql ./
COPY bin ./bin
# The CLI's bin runs dist/ through the launcher, which builds nothing where there is no src/.
COPY scripts/launch.js ./scripts/launch.js
USER node
EXPOSE 4000
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/healthz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "dist/src/main.js"]
