/**
 * Route modules, mounted by `createApp` in this order.
 *
 * To add a capability: write `host/http/routes/<name>.ts` exporting
 * `register(routes: Routes, services: AppServices)` (see ./api-keys.ts for a small example;
 * the rules live in the feature's service, built in host/compose.ts), then add
 * ONE line to the list below: `import * as <name> from './<name>.js'` goes with it. Each
 * `routes.operation('<operationId>', handler)` takes path, method, auth, validation and
 * idempotency from schema/openapi.yaml. Dev-only endpoints go in `devRouteModules`.
 * @module
 */
import type { RouteModule } from '../registrar.js';
import * as docs from '../site/docs.js';
import * as webApp from '../site/web-app.js';
import * as vendor from '../site/vendor.js';
import * as errorsPage from '../site/errors-page.js';
import * as health from '../site/health.js';
import * as metrics from '../site/metrics.js';
import * as devClock from '../dev/clock.js';
import * as devOutbox from '../dev/outbox.js';
import * as service from './service.js';
import * as auth from './auth.js';
import * as account from './account.js';
import * as accountLifecycle from './account-lifecycle.js';
import * as apiKeys from './api-keys.js';
import * as countries from './countries.js';
import * as phoneNumbers from './phone-numbers.js';
import * as contacts from './contacts.js';
import * as providerWebhooks from './provider-webhooks.js';
import * as time from './time.js';
import * as schedules from './schedules.js';
import * as occurrences from './occurrences.js';
import * as calls from './calls.js';
import * as testCalls from './test-calls.js';
import * as usage from './usage.js';
import * as devices from './devices.js';
import * as demo from './demo.js';
import * as devPhone from '../dev/phone.js';
import * as billing from './billing.js';
import * as subscribePages from '../site/subscribe-page.js';
import * as devPayments from '../dev/payments.js';
import * as webhookEndpoints from './webhook-endpoints.js';
import * as ops from './ops.js';
import * as devSeedMorning from '../dev/seed-morning.js';

/** Always mounted. */
export const routeModules: RouteModule[] = [
  webApp,
  vendor,
  docs,
  errorsPage,
  health,
  metrics,
  service,
  auth,
  account,
  accountLifecycle,
  apiKeys,
  countries,
  phoneNumbers,
  contacts,
  providerWebhooks,
  time,
  occurrences,
  calls,
  testCalls,
  usage,
  schedules,
  devices,
  demo,
  billing,
  subscribePages,
  webhookEndpoints,
  ops,
];

/** Mounted only in dev mode (WAKEUP_DEV=1); otherwise every /dev path answers 404. */
export const devRouteModules: RouteModule[] = [
  devOutbox,
  devClock,
  devPhone,
  devPayments,
  devSeedMorning,
];
