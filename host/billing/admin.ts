/**
 * Operator commands on plans, for `host/admin.ts` (self-hosters who bill elsewhere):
 *
 *   plan grant <email> <plan_code>   give the account a plan, source manual (a pack code adds its credits)
 *   plan revoke <email>              end the account's manual plan now
 *   plan show <email>                print the account's plan
 *
 * A granted plan starts now and renews by its interval until revoked. Pure over its inputs
 * (the billing service, the instant, an output sink), so tests run it without a process.
 * @module
 */
import type { EpochMs } from '../../engine/index.js';
import type { BillingService } from './service.js';

/** Usage text. */
export const PLAN_ADMIN_USAGE = `  plan grant <email> <plan_code>                              give the account a plan (source manual); a pack code adds its credits
  plan revoke <email>                                         end the account's manual plan now
  plan show <email>                                           print the account's plan`;

/** Runs `plan ...`; returns the exit code (0 done, 1 usage error, 2 nothing to change). */
export async function runPlanAdmin(
  args: readonly string[],
  env: {
    billing: Pick<BillingService, 'grant' | 'revoke' | 'show'>;
    now: EpochMs;
    out: (line: string) => void;
  },
): Promise<number> {
  const [, command, email, code] = args;
  if (command === 'grant' && email && code && args.length === 4) {
    const message = await env.billing.grant(email, code, env.now);
    env.out(message);
    return message.startsWith('granted') ? 0 : 2;
  }
  if (command === 'revoke' && email && args.length === 3) {
    const refused = await env.billing.revoke(email, env.now);
    env.out(refused ?? `${email}: plan revoked`);
    return refused === null ? 0 : 2;
  }
  if (command === 'show' && email && args.length === 3) {
    const plan = await env.billing.show(email, env.now);
    env.out(typeof plan === 'string' ? plan : JSON.stringify(plan));
    return typeof plan === 'string' ? 2 : 0;
  }
  env.out(`usage:\n${PLAN_ADMIN_USAGE}`);
  return 1;
}
