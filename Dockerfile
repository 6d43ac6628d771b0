# syntax=docker/dockerfile:1.7
# Multi-stage build of the game server. The image's Node 22 runs the TypeScript sources directly
# (built-in type stripping), so there is no compile step; migrations run when the server starts.

FROM node:22-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
# --ignore-scripts: the image already has Node 22, so the node@22 package's binary download is not needed.
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund

FROM node:22-bookworm-slim AS build
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY package.json tsconfig.json ./
COPY src ./src
COPY rooms ./rooms
COPY schema ./schema
COPY world ./world
# The errors reference: problem documents' `type` points to it (/docs/errors.md, src/http/routes/errors-doc.ts).
COPY docs/errors.md ./docs/errors.md
# Model bounds are a build-time artifact (see docs/manifests.md).
RUN node src/tools/build-bounds.ts

FROM node:22-bookworm-slim AS runtime
# The revision /status reports: docker build --build-arg COMMIT_HASH=$(git rev-parse --short HEAD) .
ARG COMMIT_HASH=unknown
ENV COMMIT_HASH=$COMMIT_HASH \
    NODE_ENV=production \
    PORT=5555 \
    WORLD=/app/world
WORKDIR /app
COPY --from=build --chown=node:node /app ./
USER node
EXPOSE 5555
# The hosting platform polls /status every 30 s and needs an answer within 3 s.
HEALTHCHECK --interval=30s --timeout=3s --start-period=20s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||5555)+'/status').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# The flags of package.json's start script (docs/operations.md, "Node flags"; test/readme.test.ts keeps them equal).
CMD ["node", "--max-semi-space-size=64", "--experimental-async-context-frame", "src/start.js"]
