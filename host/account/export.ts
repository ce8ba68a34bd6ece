/**
 * GET /me/export: one JSON document of every row the account owns, produced as a stream of
 * text chunks (one per batch of rows), so that the server's memory stays flat whatever the
 * account's size. Layout (schema `ExportOut`):
 *
 * `{format_version: 1, exported_at, account (MeOut), usage (UsageOut), phone_numbers,
 *   schedules, occurrences (each with attempts), calls (standalone test calls), api_keys,
 *   sessions, identity_links, devices, webhook_endpoints, contacts,
 *   schedule_contacts, contact_texts}`
 *
 * Rows are as stored (instants as ISO strings); secrets never appear: no token, key, code or
 * hash of one (the API key's public `prefix` is given instead of its lookup part; a webhook
 * endpoint without its signing secrets).
 * @module
 */
import type { Db } from '../db/sql.js';
import type { Clock } from '../../engine/index.js';
import { findAccountById } from '../db/accounts.js';
import {
  occurrenceBatches,
  sectionBatches,
  SECTIONS,
  standaloneCallBatches,
} from '../db/export-rows.js';
import { problem } from '../errors.js';
import { isoInstant } from '../instant.js';
import { usageOut } from '../entitlement/usage.js';
import { meOut } from './me.js';

/** What {@link createExportService} needs. */
export interface ExportServiceDeps {
  db: Db;
  clock: Clock;
  /**
   * The account's schedules as the export shows them, in batches, oldest first: the schedules
   * feature's, handed over by a use case (host/use-cases/schedule-export.ts).
   */
  scheduleRows: (accountId: string) => AsyncIterable<Record<string, unknown>[]>;
}

/** The export operation. */
export interface ExportService {
  /** The document's chunks, in order; throws (before the first chunk) when the account is gone. */
  exportAccount(accountId: string): Promise<{ filename: string; chunks: AsyncIterable<string> }>;
}

/** Creates the service. */
export function createExportService(deps: ExportServiceDeps): ExportService {
  const { db, clock } = deps;
  return {
    async exportAccount(accountId) {
      const account = await findAccountById(db, accountId);
      if (!account) throw problem('unauthenticated', { detail: 'The account no longer exists.' });
      const now = clock.now();
      async function* chunks(): AsyncGenerator<string> {
        yield (
          `{"format_version":1,"exported_at":${JSON.stringify(isoInstant(now))}` +
          `,"account":${JSON.stringify(await meOut(db, account!, now))}` +
          `,"usage":${JSON.stringify(await usageOut(db, account!, now))}`
        );
        yield* array('occurrences', occurrenceBatches(db, accountId));
        const [numbers, ...rest] = SECTIONS;
        yield* array(numbers!.key, sectionBatches(db, numbers!, accountId));
        // The engine's rows, read through it: the schedules (series) and the standalone calls.
        yield* array('schedules', deps.scheduleRows(accountId));
        yield* array('calls', standaloneCallBatches(db, accountId));
        for (const section of rest)
          yield* array(section.key, sectionBatches(db, section, accountId));
        yield '}\n';
      }
      return { filename: `wakeup-export-${isoInstant(now).slice(0, 10)}.json`, chunks: chunks() };
    },
  };
}

async function* array(
  key: string,
  batches: AsyncIterable<Record<string, unknown>[]>,
): AsyncGenerator<string> {
  let first = true;
  yield `,${JSON.stringify(key)}:[`;
  for await (const batch of batches) {
    let text = '';
    for (const row of batch) {
      text += (first ? '' : ',') + JSON.stringify(row);
      first = false;
    }
    yield text;
  }
  yield ']';
}
