import type { MailMessage } from '../../mail/mailer';

interface InvitationMailInput {
  publicUrl: string;
  to: string;
  networkId: string;
  networkTitle: string;
  inviterName: string;
  /** The account was created by this invitation and has never signed in. */
  newAccount: boolean;
}

/**
 * The mail an invited person receives. The link opens the sign-in page with their address
 * filled in; an invited account becomes active on its first email sign-in.
 */
export function invitationMail(i: InvitationMailInput): MailMessage {
  const next = `/networks/${i.networkId}`;
  const link = `${i.publicUrl}/sign-in?email=${encodeURIComponent(i.to)}&next=${encodeURIComponent(next)}`;
  const who = i.inviterName.trim() || 'A network owner';
  const subject = i.newAccount ? `${who} invited you to "${i.networkTitle}"` : `You were added to "${i.networkTitle}"`;
  const text = [
    i.newAccount
      ? `${who} invited you to join the network "${i.networkTitle}" on Intro Match. An account for ${i.to} is ready for you.`
      : `${who} added you to the network "${i.networkTitle}" on Intro Match.`,
    '',
    `Sign in with this email address to see it: ${link}`,
    '',
    'If you did not expect this, you can ignore this message.',
  ].join('\n');
  return { to: i.to, subject, text };
}
