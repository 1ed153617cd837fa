import type { MailMessage } from '../../mail/mailer';

interface InvitationMailInput {
  publicUrl: string;
  /** A web client on its own origin, when there is one: the mail links to its sign-in page instead of this service's. */
  webAppUrl?: string;
  to: string;
  networkId: string;
  networkTitle: string;
  inviterName: string;
  /** The account was created by this invitation and has never signed in. */
  newAccount: boolean;
}

/**
 * How to sign in: a link to the web app's sign-in page with the address filled in. The app is
 * the one WEB_APP_URL names when it is hosted on its own origin, else the one this service
 * serves at PUBLIC_URL (docs/adr/0097-web-app.md); then the API steps follow too, for a
 * command line or an agent. An invited account becomes active on its first email sign-in
 * either way.
 */
function signInLines(i: InvitationMailInput): string[] {
  const next = `/networks/${i.networkId}`;
  const link = `Sign in with this email address to see it: ${i.webAppUrl ?? i.publicUrl}/sign-in?email=${encodeURIComponent(i.to)}&next=${encodeURIComponent(next)}`;
  if (i.webAppUrl) return [link];
  return [
    link,
    '',
    `Or from a command line or an agent (${i.to}), with the API at ${i.publicUrl}:`,
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
