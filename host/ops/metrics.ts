/**
 * Prometheus metrics (prom-client), served at GET /metrics: HTTP requests by operation and
 * status, calls placed and their outcomes, dispatch lateness, the runtime's wheel and
 * pacing queue, texts and emails sent, and Node's own process metrics (event-loop delay,
 * memory, CPU). One registry per server, not prom-client's global one, so that several
 * servers in one process (tests) keep their own counts.
 *
 * `host/compose.ts` builds it, subscribes it to the engine runtime's events
 * ({@link Metrics.watchRuntime}) and wraps the messaging adapters ({@link Metrics.countMessages});
 * the HTTP layer records each request ({@link Metrics.observeRequest}).
 * @module
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Messaging, Runtime, SendResult } from '../../engine/index.js';
import type { ProviderHealth, ProviderStatusOut } from './provider-health.js';

/** What the rest of the host sees. */
export interface Metrics {
  /** Records one answered request. `operation` is the operationId, or a coarse group for pages. */
  observeRequest(operation: string, status: number, seconds: number): void;
  /** Subscribes to the runtime's events and reads its stats at each scrape. */
  watchRuntime(runtime: Runtime): void;
  /** Reads each provider's health at each scrape (`wakeup_provider_up`, `wakeup_provider_failures_total`, `wakeup_provider_failing_since_seconds`). */
  watchProviders(health: ProviderHealth): void;
  /** Wraps a sender so that each text and email it sends is counted (by channel and result). */
  countMessages<M extends Partial<Messaging>>(messaging: M): M;
  /** The exposition text and its content type. */
  render(): Promise<{ contentType: string; text: string }>;
}

/** Attempt statuses that end a call. */
const ENDED = new Set([
  'confirmed',
  'snoozed',
  'stopped',
  'no_input',
  'voicemail',
  'no_answer',
  'busy',
  'failed',
  'canceled',
]);
/** Occurrence statuses that end a wake-up call. */
const OCCURRENCE_ENDED = new Set(['confirmed', 'missed', 'failed', 'cancelled', 'unconfirmed']);

/** Creates the registry and its metrics. */
export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 10 });
  const registers = [registry];

  const requests = new Counter({
    name: 'wakeup_http_requests_total',
    help: 'HTTP requests answered, by operationId (or page group) and status.',
    labelNames: ['operation', 'status'] as const,
    registers,
  });
  const durations = new Histogram({
    name: 'wakeup_http_request_duration_seconds',
    help: 'Time from the request to its answer, by operationId (or page group) and status.',
    labelNames: ['operation', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers,
  });
  const placed = new Counter({
    name: 'wakeup_calls_placed_total',
    help: 'Calls handed to the telephony provider (attempt intent committed), by attempt kind.',
    labelNames: ['kind'] as const,
    registers,
  });
  const attemptOutcomes = new Counter({
    name: 'wakeup_call_outcomes_total',
    help: 'Calls ended, by attempt kind and final status (confirmed, snoozed, no_answer, busy, failed, ...).',
    labelNames: ['kind', 'status'] as const,
    registers,
  });
  const occurrenceOutcomes = new Counter({
    name: 'wakeup_occurrence_outcomes_total',
    help: 'Wake-up calls finished, by final status and reason.',
    labelNames: ['status', 'reason'] as const,
    registers,
  });
  const lateness = new Histogram({
    name: 'wakeup_dispatch_lateness_seconds',
    help: 'How long after its due instant each call was handed to the provider.',
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 300, 600],
    registers,
  });
  const lateTimers = new Counter({
    name: 'wakeup_timer_late_total',
    help: 'Engine timers that fired more than a second after their instant.',
    registers,
  });
  const effectFailures = new Counter({
    name: 'wakeup_effect_failures_total',
    help: 'Provider calls that failed with an unknown outcome (retried or reconciled later).',
    labelNames: ['will_retry'] as const,
    registers,
  });
  const runtimeErrors = new Counter({
    name: 'wakeup_runtime_errors_total',
    help: 'Errors inside the engine runtime.',
    registers,
  });
  const messages = new Counter({
    name: 'wakeup_messages_sent_total',
    help: 'Texts and emails handed to their provider, by channel (sms, email) and result (ok, refused, error).',
    labelNames: ['channel', 'result'] as const,
    registers,
  });

  let runtime: Runtime | null = null;
  const stat = (name: string, help: string, read: (r: Runtime) => number) =>
    new Gauge({
      name,
      help,
      registers,
      collect() {
        if (runtime) this.set(read(runtime));
      },
    });
  stat(
    'wakeup_runtime_wheel_size',
    'Timers armed in the engine timer wheel (calls due within the horizon).',
    (r) => r.stats.wheelSize,
  );
  stat(
    'wakeup_runtime_paced',
    'Calls waiting in the pacing queue for a dispatch slot.',
    (r) => r.stats.paced,
  );
  stat('wakeup_runtime_in_flight', 'Provider requests in flight.', (r) => r.stats.inFlight);
  // The backlog at the provider's rate: calls due and waiting for a slot, and how
  // long this host's rate (WAKEUP_CALLS_PER_SECOND) takes to place them (0 without a rate).
  stat(
    'wakeup_spike_backlog',
    'Calls due and waiting for a provider slot on this host.',
    (r) => r.stats.paced,
  );
  stat(
    'wakeup_spike_drain_seconds',
    "Seconds until this host's backlog is placed at the provider rate.",
    (r) =>
      Number.isFinite(r.options.pacing.callsPerSecond)
        ? r.stats.paced / r.options.pacing.callsPerSecond
        : 0,
  );
  stat(
    'wakeup_runtime_dispatched',
    'Attempts this process dispatched since it started.',
    (r) => r.stats.dispatched,
  );

  let providers: ProviderHealth | null = null;
  const perProvider = (name: string, help: string, read: (s: ProviderStatusOut) => number | null) =>
    new Gauge({
      name,
      help,
      labelNames: ['port', 'provider'] as const,
      registers,
      collect() {
        if (!providers) return;
        this.reset();
        for (const [port, s] of Object.entries(providers.snapshot())) {
          const v = read(s);
          if (v !== null) this.set({ port, provider: s.provider }, v);
        }
      },
    });
  perProvider(
    'wakeup_provider_up',
    '1 while the provider behind a port works (or has not been used yet), 0 while it is failing.',
    (s) => (s.status === 'failing' ? 0 : 1),
  );
  perProvider(
    'wakeup_provider_failures',
    'Provider failures (unreachable, refused credentials, 5xx) since the process started.',
    (s) => s.failures_total,
  );
  perProvider(
    'wakeup_provider_failing_since_seconds',
    'Unix time the current run of provider failures began (only while failing).',
    (s) => (s.failing_since === null ? null : Date.parse(s.failing_since) / 1000),
  );

  const counted =
    <A>(channel: 'sms' | 'email', send: (m: A) => Promise<SendResult>) =>
    async (m: A): Promise<SendResult> => {
      try {
        const r = await send(m);
        messages.inc({ channel, result: r.ok ? 'ok' : 'refused' });
        return r;
      } catch (err) {
        messages.inc({ channel, result: 'error' });
        throw err;
      }
    };

  return {
    observeRequest(operation, status, seconds) {
      const labels = { operation, status: String(status) };
      requests.inc(labels);
      durations.observe(labels, seconds);
    },
    watchProviders(h) {
      providers = h;
    },
    watchRuntime(r) {
      runtime = r;
      r.on('attempt:status', ({ attempt, from }) => {
        if (attempt.status === 'requested' && from !== 'requested') {
          placed.inc({ kind: attempt.kind });
          const at = attempt.requestedAt ?? attempt.createdAt;
          lateness.observe(Math.max(0, at - attempt.dueAt) / 1000);
        } else if (ENDED.has(attempt.status) && from !== attempt.status) {
          attemptOutcomes.inc({ kind: attempt.kind, status: attempt.status });
        }
      });
      r.on('occurrence:status', ({ occurrence, from }) => {
        if (OCCURRENCE_ENDED.has(occurrence.status) && from !== occurrence.status) {
          occurrenceOutcomes.inc({
            status: occurrence.status,
            reason: occurrence.outcomeReason ?? 'none',
          });
        }
      });
      r.on('timer:late', () => lateTimers.inc());
      r.on('effect:failed', ({ willRetry }) =>
        effectFailures.inc({ will_retry: String(willRetry) }),
      );
      r.on('runtime:error', () => runtimeErrors.inc());
    },
    countMessages(m) {
      const out = { ...m };
      if (m.sendText) out.sendText = counted('sms', m.sendText.bind(m));
      if (m.sendEmail) out.sendEmail = counted('email', m.sendEmail.bind(m));
      return out;
    },
    async render() {
      return { contentType: registry.contentType, text: await registry.metrics() };
    },
  };
}
