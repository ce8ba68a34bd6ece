/**
 * The public demo call: POST /demo/start texts a code to a visitor's number, POST /demo/call
 * spends it on one free demo call placed now through the engine (attempt kind `demo`).
 *
 * It is the one public endpoint that makes the service pay for a stranger's request, so it
 * is where toll fraud and SMS pumping arrive first. Paid sends are bounded by, in order:
 *
 * | Check (start) | Answer |
 * |---|---|
 * | consent true | else 400 confirmation_required |
 * | demo on (daily cap > 0) | else 403 demo_not_available |
 * | a valid E.164 number | else 400 invalid_phone_number |
 * | tier A country, mobile or landline type | else 403 demo_not_available |
 * | not blocked, no demo call today | else the same 202, nothing sent |
 * | 2 codes a day to the number | else 429 demo_rate_limited |
 * | the global daily cap, the country-prefix daily cap | else 429 demo_rate_limited |
 *
 * (3 starts an hour per client address, counted for every start, is checked first by the
 * route, which knows the address.) The caps count rows of `demo_requests`, written in one
 * synchronous transaction with the check before the text is sent, so concurrent starts can
 * never send more than the caps allow, and a restart forgets nothing. Every "day" is the UTC
 * day (reset at 00:00 UTC; Retry-After counts the seconds to it).
 *
 * Codes: 6 digits, scrypt-hashed (never stored), valid 10 minutes; the 5th wrong code ends
 * the request. Checks of one number run one at a time (see ../rate-limit/one-at-a-time.ts).
 *
 * Call: the newest live code of the number places the call (201); the code that placed
 * today's call shows it again (200, current state); anything else is 400
 * verification_code_invalid and shows nothing. A second call the same UTC day: 429
 * demo_rate_limited. The engine refusing the call (the number was blocked meanwhile): 403
 * number_blocked and nothing is used up. Key 9 on the demo call blocks the number (reason
 * key_9, by the engine's Accounts port); verifying the number in an account lifts it.
 * @module
 */
import type { Db } from '../db/sql.js';
import type { Clock, EpochMs, Ids, Messaging, Runtime } from '../../engine/index.js';
import type { SharedState } from '../shared-state.js';
import { hashCode, matchCode, newCode } from '../verification/code.js';
import { getAttemptById } from '../db/calls.js';
import {
  countDemoCodes,
  findCalledRequest,
  findLiveRequest,
  insertDemoRequest,
  markDemoCodeSent,
  recordDemoCall,
  recordDemoWrongCode,
  clearDemoCall,
  type DemoRequest,
} from '../db/demo.js';
import { isBlocked } from '../db/phone-numbers.js';
import { invalid, problem, type AppError } from '../errors.js';
import type { DemoCallOut, DemoStartOut } from '../generated/openapi.js';
import type { Logger } from '../logger.js';
import { maskE164, parsePhone, type ParsedPhone } from '../phone/index.js';
import { demoCodeText, type TextOptions } from '../reference/texts.js';
import { secondsToUtcMidnight } from '../entitlement/daily-cap.js';
import type { DemoConfig } from './config.js';
import { demoCallOut } from './present.js';
import { DEMO_CODES, DEMO_NUMBER_TYPES, DEMO_RULES, utcDayOf } from './rules.js';

/** What {@link createDemoService} needs. */
export interface DemoServiceDeps {
  db: Db;
  clock: Clock;
  ids: Ids;
  /** Guarded messaging (never texts a blocked number). */
  messaging: Pick<Messaging, 'sendText'>;
  /** The engine runtime that places the demo call. */
  runtime: Pick<Runtime, 'placeCall'>;
  logger: Logger;
  config: DemoConfig;
  /** Words of texts (service name). */
  text: () => TextOptions;
  /** Where the code-check queue lives (host/shared-state.ts). */
  shared: SharedState;
}

/** Body of POST /demo/start. */
export interface DemoStartInput {
  consent?: boolean | null;
  e164?: string | null;
}

/** Body of POST /demo/call. */
export interface DemoCallInput {
  code?: string | null;
  e164?: string | null;
}

/** The demo service. */
export interface DemoService {
  /** POST /demo/start after the per-address limit: the 202 body (sent or silently not). */
  start(input: DemoStartInput): Promise<DemoStartOut>;
  /** POST /demo/call: `created` true for a new call (201), false for the same call again (200). */
  call(input: DemoCallInput): Promise<{ created: boolean; call: DemoCallOut }>;
}

/** Creates the service. */
export function createDemoService(deps: DemoServiceDeps): DemoService {
  const { db, clock, config } = deps;
  const log = deps.logger.child({ component: 'demo' });
  const checks = deps.shared.queues.queue('demo');

  const assertOn = () => {
    if (config.dailyCap === 0)
      throw problem('demo_not_available', {
        detail: 'The demo call is turned off on this server.',
      });
  };

  const eligible = (e164: string | null | undefined): ParsedPhone => {
    if (e164 === undefined || e164 === null)
      throw invalid({ field: 'e164', in: 'body', code: 'required', message: 'is required' });
    const parsed = parsePhone(e164);
    if (!parsed.ok && parsed.code === 'invalid_phone_number')
      throw problem('invalid_phone_number', { field: 'e164', detail: parsed.detail });
    if (
      !parsed.ok ||
      parsed.phone.country.tier !== 'A' ||
      !DEMO_NUMBER_TYPES.has(parsed.phone.type)
    ) {
      throw problem('demo_not_available', {
        field: 'e164',
        detail:
          'The demo call is offered to mobile and landline numbers in tier A countries only (GET /countries).',
      });
    }
    return parsed.phone;
  };

  const limited = (detail: string, now: EpochMs): AppError => {
    const seconds = secondsToUtcMidnight(now);
    return problem('demo_rate_limited', {
      detail: `${detail} It resets at midnight UTC, in ${seconds} seconds.`,
      headers: { 'Retry-After': String(seconds) },
    });
  };

  const answer = (phone: ParsedPhone): DemoStartOut => ({
    status: 'code_sent',
    channel: 'sms',
    e164_masked: maskE164(phone.e164),
    code_valid_seconds: DEMO_RULES.codeValidSeconds,
  });

  /** A number that gets the silent 202: blocked, or it had its demo call today. */
  const silent = async (q: Db, e164: string, day: string) =>
    (await isBlocked(q, e164)) || (await findCalledRequest(q, e164, day)) !== undefined;

  return {
    async start(input) {
      if (input.consent !== true) {
        throw problem('confirmation_required', {
          field: 'consent',
          detail:
            'Set consent to true: this number gets a text with a code, then one automated call with an artificial voice.',
        });
      }
      assertOn();
      const phone = eligible(input.e164);
      const prefix = phone.country.calling_code;
      /** Throws 429 when a cap is reached; false for the silent 202. `q`: the Db, or the transaction that inserts. */
      const admit = async (q: Db, now: EpochMs, day: string): Promise<boolean> => {
        if (await silent(q, phone.e164, day)) return false;
        const n = await countDemoCodes(q, day, prefix, phone.e164);
        if (n.number >= DEMO_RULES.codesPerNumberPerDay) {
          throw limited(
            `This number got its ${DEMO_RULES.codesPerNumberPerDay} demo codes for today.`,
            now,
          );
        }
        if (n.all >= config.dailyCap)
          throw limited('The demo has reached its limit for today.', now);
        if (n.prefix >= config.prefixDailyCap)
          throw limited(`The demo has reached its limit for ${prefix} numbers today.`, now);
        return true;
      };
      // Checked before the (deliberately slow) hash, so that refused starts cost no CPU...
      if (!(await admit(db, clock.now(), utcDayOf(clock.now())))) return answer(phone);

      const code = newCode();
      const { hash, salt } = await hashCode(code);
      // ...and again with the row's insert in one transaction, since other starts ran during the hash.
      const now = clock.now();
      const day = utcDayOf(now);
      const id = deps.ids.uuid();
      const stored = await db.tx(async (tx) => {
        if (!(await admit(tx, now, day))) return false;
        await insertDemoRequest(tx, {
          id,
          e164: phone.e164,
          prefix,
          utcDay: day,
          codeHash: hash,
          codeSalt: salt,
          expiresAt: now + DEMO_CODES.validMs,
          createdAt: now,
        });
        return true;
      });
      if (!stored) return answer(phone);

      try {
        const r = await deps.messaging.sendText({
          to: phone.e164,
          body: demoCodeText(code, deps.text()),
        });
        if (r.ok) await markDemoCodeSent(db, id);
        else
          log.warn({ request: id, to: maskE164(phone.e164), code: r.code }, 'demo code not sent');
      } catch (err) {
        log.warn(
          { err, request: id, to: maskE164(phone.e164) },
          'demo code: text provider unreachable',
        );
      }
      return answer(phone);
    },

    async call(input) {
      assertOn();
      if (input.code === undefined || input.code === null) {
        throw invalid({ field: 'code', in: 'body', code: 'required', message: 'is required' });
      }
      const code = input.code;
      const phone = eligible(input.e164);
      return checks.run(phone.e164, async () => {
        const now = clock.now();
        const day = utcDayOf(now);
        const called = await findCalledRequest(db, phone.e164, day);
        const live = await findLiveRequest(db, phone.e164, now);
        // Hash against a dummy without a live code, so the answer takes as long either way.
        const matches = (r: DemoRequest | undefined) =>
          matchCode(code, r ? { hash: r.codeHash, salt: r.codeSalt } : null);

        if (called && (await matches(called))) {
          const attempt = await getAttemptById(db, called.callId!);
          if (attempt) return { created: false, call: demoCallOut(attempt) };
        }
        if (await matches(live)) {
          if (called) throw limited('This number had its demo call today.', now);
          return { created: true, call: await place(live!, phone, now, day) };
        }
        let left = DEMO_CODES.maxWrongTries;
        if (live)
          left =
            DEMO_CODES.maxWrongTries - (await recordDemoWrongCode(db, live.id, DEMO_CODES, now));
        throw problem('verification_code_invalid', {
          field: 'code',
          detail:
            live && left > 0
              ? `Wrong code. ${left} ${left === 1 ? 'try' : 'tries'} left for this code.`
              : 'No valid demo code for this number: it expired, was used up by wrong tries, or none was sent. Ask for a new one.',
        });
      });
    },
  };

  /**
   * Places the demo call for a request whose code matched (inside the number's queue). The
   * call's id is recorded on the request first, so that a crash between the two can never
   * leave a live code that places a second call; a refusal or an error clears it again.
   */
  async function place(
    request: DemoRequest,
    phone: ParsedPhone,
    now: EpochMs,
    day: string,
  ): Promise<DemoCallOut> {
    const attemptId = deps.ids.uuid();
    await recordDemoCall(db, request.id, attemptId, now, day);
    let r: Awaited<ReturnType<DemoServiceDeps['runtime']['placeCall']>>;
    try {
      r = await deps.runtime.placeCall({
        id: attemptId,
        kind: 'demo',
        to: phone.e164,
        accountId: null,
        phoneNumberId: null,
      });
    } catch (err) {
      await clearDemoCall(db, request.id);
      throw err;
    }
    if (!r.ok) {
      await clearDemoCall(db, request.id);
      // Only a blocked number refuses a demo call (host/entitlement/admission.ts); nothing is used up.
      throw problem('number_blocked', { detail: 'Calls and texts to this number are blocked.' });
    }
    log.info(
      { request: request.id, attempt: attemptId, to: maskE164(phone.e164) },
      'demo call placed',
    );
    return demoCallOut((await getAttemptById(db, attemptId)) ?? r.attempt);
  }
}
