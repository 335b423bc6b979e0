/**
 * A real SMTP server on loopback for the mail tests (`smtp-server`), reading what arrives with `mailparser`.
 * It accepts by default; `failNext(n, code, text)` answers the next n messages with that reply after DATA (or at
 * RCPT TO with `at: 'rcpt'`), so tests drive temporary (4xx) and permanent (5xx) failures. No STARTTLS is offered
 * (loopback, no certificate), so Parley's opportunistic TLS sends in clear.
 */
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface SinkMail {
  parsed: ParsedMail;
  raw: string;
  envelope: { from: string; to: string[] };
  messageId: string;
}

interface PlannedFailure {
  remaining: number;
  code: number;
  text: string;
  at: 'data' | 'rcpt';
}

export class SmtpSink {
  readonly mails: SinkMail[] = [];
  /** SMTP connections opened so far (0 proves nothing was attempted). */
  connections = 0;
  /** AUTH attempts with their credentials, for tests of SMTP_Username/SMTP_Password. */
  readonly logins: Array<{ username: string; password: string }> = [];
  /** When set, AUTH with another password is refused with 535. */
  password: string | null = null;
  /** While true, a message's DATA is read but never answered (the sender waits: a mail in flight). */
  hold = false;
  /** Messages read and left unanswered under `hold` (never counted as delivered). */
  held = 0;
  private failure: PlannedFailure | null = null;
  private waiters: Array<() => void> = [];

  private constructor(private readonly server: SMTPServer, readonly port: number) {}

  /** Messages accepted (with `parse: false`, the only record of them: nothing is parsed or kept). */
  accepted = 0;

  /** `parse: false` (the benchmark): accept and count only. */
  static async start(options: { parse?: boolean } = {}): Promise<SmtpSink> {
    const parse = options.parse ?? true;
    let sink: SmtpSink | null = null;
    const server = new SMTPServer({
      authOptional: true,
      allowInsecureAuth: true,
      disabledCommands: ['STARTTLS'],
      // No reverse DNS lookup of each connecting client: loopback needs none, and a slow resolver would stall every connection.
      disableReverseLookup: true,
      logger: false,
      size: 30 * 1024 * 1024,
      onConnect(_session, callback) {
        sink!.connections++;
        callback();
      },
      onAuth(auth, _session, callback) {
        sink!.logins.push({ username: auth.username ?? '', password: auth.password ?? '' });
        if (sink!.password !== null && auth.password !== sink!.password) {
          const error = Object.assign(new Error('Authentication credentials invalid'), { responseCode: 535 });
          callback(error);
          return;
        }
        callback(null, { user: auth.username });
      },
      onRcptTo(address, _session, callback) {
        const planned = sink!.take('rcpt');
        if (planned) {
          callback(Object.assign(new Error(planned.text), { responseCode: planned.code }));
          return;
        }
        callback();
      },
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          if (sink!.hold) {
            sink!.held++;
            for (const wake of sink!.waiters.splice(0)) wake();
            return;
          }
          const planned = sink!.take('data');
          if (planned) {
            callback(Object.assign(new Error(planned.text), { responseCode: planned.code }));
            return;
          }
          sink!.accepted++;
          if (!parse) {
            for (const wake of sink!.waiters.splice(0)) wake();
            callback();
            return;
          }
          const raw = Buffer.concat(chunks).toString('utf8');
          void simpleParser(raw).then((parsed) => {
            sink!.mails.push({
              parsed,
              raw,
              envelope: {
                from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
                to: session.envelope.rcptTo.map((r) => r.address),
              },
              messageId: parsed.messageId ?? '',
            });
            for (const wake of sink!.waiters.splice(0)) wake();
            callback();
          }, callback);
        });
      },
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    const port = (server.server.address() as AddressInfo).port;
    sink = new SmtpSink(server, port);
    return sink;
  }

  /** The next `count` messages get `code text` (after DATA, or at RCPT TO). */
  failNext(count: number, code: number, text: string, at: 'data' | 'rcpt' = 'data'): void {
    this.failure = { remaining: count, code, text, at };
  }

  private take(at: 'data' | 'rcpt'): PlannedFailure | null {
    const f = this.failure;
    if (!f || f.at !== at || f.remaining <= 0) return null;
    f.remaining--;
    if (f.remaining === 0) this.failure = null;
    return f;
  }

  /** Resolves once `count` mails arrived in all (a hang guard only: rejects after `timeoutMs`). */
  async waitFor(count: number, timeoutMs = 15_000): Promise<SinkMail[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.mails.length < count) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`smtp sink: ${this.mails.length} of ${count} mails arrived`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 1000));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.mails;
  }

  /** Resolves once a message is held (`hold`); a hang guard rejects after `timeoutMs`. */
  async waitForHeld(count: number, timeoutMs = 15_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.held < count) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`smtp sink: ${this.held} of ${count} messages held`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 1000));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** The same settings as `OVERWRITE_SETTING_*` variables, for server processes (set before they start). */
  env(): Record<string, string> {
    return Object.fromEntries(Object.entries(this.settings()).map(([id, value]) => [`OVERWRITE_SETTING_${id}`, String(value)]));
  }

  /** The settings that point Parley at this sink. */
  settings(): Record<string, unknown> {
    return { SMTP_Host: '127.0.0.1', SMTP_Port: this.port, SMTP_Protocol: 'smtp', SMTP_Pool: false, From_Email: 'Parley Desk <desk@example.com>' };
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
