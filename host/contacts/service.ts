/**
 * The contacts service: the account's contacts to tell (list, add and invite,
 * read, rename, remove, invite again, agree with the code the contact read out). Rules:
 * - a number as for the account's own numbers (host/phone/numbers.ts: invalid_phone_number,
 *   country_not_supported), and one that can receive texts (a pure landline cannot);
 * - a name under the content rule (message_disallowed_content);
 * - a number the account already named answers that contact (nothing sent);
 * - a blocked number is refused (403 number_blocked), so is an account that may not send
 *   texts (402 no_entitlement), one past its contacts (409 contact_limit_reached), and a send
 *   past the code-send limits (429 rate_limited), in that order, before anything is stored;
 *   an invitation's per-number budget is the sending account's own ({@link invitationBudget}),
 *   apart from the one the number's owner verifies it with;
 * - the invitation carries a code valid 7 days (./rules.ts); the code entered by the account
 *   (or a YES reply, ./replies.ts) makes the contact agreed; either way it gets a confirmation.
 * @module
 */
import type { Db } from '../db/sql.js';
import type { Clock, EpochMs, Ids, Messaging } from '../../engine/index.js';
import { findAccountById } from '../db/accounts.js';
import {
  contactCodeStore,
  countContacts,
  deleteContact,
  findContactByE164,
  getContact,
  insertContact,
  listContacts,
  markAgreed,
  markInvited,
  renameContact,
  type Contact,
} from '../db/contacts.js';
import { getBlock } from '../db/phone-numbers.js';
import { problem } from '../errors.js';
import type {
  ContactCreatedOut,
  ContactIn,
  ContactInvitation,
  ContactOut,
  ContactPatchIn,
} from '../generated/openapi.js';
import type { Logger } from '../logger.js';
import { cursorKey, pageRequest, pageResponse, type PageQuery } from '../paging.js';
import { checkText, TEXT_LIMITS } from '../phone/content.js';
import { parsePhone } from '../phone/numbers.js';
import { issueCode, retryAfterSeconds, runningLock, verifyCode } from '../verification/code.js';
import type { ContactsConfig } from './config.js';
import { mayTextContacts } from './entitled.js';
import { toContactOut } from './present.js';
import { holderName, INVITATION_CODES } from './rules.js';
import { agreedText, invitationText, type ContactTextOptions } from './texts.js';

/** What the service needs. */
export interface ContactsServiceDeps {
  db: Db;
  clock: Clock;
  ids: Ids;
  logger: Logger;
  /** Guarded messaging: a blocked number is never texted. */
  messaging: Messaging;
  text: () => ContactTextOptions;
  config: ContactsConfig;
  /** The code-send limits of phone numbers (per number, account and client IP): an invitation is a code. */
  limits: { count(keys: { number: string; account: string; ip: string }): Promise<void> };
  /** Code checks of one contact run one at a time (parallel guesses cannot outrun the lock). */
  checks: { run<T>(key: string, fn: () => Promise<T>): Promise<T> };
}

/** The contact operations of the calling account. */
export interface ContactsService {
  list(
    accountId: string,
    query: PageQuery,
  ): Promise<{ items: ContactOut[]; next_cursor: string | null }>;
  /** Adds and invites; `created` false when the account already named the number (200, nothing sent). */
  create(
    accountId: string,
    body: ContactIn,
    ip: string,
  ): Promise<{ created: boolean; contact: ContactCreatedOut }>;
  get(accountId: string, id: string): Promise<ContactOut>;
  update(accountId: string, id: string, body: ContactPatchIn): Promise<ContactOut>;
  remove(accountId: string, id: string): Promise<void>;
  /** Sends a new invitation (nothing to an agreed contact). */
  invite(accountId: string, id: string, ip: string): Promise<ContactCreatedOut>;
  /** The code the contact read out. */
  agree(accountId: string, id: string, code: string): Promise<ContactOut>;
}

const refused = (code: string, detail: string): ContactInvitation => ({
  sent: false,
  error: { code: code as NonNullable<ContactInvitation['error']>['code'], detail },
});

/** Creates the service. */
export function createContactsService(deps: ContactsServiceDeps): ContactsService {
  const { db, clock, messaging } = deps;
  const codes = contactCodeStore(db);
  const log = deps.logger.child({ component: 'contacts' });

  const owned = async (accountId: string, id: string): Promise<Contact> => {
    const c = await getContact(db, accountId, id);
    if (!c) throw problem('not_found', { detail: 'No contact with that id.' });
    return c;
  };

  /** The holder's name for texts, or 400 naming the account field to change. */
  const holderOf = async (accountId: string): Promise<string> => {
    const account = await findAccountById(db, accountId);
    if (!account) throw problem('unauthenticated', { detail: 'The account no longer exists.' });
    const name = holderName(account);
    if (name === null) {
      throw problem('message_disallowed_content', {
        field: 'display_name',
        detail:
          'Your contact is texted your name, and neither your greeting name nor your display name can be put in a text ' +
          "(a person's name: letters, spaces and . ' -, at most 40 characters, not a link, an address or a message). " +
          'Set a greeting name with PATCH /me.',
      });
    }
    return name;
  };

  /** 403 when the number is blocked, 402 when the account may not send texts. */
  const assertMayText = async (accountId: string, e164: string): Promise<void> => {
    const block = await getBlock(db, e164);
    if (block) {
      throw problem('number_blocked', {
        detail:
          block.reason === 'stop'
            ? 'This number texted STOP: nothing is sent to it. It can text START to allow texts again.'
            : 'Calls and texts to this number are blocked.',
      });
    }
    if (!(await mayTextContacts(db, clock, accountId))) {
      throw problem('no_entitlement', {
        detail: 'Texts to contacts need a plan, the trial or call credits.',
      });
    }
  };

  /** Issues a new code, records the invitation and texts it. A provider failure is not an error. */
  const sendInvitation = async (c: Contact, holder: string): Promise<ContactInvitation> => {
    const now = clock.now();
    const issued = await issueCode(INVITATION_CODES, now);
    await codes.save(c.id, issued, now);
    await markInvited(db, c.id, holder, now, issued.expiresAt);
    try {
      const r = await messaging.sendText({
        to: c.e164,
        body: invitationText(holder, issued.code, deps.text()),
      });
      return r.ok ? { sent: true } : refused(r.code, r.detail);
    } catch (err) {
      log.warn({ err, contact: c.id }, 'invitation: provider unreachable');
      return refused(
        'provider_unavailable',
        'The provider could not be reached; send the invitation again.',
      );
    }
  };

  const checkedName = (name: string): string => {
    const r = checkText(name, TEXT_LIMITS.label);
    if (!r.ok)
      throw problem('message_disallowed_content', { field: 'name', detail: `name ${r.reason}.` });
    return r.value;
  };

  return {
    async list(accountId, query) {
      const page = pageRequest(query);
      const after = cursorKey<[number, number]>(page.after, ['number', 'number']);
      const rows = await listContacts(db, accountId, {
        after: after && { createdAt: after[0], seq: after[1] },
        limit: page.limit + 1,
      });
      const now = clock.now();
      return pageResponse(
        rows,
        page.limit,
        (c) => [c.createdAt, c.seq],
        (c) => toContactOut(c, now),
      );
    },

    async create(accountId, body, ip) {
      const parsed = parsePhone(body.e164);
      if (!parsed.ok) throw problem(parsed.code, { field: 'e164', detail: parsed.detail });
      if (parsed.phone.type === 'fixed_line') {
        throw problem('invalid_phone_number', {
          field: 'e164',
          detail: 'A landline cannot receive texts; give a mobile number.',
        });
      }
      const name = checkedName(body.name);
      const holder = await holderOf(accountId);
      const e164 = parsed.phone.e164;
      const known = await findContactByE164(db, accountId, e164);
      if (known)
        return {
          created: false,
          contact: { ...toContactOut(known, clock.now()), invitation: null },
        };
      await assertMayText(accountId, e164);
      if ((await countContacts(db, accountId)) >= deps.config.maxPerAccount)
        throw limitReached(deps.config.maxPerAccount);
      await deps.limits.count({
        number: invitationBudget(accountId, e164),
        account: accountId,
        ip,
      });
      const id = deps.ids.uuid();
      const inserted = await insertContact(
        db,
        {
          id,
          accountId,
          name,
          e164,
          countryCode: parsed.phone.countryCode,
          holderName: holder,
          at: clock.now(),
        },
        deps.config.maxPerAccount,
      );
      if (inserted === 'full') throw limitReached(deps.config.maxPerAccount);
      if (inserted === 'exists') {
        const c = (await findContactByE164(db, accountId, e164))!;
        return { created: false, contact: { ...toContactOut(c, clock.now()), invitation: null } };
      }
      const invitation = await sendInvitation((await getContact(db, accountId, id))!, holder);
      return {
        created: true,
        contact: {
          ...toContactOut((await getContact(db, accountId, id))!, clock.now()),
          invitation,
        },
      };
    },

    async get(accountId, id) {
      return toContactOut(await owned(accountId, id), clock.now());
    },

    async update(accountId, id, body) {
      const c = await owned(accountId, id);
      if (body.name != null) {
        const name = checkedName(body.name);
        if (name !== c.name) await renameContact(db, c.id, name, clock.now());
      }
      return toContactOut(await owned(accountId, id), clock.now());
    },

    async remove(accountId, id) {
      if (!(await deleteContact(db, accountId, id)))
        throw problem('not_found', { detail: 'No contact with that id.' });
    },

    async invite(accountId, id, ip) {
      const c = await owned(accountId, id);
      const now = clock.now();
      if (c.status === 'agreed') return { ...toContactOut(c, now), invitation: null };
      const holder = await holderOf(accountId);
      await assertMayText(accountId, c.e164);
      const lock = runningLock(await codes.find(c.id), now);
      if (lock !== null) throw locked(lock, now);
      await deps.limits.count({
        number: invitationBudget(accountId, c.e164),
        account: accountId,
        ip,
      });
      const invitation = await sendInvitation(c, holder);
      return { ...toContactOut(await owned(accountId, id), clock.now()), invitation };
    },

    async agree(accountId, id, code) {
      const c = await owned(accountId, id);
      if (c.status === 'agreed') return toContactOut(c, clock.now());
      return deps.checks.run(c.id, async () => {
        const now = clock.now();
        const checked = await verifyCode(codes, INVITATION_CODES, c.id, code, now, {
          consume: (codeHash) =>
            db.tx(async (tx) =>
              (await codes.consume(c.id, codeHash, tx)) && (await markAgreed(tx, c.id, 'code', now))
                ? true
                : undefined,
            ),
        });
        if (!checked.ok) {
          if (checked.locked !== null) throw locked(checked.locked, now);
          if (checked.wrong.lockedUntil !== null && checked.wrong.lockedUntil > now)
            throw locked(checked.wrong.lockedUntil, now);
          const left = INVITATION_CODES.maxWrongTries - checked.wrong.failedCount;
          throw problem('verification_code_invalid', {
            field: 'code',
            detail: `The code is wrong, expired or already used; ${left} ${left === 1 ? 'try' : 'tries'} left before agreement is locked for 15 minutes.`,
          });
        }
        const agreed = await owned(accountId, id);
        const sent = await messaging
          .sendText({ to: agreed.e164, body: agreedText(agreed.holderName, deps.text()) })
          .catch(() => null);
        if (!sent?.ok) log.warn({ contact: agreed.id }, 'confirmation text to a contact not sent');
        return toContactOut(agreed, clock.now());
      });
    },
  };
}

/**
 * The key an invitation counts on in the per-number code-send windows: the sending account and
 * the number. Invitations from other accounts then never use up the budget the number's owner
 * verifies it with (keyed by the number alone), and one account still gets the per-number limit
 * for each number it invites.
 */
export function invitationBudget(accountId: string, e164: string): string {
  return `invite:${accountId}:${e164}`;
}

function limitReached(max: number) {
  return problem('contact_limit_reached', {
    detail: `An account may name at most ${max} contacts; remove one first.`,
  });
}

function locked(until: EpochMs, now: EpochMs) {
  const seconds = retryAfterSeconds(until, now);
  return problem('verification_locked', {
    detail: `Too many wrong codes for this contact. Try again in ${Math.ceil(seconds / 60)} minutes, with a new invitation.`,
    headers: { 'Retry-After': String(seconds) },
  });
}
