import type { MailMessage } from '../../mail/mailer';

interface InvitationMailInput {
  publicUrl: string;
  /** The web client, when there is one: the mail links to its sign-in page. */
  webAppUrl?: string;
  to: string;
  networkId: string;
  networkTitle: string;
  inviterName: string;
  /** The account was created by this invitation and has never signed in. */
  newAccount: boolean;
}

/**
 * How to sign in. With a web client (WEB_APP_URL), a link to its sign-in page with the address
 * filled in; this service itself serves only the API, so without one the mail names the API
 * steps instead of a page that does not exist. An invited account becomes active on its first
 * email sign-in either way.
 */
function signInLines(i: InvitationMailInput): string[] {
  if (i.webAppUrl) {
    const next = `/networks/${i.networkId}`;
    return [`Sign in with this email address to see it: ${i.webAppUrl}/sign-in?email=${encodeURIComponent(i.to)}&next=${encodeURIComponent(next)}`];
  }
  return [
    `Sign in with this email address (${i.to}) in any Intro Match client. With the API at ${i.publicUrl}:`,
    `  1. POST ${i.publicUrl}/api/auth/email/start with {"email": "${i.to}"}; a 6-digit code arrives by mail.`,
    `  2. POST ${i.publicUrl}/api/auth/email/verify with the email and the code; the answer holds your session token.`,
    `  3. The network is then at ${i.publicUrl}/api/networks/${i.networkId}.`,
  ];
}

/** The mail an invited person receives. */
export function invitationMail(i: InvitationMailInput): MailMessage {
  const who = i.inviterName.trim() || 'A network owner';
  const subject = i.newAccount ? `${who} invited you to "${i.networkTitle}"` : `You were added to "${i.networkTitle}"`;
  const text = [
    i.newAccount
      ? `${who} invited you to join the network "${i.networkTitle}" on Intro Match. An account for ${i.to} is ready for you.`
      : `${who} added you to the network "${i.networkTitle}" on Intro Match.`,
    '',
    ...signInLines(i),
    '',
    'If you did not expect this, you can ignore this message.',
  ].join('\n');
  return { to: i.to, subject, text };
}
