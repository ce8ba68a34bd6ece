/**
 * Phone number routes: list (paged, oldest first), add (sends a code at once), change
 * label / primary, remove, and the verification pair verify/start and verify/check.
 *
 * Rules kept here (values in `host/phone/*`):
 * - E.164 parsed with libphonenumber's full metadata: invalid_phone_number (also premium,
 *   toll-free and similar ranges), country_not_supported outside GET /countries.
 * - Adding a number the account already has answers that number again with a new code.
 *   A blocked number (STOP, complaint, manual) is refused with 403 number_blocked and not
 *   added; one blocked by key 9 is added and sent a code, since verifying lifts that block.
 * - One primary per account: the first number added; PATCH is_primary true moves it (only to
 *   a verified number: phone_number_unverified); removing the primary promotes the oldest
 *   remaining number. is_primary false is ignored.
 * - Labels: null means Mobile / Landline / Phone by type; content rules as in
 *   `host/phone/content.ts` (message_disallowed_content).
 * - DELETE: 409 number_in_use while an enabled wake-up call rings the number.
 * @module
 */
import type { AppDeps } from '../../deps.js';
import {
  deletePhoneNumber,
  findPhoneNumberByE164,
  getBlock,
  getPhoneNumber,
  insertPhoneNumber,
  listPhoneNumbers,
  numberInUse,
  setLabel,
  setPrimary,
  type PhoneNumber,
} from '../../db/phone-numbers.js';
import { checkText, TEXT_LIMITS } from '../../phone/content.js';
import { defaultChannel, defaultLabel, parsePhone } from '../../phone/numbers.js';
import { isVerified, toPhoneNumberOut } from '../../phone/present.js';
import { assertMayReceiveCode, assertNotLocked, checkVerificationCode, sendVerificationCode } from '../../phone/verification.js';
import { requirePrincipal } from '../context.js';
import { cursorKey, pageRequest, pageResponse } from '../paging.js';
import { problem } from '../../errors.js';
import type { Routes } from '../registrar.js';

type IdParams = { phone_number_id: string };

/** Checks a label against the content rules; throws message_disallowed_content. */
function checkedLabel(label: string): string {
  const r = checkText(label, TEXT_LIMITS.label);
  if (!r.ok) throw problem('message_disallowed_content', { field: 'label', detail: `label ${r.reason}.` });
  return r.value;
}

/** Registers the phone number operations. */
export function register(routes: Routes, deps: AppDeps): void {
  const { db, clock } = deps;

  const owned = (accountId: string, id: string): PhoneNumber => {
    const n = getPhoneNumber(db, accountId, id);
    if (!n) throw problem('not_found', { detail: 'No phone number with that id.' });
    return n;
  };

  routes.operation<unknown, { cursor?: string; limit?: number }>('listPhoneNumbers', ({ principal, query }) => {
    const p = requirePrincipal(principal);
    const page = pageRequest(query);
    const after = cursorKey<[number, number]>(page.after, ['number', 'number']);
    const { items } = listPhoneNumbers(db, p.accountId, { after: after && { createdAt: after[0], seq: after[1] }, limit: page.limit + 1 });
    const now = clock.now();
    return {
      status: 200,
      body: pageResponse(
        items,
        page.limit,
        (n) => [n.createdAt, n.seq],
        (n) => toPhoneNumberOut(n, now),
      ),
    };
  });

  routes.operation<{ e164: string; label?: string | null }>('createPhoneNumber', async ({ principal, body, ctx }) => {
    const p = requirePrincipal(principal);
    const parsed = parsePhone(body.e164);
    if (!parsed.ok) throw problem(parsed.code, { field: 'e164', detail: parsed.detail });
    const phone = parsed.phone;
    const label = body.label == null ? null : checkedLabel(body.label);

    // Refuse before storing or counting anything: a blocked line gets nothing from us.
    const block = getBlock(db, phone.e164);
    assertMayReceiveCode({ block: block ? { reason: block.reason, blockedAt: block.blockedAt } : null });

    let n = findPhoneNumberByE164(db, p.accountId, phone.e164);
    const now = clock.now();
    if (n) assertNotLocked(n, now);
    // Count the code before the number is stored, so that a refused request stores nothing.
    deps.phone.limits.count({ number: phone.e164, account: p.accountId, ip: ctx.ip });
    if (n) {
      if (label !== null && label !== n.label) setLabel(db, n.id, label, now);
    } else {
      n = insertPhoneNumber(db, {
        id: deps.ids.uuid(),
        accountId: p.accountId,
        e164: phone.e164,
        label: label ?? defaultLabel(phone.type),
        countryCode: phone.countryCode,
        type: phone.type,
        at: now,
      });
    }
    const fresh = getPhoneNumber(db, p.accountId, n.id)!;
    const verification = await sendVerificationCode(deps, fresh, defaultChannel(fresh.type), {
      accountId: p.accountId,
      ip: ctx.ip,
      counted: true,
    });
    const after = getPhoneNumber(db, p.accountId, n.id)!;
    return { status: 201, body: { ...toPhoneNumberOut(after, clock.now()), verification } };
  });

  routes.operation<{ is_primary?: boolean | null; label?: string | null }, unknown, IdParams>(
    'updatePhoneNumber',
    ({ principal, body, params }) => {
      const p = requirePrincipal(principal);
      const n = owned(p.accountId, params.phone_number_id);
      const now = clock.now();
      const label = body.label == null ? null : checkedLabel(body.label);
      const makePrimary = body.is_primary === true && !n.isPrimary;
      if (makePrimary && !isVerified(n, now)) {
        throw problem('phone_number_unverified', { field: 'is_primary', detail: 'Only a verified number can be the primary one.' });
      }
      db.transaction(() => {
        if (label !== null && label !== n.label) setLabel(db, n.id, label, now);
        if (makePrimary) setPrimary(db, p.accountId, n.id, now);
      })();
      return { status: 200, body: toPhoneNumberOut(owned(p.accountId, n.id), now) };
    },
  );

  routes.operation<unknown, unknown, IdParams>('deletePhoneNumber', ({ principal, params }) => {
    const p = requirePrincipal(principal);
    const n = owned(p.accountId, params.phone_number_id);
    if (numberInUse(db, n.id)) {
      throw problem('number_in_use', { detail: 'An enabled wake-up call still rings this number; delete or change it first.' });
    }
    deletePhoneNumber(db, p.accountId, n.id, clock.now());
    return { status: 204 };
  });

  routes.operation<{ channel?: 'sms' | 'call' | null } | undefined, unknown, IdParams>(
    'startPhoneVerification',
    async ({ principal, body, params, ctx }) => {
      const p = requirePrincipal(principal);
      const n = owned(p.accountId, params.phone_number_id);
      const channel = body?.channel ?? defaultChannel(n.type);
      const verification = await sendVerificationCode(deps, n, channel, { accountId: p.accountId, ip: ctx.ip });
      return { status: 200, body: verification };
    },
  );

  routes.operation<{ code: string }, unknown, IdParams>('checkPhoneVerification', async ({ principal, body, params }) => {
    const p = requirePrincipal(principal);
    const n = owned(p.accountId, params.phone_number_id);
    const verified = await checkVerificationCode(deps, n, body.code);
    return { status: 200, body: toPhoneNumberOut(verified, clock.now()) };
  });
}
