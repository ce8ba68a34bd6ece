/**
 * A thin fetch client for a Twilio-compatible REST API (2010-04-01 dialect): form-encoded
 * POSTs (and one list GET) with HTTP Basic auth, JSON answers. Only the requests the service makes.
 * @module
 */

/** Connection settings. */
export interface TwilioClientOptions {
  /** API root, e.g. `https://api.twilio.com` (a local fake in tests). No trailing slash. */
  baseUrl: string;
  accountSid: string;
  authToken: string;
  /** Per-request timeout. @defaultValue 10000 */
  timeoutMs?: number;
  /** Injected for tests; the global fetch by default. */
  fetch?: typeof fetch;
}

/** A refusal by the provider's API: HTTP status and the provider's numeric error code. */
export interface TwilioApiError {
  status: number;
  /** Provider error code (e.g. 21211 invalid To number), or null when absent. */
  code: number | null;
  message: string;
}

/** Outcome of one API request. A network failure or timeout rejects instead (outcome unknown). */
export type TwilioResponse<T> = { ok: true; body: T } | { ok: false; error: TwilioApiError };

/** Form fields of a request; the pair form allows a repeated name (e.g. `StatusCallbackEvent`). */
export type FormInit = Record<string, string> | Array<[string, string]>;

/** The fields of a call or message resource the service reads. */
export interface TwilioResource {
  sid: string;
  status?: string;
}

/** One call of the provider's call list (`GET /Calls.json`), the fields the service reads. */
export interface TwilioCallListItem {
  sid: string;
  to: string;
  from: string;
  status: string;
  /** RFC 2822, e.g. `Tue, 04 May 2027 12:00:00 +0000`. */
  date_created: string;
}

/** One call as `GET /Calls/{sid}.json` answers it, the fields the service reads. */
export interface TwilioCall extends TwilioCallListItem {
  /** Seconds the call was connected, as a string (null while it lasts). */
  duration?: string | null;
  /** `human`, `machine_start`, `fax`, `unknown`… with answering-machine detection; else null. */
  answered_by?: string | null;
}

/**
 * One request the provider made to the service during a call, as
 * `GET /Calls/{sid}/Events.json` answers it: the webhook's URL and parameters (keys in
 * snake_case: `digits`, `call_sid`) and how the service answered (`response_code`).
 */
export interface TwilioCallEvent {
  request?: { url?: string; method?: string; parameters?: Record<string, string> } | null;
  response?: { response_code?: number | null } | null;
}

/** One message of the provider's message list (`GET /Messages.json`), the fields the service reads. */
export interface TwilioMessageListItem {
  sid: string;
  to: string;
  from: string | null;
  body: string;
  status: string;
  /** RFC 2822, e.g. `Tue, 04 May 2027 12:00:00 +0000`. */
  date_created: string;
}

/** The REST client. */
export interface TwilioClient {
  /** GET /Messages.json filtered by `To`, newest first, one page of `pageSize`. */
  listMessages(filter: {
    to: string;
    pageSize: number;
  }): Promise<TwilioResponse<{ messages: TwilioMessageListItem[] }>>;
  /** GET /Calls/{sid}.json: one call and its status now. */
  getCall(callSid: string): Promise<TwilioResponse<TwilioCall>>;
  /** GET /Calls/{sid}/Events.json: the requests the provider made during the call, one page. */
  listCallEvents(callSid: string): Promise<TwilioResponse<{ events: TwilioCallEvent[] }>>;
  /**
   * GET /Calls.json filtered by `To` and `From`, newest first, one page of `pageSize`
   * (the provider's list, as its API returns it).
   */
  listCalls(filter: {
    to: string;
    from: string;
    pageSize: number;
  }): Promise<TwilioResponse<{ calls: TwilioCallListItem[] }>>;
  /** POST /Calls.json. `idempotencyKey` is sent as the `Idempotency-Key` header. */
  createCall(params: FormInit, idempotencyKey: string): Promise<TwilioResponse<TwilioResource>>;
  /** POST /Calls/{sid}.json: `Status=canceled|completed` or `Twiml=...` on a live call. */
  updateCall(callSid: string, params: FormInit): Promise<TwilioResponse<TwilioResource>>;
  /** GET /Messages/{sid}.json: one message (inbound or outbound) with its `date_created`. */
  getMessage(messageSid: string): Promise<TwilioResponse<{ sid: string; date_created: string }>>;
  /** POST /Messages.json. */
  createMessage(params: FormInit, idempotencyKey?: string): Promise<TwilioResponse<TwilioResource>>;
}

/** Creates the client. */
export function createTwilioClient(options: TwilioClientOptions): TwilioClient {
  const doFetch = options.fetch ?? fetch;
  const root = `${options.baseUrl}/2010-04-01/Accounts/${encodeURIComponent(options.accountSid)}`;
  const auth =
    'Basic ' + Buffer.from(`${options.accountSid}:${options.authToken}`).toString('base64');

  async function get<T>(path: string, query: Record<string, string>): Promise<TwilioResponse<T>> {
    const response = await doFetch(`${root}${path}?${new URLSearchParams(query).toString()}`, {
      method: 'GET',
      headers: { authorization: auth, accept: 'application/json' },
      signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
    });
    return answer<T>(response);
  }

  async function answer<T>(response: Response): Promise<TwilioResponse<T>> {
    const text = await response.text();
    let json: unknown = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = null;
    }
    if (response.ok) return { ok: true, body: json as T };
    const body = (json ?? {}) as { code?: unknown; message?: unknown };
    return {
      ok: false,
      error: {
        status: response.status,
        code: typeof body.code === 'number' ? body.code : null,
        message: typeof body.message === 'string' ? body.message : `HTTP ${response.status}`,
      },
    };
  }

  async function post<T>(
    path: string,
    params: FormInit,
    idempotencyKey?: string,
  ): Promise<TwilioResponse<T>> {
    const headers: Record<string, string> = {
      authorization: auth,
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/json',
    };
    // Twilio itself ignores this header; compatible providers that honour it dedupe a retry
    // after a lost answer. The telephony adapter does not rely on it: it looks the call up
    // in the provider's call list before dialling (telephony.ts).
    if (idempotencyKey) headers['idempotency-key'] = idempotencyKey;
    const response = await doFetch(root + path, {
      method: 'POST',
      headers,
      body: new URLSearchParams(params).toString(),
      signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
    });
    return answer<T>(response);
  }

  return {
    getCall: (sid) => get(`/Calls/${encodeURIComponent(sid)}.json`, {}),
    listCallEvents: (sid) =>
      get(`/Calls/${encodeURIComponent(sid)}/Events.json`, { PageSize: '50' }),
    getMessage: (sid) => get(`/Messages/${encodeURIComponent(sid)}.json`, {}),
    listCalls: (filter) =>
      get('/Calls.json', { To: filter.to, From: filter.from, PageSize: String(filter.pageSize) }),
    createCall: (params, key) => post('/Calls.json', params, key),
    updateCall: (sid, params) => post(`/Calls/${encodeURIComponent(sid)}.json`, params),
    createMessage: (params, key) => post('/Messages.json', params, key),
    listMessages: (filter) =>
      get('/Messages.json', { To: filter.to, PageSize: String(filter.pageSize) }),
  };
}

/**
 * Maps an API refusal to the engine's stable codes: a bad destination is `invalid_number`,
 * a recipient who opted out at the carrier is `number_blocked`, throttling and provider
 * errors are retryable `provider_unavailable`, anything else `provider_refused`.
 */
export function classifyApiError(error: TwilioApiError): { code: string; retryable: boolean } {
  if (error.code === 21610) return { code: 'number_blocked', retryable: false };
  if (
    error.code === 21211 ||
    error.code === 21214 ||
    error.code === 21217 ||
    error.code === 21614
  ) {
    return { code: 'invalid_number', retryable: false };
  }
  if (error.status === 429 || error.status >= 500)
    return { code: 'provider_unavailable', retryable: true };
  if (error.status === 401 || error.status === 403)
    return { code: 'provider_unavailable', retryable: false };
  return { code: 'provider_refused', retryable: false };
}
