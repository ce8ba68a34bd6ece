// What a person reads when the API refuses something. The API's problems carry a stable
// `code`, a `detail` and the API names of the fields at fault (`e164`,
// `retry_policy.offsets_minutes.1`); this module is the ONE place that turns them into
// sentences: each code into words, each field into what its label says. Where the server says
// something the page cannot know (a validation item's own message: "until must be today
// (2026-11-27 in Europe/Paris) or later"), its words are kept, with every API field name in
// them turned into the field's words. The page never shows a code or an API field name.

/** API field (first segment of its dotted path) → how the forms name it. */
const FIELDS = {
  email: 'email address',
  code: 'code',
  e164: 'phone number',
  label: 'label',
  message: 'spoken note',
  local_date: 'date',
  local_time: 'time',
  in_minutes: 'minutes from now',
  days_of_week: 'days',
  end_date: 'last date',
  start_date: 'first date',
  until: 'last date with no call',
  paused_until: 'last date with no call',
  skip_dates: 'skipped dates',
  timezone: 'time zone',
  home_timezone: 'home time zone',
  phone_number_id: 'number to call',
  display_name: 'name',
  greeting_name: 'greeting name',
  name: 'name',
  scopes: 'permissions',
  offsets_minutes: 'retry minutes',
  snooze_minutes: 'snooze length',
  max_snoozes: 'number of snoozes',
  ring_timeout_seconds: 'ringing time',
  retry_policy: 'retries and snooze',
  default_retry_policy: 'retries and snooze',
  confirm: 'confirmation word',
  consent: 'consent',
  tell_contacts: 'contacts to text',
  contact_ids: 'contacts to text',
  url: 'URL',
  description: 'description',
  event_types: 'events',
};

/** Error code → the sentence a person reads (a function of the API field where that changes the words). */
const CODES = {
  invalid_timezone: 'Choose a time zone from the list, such as Europe/Paris or America/New_York.',
  timezone_not_allowed: 'Choose a city’s time zone rather than a fixed offset such as GMT+5.',
  time_in_past: 'That time has already passed in the call’s time zone. Choose a later time.',
  date_too_far: 'That date is too far ahead: a call can be set up to 400 days from today.',
  invalid_time: 'Enter a time between 00:00 and 23:59.',
  days_of_week_empty: 'Choose at least one day of the week.',
  local_date_required: 'Choose a date for the call.',
  in_minutes_out_of_range: 'Enter a number of minutes from 1 to 1440 (24 hours).',
  invalid_retry_policy:
    'Check the retries and snooze: up to 5 retry times from 1 to 120 minutes, each later than the one before; ringing 15 to 120 seconds; snoozes of 1 to 30 minutes, at most 5.',
  phone_number_unverified: 'Verify this number first: enter the code we sent to it.',
  phone_number_not_owned: 'That number is not one of yours. Choose one of your numbers.',
  message_disallowed_content: (field) =>
    /^(display_name|name)$/.test(field || '')
      ? `The ${fieldWords(field)} contains an invisible control or text-direction character. Retype it without one.`
      : 'Use only letters, digits, spaces and simple punctuation here, without links, email addresses or phone numbers.',
  request_timeout: 'The connection was too slow to send that. Try again.',
  not_recurring: 'Only a weekly call can do that.',
  invalid_phone_number:
    'That is not a phone number we can call. Write it with its country code, for example +1 201 555 0123.',
  country_not_supported: 'We cannot call numbers in that country yet.',
  verification_code_invalid: 'That code is wrong or has expired. Check it, or ask for a new one.',
  confirmation_required: (field) =>
    field === 'confirm'
      ? 'Type the word DELETE, in capital letters, to confirm.'
      : 'Please confirm before going on.',
  unauthenticated: 'Please sign in again.',
  session_expired: 'Your session ended. Please sign in again.',
  api_key_revoked: 'That API key was deleted.',
  no_entitlement:
    'You have no wake-up calls left. Choose a plan or buy call credits on the Account page.',
  insufficient_scope: 'This can’t be done from here. Reload the page and try again.',
  calls_revoked:
    'Calls are turned off for your account. Turn them back on from the Home page first.',
  number_blocked: 'Calls and texts to this number are blocked. Verify it again to unblock it.',
  not_found: 'This is no longer there. It may have been deleted.',
  occurrence_in_progress: 'This call is ringing right now. Try again when it has finished.',
  occurrence_terminal: 'This call has already finished.',
  number_in_use: 'A wake-up call still rings this number. Change or delete that call first.',
  idempotency_key_reused: 'That was already sent. Reload the page to see the result.',
  already_subscribed: 'You already have a plan.',
  contact_limit_reached: 'You have the most contacts allowed. Remove one first.',
  payload_too_large: 'That is too long to send.',
  verification_locked: 'Too many wrong codes. Wait a while, then try again.',
  rate_limited: 'Too many tries in a short time. Wait a moment, then try again.',
  daily_cap_reached: 'You have reached today’s limit of calls. Try again tomorrow.',
  web_checkout_disabled: 'Paying on the web is not offered for this account.',
  provider_unavailable: 'That service can’t be reached right now. Try again later.',
  invalid_webhook_url:
    'Enter a full https address (for example https://example.com/hooks), without a user name, password or # part, of at most 2,000 characters.',
  webhook_target_not_allowed:
    'That address is on a private or local network, which this server does not send to. Use a public address, or ask the server’s operator to allow local ones.',
  webhook_endpoint_limit: 'You already have 10 webhook endpoints. Delete one first.',
  webhook_endpoint_disabled: 'This endpoint is turned off. Turn it on first.',
  internal_error:
    'Something went wrong on our side; your change may not have been saved. Try again later.',
  network_error: 'The server could not be reached. Check your connection, then try again.',
};

/** Field words that name several things: "the days are", not "the days is". */
const PLURAL = new Set([
  'days',
  'permissions',
  'events',
  'retry minutes',
  'contacts to text',
  'skipped dates',
]);
const is = (f) => (PLURAL.has(f) ? 'are' : 'is');

/**
 * How a field's value breaks a rule (validation_error items), with the field's words. The
 * server's own message is used where it says what the page cannot: `invalid` (a rule of the
 * service, such as a date that must not be in the past) and `pattern` (what a valid value looks
 * like).
 */
const ITEMS = {
  required: (f) => `Enter the ${f}.`,
  type: (f) => `The ${f} ${is(f)} not in the right form.`,
  enum: (f) => `Choose one of the offered values for the ${f}.`,
  format: (f) => `The ${f} ${is(f)} not in the right form.`,
  minimum: (f) => `The ${f} ${is(f)} too small.`,
  maximum: (f) => `The ${f} ${is(f)} too large.`,
  min_length: (f) => `The ${f} ${is(f)} too short.`,
  max_length: (f) => `The ${f} ${is(f)} too long.`,
  min_items: (f) => `Choose more values for the ${f}.`,
  max_items: (f) => `Choose fewer values for the ${f}.`,
};
const SERVER_WORDS = new Set(['invalid', 'pattern']);

/** The words for an API field path (`retry_policy.offsets_minutes.1` → "retry minutes"). */
export function fieldWords(path) {
  const parts = String(path || '')
    .split('.')
    .filter((p) => !/^\d+$/.test(p));
  for (let i = parts.length - 1; i >= 0; i--) if (FIELDS[parts[i]]) return FIELDS[parts[i]];
  return 'entry';
}

/** The server's message with each API field name in it said in words ("before start_date" → "before the first date"). */
function inWords(message) {
  return message.replace(/\b[a-z]+(?:_[a-z]+)+\b/g, (name) =>
    FIELDS[name] ? `the ${FIELDS[name]}` : name,
  );
}

/** A validation item's sentence. */
function itemSentence(item) {
  const words = fieldWords(item.field);
  if ((SERVER_WORDS.has(item.code) || !ITEMS[item.code]) && item.message)
    return `The ${words} ${inWords(String(item.message)).replace(/\.$/, '')}.`;
  return (ITEMS[item.code] || ITEMS.format)(words);
}

/** The sentence for an empty field the server refused: what to enter. */
export function enterSentence(path) {
  return `Enter the ${fieldWords(path)}.`;
}

/**
 * What to show for a problem: `summary` (one sentence for the top of the form) and `fields`
 * ({field, message} for each field at fault, field being the API path). A problem with an
 * unknown code reads as its status' plain meaning; never as its code or detail.
 */
export function describeProblem(err) {
  const code = err && err.code;
  const items = Array.isArray(err && err.errors) ? err.errors : [];
  let summary;
  if (code === 'validation_error' || (!CODES[code] && items.length)) {
    summary = items.length
      ? itemSentence(items[0])
      : 'Something in the form is not right. Check it and try again.';
  } else if (CODES[code]) {
    summary = typeof CODES[code] === 'function' ? CODES[code](err.field) : CODES[code];
  } else if (err && err.local) {
    summary = err.detail; // written by the page itself (a check made before sending)
  } else {
    summary = 'Something went wrong. Try again in a moment.';
  }
  if (err && err.retryAfter && /locked|rate_limited|daily_cap/.test(code || ''))
    summary = `${summary.replace(/\s*(Wait a while|Wait a moment), then try again\.$/, '')} You can try again in ${waitWords(err.retryAfter)}.`;
  const fields = items.length
    ? items.map((i) => ({ field: i.field, message: itemSentence(i) }))
    : err && err.field
      ? [{ field: err.field, message: summary }]
      : [];
  if (code !== 'validation_error' && CODES[code] && fields.length === 1)
    fields[0].message = summary;
  return { summary, fields };
}

/** The one sentence for a problem (for a toast or a line of text). */
export function problemSentence(err) {
  return describeProblem(err).summary;
}

function waitWords(seconds) {
  const s = Number(seconds);
  if (s < 90) return `${Math.max(1, Math.round(s))} seconds`;
  if (s < 5400) return `${Math.round(s / 60)} minutes`;
  return `${Math.round(s / 3600)} hours`;
}
