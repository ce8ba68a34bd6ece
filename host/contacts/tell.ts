/**
 * Telling contacts (docs/decisions/0024-contacts.md): when a call of a schedule
 * naming contacts ends as its rule says ({@link tellOutcome}), each named contact that agreed
 * gets one text. The outcome comes from the engine: the runtime's `occurrence:status` event,
 * emitted after the unit of work that finished the call committed.
 *
 * Exactly one text per contact and call, across crashes:
 * 1. claim: one `contact_texts` row per (occurrence, contact), written `pending` with the
 *    text in one transaction with the daily cap's count (host/db/contact-texts.ts); a second
 *    claim of the same pair changes nothing;
 * 2. send, after the claim committed, with the idempotency key
 *    `contact-told:<occurrence id>:<contact id>`;
 * 3. record the result (`sent`, and {@link onContactTold} in the same transaction; or
 *    `failed`); a send whose outcome is unknown (the provider did not answer) stays pending
 *    and is tried again after a pause (1, 5, 15, 60 minutes, then every hour).
 * A crash between the outcome's commit and the claim leaves a call without rows, and one
 * between the claim and the record a pending row: {@link ContactTeller.catchUp}, run at
 * every start, claims the first (calls that ended within the last 24 hours) and sends the
 * second again with the same key, so the provider (or the outbox) drops a duplicate.
 * @module
 */
import type { Db } from '../db/sql.js';
import type { Clock, Messaging, OccurrenceRecord } from '../../engine/index.js';
import {
  claimTexts,
  expirePendingTexts,
  settleText,
  pendingTextsSince,
  takePendingText,
  tellTargets,
  untoldCalls,
  type PendingText,
  type TellCall,
} from '../db/contact-texts.js';
import { settleEngine } from '../db/engine-store.js';
import type { Logger } from '../logger.js';
import type { ContactsConfig } from './config.js';
import { CATCH_UP_WINDOW_MS, tellOutcome } from './rules.js';
import { toldText, type ContactTextOptions } from './texts.js';
import { onContactTold } from './told.js';

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
/** Pauses before a send whose outcome was unknown is tried again, by tries made. */
const RETRY_AFTER_MS = [MINUTE_MS, 5 * MINUTE_MS, 15 * MINUTE_MS, 60 * MINUTE_MS];

/** What the teller needs. */
export interface ContactTellerDeps {
  db: Db;
  clock: Clock;
  /** Guarded messaging: a blocked number is never texted. */
  messaging: Messaging;
  logger: Logger;
  config: ContactsConfig;
  text: () => ContactTextOptions;
  /**
   * A pending text whose last send began this long ago is another sender's no more: the
   * catch-up sends it again. 0 where one process owns the database (SQLite); on PostgreSQL,
   * longer than a send may take, so that a starting host does not resend another's text in flight.
   */
  staleAfterMs: number;
}

/** The teller, wired to the runtime by the composition root. */
export interface ContactTeller {
  /** The runtime's `occurrence:status` listener: a finished call tells its contacts. */
  onOccurrenceStatus(o: OccurrenceRecord): void;
  /** At start: claims the calls a stop left untold and sends the texts a stop left pending. */
  catchUp(): Promise<void>;
  /** Resolves once no telling is in flight (POST /dev/clock waits for it). */
  idle(): Promise<void>;
  /** Stops: no new work, pending retries dropped (the next start catches them up); waits for work in flight. */
  stop(): Promise<void>;
}

/** Creates the teller. */
export function createContactTeller(deps: ContactTellerDeps): ContactTeller {
  const { db, clock, messaging } = deps;
  const log = deps.logger.child({ component: 'contacts' });
  const inFlight = new Set<Promise<void>>();
  let stopped = false;

  const track = (work: Promise<void>): Promise<void> => {
    const p = work.catch((err: unknown) =>
      log.error({ err }, 'telling contacts failed; caught up at the next start'),
    );
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p));
    return p;
  };

  /** Texts this process is sending now (the catch-up and a live outcome may meet on one). */
  const sending = new Set<string>();

  /** Sends one claimed text and records how it went; nothing when this process is sending it already. */
  async function send(occurrenceId: string, contactId: string): Promise<void> {
    const key = `contact-told:${occurrenceId}:${contactId}`;
    if (stopped || sending.has(key)) return;
    sending.add(key);
    try {
      await sendOnce(occurrenceId, contactId, key);
    } finally {
      sending.delete(key);
    }
  }

  async function sendOnce(occurrenceId: string, contactId: string, key: string): Promise<void> {
    const text = await takePendingText(db, occurrenceId, contactId, clock.now());
    if (!text) return;
    if (!text.agreed) {
      await settleText(db, text, { status: 'skipped', reason: 'not_agreed' }, clock.now());
      return;
    }
    let result: Awaited<ReturnType<Messaging['sendText']>>;
    try {
      result = await messaging.sendText({ to: text.e164, body: text.body, idempotencyKey: key });
    } catch (err) {
      retryLater(text, err);
      return;
    }
    const now = clock.now();
    if (!result.ok) {
      await settleText(
        db,
        text,
        { status: result.code === 'number_blocked' ? 'skipped' : 'failed', reason: result.code },
        now,
      );
      log.warn(
        { contact: contactId, occurrence: occurrenceId, code: result.code },
        'text to a contact refused',
      );
      return;
    }
    const messageId = result.messageId;
    await db.tx(async (tx) => {
      if (!(await settleText(tx, text, { status: 'sent', messageId }, now))) return;
      await onContactTold(tx, {
        contactId,
        accountId: text.accountId,
        occurrenceId,
        scheduleId: text.scheduleId,
        outcome: text.outcome,
        sentAt: now,
      });
    });
    log.info(
      { contact: contactId, occurrence: occurrenceId, outcome: text.outcome },
      'contact told',
    );
  }

  function retryLater(text: PendingText, err: unknown): void {
    const pause = RETRY_AFTER_MS[Math.min(text.tries - 1, RETRY_AFTER_MS.length - 1)]!;
    log.warn(
      { err, contact: text.contactId, occurrence: text.occurrenceId, retryInMs: pause },
      'text to a contact: outcome unknown',
    );
    if (stopped) return;
    // A virtual clock awaits the promise (POST /dev/clock answers after the retry).
    clock.setTimer(clock.now() + pause, () =>
      stopped ? undefined : track(send(text.occurrenceId, text.contactId)),
    );
  }

  /** Claims the texts of one finished call, then sends those this claim made. */
  async function tell(call: TellCall): Promise<void> {
    const targets = await tellTargets(db, call);
    if (targets.length === 0) return;
    const now = clock.now();
    const start = Math.floor(now / DAY_MS) * DAY_MS;
    const words = deps.text();
    const claimed = await claimTexts(
      db,
      call,
      targets,
      (t) => toldText(t.holderName, call, words),
      { start, end: start + DAY_MS, limit: deps.config.textsPerDay },
      now,
    );
    if (claimed.length < targets.length) {
      log.info(
        { occurrence: call.occurrenceId, claimed: claimed.length, targets: targets.length },
        'some contacts not told (daily cap, blocked or told before)',
      );
    }
    for (const contactId of claimed) await send(call.occurrenceId, contactId);
  }

  async function catchUpNow(): Promise<void> {
    const now = clock.now();
    const since = now - CATCH_UP_WINDOW_MS;
    const expired = await expirePendingTexts(db, since, now);
    if (expired > 0) log.warn({ expired }, 'texts to contacts left pending for a day: given up');
    await settleEngine(db);
    const seen = new Set<string>();
    for (;;) {
      const calls = (await untoldCalls(db, since, 200)).filter((c) => !seen.has(c.occurrenceId));
      if (calls.length === 0 || stopped) break;
      for (const call of calls) {
        seen.add(call.occurrenceId);
        await tell(call);
      }
    }
    // Claimed, not known sent: sent again with the same key once no other host may be sending
    // it (its last try began staleAfterMs ago); a younger one, when it gets there.
    for (const text of await pendingTextsSince(db, since, 1000)) {
      if (stopped) break;
      const at = text.lastTryAt + deps.staleAfterMs;
      if (at <= now) await send(text.occurrenceId, text.contactId);
      else
        clock.setTimer(at, () =>
          stopped ? undefined : track(send(text.occurrenceId, text.contactId)),
        );
    }
  }

  return {
    onOccurrenceStatus(o) {
      if (stopped) return;
      const outcome = tellOutcome(o);
      if (outcome === null) return;
      void track(
        tell({
          occurrenceId: o.id,
          accountId: o.accountId,
          scheduleId: o.scheduleId!,
          outcome,
          finishedAt: o.finishedAt!,
          scheduledAt: o.scheduledAt,
          timezone: o.timezone,
          label: o.label,
        }),
      );
    },

    catchUp() {
      return track(catchUpNow());
    },

    async idle() {
      while (inFlight.size > 0) await Promise.all([...inFlight]);
    },

    async stop() {
      stopped = true;
      while (inFlight.size > 0) await Promise.all([...inFlight]);
    },
  };
}
