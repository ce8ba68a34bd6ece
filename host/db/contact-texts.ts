/**
 * Texts to contacts telling them a call went unanswered: queries on
 * `contact_texts` (migration 0021), one row per occurrence and contact. A row is claimed
 * (`pending`, with the text fixed) in one transaction with the daily cap's count, before the
 * text is sent; the send's result is recorded on it. The rules are host/contacts/tell.ts.
 * @module
 */
import type { Db } from './sql.js';
import { engineReads } from './engine-store.js';
import type { EpochMs } from '../../engine/index.js';

/** An outcome that tells contacts. */
export type TextOutcome = 'missed' | 'unconfirmed';

/** A finished call whose contacts are to be told. */
export interface TellCall {
  occurrenceId: string;
  accountId: string;
  scheduleId: string;
  outcome: TextOutcome;
  finishedAt: EpochMs;
  scheduledAt: EpochMs;
  timezone: string | null;
  label: string | null;
}

/** A contact to tell of one call. */
export interface TellTarget {
  contactId: string;
  e164: string;
  holderName: string;
  /** The number is blocked now. */
  blocked: boolean;
}

/** A claimed text, as sent (and resent). */
export interface PendingText {
  occurrenceId: string;
  contactId: string;
  accountId: string;
  scheduleId: string | null;
  outcome: TextOutcome;
  e164: string;
  body: string;
  tries: number;
  /** When it was claimed or its last send began. */
  lastTryAt: EpochMs;
  /** The contact still agrees (a STOP since the claim stops it). */
  agreed: boolean;
}

/**
 * The contacts the schedule's rule names for this outcome that agreed before the call ended
 * (a contact is told only of calls that ended after it agreed).
 */
export async function tellTargets(
  db: Db,
  call: Pick<TellCall, 'scheduleId' | 'outcome' | 'finishedAt'>,
): Promise<TellTarget[]> {
  const rows = await db.all<{ id: string; e164: string; holder_name: string; blocked: number }>(
    `SELECT c.id, c.e164, c.holder_name, CASE WHEN b.e164 IS NULL THEN 0 ELSE 1 END AS blocked
     FROM schedule_contacts sc JOIN contacts c ON c.id = sc.contact_id LEFT JOIN phone_blocks b ON b.e164 = c.e164
     WHERE sc.schedule_id = ? AND (CAST(? AS TEXT) = 'missed' OR sc.tell_unconfirmed = 1)
       AND c.status = 'agreed' AND c.agreed_at <= ?
     ORDER BY sc.rowid`,
    [call.scheduleId, call.outcome, call.finishedAt],
  );
  return rows.map((r) => ({
    contactId: r.id,
    e164: r.e164,
    holderName: r.holder_name,
    blocked: r.blocked === 1,
  }));
}

/**
 * Claims one text per target (idempotent: a target already claimed for this occurrence is
 * left as it is), in one transaction with the daily cap: the account's texts pending or sent
 * in [day.start, day.end) count, and a claim past `day.limit` is stored `skipped`
 * (`daily_cap`); a blocked number's is `skipped` (`number_blocked`). Returns the contact ids
 * claimed `pending` by this call (the caller sends them).
 */
export async function claimTexts(
  db: Db,
  call: TellCall,
  targets: readonly TellTarget[],
  body: (target: TellTarget) => string,
  day: { start: EpochMs; end: EpochMs; limit: number },
  now: EpochMs,
): Promise<string[]> {
  if (targets.length === 0) return [];
  return await db.tx(async (tx) => {
    let used = (await tx.get<{ n: number }>(
      `SELECT COUNT(*) AS n FROM contact_texts
       WHERE account_id = ? AND created_at >= ? AND created_at < ? AND status IN ('pending', 'sent')`,
      [call.accountId, day.start, day.end],
    ))!.n;
    const claimed: string[] = [];
    for (const t of targets) {
      const [status, reason] = t.blocked
        ? (['skipped', 'number_blocked'] as const)
        : used >= day.limit
          ? (['skipped', 'daily_cap'] as const)
          : (['pending', null] as const);
      const r = await tx.run(
        `INSERT INTO contact_texts (occurrence_id, contact_id, account_id, schedule_id, outcome, status, reason, body, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (occurrence_id, contact_id) DO NOTHING`,
        [
          call.occurrenceId,
          t.contactId,
          call.accountId,
          call.scheduleId,
          call.outcome,
          status,
          reason,
          body(t),
          now,
          now,
        ],
      );
      if (r.changes === 1 && status === 'pending') {
        used += 1;
        claimed.push(t.contactId);
      }
    }
    return claimed;
  });
}

const PENDING_SELECT = `SELECT t.occurrence_id, t.contact_id, t.account_id, t.schedule_id, t.outcome, t.body, t.tries, t.updated_at, c.e164,
    CASE WHEN c.status = 'agreed' THEN 1 ELSE 0 END AS agreed
  FROM contact_texts t JOIN contacts c ON c.id = t.contact_id`;

interface PendingRow {
  occurrence_id: string;
  contact_id: string;
  account_id: string;
  schedule_id: string | null;
  outcome: TextOutcome;
  body: string;
  tries: number;
  updated_at: number;
  e164: string;
  agreed: number;
}

const fromPending = (r: PendingRow): PendingText => ({
  occurrenceId: r.occurrence_id,
  contactId: r.contact_id,
  accountId: r.account_id,
  scheduleId: r.schedule_id,
  outcome: r.outcome,
  e164: r.e164,
  body: r.body,
  tries: r.tries,
  lastTryAt: r.updated_at,
  agreed: r.agreed === 1,
});

/**
 * The claimed text, if still pending, and counts one more try (its `updated_at` says when the
 * last send began). Undefined when it was sent, refused, or its contact removed meanwhile.
 */
export async function takePendingText(
  db: Db,
  occurrenceId: string,
  contactId: string,
  now: EpochMs,
): Promise<PendingText | undefined> {
  return await db.tx(async (tx) => {
    const r = await tx.get<PendingRow>(
      `${PENDING_SELECT} WHERE t.occurrence_id = ? AND t.contact_id = ? AND t.status = 'pending'`,
      [occurrenceId, contactId],
    );
    if (!r) return undefined;
    await tx.run(
      'UPDATE contact_texts SET tries = tries + 1, updated_at = ? WHERE occurrence_id = ? AND contact_id = ?',
      [now, occurrenceId, contactId],
    );
    return fromPending(r);
  });
}

/** Records how a pending text ended (`sent` with the provider's id; `failed` or `skipped` with why). Returns whether it was pending. */
export async function settleText(
  db: Db,
  text: { occurrenceId: string; contactId: string },
  result: { status: 'sent'; messageId: string } | { status: 'failed' | 'skipped'; reason: string },
  now: EpochMs,
): Promise<boolean> {
  const r = await db.run(
    `UPDATE contact_texts SET status = ?, reason = ?, message_id = ?, sent_at = ?, updated_at = ?
     WHERE occurrence_id = ? AND contact_id = ? AND status = 'pending'`,
    [
      result.status,
      result.status === 'sent' ? null : result.reason,
      result.status === 'sent' ? result.messageId : null,
      result.status === 'sent' ? now : null,
      now,
      text.occurrenceId,
      text.contactId,
    ],
  );
  return r.changes === 1;
}

/**
 * Pending texts claimed since `since` (a crash, or a send whose outcome is unknown, left them),
 * with when their last send began, oldest first, at most `limit`.
 */
export async function pendingTextsSince(
  db: Db,
  since: EpochMs,
  limit: number,
): Promise<PendingText[]> {
  const rows = await db.all<PendingRow>(
    `${PENDING_SELECT} WHERE t.status = 'pending' AND t.created_at >= ? ORDER BY t.created_at LIMIT ?`,
    [since, limit],
  );
  return rows.map(fromPending);
}

/** Pending texts claimed before `before` are given up (`failed`, `expired`): too late to tell. Returns how many. */
export async function expirePendingTexts(db: Db, before: EpochMs, now: EpochMs): Promise<number> {
  return (
    await db.run(
      `UPDATE contact_texts SET status = 'failed', reason = 'expired', updated_at = ? WHERE status = 'pending' AND created_at < ?`,
      [now, before],
    )
  ).changes;
}

/**
 * The catch-up: calls of schedules naming contacts that ended since `since` as a rule tells
 * (missed, or unconfirmed where the rule says so), that rang, with an agreed contact not yet
 * claimed for them (at most `limit`). The calls come from the engine's read model (only the
 * engine's stores read its tables, docs/decisions/0021), one account with a rule at a time.
 */
export async function untoldCalls(db: Db, since: EpochMs, limit: number): Promise<TellCall[]> {
  const rules = await db.all<{ account_id: string; schedule_id: string; tell_unconfirmed: number }>(
    `SELECT DISTINCT sc.account_id, sc.schedule_id, sc.tell_unconfirmed FROM schedule_contacts sc
     JOIN contacts c ON c.id = sc.contact_id WHERE c.status = 'agreed' ORDER BY sc.account_id`,
  );
  const byAccount = new Map<string, Map<string, boolean>>();
  for (const r of rules) {
    let schedules = byAccount.get(r.account_id);
    if (!schedules) byAccount.set(r.account_id, (schedules = new Map<string, boolean>()));
    schedules.set(r.schedule_id, r.tell_unconfirmed === 1);
  }
  const out: TellCall[] = [];
  const reads = engineReads(db);
  for (const [accountId, schedules] of byAccount) {
    for (const status of ['missed', 'unconfirmed'] as const) {
      // A call finishes within a day of its instant (retries and snoozes are bounded).
      let after: { scheduledAt: EpochMs; id: string } | null = null;
      for (;;) {
        const { occurrences } = await reads.listOccurrences({
          accountId,
          status,
          from: since - 86_400_000,
          after,
          limit: 200,
        });
        for (const o of occurrences) {
          const tellUnconfirmed = o.scheduleId === null ? undefined : schedules.get(o.scheduleId);
          if (tellUnconfirmed === undefined || (status === 'unconfirmed' && !tellUnconfirmed))
            continue;
          if (o.finishedAt === null || o.finishedAt < since) continue;
          if (!o.reachedPerson && !o.reachedVoicemail && o.missReason === null) continue;
          const untold = await db.get(
            `SELECT 1 AS one FROM schedule_contacts sc JOIN contacts c ON c.id = sc.contact_id
             WHERE sc.schedule_id = ? AND c.status = 'agreed' AND c.agreed_at <= ?
               AND NOT EXISTS (SELECT 1 FROM contact_texts t WHERE t.occurrence_id = ? AND t.contact_id = c.id)
             LIMIT 1`,
            [o.scheduleId, o.finishedAt, o.id],
          );
          if (!untold) continue;
          out.push({
            occurrenceId: o.id,
            accountId,
            scheduleId: o.scheduleId!,
            outcome: status,
            finishedAt: o.finishedAt,
            scheduledAt: o.scheduledAt,
            timezone: o.timezone,
            label: o.label,
          });
          if (out.length >= limit) return out;
        }
        if (occurrences.length < 200) break;
        const last = occurrences[occurrences.length - 1]!;
        after = { scheduledAt: last.scheduledAt, id: last.id };
      }
    }
  }
  return out;
}
