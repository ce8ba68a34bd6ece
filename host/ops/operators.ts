/**
 * Who is an operator (WAKEUP_OPERATOR_EMAILS, WAKEUP_OPERATOR_READONLY_EMAILS): the rule every
 * `/api/v1/ops/…` operation and the `ops` API-key scope apply, on each request (an account
 * taken off the list loses its access at once, its keys with it).
 * @module
 */
import type { Principal } from '../auth/principal.js';
import type { OperatorConfig } from '../config.js';
import { problem } from '../errors.js';

/** An operator's rights: `act` may block, cancel, re-enable and redeliver; `read` only reads. */
export type OperatorRole = 'act' | 'read';

/** The role of the account with this email, or null when it is not an operator. */
export function operatorRole(
  config: OperatorConfig,
  email: string | undefined,
): OperatorRole | null {
  const e = email?.toLowerCase();
  if (e === undefined) return null;
  if (config.emails.includes(e)) return 'act';
  if (config.readonlyEmails.includes(e)) return 'read';
  return null;
}

/**
 * The caller's role, or 403 insufficient_scope when it is not an operator, or (with
 * `needs: 'act'`) a read-only one. The principal's account was read with its credential.
 */
export function requireOperator(
  config: OperatorConfig,
  principal: Principal,
  needs: OperatorRole,
): OperatorRole {
  const role = operatorRole(config, principal.account?.email);
  if (role === null) {
    throw problem('insufficient_scope', {
      detail:
        'Only operators (WAKEUP_OPERATOR_EMAILS, WAKEUP_OPERATOR_READONLY_EMAILS) may use the ops endpoints.',
    });
  }
  if (needs === 'act' && role !== 'act') {
    throw problem('insufficient_scope', {
      detail: 'A read-only operator (WAKEUP_OPERATOR_READONLY_EMAILS) cannot act; ask an operator.',
    });
  }
  return role;
}
