/**
 * schema/openapi.yaml: structure, strict compilation, the error catalogue, the agreed
 * operation list and auth marks, request validation through schema/load.ts, and the
 * generated types being up to date. No server; runs in a few seconds.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  COMPONENTS_ID,
  createAjv,
  getErrorCatalogue,
  getOperations,
  loadOpenApi,
  toValidationItems,
} from '../../schema/load.js';
import { GENERATED_PATH, generateTypes } from '../../schema/gen.js';
import { checkText, TEXT_LIMITS } from '../../host/phone/content.js';

/** interfaces.md: every operation, exactly (method, path, operationId), with the project's additions (contacts, issue 31). */
const OPERATIONS: Array<[string, string, string]> = [
  ['POST', '/auth/email/start', 'startEmailSignIn'],
  ['POST', '/auth/email/verify', 'verifyEmailSignIn'],
  ['POST', '/auth/logout', 'logout'],
  ['GET', '/me', 'getMe'],
  ['PATCH', '/me', 'updateMe'],
  ['DELETE', '/me', 'deleteMe'],
  ['POST', '/me/idp-authorization', 'linkIdpAuthorization'],
  ['POST', '/me/deletion-code', 'sendDeletionCode'],
  ['GET', '/me/export', 'exportMe'],
  ['POST', '/me/onboarding', 'setOnboardingStep'],
  ['POST', '/me/onboarding/skip', 'skipOnboardingStep'],
  ['POST', '/me/resume-calls', 'resumeCalls'],
  ['GET', '/me/timezone-context', 'getTimezoneContext'],
  ['GET', '/me/usage', 'getUsage'],
  ['GET', '/api-keys', 'listApiKeys'],
  ['POST', '/api-keys', 'createApiKey'],
  ['DELETE', '/api-keys/{key_id}', 'deleteApiKey'],
  ['POST', '/billing/checkout', 'createCheckout'],
  ['GET', '/billing/plans', 'listPlans'],
  ['POST', '/billing/portal', 'createPortalSession'],
  ['POST', '/billing/inapp/sync', 'syncInappPurchases'],
  ['POST', '/billing/web-checkout', 'createWebCheckout'],
  ['POST', '/demo/start', 'startDemo'],
  ['POST', '/demo/call', 'placeDemoCall'],
  ['POST', '/devices', 'registerDevice'],
  ['PATCH', '/devices/{device_id}', 'updateDevice'],
  ['DELETE', '/devices/{device_id}', 'deleteDevice'],
  ['POST', '/devices/{device_id}/timezone', 'reportDeviceTimezone'],
  ['GET', '/calls', 'listCalls'],
  ['GET', '/calls/{call_id}', 'getCall'],
  ['GET', '/occurrences', 'listOccurrences'],
  ['GET', '/occurrences/{occurrence_id}', 'getOccurrence'],
  ['POST', '/occurrences/{occurrence_id}/cancel', 'cancelOccurrence'],
  ['POST', '/occurrences/{occurrence_id}/move', 'moveOccurrence'],
  ['GET', '/contact-card.vcf', 'getContactCard'],
  ['GET', '/countries', 'listCountries'],
  ['GET', '/phone-numbers', 'listPhoneNumbers'],
  ['POST', '/phone-numbers', 'createPhoneNumber'],
  ['PATCH', '/phone-numbers/{phone_number_id}', 'updatePhoneNumber'],
  ['DELETE', '/phone-numbers/{phone_number_id}', 'deletePhoneNumber'],
  ['POST', '/phone-numbers/{phone_number_id}/test-call', 'testCallPhoneNumber'],
  ['POST', '/phone-numbers/{phone_number_id}/verify/start', 'startPhoneVerification'],
  ['POST', '/phone-numbers/{phone_number_id}/verify/check', 'checkPhoneVerification'],
  ['GET', '/contacts', 'listContacts'],
  ['POST', '/contacts', 'createContact'],
  ['GET', '/contacts/{contact_id}', 'getContact'],
  ['PATCH', '/contacts/{contact_id}', 'updateContact'],
  ['DELETE', '/contacts/{contact_id}', 'deleteContact'],
  ['POST', '/contacts/{contact_id}/invite', 'inviteContact'],
  ['POST', '/contacts/{contact_id}/agree', 'agreeContact'],
  ['GET', '/schedules', 'listSchedules'],
  ['POST', '/schedules', 'createSchedule'],
  ['POST', '/schedules/preview', 'previewSchedule'],
  ['GET', '/schedules/{schedule_id}', 'getSchedule'],
  ['PATCH', '/schedules/{schedule_id}', 'updateSchedule'],
  ['DELETE', '/schedules/{schedule_id}', 'deleteSchedule'],
  ['POST', '/schedules/{schedule_id}/pause', 'pauseSchedule'],
  ['POST', '/schedules/{schedule_id}/preview', 'previewScheduleChange'],
  ['POST', '/schedules/{schedule_id}/resume', 'resumeSchedule'],
  ['POST', '/schedules/{schedule_id}/skip-next', 'skipNextOccurrence'],
  ['POST', '/schedules/{schedule_id}/test-call', 'testCallSchedule'],
  ['GET', '/schedules/{schedule_id}/upcoming', 'listUpcoming'],
  ['GET', '/time', 'getTime'],
  ['GET', '/timezones', 'searchTimezones'],
  ['GET', '/openapi.json', 'getOpenApi'],
  ['GET', '/dev/outbox', 'getDevOutbox'],
  ['POST', '/dev/clock', 'setDevClock'],
  ['GET', '/dev/clock', 'getDevClock'],
  ['PUT', '/dev/phones/{e164}', 'putDevPhone'],
  ['POST', '/dev/sms/inbound', 'postDevInboundSms'],
  ['POST', '/dev/checkout/{session_id}/complete', 'completeDevCheckout'],
  ['POST', '/dev/seed-morning', 'postDevSeedMorning'],
  // The operator's view (project addition: docs/operations/operator-view.md).
  ['GET', '/ops/me', 'getOpsRole'],
  ['GET', '/ops/forecast', 'getOpsForecast'],
  ['GET', '/ops/lateness', 'getOpsLateness'],
  ['GET', '/ops/outcomes', 'getOpsOutcomes'],
  ['GET', '/ops/health', 'getOpsHealth'],
  ['GET', '/ops/calls', 'searchOpsCalls'],
  ['GET', '/ops/audit', 'listOpsAudit'],
  ['POST', '/ops/numbers/{e164}/block', 'blockOpsNumber'],
  ['POST', '/ops/numbers/{e164}/unblock', 'unblockOpsNumber'],
  ['POST', '/ops/webhook-endpoints/{endpoint_id}/enable', 'enableOpsWebhookEndpoint'],
  [
    'POST',
    '/ops/webhook-endpoints/{endpoint_id}/deliveries/{delivery_id}/redeliver',
    'redeliverOpsWebhook',
  ],
  ['POST', '/ops/occurrences/{occurrence_id}/cancel', 'cancelOpsOccurrence'],
  // Project additions (issue 31): outbound webhooks.
  ['GET', '/webhook-endpoints', 'listWebhookEndpoints'],
  ['POST', '/webhook-endpoints', 'createWebhookEndpoint'],
  ['GET', '/webhook-endpoints/{endpoint_id}', 'getWebhookEndpoint'],
  ['PATCH', '/webhook-endpoints/{endpoint_id}', 'updateWebhookEndpoint'],
  ['DELETE', '/webhook-endpoints/{endpoint_id}', 'deleteWebhookEndpoint'],
  ['POST', '/webhook-endpoints/{endpoint_id}/rotate-secret', 'rotateWebhookSecret'],
  ['POST', '/webhook-endpoints/{endpoint_id}/test', 'sendWebhookTest'],
  ['GET', '/webhook-endpoints/{endpoint_id}/deliveries', 'listWebhookDeliveries'],
  [
    'POST',
    '/webhook-endpoints/{endpoint_id}/deliveries/{delivery_id}/redeliver',
    'redeliverWebhook',
  ],
];

/** The spec's Errors table: code → status. */
const SPEC_ERRORS: Record<string, number> = {
  invalid_timezone: 400,
  timezone_not_allowed: 400,
  time_in_past: 400,
  date_too_far: 400,
  invalid_time: 400,
  days_of_week_empty: 400,
  local_date_required: 400,
  in_minutes_out_of_range: 400,
  invalid_retry_policy: 400,
  phone_number_unverified: 400,
  phone_number_not_owned: 400,
  message_disallowed_content: 400,
  not_recurring: 400,
  invalid_phone_number: 400,
  country_not_supported: 400,
  verification_code_invalid: 400,
  confirmation_required: 400,
  validation_error: 400,
  unauthenticated: 401,
  api_key_revoked: 401,
  session_expired: 401,
  no_entitlement: 402,
  insufficient_scope: 403,
  calls_revoked: 403,
  demo_not_available: 403,
  web_checkout_disabled: 403,
  number_blocked: 403,
  not_found: 404,
  method_not_allowed: 405,
  occurrence_in_progress: 409,
  occurrence_terminal: 409,
  number_in_use: 409,
  idempotency_key_reused: 409,
  already_subscribed: 409,
  verification_locked: 429,
  rate_limited: 429,
  demo_rate_limited: 429,
  daily_cap_reached: 429,
  internal_error: 500,
  provider_unavailable: 503,
};

/** The spec's "Unknown fields" list (IdpAuthorizationIn is the spec's AppleAuthorizationIn), and the project's additions. */
const CLOSED_BODIES = [
  'ApiKeyIn',
  'IdpAuthorizationIn',
  'DeleteMeIn',
  'DemoCallIn',
  'DemoStartIn',
  'DeviceIn',
  'DevicePatchIn',
  'DeviceTimezoneIn',
  'MePatchIn',
  'OnboardingIn',
  'OnboardingSkipIn',
  'PauseIn',
  'PhoneNumberIn',
  // Project additions (issue 31): a misspelt field of an endpoint must not pass silently.
  'WebhookEndpointIn',
  'WebhookEndpointPatchIn',
  'DevSeedMorningIn',
  'OpsBlockIn',
  'OpsUnblockIn',
];

/** Endpoints the spec marks Idem. */
const IDEMPOTENT = [
  'linkIdpAuthorization',
  'sendDeletionCode',
  'setOnboardingStep',
  'skipOnboardingStep',
  'resumeCalls',
  'createCheckout',
  'createPortalSession',
  'syncInappPurchases',
  'createWebCheckout',
  'registerDevice',
  'reportDeviceTimezone',
  'cancelOccurrence',
  'moveOccurrence',
  'createPhoneNumber',
  'testCallPhoneNumber',
  'startPhoneVerification',
  'checkPhoneVerification',
  'createSchedule',
  'pauseSchedule',
  'resumeSchedule',
  'skipNextOccurrence',
  'testCallSchedule',
  // Project additions (issue 31: contacts to tell).
  'createContact',
  'inviteContact',
  'agreeContact',
];

const doc = loadOpenApi();
const ops = getOperations();
const op = (id: string) => {
  const found = ops.get(id);
  assert.ok(found, `operation ${id}`);
  return found;
};

/** Every value of `key` anywhere in `value`. */
function collect(value: unknown, key: string, out: unknown[] = []): unknown[] {
  if (Array.isArray(value)) value.forEach((v) => collect(v, key, out));
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === key) out.push(v);
      collect(v, key, out);
    }
  }
  return out;
}

describe('openapi.yaml structure', () => {
  it('parses as OpenAPI 3.1 with the /api/v1 server', () => {
    assert.match(String(doc.openapi), /^3\.1\.\d+$/);
    assert.equal(doc.info.version, '1.0.0');
    assert.deepEqual(doc.servers, [{ url: '/api/v1', description: "This server's API." }]);
  });

  it('has every agreed operationId exactly once, on its method and path', () => {
    const seen: string[] = [];
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      for (const m of ['get', 'put', 'post', 'patch', 'delete', 'head', 'options']) {
        if (item[m]) seen.push(`${m.toUpperCase()} ${path} ${item[m].operationId}`);
      }
    }
    const expected = OPERATIONS.map(([m, p, id]) => `${m} ${p} ${id}`);
    assert.deepEqual([...seen].sort(), [...expected].sort());
    assert.equal(new Set(OPERATIONS.map((o) => o[2])).size, OPERATIONS.length);
    assert.equal(ops.size, OPERATIONS.length);
  });

  it('resolves every $ref inside the document', () => {
    for (const ref of collect(doc, '$ref') as string[]) {
      assert.ok(ref.startsWith('#/'), ref);
      let node: any = doc;
      for (const part of ref.slice(2).split('/'))
        node = node?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
      assert.ok(node !== undefined, `unresolved ${ref}`);
    }
  });

  it('uses no OpenAPI 3.0-only schema keywords', () => {
    for (const k of ['nullable', 'example', 'discriminator']) {
      assert.deepEqual(collect(doc.components.schemas, k), [], k);
    }
  });

  it('puts /dev on the site root and everything else on /api/v1', () => {
    for (const info of ops.values()) {
      assert.equal(info.server, info.path.startsWith('/dev/') ? 'site' : 'api', info.operationId);
      if (info.server === 'site') assert.ok(info.public, info.operationId);
    }
  });
});

describe('component schemas', () => {
  it('all compile with Ajv 2020 in strict mode', () => {
    const ajv = createAjv();
    const names = Object.keys(doc.components.schemas);
    assert.ok(names.length > 50);
    for (const name of names) {
      assert.doesNotThrow(() => ajv.getSchema(`${COMPONENTS_ID}#/$defs/${name}`), name);
      assert.ok(ajv.getSchema(`${COMPONENTS_ID}#/$defs/${name}`), name);
    }
  });

  it('closes exactly the request bodies of the spec\'s "Unknown fields" list', () => {
    const bodyRefs = new Set<string>();
    for (const info of Object.values<any>(doc.paths)) {
      for (const m of ['get', 'put', 'post', 'patch', 'delete']) {
        const ref = info[m]?.requestBody?.content?.['application/json']?.schema?.$ref as
          string | undefined;
        if (ref) bodyRefs.add(ref.split('/').pop()!);
      }
    }
    const closed = [...bodyRefs].filter(
      (n) => doc.components.schemas[n].additionalProperties === false,
    );
    assert.deepEqual(closed.sort(), [...CLOSED_BODIES].sort());
    for (const name of CLOSED_BODIES) assert.ok(bodyRefs.has(name), `${name} is a request body`);
  });
});

describe('error catalogue', () => {
  const catalogue = getErrorCatalogue();
  const codes = catalogue.map((e) => e.code);

  it('has unique codes, each with status, title and description', () => {
    assert.equal(new Set(codes).size, codes.length);
    for (const e of catalogue) {
      assert.ok(Number.isInteger(e.status) && e.status >= 400 && e.status < 600, e.code);
      assert.ok(e.title && e.description, e.code);
    }
  });

  it('contains every code of the spec with its status, plus 413 and 415', () => {
    for (const [code, status] of Object.entries(SPEC_ERRORS)) {
      assert.equal(catalogue.find((e) => e.code === code)?.status, status, code);
    }
    assert.equal(catalogue.find((e) => e.code === 'payload_too_large')?.status, 413);
    assert.equal(catalogue.find((e) => e.code === 'unsupported_media_type')?.status, 415);
  });

  it('equals the Problem code enum', () => {
    assert.deepEqual(
      [...doc.components.schemas.Problem.properties.code.enum].sort(),
      [...codes].sort(),
    );
  });

  it('covers every x-error-code used on a property', () => {
    for (const c of collect(doc, 'x-error-code') as string[]) assert.ok(codes.includes(c), c);
  });
});

describe('auth and idempotency marks', () => {
  it("marks exactly the spec's Idem endpoints, each with the Idempotency-Key header", () => {
    const marked = [...ops.values()].filter((o) => o.idempotent).map((o) => o.operationId);
    assert.deepEqual(marked.sort(), [...IDEMPOTENT].sort());
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      for (const m of ['get', 'post', 'put', 'patch', 'delete']) {
        const o = item[m];
        if (!o?.['x-idempotent']) continue;
        const refs = (o.parameters ?? []).map((p: any) => p.$ref);
        assert.ok(refs.includes('#/components/parameters/IdempotencyKey'), `${m} ${path}`);
      }
    }
  });

  it('refuses API keys where the spec reserves the action, and needs export for the export', () => {
    for (const id of [
      'deleteMe',
      'linkIdpAuthorization',
      'sendDeletionCode',
      'resumeCalls',
      'registerDevice',
      'deleteDevice',
      'createApiKey',
      'deleteApiKey',
      'logout',
    ]) {
      assert.deepEqual(op(id).credentials, ['app_session', 'web_session'], id);
      assert.equal(op(id).scope, null, id);
    }
    assert.deepEqual(op('createWebCheckout').credentials, ['app_session']);
    assert.equal(op('exportMe').scope, 'export');
    assert.equal(op('getMe').scope, 'read');
    assert.equal(op('updateMe').scope, 'write');
    assert.deepEqual(op('updateMe').credentials, ['api_key', 'app_session', 'web_session']);
  });

  it("leaves only the spec's public endpoints public", () => {
    const publicIds = [...ops.values()]
      .filter((o) => o.public && o.server === 'api')
      .map((o) => o.operationId);
    assert.deepEqual(
      publicIds.sort(),
      [
        'getCall',
        'getContactCard',
        'getOpenApi',
        'getTime',
        'listCountries',
        'listPlans',
        'placeDemoCall',
        'searchTimezones',
        'startDemo',
        'startEmailSignIn',
        'verifyEmailSignIn',
      ].sort(),
    );
  });
});

describe('outbound webhooks in the document (issue 31)', () => {
  it('documents every event type in the top-level webhooks section, signed by the three Standard Webhooks headers', () => {
    const types: string[] = doc.components.schemas.WebhookEventType.enum;
    assert.deepEqual(Object.keys(doc.webhooks).sort(), [...types, 'webhook.test'].sort());
    for (const [name, item] of Object.entries<any>(doc.webhooks)) {
      const refs = item.post.parameters.map((p: any) => p.$ref.split('/').pop());
      assert.deepEqual(
        refs,
        ['WebhookIdHeader', 'WebhookTimestampHeader', 'WebhookSignatureHeader'],
        name,
      );
      assert.ok(item.post.requestBody.content['application/json'].schema.$ref, name);
    }
  });

  it('asks API keys for write to manage endpoints and read for the delivery log', () => {
    for (const id of [
      'createWebhookEndpoint',
      'updateWebhookEndpoint',
      'deleteWebhookEndpoint',
      'rotateWebhookSecret',
      'sendWebhookTest',
      'redeliverWebhook',
    ]) {
      assert.equal(op(id).scope, 'write', id);
      assert.deepEqual(op(id).credentials, ['api_key', 'app_session', 'web_session'], id);
    }
    for (const id of ['listWebhookEndpoints', 'getWebhookEndpoint', 'listWebhookDeliveries'])
      assert.equal(op(id).scope, 'read', id);
  });
});

/** The code and items (decidedBy is checked on its own). */
function codeAndItems(r: ReturnType<typeof toValidationItems>) {
  if (r.code === 'validation_error')
    assert.equal(r.decidedBy, undefined, 'validation_error is decided by no single item');
  else
    assert.ok(
      r.decidedBy && r.items.includes(r.decidedBy),
      'a specific code names the item that decided it',
    );
  return { code: r.code, items: r.items };
}

describe('request validation (load.ts)', () => {
  const body = (id: string, value: unknown) => {
    const v = op(id).validateBody!;
    return v(value) ? null : codeAndItems(toValidationItems(v.errors!, 'body'));
  };

  it("gives a property's specific code for a limit and names the field by dotted path", () => {
    assert.deepEqual(body('updateMe', { default_retry_policy: { offsets_minutes: [5, 121] } }), {
      code: 'invalid_retry_policy',
      items: [
        {
          field: 'default_retry_policy.offsets_minutes.1',
          in: 'body',
          code: 'maximum',
          message: 'must be <= 120',
        },
      ],
    });
    assert.equal(
      body('createSchedule', { kind: 'once', local_time: '7:00' })?.code,
      'invalid_time',
    );
    assert.equal(
      body('createSchedule', { kind: 'once', in_minutes: 1441 })?.code,
      'in_minutes_out_of_range',
    );
    assert.equal(
      body('createSchedule', { kind: 'recurring', days_of_week: [] })?.code,
      'days_of_week_empty',
    );
    assert.equal(
      body('createSchedule', { kind: 'once', label: 'x'.repeat(61) })?.code,
      'message_disallowed_content',
    );
    assert.equal(body('createPhoneNumber', { e164: '0044 20' })?.code, 'invalid_phone_number');
    assert.equal(body('updateMe', { home_timezone: '' })?.code, 'invalid_timezone');
  });

  it('keeps validation_error for wrong types, missing fields and unknown fields', () => {
    assert.deepEqual(body('createSchedule', { kind: 'once', in_minutes: '5' }), {
      code: 'validation_error',
      items: [
        {
          field: 'in_minutes',
          in: 'body',
          code: 'type',
          message: 'must be of type integer or null',
        },
      ],
    });
    assert.deepEqual(body('createApiKey', { scopes: ['read'] })?.items, [
      { field: 'name', in: 'body', code: 'required', message: 'is required' },
    ]);
    assert.deepEqual(body('updateMe', { colour: 'red' }), {
      code: 'validation_error',
      items: [
        { field: 'colour', in: 'body', code: 'unknown_field', message: 'is not a known field' },
      ],
    });
  });

  it('lists every problem, the first specific code in schema order winning', () => {
    const r = body('createSchedule', {
      kind: 'once',
      local_time: '24:00',
      in_minutes: 0,
      enabled: 'yes',
    });
    assert.equal(r?.code, 'in_minutes_out_of_range'); // in_minutes precedes local_time in ScheduleIn
    assert.deepEqual(r?.items.map((i) => `${i.field}:${i.code}`).sort(), [
      'enabled:type',
      'in_minutes:minimum',
      'local_time:pattern',
    ]);
  });

  it('accepts open bodies with unknown fields and days_of_week [] on a one-off', () => {
    assert.equal(
      body('createSchedule', { kind: 'once', in_minutes: 30, days_of_week: [], extra: 1 }),
      null,
    );
    assert.equal(
      body('updateMe', { greeting_name: null, home_timezone: null, default_retry_policy: null }),
      null,
    );
  });

  it('applies the content rule to labels, messages and greeting names, as host/phone/content.ts does', () => {
    // ’ (U+2019) is the apostrophe iOS types by default; it is allowed alongside '.
    const good = [
      'Rise and shine, Ada!',
      'Zoë & Jürgen: 6 a.m. (gym)',
      "Let's go - day 3; 2 of 5?",
      'e.g. coffee',
      'Let’s go, it’s Zoë’s day',
    ];
    const bad = [
      'see example.com',
      'mail a@b',
      'call 555-123-4567',
      'call (555) 1234567',
      'http://x',
      'new\nline',
      '',
      'it‘s',
      'say “hi”',
    ];
    for (const ok of good) {
      assert.equal(body('createSchedule', { kind: 'once', message: ok }), null, ok);
      assert.equal(body('updateMe', { greeting_name: ok.slice(0, 40) }), null, ok);
      assert.equal(checkText(ok, TEXT_LIMITS.message).ok, true, ok);
    }
    for (const no of bad) {
      assert.equal(
        body('createSchedule', { kind: 'once', message: no })?.code,
        'message_disallowed_content',
        no,
      );
      assert.equal(checkText(no, TEXT_LIMITS.message).ok, false, no);
    }
  });

  it('coerces and defaults query parameters and bounds the paged limit', () => {
    const v = op('listSchedules').validateQuery!;
    const q: Record<string, unknown> = {};
    assert.ok(v(q));
    assert.deepEqual(q, { limit: 50 });
    const q2: Record<string, unknown> = { limit: '200', status: 'active' };
    assert.ok(v(q2));
    assert.equal(q2.limit, 200);
    assert.equal(v({ limit: '201' }), false);
    assert.deepEqual(codeAndItems(toValidationItems(v.errors!, 'query')), {
      code: 'validation_error',
      items: [{ field: 'limit', in: 'query', code: 'maximum', message: 'must be <= 200' }],
    });
    assert.equal(op('getTime').validateQuery!({ zones: Array(51).fill('UTC').join(',') }), false);
    assert.ok(op('getTime').validateQuery!({ zones: Array(50).fill('UTC').join(',') }));
  });

  it('validates path ids: a malformed id is not_found', () => {
    const v = op('getSchedule').validateParams!;
    assert.ok(v({ schedule_id: '0b6f1f8e-6a43-4d36-9d4a-54f1b2f3c0aa' }));
    assert.equal(v({ schedule_id: 'nope' }), false);
    assert.equal(toValidationItems(v.errors!, 'path').code, 'not_found');
  });
});

describe('generated types', () => {
  it('host/generated/openapi.ts matches the YAML (npm run check:gen)', async () => {
    const expected = await generateTypes();
    const actual = readFileSync(GENERATED_PATH, 'utf8');
    assert.ok(actual === expected, 'host/generated/openapi.ts is stale: run `npm run gen`');
    assert.match(actual, /Do not edit/);
  });
});
