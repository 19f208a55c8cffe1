import nodemailer from 'nodemailer';

// Outgoing email (invitations, password resets, reminder digests). One transport per process, built from
// SMTP_URL; without it every send is skipped and the log says so once, so a deployment without mail still works
// and the links are still returned to the admin who asked for them (docs/auth.md, Invitations and password resets; docs/alerts.md for the digests).

export interface MailSettings {
  /** smtp://user:pass@host:port or smtps://…; null turns email off. */
  smtpUrl: string | null;
  /** The From header, e.g. "Labstock <labstock@lab.example>". */
  from: string;
}

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface MailLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface Mailer {
  readonly enabled: boolean;
  /** Resolves true when the SMTP server accepted the message, false when email is off. Rejects on SMTP errors. */
  send(mail: OutgoingMail): Promise<boolean>;
  close(): void;
}

/** SMTP_URL and MAIL_FROM, validated; problems are returned for src/shared/config.ts to report with the rest. */
export function parseMailSettings(env: Record<string, string | undefined>, problems: string[]): MailSettings {
  const raw = env.SMTP_URL?.trim() || null;
  let smtpUrl: string | null = null;
  if (raw) {
    try {
      const u = new URL(raw);
      if (u.protocol !== 'smtp:' && u.protocol !== 'smtps:') throw new Error('scheme');
      if (!u.hostname) throw new Error('host');
      smtpUrl = raw;
    } catch {
      // The URL may hold a password: name the variable, never echo it.
      problems.push('SMTP_URL: expected smtp://[user:password@]host[:port] or smtps://…');
    }
  }
  const from = env.MAIL_FROM?.trim() || 'Labstock <labstock@localhost>';
  if (!/^[^\r\n]*<?[^\s@<>]+@[^\s@<>]+>?$/.test(from))
    problems.push(`MAIL_FROM: expected an address such as "Labstock <labstock@lab.example>", got "${from}"`);
  return { smtpUrl, from };
}

export function createMailer(settings: MailSettings, log: MailLogger): Mailer {
  if (!settings.smtpUrl) {
    let told = false;
    return {
      enabled: false,
      async send(mail) {
        if (!told) {
          told = true;
          log.info({ subject: mail.subject }, 'email is off (SMTP_URL is not set): messages are skipped');
        }
        return false;
      },
      close() {},
    };
  }
  const transport = nodemailer.createTransport(settings.smtpUrl);
  return {
    enabled: true,
    async send(mail) {
      await transport.sendMail({ from: settings.from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
      return true;
    },
    close() {
      transport.close();
    },
  };
}
