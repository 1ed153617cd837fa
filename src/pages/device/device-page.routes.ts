import type { EntityManager } from '@mikro-orm/postgresql';
import { getAddress } from 'ethers';
import express, { type NextFunction, type Request, type RequestHandler, type Response, type Router } from 'express';
import { SiweMessage } from 'siwe';
import type { Actor } from '../../auth/actor';
import { httpStatusOf } from '../../domain/shared/error-table';
import { DomainError } from '../../domain/shared/errors';
import type { PendingDeviceLogin } from '../../domain/auth/device-login.service';
import { User } from '../../entities/user.entity';
import { clientOf } from '../../graphql/context';
import type { Services } from '../../services';
import { sendPage } from '../page-html';
import { DevicePageSession } from './device-page-session';
import { decideView, doneView, enterCodeView, formExpiredView, signInView, type Notice } from './device-page.view';

/** What a person reads for a refusal: the detail the API gives, or its field messages. */
function explain(err: DomainError): string {
  const details = err.extra.details as Array<{ path: string; message: string }> | undefined;
  if (details?.length) return details.map((d) => (d.path ? `${d.path}: ${d.message}` : d.message)).join('; ');
  const detail = typeof err.extra.detail === 'string' ? err.extra.detail : '';
  return detail ? `${err.error === detail ? '' : `${err.error}: `}${detail}` : err.error;
}

const field = (req: Request, name: string, max = 2048): string => {
  const v = (req.body as Record<string, unknown> | undefined)?.[name];
  return typeof v === 'string' ? v.trim().slice(0, max) : '';
};

/**
 * GET /device and its forms: a person enters the code a command line shows, signs in by email
 * code (or a wallet, where the browser has one), and approves or denies. Plain HTML forms, so
 * it works without script and a test (or a CLI's end-to-end check) can drive it with form posts.
 * Every post carries a form token bound to the page's cookie; sign-in keeps the domain's limits
 * (5 codes per address per hour, 5 attempts per code) and the per-address request budget.
 * docs/adr/0103-device-approval-page.md.
 */
export function devicePageRouter(services: Services, rateLimit: RequestHandler): Router {
  const router = express.Router();
  const session = new DevicePageSession(services.config);
  const publicUrl = new URL(services.config.PUBLIC_URL);
  const siwe = { siweDomain: publicUrl.host, siweUri: publicUrl.origin };
  const forms = express.urlencoded({ extended: false, limit: '16kb' });
  const em = () => services.orm.em as EntityManager;

  const checked: RequestHandler = (req, res, next) => {
    if (session.formTokenValid(req)) return next();
    sendPage(res, 403, formExpiredView());
  };
  const post = (path: string, body: RequestHandler, handler: (req: Request, res: Response) => Promise<void>) =>
    router.post(path, rateLimit, body, checked, (req: Request, res: Response, next: NextFunction) => {
      handler(req, res).catch(next);
    });

  async function signedIn(req: Request): Promise<{ actor: Actor; who: string } | null> {
    const token = session.signedInToken(req);
    if (!token) return null;
    const auth = await services.authenticator.authenticate(em(), { bearer: token });
    if (!auth.actor || auth.actor.credential !== 'session') return null;
    const user = await em().findOne(User, { id: auth.actor.userId });
    if (!user) return null;
    return { actor: auth.actor, who: user.email ?? user.walletAddress ?? (user.name || user.id) };
  }

  async function pending(code: string): Promise<{ login: PendingDeviceLogin | null; notice: Notice | null }> {
    if (!code) return { login: null, notice: null };
    try {
      return { login: await services.auth.device.pending(code), notice: null };
    } catch (err) {
      if (err instanceof DomainError) return { login: null, notice: { kind: 'error', text: explain(err) } };
      throw err;
    }
  }

  async function showDecision(req: Request, res: Response, me: { who: string }, code: string, status = 200, notice: Notice | null = null): Promise<void> {
    const csrf = session.formToken(session.pageId(req, res));
    const found = await pending(code);
    sendPage(res, status, decideView({ csrf, code, who: me.who, pending: found.login, notice: notice ?? found.notice }));
  }

  /** Signed in now: back to the page by GET, so a reload does not post the form again. */
  function signedInRedirect(res: Response, token: string, code: string): void {
    session.keepSignedIn(res, token);
    res.redirect(303, code ? `/device?code=${encodeURIComponent(code)}` : '/device');
  }

  async function endPageSession(res: Response, actor: Actor): Promise<void> {
    if (actor.sessionId) await services.sessions.revoke(em(), actor.sessionId, actor.userId);
    session.forgetSignedIn(res);
  }

  router.get('/device', (req, res, next) => {
    (async () => {
      const code = typeof req.query.code === 'string' ? req.query.code.trim().slice(0, 32) : '';
      const me = await signedIn(req);
      if (me) return showDecision(req, res, me, code);
      const csrf = session.formToken(session.pageId(req, res));
      sendPage(res, 200, signInView({ csrf, code, ...siwe }));
    })().catch(next);
  });

  post('/device/email/start', forms, async (req, res) => {
    const code = field(req, 'code', 32);
    const email = field(req, 'email', 320);
    const csrf = field(req, 'csrf');
    try {
      await services.auth.email.start({ email });
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      if (err.code === 'RATE_LIMITED' && typeof err.extra.retryAfter === 'number') res.setHeader('Retry-After', String(err.extra.retryAfter));
      return sendPage(res, httpStatusOf[err.code], signInView({ csrf, code, email, notice: { kind: 'error', text: explain(err) }, ...siwe }));
    }
    sendPage(res, 200, enterCodeView({ csrf, code, email }));
  });

  post('/device/email/verify', forms, async (req, res) => {
    const code = field(req, 'code', 32);
    const email = field(req, 'email', 320);
    try {
      const { token } = await services.auth.email.verify({ email, code: field(req, 'signInCode', 16) }, clientOf(req));
      signedInRedirect(res, token, code);
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      sendPage(res, httpStatusOf[err.code], enterCodeView({ csrf: field(req, 'csrf'), code, email, notice: { kind: 'error', text: explain(err) } }));
    }
  });

  // The wallet's script asks for a message to sign: the server writes it, so the address is
  // checksummed (EIP-55) and the nonce is one of this server's, without a library in the page.
  post('/device/wallet/message', express.json({ limit: '4kb' }), async (req, res) => {
    const address = field(req, 'address', 64);
    const chainId = Number((req.body as Record<string, unknown>).chainId);
    if (!/^0x[0-9a-fA-F]{40}$/.test(address) || !Number.isSafeInteger(chainId) || chainId <= 0) {
      res.status(400).json({ error: 'invalid_request', details: [{ path: 'address', message: 'An 0x address and a positive chainId are required' }] });
      return;
    }
    const nonce = await services.auth.siwe.issueNonce();
    const message = new SiweMessage({
      domain: siwe.siweDomain,
      address: getAddress(address),
      statement: 'Sign in to Intro Match to approve a device.',
      uri: siwe.siweUri,
      version: '1',
      chainId,
      nonce: nonce.nonce,
      issuedAt: new Date().toISOString(),
      expirationTime: nonce.expiresAt.toISOString(),
    }).prepareMessage();
    res.setHeader('Cache-Control', 'no-store');
    res.json({ message });
  });

  post('/device/wallet', forms, async (req, res) => {
    const code = field(req, 'code', 32);
    try {
      // A form sends a textarea's line breaks as CRLF; the signed message has LF.
      const message = field(req, 'message', 8192).replace(/\r\n/g, '\n');
      const { token } = await services.auth.siwe.verify({ message, signature: field(req, 'signature', 1024) }, clientOf(req));
      signedInRedirect(res, token, code);
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      sendPage(res, httpStatusOf[err.code], signInView({ csrf: field(req, 'csrf'), code, notice: { kind: 'error', text: explain(err) }, ...siwe }));
    }
  });

  post('/device/decision', forms, async (req, res) => {
    const code = field(req, 'code', 32);
    const decision = field(req, 'decision', 16);
    const me = await signedIn(req);
    if (!me) {
      const csrf = field(req, 'csrf');
      return sendPage(res, 401, signInView({ csrf, code, notice: { kind: 'error', text: 'Sign in first: your sign-in on this page ended.' }, ...siwe }));
    }
    if (decision !== 'approve' && decision !== 'deny') return showDecision(req, res, me, code, 400, { kind: 'error', text: 'Choose Approve or Deny.' });
    try {
      if (decision === 'approve') await services.auth.device.approve(me.actor, { userCode: code });
      else await services.auth.device.deny(me.actor, { userCode: code });
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      return showDecision(req, res, me, code, httpStatusOf[err.code], { kind: 'error', text: explain(err) });
    }
    // The page signed the person in only to decide; that session is of no further use.
    await endPageSession(res, me.actor);
    sendPage(res, 200, doneView(decision, code.toUpperCase()));
  });

  post('/device/sign-out', forms, async (req, res) => {
    const me = await signedIn(req);
    if (me) await endPageSession(res, me.actor);
    else session.forgetSignedIn(res);
    res.redirect(303, '/device');
  });

  return router;
}
