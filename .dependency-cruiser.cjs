/**
 * The layers of this repository, written as rules that `npm run check:arch` (part of
 * `npm test`) enforces with dependency-cruiser. Arrows point down only:
 *
 *   host/main.ts                 reads the environment, starts the server
 *   host/server.ts, host/app.ts  listen / mount the routes
 *   host/compose.ts              THE composition root: builds adapters, runtime, listeners, services
 *   host/http/                   HTTP only: routes, pipeline, problem+json (turns errors into responses)
 *   domain folders               host/account, auth, calls, phone, schedules, usage, devices, billing,
 *                                demo, ...: the rules of each feature and its service; throw AppError
 *   host/adapters/               providers behind engine ports (they may use a feature's texts)
 *   host/rate-limit/             fixed-window counters, used by routes and domain alike
 *   host/db/                     SQLite: migrations, one module per query group
 *   host/errors.ts, instant.ts, logger.ts, config.ts, generated/, schema/   the ground floor of host/
 *   host/verification/           one-time codes: issue, check, lock out, expire (the rules; db stores them)
 *   host/reference/              reference data the service offers (the zone search): engine only
 *   engine/                      the pure engine: no host/, no I/O; engine/sim = in-process stand-ins
 *   engine/testing/              conformance suites (node:test): tests only, never production
 *
 * Each rule below is one of those arrows that must not exist.
 */

/** Folders holding one feature's rules: they never see HTTP. */
const DOMAIN = '^host/(account|auth|calls|phone|schedules|usage|devices|billing|demo|travel)/';

/** Node modules that do I/O (and native database drivers): never in the engine. */
const NODE_IO = [
  'fs',
  'fs/promises',
  'net',
  'http',
  'https',
  'http2',
  'tls',
  'dgram',
  'dns',
  'child_process',
  'worker_threads',
  'cluster',
  'readline',
  'inspector',
  'os',
  'process',
  'v8',
  'vm',
];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      comment: 'No module may reach itself again through its imports: a cycle hides which layer owns what.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'engine-not-to-host',
      comment: 'The engine is a library: it never knows the host that embeds it.',
      severity: 'error',
      from: { path: '^engine/' },
      to: { path: '^host/' },
    },
    {
      name: 'engine-no-io',
      comment: 'The engine does no I/O: time, storage and providers come in through engine/ports.ts.',
      severity: 'error',
      from: { path: '^engine/', pathNot: '^engine/(testing|sqlite)/' },
      to: { dependencyTypes: ['core'], path: `^(node:)?(${NODE_IO.join('|')})(/|$)` },
    },
    {
      name: 'engine-no-io-packages',
      comment:
        'Nor database drivers, servers or loggers from npm: those are adapters. engine/sqlite is one: the SQLite ' +
        'store shipped as its own entry of the engine package (better-sqlite3, a checkpoint worker thread).',
      severity: 'error',
      from: { path: '^engine/', pathNot: '^engine/(sqlite|postgres)/' },
      to: { path: '(^|/)node_modules/(@types/)?(better-sqlite3|pg|ioredis|bullmq|koa|@koa|pino|undici|ws)/' },
    },
    {
      name: 'engine-postgres-only-pg',
      comment:
        'engine/postgres is the PostgreSQL store shipped as its own entry of the engine package: node-postgres (pg) ' +
        'is the one driver it may use (an optional peer of the package).',
      severity: 'error',
      from: { path: '^engine/postgres/' },
      to: { path: '(^|/)node_modules/(@types/)?(better-sqlite3|pg-[^/]+|ioredis|bullmq|koa|@koa|pino|undici|ws)/' },
    },
    {
      name: 'engine-core-not-to-adapters',
      comment: 'The engine itself never reaches its SQLite adapter (engine/sqlite): an embedder chooses the store.',
      severity: 'error',
      from: { path: '^engine/', pathNot: '^engine/(sqlite|testing)/' },
      to: { path: '^engine/sqlite/' },
    },
    {
      name: 'engine-core-not-to-postgres',
      comment: 'Nor its PostgreSQL adapter (engine/postgres); the adapters never reach each other.',
      severity: 'error',
      from: { path: '^engine/', pathNot: '^engine/postgres/' },
      to: { path: '^engine/postgres/' },
    },
    {
      name: 'engine-not-to-its-entries',
      comment:
        'Inside the engine, modules import each other directly: engine/index.ts (the public surface) and ' +
        'engine/internals.ts (what the host, bench and tests use beyond it) are for those outside (decision 0020).',
      severity: 'error',
      from: { path: '^engine/' },
      to: { path: '^engine/(index|internals)\\.ts$' },
    },
    {
      name: 'examples-public-entries-only',
      comment:
        "An embedder's example needs only the engine's public entries (`.`, `./sim`, `./sqlite`, `./postgres`): " +
        'never engine/internals.ts nor a module behind an entry (decision 0020).',
      severity: 'error',
      from: { path: '^examples/' },
      to: { path: '^engine/', pathNot: '^engine/((sim|sqlite|postgres)/)?index\\.ts$' },
    },
    {
      name: 'domain-not-to-http',
      comment: 'Domain folders throw AppError and return data; only host/http/ knows requests, responses and problem+json.',
      severity: 'error',
      from: { path: DOMAIN },
      to: { path: '^host/http/' },
    },
    {
      name: 'domain-not-to-wiring',
      comment: 'Domain code gets what it needs as arguments; it never imports the composition root or the app.',
      severity: 'error',
      from: { path: DOMAIN },
      to: { path: '^host/(compose|app|server|main|deps|services)\\.ts$' },
    },
    {
      name: 'engine-tables-through-the-store',
      comment:
        "Only the engine's stores read or write the engine's tables (series, occurrences, attempts: decision 0021). " +
        'host/ reaches them through host/db/engine-store.ts (the Store, its read model, its maintenance writes); ' +
        'migrate.ts makes them and export-rows.ts shows records as the rows they are. ' +
        'test/host/engine-tables.test.ts checks that no SQL of host/ names them.',
      severity: 'error',
      from: { path: '^host/', pathNot: '^host/db/(engine-store|migrate|export-rows)\\.ts$' },
      to: { path: '^engine/(sqlite|postgres)/' },
    },
    {
      name: 'ground-not-up',
      comment:
        'The ground floor and the database never import a feature, HTTP or the wiring above them ' +
        "(config.ts may read a feature's own config parser, host/<feature>/config.ts).",
      severity: 'error',
      from: { path: '^host/(errors|instant|logger|config)\\.ts$|^host/(db|generated)/' },
      to: { path: `${DOMAIN}|^host/http/|^host/(compose|app|server|main|deps|services)\\.ts$`, pathNot: `${DOMAIN}config\\.ts$` },
    },
    {
      name: 'verification-is-rules',
      comment:
        'host/verification/ holds the rules of one-time codes only: each use passes its limits and its storage, ' +
        'so it never imports a feature, the database, HTTP or the wiring.',
      severity: 'error',
      from: { path: '^host/verification/' },
      to: { path: `${DOMAIN}|^host/(db|http|adapters|rate-limit)/|^host/(compose|app|server|main|deps|services)\\.ts$` },
    },
    {
      name: 'adapters-not-up',
      comment:
        "Adapters implement engine ports (they may use a feature's texts); rate limiting is plain counting: " +
        'neither knows HTTP or the wiring.',
      severity: 'error',
      from: { path: '^host/(adapters|rate-limit)/' },
      to: { path: '^host/http/|^host/(compose|app|server|main|deps|services)\\.ts$' },
    },
    {
      name: 'http-not-to-wiring',
      comment: 'Routes receive services (host/services.ts); they never import the composition root or the raw adapters (deps.ts).',
      severity: 'error',
      from: { path: '^host/http/' },
      to: { path: '^host/(compose|server|main|deps)\\.ts$' },
    },
    {
      name: 'production-not-to-test-code',
      comment: 'engine/testing imports node:test; production code (engine/, host/) uses engine/sim and no test framework.',
      severity: 'error',
      from: { path: '^(engine|host)/', pathNot: '^engine/testing/' },
      to: { path: '^engine/testing/' },
    },
    {
      name: 'production-no-test-framework',
      comment: 'Nor node:test, node:assert or fast-check: test frameworks stay in test/, bench/ and engine/testing.',
      severity: 'error',
      from: { path: '^(engine|host)/', pathNot: '^engine/testing/' },
      to: { path: '^(node:)?(test|assert)(/|$)|(^|/)node_modules/(fast-check|@fast-check)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(engine/)?dist/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.js', '.json'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
