/**
 * Test call routes: POST /phone-numbers/{id}/test-call (a short test message) and POST
 * /schedules/{id}/test-call (what the schedule's wake-up call says, to its number, with its
 * ring timeout). Rules in `host/calls/test-calls.ts`.
 * @module
 */
import type { AppDeps } from '../../deps.js';
import { findAccountById } from '../../db/accounts.js';
import { getPhoneNumber } from '../../db/phone-numbers.js';
import { getSchedule } from '../../db/schedules.js';
import { placeTestCall } from '../../calls/test-calls.js';
import { policyInEffect } from '../../schedules/rule.js';
import { requirePrincipal } from '../context.js';
import { invalid, problem } from '../../errors.js';
import type { Routes } from '../registrar.js';

/** Registers testCallPhoneNumber and testCallSchedule. */
export function register(routes: Routes, deps: AppDeps): void {
  const { db } = deps;

  const account = (id: string) => {
    const a = findAccountById(db, id);
    if (!a) throw problem('unauthenticated', { detail: 'The account no longer exists.' });
    return a;
  };

  routes.operation<unknown, unknown, { phone_number_id: string }>('testCallPhoneNumber', ({ principal, params }) => {
    const p = requirePrincipal(principal);
    const phone = getPhoneNumber(db, p.accountId, params.phone_number_id);
    if (!phone) throw problem('not_found', { detail: 'No phone number with that id.' });
    const a = account(p.accountId);
    return placeTestCall(deps, p.accountId, phone, { script: { kind: 'test', greetingName: a.greetingName, voice: a.voice } });
  });

  routes.operation<unknown, unknown, { schedule_id: string }>('testCallSchedule', ({ principal, params }) => {
    const p = requirePrincipal(principal);
    const s = getSchedule(db, p.accountId, params.schedule_id);
    if (!s) throw problem('not_found', { detail: 'No schedule with that id.' });
    const phone = s.phoneNumberId === null ? undefined : getPhoneNumber(db, p.accountId, s.phoneNumberId);
    if (!phone) {
      throw invalid({
        field: 'schedule_id',
        in: 'path',
        code: 'invalid',
        message: 'names a schedule whose phone number was deleted; give it a number with PATCH first',
      });
    }
    const a = account(p.accountId);
    return placeTestCall(deps, p.accountId, phone, {
      // What the wake-up call says, without the snooze offer (a test call knows keys 1 and 9).
      script: { kind: 'wake_up', greetingName: s.greetingName ?? a.greetingName, message: s.message, snoozeAllowed: false, voice: a.voice },
      ringTimeoutSeconds: policyInEffect(s, a).ring_timeout_seconds,
    });
  });
}
