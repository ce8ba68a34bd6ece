/**
 * The phone service: the account's numbers (list, add, change, remove, verify) and the
 * phone runtime's parts that routes use (config, provider webhooks, simulated phones,
 * inbound texts). Number operations: list (paged, oldest first), add (sends a code at once), change
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
import type { Db } from '../db/sql.js';
import type { Clock, Ids } from '../../engine/index.js';
import type { ProviderWebhooks, SimulatedPhones } from '../ports/telephony.js';
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
} from '../db/phone-numbers.js';
import { problem } from '../errors.js';
import type { Logger } from '../logger.js';
import { cursorKey, pageRequest, pageResponse, type PageQuery } from '../paging.js';
import type { PhoneConfig } from './config.js';
import { checkText, TEXT_LIMITS } from './content.js';
import { handleInboundText, type InboundDeps } from './inbound.js';
import type { InboundIntent } from './keywords.js';
import { defaultChannel, defaultLabel, parsePhone } from './numbers.js';
import { isVerified, toPhoneNumberOut } from './present.js';
import type { PhoneRuntime } from './runtime.js';
import {
  assertMayReceiveCode,
  assertNotLocked,
  checkVerificationCode,
  sendVerificationCode,
  type VerificationOut,
} from './verification.js';

type PhoneNumberOut = ReturnType<typeof toPhoneNumberOut>;

/** What the phone service needs. */
export interface PhoneServiceDeps {
  db: Db;
  clock: Clock;
  ids: Ids;
  logger: Logger;
  phone: PhoneRuntime;
  /** Told of each inbound text applied (./inbound.ts). */
  onKeyword?: InboundDeps['onKeyword'];
}

/** The phone operations routes use. */
export interface PhoneService {
  readonly config: PhoneConfig;
  /** The provider's webhook dispatcher when a Twilio-compatible provider is configured. */
  readonly webhooks: ProviderWebhooks | null;
  /** The simulator when it is the voice provider (PUT /dev/phones scripts it), else null. */
  readonly simulator: SimulatedPhones | null;
  list(
    accountId: string,
    query: PageQuery,
  ): Promise<{ items: PhoneNumberOut[]; next_cursor: string | null }>;
  /** Adds the number (or finds the account's same number) and sends it a code. `ip` counts toward the code limits. */
  create(
    accountId: string,
    body: { e164: string; label?: string | null },
    ip: string,
  ): Promise<PhoneNumberOut & { verification: VerificationOut }>;
  update(
    accountId: string,
    id: string,
    body: { is_primary?: boolean | null; label?: string | null },
  ): Promise<PhoneNumberOut>;
  remove(accountId: string, id: string): Promise<void>;
  startVerification(
    accountId: string,
    id: string,
    channel: 'sms' | 'call' | null | undefined,
    ip: string,
  ): Promise<VerificationOut>;
  checkVerification(accountId: string, id: string, code: string): Promise<PhoneNumberOut>;
  /** As if `from` texted the service (STOP, START, HELP and others). */
  receiveText(text: { from: string; body: string }): Promise<InboundIntent>;
}

/** Checks a label against the content rules; throws message_disallowed_content. */
function checkedLabel(label: string): string {
  const r = checkText(label, TEXT_LIMITS.label);
  if (!r.ok)
    throw problem('message_disallowed_content', { field: 'label', detail: `label ${r.reason}.` });
  return r.value;
}

/** Creates the phone service. */
export function createPhoneService(deps: PhoneServiceDeps): PhoneService {
  const { db, clock, phone: runtime } = deps;

  const owned = async (accountId: string, id: string): Promise<PhoneNumber> => {
    const n = await getPhoneNumber(db, accountId, id);
    if (!n) throw problem('not_found', { detail: 'No phone number with that id.' });
    return n;
  };

  return {
    config: runtime.config,
    webhooks: runtime.webhooks,
    simulator: runtime.simulator,

    async list(accountId, query) {
      const page = pageRequest(query);
      const after = cursorKey<[number, number]>(page.after, ['number', 'number']);
      const { items } = await listPhoneNumbers(db, accountId, {
        after: after && { createdAt: after[0], seq: after[1] },
        limit: page.limit + 1,
      });
      const now = clock.now();
      return pageResponse(
        items,
        page.limit,
        (n) => [n.createdAt, n.seq],
        (n) => toPhoneNumberOut(n, now),
      );
    },

    async create(accountId, body, ip) {
      const parsed = parsePhone(body.e164);
      if (!parsed.ok) throw problem(parsed.code, { field: 'e164', detail: parsed.detail });
      const phone = parsed.phone;
      const label = body.label == null ? null : checkedLabel(body.label);

      // Refuse before storing or counting anything: a blocked line gets nothing from us.
      const block = await getBlock(db, phone.e164);
      assertMayReceiveCode({
        block: block ? { reason: block.reason, blockedAt: block.blockedAt } : null,
      });

      let n = await findPhoneNumberByE164(db, accountId, phone.e164);
      const now = clock.now();
      if (n) assertNotLocked(n, now);
      // Count the code before the number is stored, so that a refused request stores nothing.
      await runtime.limits.count({ number: phone.e164, account: accountId, ip });
      if (n) {
        if (label !== null && label !== n.label) await setLabel(db, n.id, label, now);
      } else {
        n = await insertPhoneNumber(db, {
          id: deps.ids.uuid(),
          accountId,
          e164: phone.e164,
          label: label ?? defaultLabel(phone.type),
          countryCode: phone.countryCode,
          type: phone.type,
          at: now,
        });
      }
      const fresh = (await getPhoneNumber(db, accountId, n.id))!;
      const verification = await sendVerificationCode(deps, fresh, defaultChannel(fresh.type), {
        accountId,
        ip,
        counted: true,
      });
      const after = (await getPhoneNumber(db, accountId, n.id))!;
      return { ...toPhoneNumberOut(after, clock.now()), verification };
    },

    async update(accountId, id, body) {
      const n = await owned(accountId, id);
      const now = clock.now();
      const label = body.label == null ? null : checkedLabel(body.label);
      const makePrimary = body.is_primary === true && !n.isPrimary;
      if (makePrimary && !isVerified(n, now)) {
        throw problem('phone_number_unverified', {
          field: 'is_primary',
          detail: 'Only a verified number can be the primary one.',
        });
      }
      await db.tx(async (tx) => {
        if (label !== null && label !== n.label) await setLabel(tx, n.id, label, now);
        if (makePrimary) await setPrimary(tx, accountId, n.id, now);
      });
      return toPhoneNumberOut(await owned(accountId, n.id), now);
    },

    async remove(accountId, id) {
      const n = await owned(accountId, id);
      if (await numberInUse(db, n.id)) {
        throw problem('number_in_use', {
          detail: 'An enabled wake-up call still rings this number; delete or change it first.',
        });
      }
      await deletePhoneNumber(db, accountId, n.id, clock.now());
    },

    async startVerification(accountId, id, channel, ip) {
      const n = await owned(accountId, id);
      return sendVerificationCode(deps, n, channel ?? defaultChannel(n.type), { accountId, ip });
    },

    async checkVerification(accountId, id, code) {
      const n = await owned(accountId, id);
      const verified = await checkVerificationCode(deps, n, code);
      return toPhoneNumberOut(verified, clock.now());
    },

    receiveText: (text) => handleInboundText(deps, text),
  };
}
