/**
 * Idempotency-Key for operations marked `x-idempotent` (spec "Conventions", contract §4).
 *
 * - The key is 1 to 200 characters; otherwise 400 validation_error (field `Idempotency-Key`,
 *   in `header`). Without the header the request simply runs.
 * - Records are scoped by account (`account:<id>`; a public operation uses `ip:<client ip>`)
 *   and keep a fingerprint: sha256 of method, path and the body as canonical JSON (keys
 *   sorted), so whitespace and key order do not make a different request.
 * - Only a 2xx response is kept, for 24 hours; the same key and request replays it with
 *   header `Idempotent-Replayed: true`. An error is not kept, so a retry runs again.
 * - The same key with a different request: 409 idempotency_key_reused (also while the first
 *   is still running).
 * - A concurrent duplicate waits for the first request and then replays its response (or,
 *   if the first failed, runs itself): one handler run per key at a time. The run holding a
 *   key is a claim in the {@link IdempotencyStore} (host/db/idempotency.ts): on SQLite
 *   tracked in this process (the only one serving the database), the duplicate awaiting the
 *   first; on PostgreSQL a claim row every host sees, the duplicate polling it for up to
 *   {@link IDEMPOTENCY_WAIT_MS} and then answering 409 idempotency_key_reused ("still
 *   running"). A crashed host's claim lapses after IDEMPOTENCY_CLAIM_MS.
 * - Secrets are never kept: fields the handler lists in `Reply.secretFields` (the full API
 *   key) are stripped from the stored copy, and cookies are never part of a reply.
 * @module
 */
import { createHash } from 'node:crypto';
import type { Clock } from '../../engine/index.js';
import type { IdempotencyRecord, IdempotencyStore } from '../db/idempotency.js';
import type { AppContext, Reply } from './context.js';
import { invalid, problem } from '../errors.js';

/** How long a kept response replays. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** Longest accepted key. */
export const IDEMPOTENCY_KEY_MAX = 200;

/** How long a duplicate polls another host's claim before answering 409. */
export const IDEMPOTENCY_WAIT_MS = 10_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Reads and checks the Idempotency-Key header; null when absent. */
export function idempotencyKey(ctx: AppContext): string | null {
  const raw = ctx.req.headers['idempotency-key'];
  if (raw === undefined) return null;
  const key = Array.isArray(raw) ? raw.join(',') : raw;
  if (key.length === 0) {
    throw invalid({
      field: 'Idempotency-Key',
      in: 'header',
      code: 'min_length',
      message: 'must be 1 to 200 characters',
    });
  }
  if (key.length > IDEMPOTENCY_KEY_MAX) {
    throw invalid({
      field: 'Idempotency-Key',
      in: 'header',
      code: 'max_length',
      message: 'must be 1 to 200 characters',
    });
  }
  return key;
}

/** sha256 of method, path and canonical body. */
export function fingerprint(method: string, path: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method}\n${path}\n${canonicalJson(body ?? null)}`)
    .digest('hex');
}

/** JSON with object keys sorted at every level. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * Runs `run` at most once per (scope, key) and request: replays a kept response, refuses a
 * reused key, waits for a concurrent duplicate.
 */
export async function runIdempotent(
  deps: { idempotency: IdempotencyStore; clock: Clock },
  scope: string,
  key: string,
  print: string,
  run: () => Promise<Reply>,
): Promise<Reply> {
  const store = deps.idempotency;
  let token: string | null = null;
  let waited = 0;
  for (let poll = 25; token === null;) {
    const c = await store.claim(scope, key, print, deps.clock.now());
    if (c.kind === 'claimed') token = c.token;
    else if (c.kind === 'kept') {
      if (c.record.fingerprint !== print) throw reused();
      return replay(c.record);
    } else if (c.fingerprint !== print) throw reused();
    else if (c.settled) await c.settled;
    else {
      if (waited >= IDEMPOTENCY_WAIT_MS) throw stillRunning();
      await sleep(poll);
      waited += poll;
      poll = Math.min(poll * 2, 250);
    }
  }

  let kept = false;
  try {
    const reply = await run();
    if (reply.status >= 200 && reply.status < 300) {
      const now = deps.clock.now();
      await store.keep(
        scope,
        key,
        token,
        toRecord(reply, print, now),
        now + IDEMPOTENCY_TTL_MS,
        now,
      );
      kept = true;
    }
    return reply;
  } finally {
    // A failed release must not hide the run's own outcome: the claim then lapses by itself.
    if (!kept) await store.release(scope, key, token).catch(() => undefined);
  }
}

function stillRunning() {
  return problem('idempotency_key_reused', {
    detail:
      'A request with this Idempotency-Key is still running. Retry it in a moment to get its response.',
    field: 'Idempotency-Key',
  });
}

function reused() {
  return problem('idempotency_key_reused', {
    detail:
      'This Idempotency-Key was used in the last 24 hours with a different request. Use a new key.',
    field: 'Idempotency-Key',
  });
}

function toRecord(reply: Reply, print: string, now: number): IdempotencyRecord {
  let body = reply.body;
  if (
    reply.secretFields?.length &&
    body !== null &&
    typeof body === 'object' &&
    !Array.isArray(body)
  ) {
    body = Object.fromEntries(
      Object.entries(body).filter(([k]) => !reply.secretFields!.includes(k)),
    );
  }
  return {
    fingerprint: print,
    status: reply.status,
    headers: reply.headers ?? {},
    body: body === undefined ? null : JSON.stringify(body),
    createdAt: now,
  };
}

function replay(kept: IdempotencyRecord): Reply {
  return {
    status: kept.status,
    body: kept.body === null ? undefined : (JSON.parse(kept.body) as unknown),
    headers: { ...kept.headers, 'Idempotent-Replayed': 'true' },
  };
}
