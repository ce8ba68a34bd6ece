/**
 * A real SMTP server for tests (the `smtp-server` package) on 127.0.0.1 and a free port,
 * with password authentication and no TLS: it keeps every message it accepts, so a test can
 * read the code a production-mode server emailed.
 * @module
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** One accepted message. */
export interface SinkMessage {
  from: string;
  to: string[];
  /** Headers and body, quoted-printable soft line breaks joined. */
  raw: string;
}

/** A running sink. */
export interface SmtpSink {
  /** `smtp://user:password@127.0.0.1:port` */
  url: string;
  user: string;
  password: string;
  messages: SinkMessage[];
  /** Resolves with the first message to `to` whose text matches `pattern` (waits up to 5 s). */
  waitFor(to: string, pattern: RegExp): Promise<SinkMessage>;
  close(): Promise<void>;
}

/** Starts a sink that accepts `user`/`password` only. */
export async function startSmtpSink(
  user = 'mailer',
  password = 'sink-pass-Q7x9',
): Promise<SmtpSink> {
  const messages: SinkMessage[] = [];
  const waiters = new Set<() => void>();
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authMethods: ['PLAIN', 'LOGIN'],
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === user && auth.password === password)
        callback(null, { user: auth.username });
      else callback(new Error('invalid credentials'));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks)
          .toString('utf8')
          .replace(/=\r?\n/g, '');
        const envelope = session.envelope;
        messages.push({
          from: envelope.mailFrom ? envelope.mailFrom.address : '',
          to: envelope.rcptTo.map((r) => r.address),
          raw,
        });
        for (const w of waiters) w();
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://${user}:${password}@127.0.0.1:${port}`,
    user,
    password,
    messages,
    async waitFor(to, pattern) {
      const find = () => messages.find((m) => m.to.includes(to) && pattern.test(m.raw));
      const deadline = Date.now() + 5000;
      for (;;) {
        const found = find();
        if (found) return found;
        if (Date.now() > deadline)
          throw new Error(`no message to ${to} matching ${pattern} (${messages.length} received)`);
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, 100);
          waiters.add(() => {
            clearTimeout(t);
            resolve();
          });
        });
        waiters.clear();
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
