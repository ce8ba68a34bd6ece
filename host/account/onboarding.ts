/**
 * Onboarding as GET /me shows it: the stepper's steps, readiness flags and the copy the
 * clients display, computed from what the account has (numbers, calls, flags).
 *
 * Stepper (schema `OnboardingStep.slug`): 1 sign in (not listed), 2 `phone`, 3 `timezone`,
 * 4 `contact`, 5 `ring`, 6 app permissions (not listed), 7 `test-call`, 8 `first-call`.
 * `contact`, `ring`, `test-call` and `first-call` can be skipped (slugs listed in
 * `onboarding_state.skipped`).
 * @module
 */
import type { EpochMs } from '../../engine/index.js';
import type { AccountFacts } from '../db/readiness.js';
import { isoInstantOrNull } from '../instant.js';
import type { OnboardingCopy, OnboardingOut } from '../generated/openapi.js';

/** Facts about the account's schedules (filled in by the schedules work; none exist before it). */
export interface ScheduleFacts {
  hasSchedule: boolean;
  hasEnabledSchedule: boolean;
}

/**
 * The stale rule (schema `Readiness.stale`): the account has an enabled schedule and no
 * call (test or real) was confirmed on any of its numbers for this long.
 */
export const STALE_AFTER_MS = 30 * 24 * 60 * 60 * 1000;

interface StepDef {
  slug: 'phone' | 'timezone' | 'contact' | 'ring' | 'test-call' | 'first-call';
  number: number;
  title: string;
  skippable: boolean;
  skipWarning: string | null;
}

/** The listed steps, in stepper order. */
export const STEPS: readonly StepDef[] = [
  {
    slug: 'phone',
    number: 2,
    title: 'Add and verify your phone number',
    skippable: false,
    skipWarning: null,
  },
  {
    slug: 'timezone',
    number: 3,
    title: 'Set your home time zone',
    skippable: false,
    skipWarning: null,
  },
  {
    slug: 'contact',
    number: 4,
    title: 'Save our number to your contacts',
    skippable: true,
    skipWarning:
      'Without the contact, your phone may treat the wake-up call as spam and silence it.',
  },
  {
    slug: 'ring',
    number: 5,
    title: 'Let the call ring through Do Not Disturb',
    skippable: true,
    skipWarning: 'If Do Not Disturb or a focus mode is on, the call may not ring.',
  },
  {
    slug: 'test-call',
    number: 7,
    title: 'Take a test call',
    skippable: true,
    skipWarning:
      'A test call is the only way to be sure the call reaches you before you rely on it.',
  },
  {
    slug: 'first-call',
    number: 8,
    title: 'Schedule your first wake-up call',
    skippable: true,
    skipWarning: null,
  },
];

const TEST_CALL_COPY = {
  intro:
    'We will call your number now. Answer and press 1 to confirm that wake-up calls reach you.',
  answered_unconfirmed:
    'The call was answered but 1 was not pressed. Try again and press 1 when asked.',
  no_answer:
    'The call was not answered. Check that Do Not Disturb lets our number ring through, then try again.',
  voicemail:
    'The call reached voicemail. Make sure your phone rings for our number, then try again.',
};

/** Schema `OnboardingCopy` (wording provisional). */
export const ONBOARDING_TEXTS: OnboardingCopy = {
  contact: {
    title: 'Save our number',
    body: 'Add the contact card to your contacts so that your phone recognises the wake-up call and lets it ring.',
  },
  ring: {
    title: 'Let the wake-up call ring',
    button: 'I have allowed it',
    why_title: 'Why this matters',
    why: 'Do Not Disturb, sleep focus and call screening silence unknown callers at night, exactly when we call.',
    steps_ios: [
      'Open Settings, then Focus, then Sleep (and Do Not Disturb).',
      'Under Allow Notifications, choose People and add the Wake-Up Call contact.',
      'Turn off Silence Unknown Callers, or keep the contact saved.',
    ],
    steps_android: [
      'Open Settings, then Sound, then Do Not Disturb.',
      'Under People, allow calls from your contacts or starred contacts.',
      'Make sure the Wake-Up Call contact is saved (and starred if you allow starred contacts only).',
    ],
  },
  test_call: TEST_CALL_COPY,
  setup_test_call: TEST_CALL_COPY,
  stale_notice:
    'No wake-up call has been confirmed for 30 days. Take a test call to make sure calls still reach you.',
};

/** Inputs of {@link onboardingOut}. */
export interface OnboardingInput {
  state: Record<string, unknown>;
  homeTimezone: string | null;
  facts: AccountFacts;
  schedules: ScheduleFacts;
  now: EpochMs;
}

/** Schema `OnboardingOut`. */
export function onboardingOut(input: OnboardingInput): OnboardingOut {
  const { state, facts, schedules, now } = input;
  const skippedSlugs = Array.isArray(state.skipped)
    ? (state.skipped as unknown[]).filter((s) => typeof s === 'string')
    : [];
  const contactSaved = state.contact_saved === true;
  const dndAcknowledged = state.dnd_acknowledged === true;
  const done: Record<StepDef['slug'], boolean> = {
    phone: facts.phoneVerified,
    timezone: input.homeTimezone !== null,
    contact: contactSaved,
    ring: dndAcknowledged,
    'test-call': facts.testCallDone,
    'first-call': schedules.hasSchedule,
  };
  const steps = STEPS.map((s) => ({
    slug: s.slug,
    title: s.title,
    number: s.number,
    skippable: s.skippable,
    done: done[s.slug],
    skipped: s.skippable && !done[s.slug] && skippedSlugs.includes(s.slug),
    skip_warning: s.skipWarning,
  }));
  const open = steps.find((s) => !s.done && !s.skipped);
  const stale =
    schedules.hasEnabledSchedule &&
    (facts.lastSuccessAt === null || now - facts.lastSuccessAt > STALE_AFTER_MS);
  return {
    finished: schedules.hasSchedule || open === undefined,
    next: open?.slug ?? 'done',
    steps,
    readiness: {
      contact_saved: contactSaved,
      dnd_acknowledged: dndAcknowledged,
      phone_expired: facts.phoneExpired,
      phone_verified: facts.phoneVerified,
      stale,
      test_call_done: facts.testCallDone,
      last_success_at: isoInstantOrNull(facts.lastSuccessAt),
      last_test_at: isoInstantOrNull(facts.lastTestAt),
      last_test_status: facts.lastTestStatus,
    },
    texts: ONBOARDING_TEXTS,
  };
}

/** The self-reported flags of POST /me/onboarding (stepper steps 4 and 5). */
export type OnboardingFlag = 'contact_saved' | 'dnd_acknowledged';
/** The steps POST /me/onboarding/skip accepts. */
export type SkippableSlug = 'contact' | 'ring' | 'test-call' | 'first-call';

/**
 * The stored onboarding_state after POST /me/onboarding: `flag` set to `done` (false clears
 * a flag set by mistake). Other keys are kept as they are.
 */
export function withFlag(
  state: Record<string, unknown>,
  flag: OnboardingFlag,
  done: boolean,
): Record<string, unknown> {
  return { ...state, [flag]: done };
}

/** The stored onboarding_state after POST /me/onboarding/skip: `slug` added to `skipped` once. */
export function withSkipped(
  state: Record<string, unknown>,
  slug: SkippableSlug,
): Record<string, unknown> {
  const skipped = Array.isArray(state.skipped)
    ? (state.skipped as unknown[]).filter((s): s is string => typeof s === 'string')
    : [];
  return { ...state, skipped: skipped.includes(slug) ? skipped : [...skipped, slug] };
}
