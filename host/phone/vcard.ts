/**
 * The contact card (GET /contact-card.vcf): one vCard 3.0 contact holding every number the
 * service calls from, so that people can save it and let wake-up calls through Do Not
 * Disturb. vCard 3.0 (RFC 2426) rather than 4.0 because every phone's contacts app imports
 * it.
 * @module
 */

/** Escapes a vCard text value (RFC 2426 §5: backslash, comma, semicolon, newline). */
function escapeText(value: string): string {
  return value.replace(/[\\,;]/g, (c) => `\\${c}`).replace(/\r?\n/g, '\\n');
}

/** Folds a content line at 75 octets (RFC 2426 §2.6), continuing with CRLF + space. */
function fold(line: string): string {
  const bytes = Buffer.from(line, 'utf8');
  if (bytes.length <= 75) return line;
  const parts: string[] = [];
  let current = '';
  let size = 0;
  for (const ch of line) {
    const n = Buffer.byteLength(ch, 'utf8');
    const limit = parts.length === 0 ? 75 : 74; // continuation lines start with a space
    if (size + n > limit) {
      parts.push(current);
      current = '';
      size = 0;
    }
    current += ch;
    size += n;
  }
  parts.push(current);
  return parts.join('\r\n ');
}

/** Input of {@link contactCard}. */
export interface ContactCardInput {
  /** Display name of the contact, e.g. the service name. */
  name: string;
  /** E.164 caller ids the service calls from (one TEL line each, in order). */
  numbers: readonly string[];
  /** Optional web address shown on the card. */
  url?: string;
  note?: string;
}

/** Renders the card with CRLF line endings, as vCard requires. */
export function contactCard(input: ContactCardInput): string {
  const lines = [
    'BEGIN:VCARD',
    'VERSION:3.0',
    `N:${escapeText(input.name)};;;;`,
    `FN:${escapeText(input.name)}`,
    `ORG:${escapeText(input.name)}`,
    ...input.numbers.map((n) => `TEL;TYPE=VOICE,WORK:${n}`),
    ...(input.url ? [`URL:${input.url}`] : []),
    ...(input.note ? [`NOTE:${escapeText(input.note)}`] : []),
    'END:VCARD',
  ];
  return lines.map(fold).join('\r\n') + '\r\n';
}
