/**
 * Pack credits: a ledger per account (table `credit_ledger`, migration 0008). A paid pack
 * adds its calls (once per paid checkout: `ref` is unique among grants); a call paid with
 * credits takes 1, or the pack's Tier B multiplier for a Tier B number.
 * @module
 */
import type { Database } from 'better-sqlite3';
import type { EpochMs } from '../../engine/index.js';
import { sql } from './statements.js';

/** Credits left (never negative). */
export function creditsRemaining(db: Database, accountId: string): number {
  const n = sql<{ n: number | null }>(db, 'SELECT SUM(delta) AS n FROM credit_ledger WHERE account_id = ?').get(accountId)!.n ?? 0;
  return Math.max(0, n);
}

/** The latest pack granted: its code and Tier B multiplier. */
export function latestGrant(db: Database, accountId: string): { planCode: string; planName: string; tierBMultiplier: number } | undefined {
  const r = sql<{ plan_code: string; plan_name: string; tier_b_multiplier: number }>(
    db,
    'SELECT plan_code, plan_name, tier_b_multiplier FROM credit_ledger WHERE account_id = ? AND delta > 0 ORDER BY id DESC LIMIT 1',
  ).get(accountId);
  return r ? { planCode: r.plan_code, planName: r.plan_name, tierBMultiplier: r.tier_b_multiplier } : undefined;
}

/** Adds a pack's calls; false when `ref` (the paid checkout) was credited before. */
export function grantCredits(
  db: Database,
  g: { accountId: string; calls: number; planCode: string; planName: string; tierBMultiplier: number; ref: string },
  now: EpochMs,
): boolean {
  return (
    sql(
      db,
      `INSERT OR IGNORE INTO credit_ledger (account_id, delta, reason, plan_code, plan_name, tier_b_multiplier, ref, at)
       VALUES (?, ?, 'pack', ?, ?, ?, ?, ?)`,
    ).run(g.accountId, g.calls, g.planCode, g.planName, g.tierBMultiplier, g.ref, now).changes === 1
  );
}

/** Takes `calls` credits for a call (`ref`: what it paid for). */
export function spendCredits(db: Database, accountId: string, calls: number, ref: string | null, now: EpochMs): void {
  sql(db, `INSERT INTO credit_ledger (account_id, delta, reason, ref, at) VALUES (?, ?, 'call', ?, ?)`).run(accountId, -calls, ref, now);
}
