import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

// A real SMTP server in this process: tests send through nodemailer over TCP and read what arrived.

export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string | null;
  parsed: ParsedMail;
}

export interface TestSmtp {
  url: string;
  messages: ReceivedMail[];
  /** Resolves once `count` messages have arrived (all of them so far), or rejects after `timeoutMs`. */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  close(): Promise<void>;
}

export async function startSmtp(): Promise<TestSmtp> {
  const messages: ReceivedMail[] = [];
  const waiters: Array<() => void> = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          messages.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            html: typeof parsed.html === 'string' ? parsed.html : null,
            parsed,
          });
          for (const wake of waiters.splice(0)) wake();
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    async waitFor(count, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      while (messages.length < count) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`expected ${count} email(s), ${messages.length} arrived in ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
      return messages.slice();
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
