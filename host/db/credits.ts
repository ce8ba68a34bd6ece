/**
 * Pack credits: a ledger per account (table `credit_ledger`, migration 0008). A paid pack
 * adds its calls (once per paid checkout: `ref` is unique among grants); a call paid with
 * credits takes 1, or the pack's Tier B multiplier for a Tier B number.
 * @module
 */
import type { Db } from './sql.js';
import type { EpochMs } from '../../engine/index.js';

/** Credits left (never negative). */
export async function creditsRemaining(db: Db, accountId: string): Promise<number> {
  const n = (await db.get<{ n: number | null }>('SELECT SUM(delta) AS n FROM credit_ledger WHERE account_id = ?', [accountId]))!.n ?? 0;
  return Math.max(0, n);
}

/** The latest pack granted: its code and Tier B multiplier. */
export async function latestGrant(
  db: Db,
  accountId: string,
): Promise<{ planCode: string; planName: string; tierBMultiplier: number } | undefined> {
  const r = await db.get<{ plan_code: string; plan_name: string; tier_b_multiplier: number }>(
    'SELECT plan_code, plan_name, tier_b_multiplier FROM credit_ledger WHERE account_id = ? AND delta > 0 ORDER BY id DESC LIMIT 1',
    [accountId],
  );
  return r ? { planCode: r.plan_code, planName: r.plan_name, tierBMultiplier: r.tier_b_multiplier } : undefined;
}

/** Adds a pack's calls; false when `ref` (the paid checkout) was credited before. */
export async function grantCredits(
  db: Db,
  g: { accountId: string; calls: number; planCode: string; planName: string; tierBMultiplier: number; ref: string },
  now: EpochMs,
): Promise<boolean> {
  return (
    (
      await db.run(
        `INSERT INTO credit_ledger (account_id, delta, reason, plan_code, plan_name, tier_b_multiplier, ref, at)
       VALUES (?, ?, 'pack', ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
        [g.accountId, g.calls, g.planCode, g.planName, g.tierBMultiplier, g.ref, now],
      )
    ).changes === 1
  );
}

/** Takes `calls` credits for a call (`ref`: what it paid for). */
export async function spendCredits(db: Db, accountId: string, calls: number, ref: string | null, now: EpochMs): Promise<void> {
  await db.run(`INSERT INTO credit_ledger (account_id, delta, reason, ref, at) VALUES (?, ?, 'call', ?, ?)`, [accountId, -calls, ref, now]);
}
