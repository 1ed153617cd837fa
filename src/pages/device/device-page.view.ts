import type { PendingDeviceLogin } from '../../domain/auth/device-login.service';
import { escapeHtml, pageHtml } from '../page-html';

const TITLE = 'Approve a device';

export interface Notice {
  kind: 'error' | 'ok' | 'info';
  text: string;
}

function notice(n: Notice | null | undefined): string {
  return n ? `<div class="notice ${n.kind}" role="${n.kind === 'error' ? 'alert' : 'status'}">${escapeHtml(n.text)}</div>` : '';
}

const hidden = (name: string, value: string) => `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`;

function codeField(code: string): string {
  return `<label for="code">Code shown by your device</label>
<input type="text" id="code" name="code" class="code" value="${escapeHtml(code)}" placeholder="ABCD-EFGH" autocomplete="off" autocapitalize="characters" spellcheck="false" required>`;
}

function header(): string {
  return `<h1>${TITLE}</h1>
<p class="lead">A command-line tool asked to sign in to your Intro Match account. Approve it only if you started that login yourself.</p>`;
}

/** Step 1: the device's code and an email address to send a sign-in code to (or a wallet, with script). */
export function signInView(v: { csrf: string; code: string; email?: string; notice?: Notice | null; siweDomain: string; siweUri: string }): string {
  return pageHtml(
    TITLE,
    `${header()}
${notice(v.notice)}
<form method="post" action="/device/email/start" id="email-form">
${hidden('csrf', v.csrf)}
${codeField(v.code)}
<label for="email">Your email</label>
<input type="email" id="email" name="email" value="${escapeHtml(v.email ?? '')}" autocomplete="email" required>
<button type="submit">Send me a sign-in code</button>
</form>
<form method="post" action="/device/wallet" id="wallet-form" class="hidden" data-domain="${escapeHtml(v.siweDomain)}" data-uri="${escapeHtml(v.siweUri)}">
${hidden('csrf', v.csrf)}
${hidden('code', v.code)}
<textarea name="message" hidden></textarea>
${hidden('signature', '')}
<p>Or sign in with the wallet in this browser.</p>
<button type="button" id="wallet-button" class="secondary">Sign in with wallet</button>
<p id="wallet-status" class="hidden"></p>
</form>`,
    { scripts: ['device-wallet.js'] },
  );
}

/** Step 2: the code from the mail. */
export function enterCodeView(v: { csrf: string; code: string; email: string; notice?: Notice | null }): string {
  return pageHtml(
    TITLE,
    `${header()}
${notice(v.notice ?? { kind: 'info', text: `We sent a 6-digit sign-in code to ${v.email}. It is valid for 10 minutes.` })}
<form method="post" action="/device/email/verify">
${hidden('csrf', v.csrf)}
${hidden('code', v.code)}
${hidden('email', v.email)}
<label for="signInCode">Sign-in code from the mail</label>
<input type="text" id="signInCode" name="signInCode" class="code" inputmode="numeric" pattern="[0-9]{6}" maxlength="6" autocomplete="one-time-code" required>
<button type="submit">Sign in</button>
</form>
<form method="post" action="/device/email/start">
${hidden('csrf', v.csrf)}
${hidden('code', v.code)}
${hidden('email', v.email)}
<button type="submit" class="secondary">Send a new code</button>
</form>`,
  );
}

function requester(p: PendingDeviceLogin | null): string {
  if (!p) return '';
  const minutes = Math.max(0, Math.round((Date.now() - p.requestedAt.getTime()) / 60_000));
  return `<dl class="client">
<dt>Code</dt><dd><code>${escapeHtml(p.userCode)}</code></dd>
<dt>Asked</dt><dd>${minutes === 0 ? 'just now' : `${minutes} min ago`}</dd>
<dt>Program</dt><dd>${escapeHtml(p.userAgent || 'not given')}</dd>
<dt>From</dt><dd>${escapeHtml(p.ip || 'unknown address')}</dd>
</dl>`;
}

/** Step 3: signed in; approve or deny the code. */
export function decideView(v: { csrf: string; code: string; who: string; pending: PendingDeviceLogin | null; notice?: Notice | null }): string {
  return pageHtml(
    TITLE,
    `${header()}
<p>Signed in as <strong>${escapeHtml(v.who)}</strong>.</p>
${notice(v.notice)}
<form method="post" action="/device/decision">
${hidden('csrf', v.csrf)}
${codeField(v.code)}
${requester(v.pending)}
<div class="row">
<button type="submit" name="decision" value="approve">Approve</button>
<button type="submit" name="decision" value="deny" class="deny">Deny</button>
</div>
</form>
<form method="post" action="/device/sign-out">
${hidden('csrf', v.csrf)}
<button type="submit" class="secondary">Sign out</button>
</form>`,
  );
}

/** The end: what happens on the device now. */
export function doneView(decision: 'approve' | 'deny', code: string): string {
  const text =
    decision === 'approve'
      ? `Device ${code} is approved. Go back to it: it finishes signing in at its next poll (within a few seconds). This page has signed you out again.`
      : `Device ${code} is denied: it cannot use this login. This page has signed you out again.`;
  return pageHtml(TITLE, `<h1>${decision === 'approve' ? 'Approved' : 'Denied'}</h1>${notice({ kind: decision === 'approve' ? 'ok' : 'info', text })}<p><a href="/device">Approve another device</a></p>`);
}

/** A post without a valid form token: another site's form, or a page older than its cookie. */
export function formExpiredView(): string {
  return pageHtml(
    TITLE,
    `<h1>${TITLE}</h1>${notice({ kind: 'error', text: 'This form has expired or did not come from this page. Nothing was done.' })}<p><a href="/device">Open the page again</a></p>`,
  );
}
