/**
 * The usage state type, apart from its computation (`usage.ts`), so that the plan rules
 * (`plan.ts`) can read it without an import cycle.
 * @module
 */
import type { EpochMs } from '../../engine/index.js';
import type { Subscription } from '../db/subscriptions.js';

/** What pays for the account's calls at one instant. */
export interface UsageState {
  /** What the period and included calls come from. */
  basis: 'subscription' | 'trial' | 'none';
  /** The live subscription (status active, past_due or canceled before its end), or null. */
  subscription: Subscription | null;
  /** A subscription that ended, when no live one exists. */
  lapsed: Subscription | null;
  period: { start: EpochMs; end: EpochMs };
  /** Calls included in the period (0 with basis none). */
  included: number;
  /** Calls used in the period: weighted by the Tier B multiplier under a subscription. */
  used: number;
  /** Multiplier of a Tier B call against `included` (1 in the trial). */
  tierBMultiplier: number;
  /** Trial calls used (in the trial's window, each call one). */
  trialUsed: number;
  credits: number;
  /** The latest pack bought (its multiplier applies to calls paid with credits). */
  creditPack: { code: string; name: string; tierBMultiplier: number } | null;
}
