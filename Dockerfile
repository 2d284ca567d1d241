# One image for every Vigil app; the command picks the app:
#   node dist/apps/<api|ingest|web|stream-processor|indexer|notifier>/src/main.js
#   node dist/apps/cli/src/main.js migrate        (before a roll-out; safe to run again)
# Node 26, the Active LTS since October 2026 (supported until April 2029), Debian 13 slim,
# pinned to a patch release so a rebuild gives the same runtime; raise it with each Node
# security release.
ARG NODE_IMAGE=node:26.10.0-trixie-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY libs ./libs
COPY apps ./apps
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

FROM ${NODE_IMAGE}
# In a container the published ports are the way in: listen on every interface.
ENV NODE_ENV=production \
    API_HOST=0.0.0.0 \
    INGEST_HOST=0.0.0.0 \
    WEB_HOST=0.0.0.0 \
    OPS_HOST=0.0.0.0
WORKDIR /app
# Owned by root and read-only to the app's user: a compromised app cannot rewrite its code.
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# The base image's unprivileged user (uid 1000).
USER node
# Public ports (api, ingest, web) and the ops listeners (/livez, /readyz, /metrics).
EXPOSE 3000 3001 3002 9400 9401 9402 9403 9404 9405
# Ready means the app's dependencies answer (/readyz on its ops port); no curl in the image.
# OPS_PORT is set per app (docker-compose.yml, deploy/kubernetes); 9400 is the api's default.
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.OPS_PORT || 9400) + '/readyz', { signal: AbortSignal.timeout(4000) }).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "dist/apps/api/src/main.js"]
