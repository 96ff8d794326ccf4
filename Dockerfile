# syntax=docker/dockerfile:1
# Penstand: one image for the web and worker processes.

FROM node:24-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
# The runtime is this image's Node 24; the `node` devDependency is not needed here.
RUN npm ci --omit=dev && npm cache clean --force

FROM node:24-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci
COPY . .
RUN npx react-router build

FROM node:24-slim AS runtime
ENV NODE_ENV=production PORT=3000 HOST=0.0.0.0 DATA_DIR=/data
WORKDIR /app
RUN groupadd --system penstand && useradd --system --gid penstand --home /app penstand \
  && mkdir -p /data/uploads && chown -R penstand:penstand /data
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/build ./build
COPY package.json ./
COPY src ./src
COPY workers ./workers
COPY migrations ./migrations
COPY public ./public
# npm run knex -- migrate:status (and the other knex CLI commands) inside the container
COPY knexfile.ts ./
USER penstand
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=3s --start-period=20s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# The web process's V8 heap bounds: docs/operators-guide.md, Configuration.
CMD ["node", "--max-old-space-size=512", "--max-semi-space-size=32", "src/web/start.ts"]
