# Repair Guide Content Service: a production image (README "Running in production").
# Build:  docker build -t rgcs .
# Run:    docker run -p 3000:3000 -v rgcs-data:/data -e SIGNING_SECRET="$(openssl rand -base64 48)" rgcs

# Stage 1: install every dependency (better-sqlite3 compiles from source when no prebuilt binary fits, hence the
# toolchain), compile TypeScript into dist/, then drop the development dependencies.
FROM node:20-bookworm-slim AS build
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ormconfig.ts ./
COPY scripts ./scripts
COPY src ./src
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

# Stage 2: the built service, its production dependencies and nothing else, run as the unprivileged `node` user.
FROM node:20-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DB_PATH=/data/app.sqlite \
    MEDIA_DIR=/data/media \
    TRAINING_DIR=/data/training
WORKDIR /app
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME /data
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=120s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/health/live').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
# The same command as `npm run start:prod` (npm start would try to rebuild from sources the image does not hold).
CMD ["node", "--max-semi-space-size=32", "dist/src/main.js"]
