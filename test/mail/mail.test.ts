import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/shared/config.js';
import { createMailer, parseMailSettings } from '../../src/shared/mail.js';
import { startSmtp, type TestSmtp } from '../helpers/smtp.js';

function recordingLog() {
  const lines: Array<{ level: string; obj: object; msg: string }> = [];
  return {
    lines,
    info: (obj: object, msg: string) => lines.push({ level: 'info', obj, msg }),
    warn: (obj: object, msg: string) => lines.push({ level: 'warn', obj, msg }),
  };
}

describe('mail through a real SMTP server', () => {
  let smtp: TestSmtp;
  beforeAll(async () => {
    smtp = await startSmtp();
  });
  afterAll(async () => {
    await smtp.close();
  });

  it('delivers subject, text and addresses as sent', async () => {
    const mailer = createMailer({ smtpUrl: smtp.url, from: 'Labstock <labstock@lab.example>' }, recordingLog());
    try {
      const before = smtp.messages.length;
      const sent = await mailer.send({ to: 'ana@lab.example', subject: 'Your invitation', text: 'Open https://x.example/a' });
      expect(sent).toBe(true);
      const [mail] = (await smtp.waitFor(before + 1)).slice(before);
      expect(mail!.to).toEqual(['ana@lab.example']);
      expect(mail!.from).toBe('labstock@lab.example');
      expect(mail!.subject).toBe('Your invitation');
      expect(mail!.text.trim()).toBe('Open https://x.example/a');
    } finally {
      mailer.close();
    }
  });

  it('rejects when the server cannot be reached, so a caller can keep the message for later', async () => {
    const mailer = createMailer({ smtpUrl: 'smtp://127.0.0.1:1', from: 'a@b.example' }, recordingLog());
    await expect(mailer.send({ to: 'x@y.example', subject: 's', text: 't' })).rejects.toThrow();
    mailer.close();
  });
});

describe('mail switched off', () => {
  it('skips every message and says so once in the log', async () => {
    const log = recordingLog();
    const mailer = createMailer({ smtpUrl: null, from: 'a@b.example' }, log);
    expect(mailer.enabled).toBe(false);
    expect(await mailer.send({ to: 'x@y.example', subject: 'one', text: 't' })).toBe(false);
    expect(await mailer.send({ to: 'x@y.example', subject: 'two', text: 't' })).toBe(false);
    expect(log.lines).toHaveLength(1);
    expect(log.lines[0]!.msg).toContain('SMTP_URL');
  });
});

describe('mail settings', () => {
  it('accepts smtp and smtps URLs and a From address', () => {
    const problems: string[] = [];
    expect(parseMailSettings({ SMTP_URL: 'smtps://u:p@mail.example:465', MAIL_FROM: 'Lab <lab@x.example>' }, problems)).toEqual({
      smtpUrl: 'smtps://u:p@mail.example:465',
      from: 'Lab <lab@x.example>',
    });
    expect(problems).toEqual([]);
  });

  it('refuses another scheme without echoing the password in the URL', () => {
    const problems: string[] = [];
    const settings = parseMailSettings({ SMTP_URL: 'http://user:hunter2-secret@mail.example' }, problems);
    expect(settings.smtpUrl).toBeNull();
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain('SMTP_URL');
    expect(problems[0]).not.toContain('hunter2-secret');
  });

  it('refuses a From header that could inject another header', () => {
    const problems: string[] = [];
    parseMailSettings({ MAIL_FROM: 'a@b.example\r\nBcc: everyone@x.example' }, problems);
    expect(problems.join()).toContain('MAIL_FROM');
  });

  it('defaults to email off', () => {
    const problems: string[] = [];
    expect(parseMailSettings({}, problems).smtpUrl).toBeNull();
    expect(problems).toEqual([]);
  });
});

describe('mail settings at start', () => {
  it('are part of the configuration, off by default', () => {
    expect(loadConfig({}).mail).toEqual({ smtpUrl: null, from: 'Labstock <labstock@localhost>' });
    expect(loadConfig({ SMTP_URL: 'smtp://127.0.0.1:2525' }).mail.smtpUrl).toBe('smtp://127.0.0.1:2525');
  });

  it('a bad SMTP_URL stops the start with the other problems, its password not echoed', () => {
    let error: unknown;
    try {
      loadConfig({ SMTP_URL: 'mailto://u:hunter2-secret@x', PORT: 'abc' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    expect(problems.some((p) => p.startsWith('SMTP_URL'))).toBe(true);
    expect(problems.some((p) => p.startsWith('PORT'))).toBe(true);
    expect(problems.join()).not.toContain('hunter2-secret');
  });
});
