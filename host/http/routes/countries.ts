/**
 * Public, cacheable phone documents: GET /countries (destination countries and tiers) and
 * GET /contact-card.vcf (the numbers the service calls from). Both are fixed for the life
 * of the process, so their bodies and ETags are computed once; If-None-Match answers 304.
 * Cache-Control: public, a day (the lists change only with a deploy or a config change).
 * @module
 */
import type { AppServices } from '../../services.js';
import { COUNTRIES } from '../../reference/countries.js';
import { contactCard } from '../../phone/vcard.js';
import { etagOf, ifNoneMatch } from '../etag.js';
import type { Routes } from '../registrar.js';

/** Cache-Control of both documents. */
export const PHONE_DOCS_CACHE_CONTROL = 'public, max-age=86400';

/** Registers listCountries and getContactCard. */
export function register(routes: Routes, services: AppServices): void {
  const countries = { items: COUNTRIES };
  const countriesEtag = etagOf(JSON.stringify(countries));

  routes.operation('listCountries', ({ ctx }) => {
    const headers = { ETag: countriesEtag, 'Cache-Control': PHONE_DOCS_CACHE_CONTROL };
    if (ifNoneMatch(ctx.get('If-None-Match') || undefined, countriesEtag))
      return { status: 304, headers };
    return { status: 200, body: countries, headers };
  });

  const config = services.phone.config;
  const card = contactCard({
    name: config.serviceName,
    numbers: config.callerIds,
    url: services.siteUrl(),
    note: `Wake-up calls from ${config.serviceName} come from these numbers. Keep this contact so that they ring through Do Not Disturb.`,
  });
  const cardEtag = etagOf(card);

  routes.operation('getContactCard', ({ ctx }) => {
    const headers = { ETag: cardEtag, 'Cache-Control': PHONE_DOCS_CACHE_CONTROL };
    if (ifNoneMatch(ctx.get('If-None-Match') || undefined, cardEtag))
      return { status: 304, headers };
    const filename = `${config.serviceName.replace(/[^A-Za-z0-9]+/g, '-').toLowerCase() || 'contact'}.vcf`;
    return {
      status: 200,
      body: card,
      headers: {
        ...headers,
        'Content-Type': 'text/vcard; charset=utf-8',
        'Content-Disposition': `inline; filename="${filename}"`,
      },
    };
  });
}
