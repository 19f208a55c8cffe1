import type { OutgoingMail } from '../shared/mail.js';

// The plain-text mails that carry one-time links (docs/auth.md): who asked, for which organization, the link and
// when it stops working. No HTML: mail clients show the link as it is.

const when = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')} UTC`;

export function invitationMail(input: {
  to: string;
  inviter: string | null;
  organization: string;
  url: string;
  expiresAt: string;
}): OutgoingMail {
  const who = input.inviter ? `${input.inviter} has invited you` : 'You have been invited';
  return {
    to: input.to,
    subject: `Invitation to ${input.organization} on Labstock`,
    text: [
      'Hello,',
      '',
      `${who} (${input.to}) to join ${input.organization} on Labstock.`,
      '',
      'Open this link to accept, choose your name and password, and sign in:',
      '',
      input.url,
      '',
      `The link works once and expires on ${when(input.expiresAt)}. If you did not expect this invitation, ignore this e-mail.`,
    ].join('\n'),
  };
}

export function passwordResetMail(input: { to: string; requestedBy: string | null; url: string; expiresAt: string }): OutgoingMail {
  const why = input.requestedBy
    ? `${input.requestedBy} has made a link for you to choose a new Labstock password (${input.to}).`
    : `Someone, hopefully you, asked to reset the Labstock password of ${input.to}.`;
  return {
    to: input.to,
    subject: 'Reset your Labstock password',
    text: [
      'Hello,',
      '',
      why,
      '',
      'Open this link to choose a new password:',
      '',
      input.url,
      '',
      `The link works once and expires on ${when(input.expiresAt)}. Setting a new password signs you out everywhere.`,
      'If you did not ask for this, ignore this e-mail: your password stays as it is.',
    ].join('\n'),
  };
}
