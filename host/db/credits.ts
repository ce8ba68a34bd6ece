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
): Promise<
  Map<
    string,
    {
      remaining: number;
      grant: { planCode: string; planName: string; tierBMultiplier: number } | undefined;
    }
  >
> {
  const out = new Map<
    string,
    {
      remaining: number;
      grant: { planCode: string; planName: string; tierBMultiplier: number } | undefined;
    }
  >();
  if (accountIds.length === 0) return out;
  // The balance and the latest grant (its plan names the pack) in one statement.
  const rows = await db.all<{
    account_id: string;
    n: number | null;
    grant_id: number | null;
    plan_code: string;
    plan_name: string;
    tier_b_multiplier: number;
  }>(
    `SELECT s.account_id, s.n, g.id AS grant_id, g.plan_code, g.plan_name, g.tier_b_multiplier
     FROM (SELECT account_id, SUM(delta) AS n, MAX(CASE WHEN delta > 0 THEN id END) AS last_grant
           FROM credit_ledger WHERE account_id IN ${idsIn(db)} GROUP BY account_id) s
     LEFT JOIN credit_ledger g ON g.id = s.last_grant`,
    [JSON.stringify(accountIds)],
  );
  for (const id of accountIds) out.set(id, { remaining: 0, grant: undefined });
  for (const r of rows) {
    const o = out.get(r.account_id)!;
    o.remaining = Math.max(0, r.n ?? 0);
    if (r.grant_id !== null)
      o.grant = {
        planCode: r.plan_code,
        planName: r.plan_name,
        tierBMultiplier: r.tier_b_multiplier,
      };
  }
  return out;
}

/** Adds a pack's calls; false when `ref` (the paid checkout) was credited before. */
export async function grantCredits(
  db: Db,
  g: {
    accountId: string;
    calls: number;
    planCode: string;
    planName: string;
    tierBMultiplier: number;
    ref: string;
  },
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

/** Credits a call takes: `calls` of the account's, for `ref` (what it paid for), at `at`. */
export interface CreditSpend {
  accountId: string;
  calls: number;
  ref: string | null;
  at: EpochMs;
}

/**
 * Takes the credits of several calls in one statement (the calls a dispatch unit paid with
 * credits, written in its commit), in their order.
 */
export async function spendCreditsMany(db: Db, spends: readonly CreditSpend[]): Promise<void> {
  if (spends.length === 0) return;
  const rows = JSON.stringify(spends.map((s) => [s.accountId, -s.calls, s.ref, s.at]));
  await db.run(
    db.dialect === 'postgres'
      ? `INSERT INTO credit_ledger (account_id, delta, reason, ref, at)
         SELECT v->>0, (v->>1)::bigint, 'call', v->>2, (v->>3)::bigint
         FROM jsonb_array_elements(CAST(? AS jsonb)) WITH ORDINALITY AS e(v, i) ORDER BY i`
      : `INSERT INTO credit_ledger (account_id, delta, reason, ref, at)
         SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), 'call',
                json_extract(value, '$[2]'), json_extract(value, '$[3]')
         FROM json_each(?) ORDER BY key`,
    [rows],
  );
}
