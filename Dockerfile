# The Wake-Up service in a container: production mode, non-root, database on a volume.
#   docker build -t wakeup .
#   docker run -d --name wakeup -p 8080:8080 -v wakeup-data:/var/lib/wakeup \
#     -e WAKEUP_SITE_URL=https://wake.example.com \
#     -e WAKEUP_EMAIL=smtp -e WAKEUP_SMTP_URL=smtp://user:password@smtp.example.com:587 \
#     -e WAKEUP_EMAIL_FROM='Wakeup <wake@example.com>' wakeup
# See README.md, "Deploy". The commands below are the ones test/host/deploy.test.ts and
# test/host/npm-start.test.ts exercise: npm ci --omit=dev, npm run build, node dist/server.cjs,
# and the HEALTHCHECK's request to /readyz.

# --- build: production dependencies (better-sqlite3 compiles here when no prebuilt fits) and the compiled JavaScript
FROM node:26-bookworm-slim AS build
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev
COPY tsconfig.json tsconfig.build.json ./
COPY scripts ./scripts
COPY schema ./schema
COPY engine ./engine
COPY host ./host
COPY web ./web
RUN npm run build

# --- run: no compiler, no dev dependencies, no root
FROM node:26-bookworm-slim
ENV NODE_ENV=production \
    WAKEUP_DEV=0 \
    HOST=0.0.0.0 \
    PORT=8080 \
    WAKEUP_DB=/var/lib/wakeup/wakeup.sqlite \
    WAKEUP_LOG_PRETTY=0
WORKDIR /app
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY LICENSE NOTICE ./
RUN mkdir -p /var/lib/wakeup && chown node:node /var/lib/wakeup
USER node
VOLUME ["/var/lib/wakeup"]
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# node itself is PID 1's child-free main process: SIGTERM from `docker stop` reaches it
# directly and it drains, closes the database and exits 0 (give it the grace period:
# docker stop -t 15).
CMD ["node", "dist/server.cjs"]
