/**
 * The layers of this repository, written as rules that `npm run check:arch` (part of
 * `npm test`) enforces with dependency-cruiser, and one that it checks itself
 * (scripts/check-layers.mjs: no cycle between the folders of host/).
 *
 * engine/            the pure engine: no host/, no I/O; engine/sim = in-process stand-ins;
 *                    engine/testing = conformance suites (node:test), tests only
 * host/              the service, in floors (docs/decisions/0022-host-layering.md). Every import
 *                    runs down: a module imports only from its own floor or the floors below it,
 *                    never from a floor above. The floors, from the ground up:
 *
 *   1. ground        errors.ts, instant.ts, logger.ts, paging.ts, assets.ts, generated/ (from the
 *                    schema), ports/ (the host's own provider ports: telephony ledger and webhooks,
 *                    identity provider, payments), reference/ (countries, the words a provider
 *                    speaks and texts, the zone search), verification/ (one-time codes: the rules)
 *   2. database      db/: migrations, one module per query group; implements the ports it stores
 *   3. shared state  rate-limit/, shared-state.ts: counters, keyed queues, idempotency claims
 *   4. entitlement   entitlement/: plan, trial, credits, tier weight, daily cap, admission
 *   5. features      one folder each, never HTTP; four sub-floors, each using those below it:
 *        5a. auth/, phone/             who signs in; the numbers
 *        5b. account/                  settings, onboarding, deletion, export
 *        5c. schedules/                the wake-up rules
 *        5d. calls/, devices/, demo/, billing/
 *                    Features of one sub-floor never import each other. A feature imports another
 *                    only through its public face, `host/<feature>/index.ts`: its other files are
 *                    its internals (the wiring, HTTP and the root, which assemble and mount
 *                    features, may reach them).
 *   5e. use cases    use-cases/: what one feature asks of another, named (GET /me's billing offer,
 *                    what a deletion stops, an inbound keyword's contacts, dev settling). A feature
 *                    that needs another's work declares a port in its deps; a use case fills it
 *                    from the features that own the work, and the root hands it over. It sees
 *                    every feature; no feature sees it.
 *   6. adapters      adapters/: each implements a port (the engine's or host/ports/); built only by
 *                    the root; it may use a feature's public face (billing's catalogue and signature)
 *   7. config        config.ts: the environment, read with each feature's and adapter's own parser
 *   8. assembly      wiring/ (what the root uses to build the adapters and the runtime), ops/
 *                    (metrics, provider health, admin commands); neither imports the other
 *   9. services      services.ts (what routes receive), deps.ts (the built adapters)
 *  10. http          http/: routes, pipeline, problem+json
 *  11. root          compose.ts (THE composition root) and compose/ (its steps: the adapters, the
 *                    runtime, the services, the lifecycle), app.ts, server.ts, main.ts, admin.ts,
 *                    single-file.ts
 *
 * Imports between two folders of one floor are allowed where the floor is not marked apart, as
 * long as the folders never reach each other again (scripts/check-layers.mjs fails on a cycle).
 * Each rule below is one arrow that must not exist; FLOORS generates two kinds: floor-<id>-not-up
 * and floor-<id>-apart.
 */

/** The floors of host/, from the ground up (see the header): folders end with `/`, files with `.ts`. */
const FLOORS = [
  {
    id: '1',
    name: 'ground',
    units: [
      'generated/',
      'errors.ts',
      'instant.ts',
      'logger.ts',
      'paging.ts',
      'assets.ts',
      'ports/',
      'reference/',
      'verification/',
    ],
  },
  { id: '2', name: 'database', units: ['db/'] },
  { id: '3', name: 'shared state', units: ['rate-limit/', 'shared-state.ts'] },
  { id: '4', name: 'entitlement', units: ['entitlement/'] },
  { id: '5a', name: 'features: auth and phone', units: ['auth/', 'phone/'], apart: true },
  {
    id: '5b',
    name: 'features: account and contacts',
    units: ['account/', 'contacts/'],
    apart: true,
  },
  { id: '5c', name: 'features: schedules', units: ['schedules/'] },
  {
    id: '5d',
    name: 'features: calls, devices, demo, billing, webhooks',
    units: ['calls/', 'devices/', 'demo/', 'billing/', 'webhooks/'],
    apart: true,
  },
  { id: '5e', name: 'use cases', units: ['use-cases/'] },
  { id: '6', name: 'adapters', units: ['adapters/'] },
  { id: '7', name: 'config', units: ['config.ts'] },
  { id: '8', name: 'assembly', units: ['wiring/', 'ops/'], apart: true },
  { id: '9', name: 'services', units: ['services.ts', 'deps.ts'] },
  { id: '10', name: 'http', units: ['http/'] },
  {
    id: '11',
    name: 'root',
    units: [
      'compose.ts',
      'compose/',
      'app.ts',
      'server.ts',
      'main.ts',
      'admin.ts',
      'single-file.ts',
    ],
  },
];

/** The path pattern of units of host/. */
const unitPath = (units) =>
  `^host/(${units.map((u) => (u.endsWith('/') ? u : `${u.replace(/\./g, '\\.')}$`)).join('|')})`;

/** One rule per floor: nothing on it imports a floor above; on an `apart` floor, no unit imports another. */
const FLOOR_RULES = FLOORS.flatMap((floor, i) => {
  const n = floor.id;
  const above = FLOORS.slice(i + 1).flatMap((f) => f.units);
  const down =
    above.length === 0
      ? []
      : [
          {
            name: `floor-${n}-not-up`,
            comment: `Floor ${n} (${floor.name}) imports only its own floor and the floors below it (the header lists them).`,
            severity: 'error',
            from: { path: unitPath(floor.units) },
            to: { path: unitPath(above) },
          },
        ];
  const apart = floor.apart
    ? floor.units.map((unit) => ({
        name: `floor-${n}-apart`,
        comment: `The units of floor ${n} (${floor.name}) never import each other.`,
        severity: 'error',
        from: { path: unitPath([unit]) },
        to: { path: unitPath(floor.units.filter((u) => u !== unit)) },
      }))
    : [];
  return [...down, ...apart];
});

/** Feature folders: one feature's rules and service each; they never see HTTP. */
const FEATURES = 'account|auth|billing|calls|demo|devices|phone|schedules';
/** The domain: the features and the entitlement rules below them. */
const DOMAIN = `^host/(${FEATURES}|entitlement)/`;
/** The root and the wiring: what builds adapters and services. */
const WIRING =
  '^host/(compose|app|server|main|admin|single-file|deps|services)\\.ts$|^host/(wiring|compose|use-cases)/';

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
const config = {
  forbidden: [
    {
      name: 'no-cycles',
      comment:
        'No module may reach itself again through its imports: a cycle hides which layer owns what.',
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
      comment:
        'The engine does no I/O: time, storage and providers come in through engine/ports.ts.',
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
      to: {
        path: '(^|/)node_modules/(@types/)?(better-sqlite3|pg|ioredis|bullmq|koa|@koa|pino|undici|ws)/',
      },
    },
    {
      name: 'engine-postgres-only-pg',
      comment:
        'engine/postgres is the PostgreSQL store shipped as its own entry of the engine package: node-postgres (pg) ' +
        'is the one driver it may use (an optional peer of the package).',
      severity: 'error',
      from: { path: '^engine/postgres/' },
      to: {
        path: '(^|/)node_modules/(@types/)?(better-sqlite3|pg-[^/]+|ioredis|bullmq|koa|@koa|pino|undici|ws)/',
      },
    },
    {
      name: 'engine-core-not-to-adapters',
      comment:
        'The engine itself never reaches its SQLite adapter (engine/sqlite): an embedder chooses the store.',
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
    ...FLOOR_RULES,
    {
      name: 'host-on-a-floor',
      comment:
        'Every folder and root file of host/ is on a floor: a new one is placed in FLOORS (and the header) first.',
      severity: 'error',
      from: { path: '^host/', pathNot: unitPath(FLOORS.flatMap((f) => f.units)) },
      to: {},
    },
    {
      name: 'db-not-to-adapters',
      comment:
        'The database implements the ports it stores (host/ports/) and takes the time as an argument; it never ' +
        'imports an adapter.',
      severity: 'error',
      from: { path: '^host/db/' },
      to: { path: '^host/adapters/' },
    },
    {
      name: 'domain-not-to-adapters',
      comment:
        "Features and entitlement use ports (the engine's, host/ports/); the root builds the adapters behind them.",
      severity: 'error',
      from: { path: DOMAIN },
      to: { path: '^host/adapters/' },
    },
    {
      name: 'domain-not-to-http',
      comment:
        'Domain folders throw AppError and return data; only host/http/ knows requests, responses and problem+json.',
      severity: 'error',
      from: { path: DOMAIN },
      to: { path: '^host/http/' },
    },
    {
      name: 'domain-not-to-wiring',
      comment:
        'Domain code gets what it needs as arguments; it never imports the composition root, the wiring or the app.',
      severity: 'error',
      from: { path: DOMAIN },
      to: { path: WIRING },
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
      name: 'feature-public-face',
      comment:
        "A feature's public face is its index.ts: another feature or an adapter imports that file only, never the " +
        "feature's other files (its internals). The root, host/wiring/, config.ts and host/http/ assemble and mount " +
        'features and may reach their files.',
      severity: 'error',
      from: { path: `^host/((${FEATURES})/|adapters/)` },
      to: {
        path: `^host/(${FEATURES})/`,
        pathNot: [`^host/$2/`, `^host/(${FEATURES})/index\\.ts$`],
      },
    },
    {
      name: 'feature-not-own-face',
      comment:
        'Inside a feature, files import each other directly: its index.ts is for those outside (no barrel cycles).',
      severity: 'error',
      from: { path: `^host/(${FEATURES})/` },
      to: { path: '^host/$1/index\\.ts$' },
    },
    {
      name: 'http-not-to-wiring',
      comment:
        'Routes receive services (host/services.ts); they never import the composition root, the wiring or the raw ' +
        'adapters (deps.ts).',
      severity: 'error',
      from: { path: '^host/http/' },
      to: { path: '^host/(compose|server|main|deps)\\.ts$|^host/(wiring|compose|use-cases)/' },
    },
    {
      name: 'production-not-to-test-code',
      comment:
        'engine/testing imports node:test; production code (engine/, host/) uses engine/sim and no test framework.',
      severity: 'error',
      from: { path: '^(engine|host)/', pathNot: '^engine/testing/' },
      to: { path: '^engine/testing/' },
    },
    {
      name: 'production-no-test-framework',
      comment:
        'Nor node:test, node:assert or fast-check: test frameworks stay in test/, bench/ and engine/testing.',
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

module.exports = config;
// The floors, for scripts/check-layers.mjs (which prints the folder graph floor by floor).
// Not enumerable: dependency-cruiser refuses a configuration with keys it does not know.
Object.defineProperty(module.exports, 'floors', { value: FLOORS, enumerable: false });
