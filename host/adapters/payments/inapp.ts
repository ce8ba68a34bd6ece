/**
 * The in-app-purchase provider (the port is in host/ports/payments.ts), a RevenueCat-style REST adapter:
 * `GET {api}/v1/subscribers/{app_user_id}` with `Authorization: Bearer <secret key>`. The app
 * user id is always the signed-in account's id, so the server asks only about that account.
 * From `subscriber.subscriptions` (keyed by store product id) it reads the store
 * (`app_store` → ios_store, `play_store` → android_store; others are ignored), the period
 * (`purchase_date` to `expires_date`), whether it will renew (`unsubscribe_detected_at`
 * null) and billing issues (`billing_issues_detected_at`).
 * @module
 */
import type { InappConfig } from '../../billing/index.js';
import { ProviderError, type InappProvider, type StoreSubscription } from '../../ports/payments.js';

const STORES: Record<string, StoreSubscription['store']> = {
  app_store: 'ios_store',
  play_store: 'android_store',
};

/** Creates the RevenueCat-style adapter. */
export function createInappProvider(
  config: InappConfig,
  fetchImpl: typeof fetch = fetch,
): InappProvider {
  return {
    async subscriber(appUserId) {
      let res: Response;
      try {
        res = await fetchImpl(`${config.apiUrl}/v1/subscribers/${encodeURIComponent(appUserId)}`, {
          headers: { authorization: `Bearer ${config.apiKey}`, accept: 'application/json' },
          signal: AbortSignal.timeout(10_000),
        });
      } catch (err) {
        throw new ProviderError(`in-app purchase provider unreachable: ${(err as Error).message}`);
      }
      if (!res.ok) throw new ProviderError(`in-app purchase provider answered ${res.status}`);
      let body: any;
      try {
        body = await res.json();
      } catch {
        throw new ProviderError('in-app purchase provider answered no JSON');
      }
      const subs = body?.subscriber?.subscriptions;
      if (typeof subs !== 'object' || subs === null) return [];
      const out: StoreSubscription[] = [];
      for (const [productId, s] of Object.entries(subs as Record<string, any>)) {
        const store = STORES[s?.store];
        const expiresAt = Date.parse(s?.expires_date ?? '');
        const start = Date.parse(s?.purchase_date ?? '');
        if (!store || !Number.isFinite(expiresAt)) continue;
        out.push({
          productId,
          store,
          periodStart: Number.isFinite(start) ? start : expiresAt,
          expiresAt,
          willRenew: s.unsubscribe_detected_at == null,
          billingIssue: s.billing_issues_detected_at != null,
        });
      }
      return out;
    },
  };
}
