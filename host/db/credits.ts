/**
 * Pack credits: a ledger per account (table `credit_ledger`, migration 0008). A paid pack
 * adds its calls (once per paid checkout: `ref` is unique among grants); a call paid with
 * credits takes 1, or the pack's Tier B multiplier for a Tier B number.
 * @module
 */
import { idsIn, type Db } from './sql.js';
import type { EpochMs } from '../../engine/index.js';

/** Pack credits remaining (never below 0) and the latest pack granted (its code and Tier B multiplier) of several accounts, in two statements. */
export async function creditsOf(
  db: Db,
  accountIds: readonly string[],
): Promise<Map<string, { remaining: number; grant: { planCode: string; planName: string; tierBMultiplier: number } | undefined }>> {
  const out = new Map<string, { remaining: number; grant: { planCode: string; planName: string; tierBMultiplier: number } | undefined }>();
  if (accountIds.length === 0) return out;
  const ids = JSON.stringify(accountIds);
  const [sums, grants] = await Promise.all([
    db.all<{ account_id: string; n: number | null }>(
      `SELECT account_id, SUM(delta) AS n FROM credit_ledger WHERE account_id IN ${idsIn(db)} GROUP BY account_id`,
      [ids],
    ),
    db.all<{ account_id: string; plan_code: string; plan_name: string; tier_b_multiplier: number }>(
      `SELECT c.account_id, c.plan_code, c.plan_name, c.tier_b_multiplier FROM credit_ledger c
       WHERE c.account_id IN ${idsIn(db)} AND c.delta > 0
         AND c.id = (SELECT MAX(l.id) FROM credit_ledger l WHERE l.account_id = c.account_id AND l.delta > 0)`,
      [ids],
    ),
  ]);
  for (const id of accountIds) out.set(id, { remaining: 0, grant: undefined });
  for (const r of sums) out.get(r.account_id)!.remaining = Math.max(0, r.n ?? 0);
  for (const r of grants)
    out.get(r.account_id)!.grant = { planCode: r.plan_code, planName: r.plan_name, tierBMultiplier: r.tier_b_multiplier };
  return out;
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
