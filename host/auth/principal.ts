/**
 * Who is calling: the principal the HTTP pipeline resolves from a credential and hands to
 * services. Below HTTP, so that services and domain code may take it.
 * @module
 */
import type { Account } from '../db/accounts.js';
import type { Scope } from '../db/api-keys.js';

/** Credential kinds (the schema's `x-credentials` values). */
export type CredentialKind = 'api_key' | 'app_session' | 'web_session';

/** Who is calling: set by the auth step of an operation. */
export interface Principal {
  accountId: string;
  credential: CredentialKind;
  /** API keys: the key's id and scopes. */
  apiKeyId: string | null;
  scopes: readonly Scope[] | null;
  /** Sessions: the session id. */
  sessionId: string | null;
  /**
   * The account as the credential check read it, in the same statement, during this request
   * (each fact is read once per request: docs/decisions/0019). Read-only operations use it instead of reading the
   * account again; an operation that writes the account reads it afresh.
   */
  account?: Account;
}
