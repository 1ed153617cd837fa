import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { randomInt } from 'node:crypto';
import type { Actor } from './actor';
import { randomToken, sha256 } from './secrets';
import { DeviceLogin } from '../../entities/device-login.entity';
import { DomainService, type CoreDeps } from '../shared/domain-service';
import { conflict, DomainError } from '../shared/errors';
import { parseInput } from '../shared/validation';
import { deviceGrantError } from './auth-errors';
import { deviceApproveSchema, deviceTokenSchema } from './auth.schemas';
import {
  approveDeviceLogin,
  consumeDeviceCode,
  deleteDeviceLoginsExpiredBefore,
  denyDeviceLogin,
  deviceCodeState,
  deviceLoginDecision,
  pendingDeviceLogin,
} from './device-login.repository';
import type { ClientOrigin, SignedIn, SignInService } from './sign-in.service';
import { insertDeviceLogin } from './credentials.repository';
import { userById } from '../accounts/users.repository';

export const DEVICE_CODE_TTL_S = 600;
/** Consonants only (RFC 8628 6.1): no vowels to spell words, no look-alike characters. */
const USER_CODE_ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ';
const USER_CODE_LENGTH = 8;
/** Expired logins are kept a day so a late poll still hears expired_token. */
const KEEP_EXPIRED_MS = 24 * 60 * 60 * 1000;

export interface DeviceAuthorization {
  deviceCode: string;
  userCode: string;
  verificationUri: string;
  /** The approval page with the code filled in (RFC 8628 3.3.1), for a link or a QR code. */
  verificationUriComplete: string;
  expiresIn: number;
  interval: number;
}

/** What the approval page shows about a login before the person decides. */
export interface PendingDeviceLogin {
  userCode: string;
  userAgent: string | null;
  ip: string | null;
  requestedAt: Date;
  expiresAt: Date;
}

/** `ABCD-EFGH` as shown; typed forms differ in case, dashes and spaces. */
export const displayCode = (code: string) => `${code.slice(0, 4)}-${code.slice(4)}`;
const normaliseCode = (typed: string) => typed.toUpperCase().replace(/[^A-Z0-9]/g, '');

const notPending = () => new DomainError('NOT_FOUND', 'not_found', { detail: 'No pending device login has this code; it may have expired' });

/** Command-line login: the device asks for a code, a signed-in person approves it, the device polls. */
export class DeviceLoginService extends DomainService {
  constructor(
    core: CoreDeps,
    private readonly signIns: SignInService,
  ) {
    super(core);
  }

  async start(origin?: ClientOrigin): Promise<DeviceAuthorization> {
    await deleteDeviceLoginsExpiredBefore(this.em, new Date(Date.now() - KEEP_EXPIRED_MS));
    const deviceCode = randomToken(32);
    for (let attempt = 0; ; attempt++) {
      const login = new DeviceLogin();
      login.deviceCodeHash = sha256(deviceCode);
      login.userCode = Array.from({ length: USER_CODE_LENGTH }, () => USER_CODE_ALPHABET[randomInt(USER_CODE_ALPHABET.length)]).join('');
      login.expiresAt = new Date(Date.now() + DEVICE_CODE_TTL_S * 1000);
      login.requestedUserAgent = origin?.userAgent ? origin.userAgent.slice(0, 512) : null;
      login.requestedIp = origin?.ip ? origin.ip.slice(0, 64) : null;
      try {
        await insertDeviceLogin(this.em, login);
      } catch (err) {
        // A user code still on record was drawn again (20^8 codes): draw another.
        if (err instanceof UniqueConstraintViolationException && attempt < 5) {
          this.em.clear();
          continue;
        }
        throw err;
      }
      const userCode = displayCode(login.userCode);
      return {
        deviceCode,
        userCode,
        verificationUri: `${this.config.PUBLIC_URL}/device`,
        verificationUriComplete: `${this.config.PUBLIC_URL}/device?code=${userCode}`,
        expiresIn: DEVICE_CODE_TTL_S,
        interval: this.config.DEVICE_POLL_INTERVAL_S,
      };
    }
  }

  /** The login a typed code names, while it waits for a decision; 404 otherwise. */
  async pending(typedCode: string): Promise<PendingDeviceLogin> {
    const userCode = normaliseCode(parseInput(deviceApproveSchema, { userCode: typedCode }).userCode);
    const row = await pendingDeviceLogin(this.em, userCode);
    if (!row) throw notPending();
    return { userCode: displayCode(userCode), userAgent: row.requested_user_agent, ip: row.requested_ip, requestedAt: new Date(row.created_at), expiresAt: new Date(row.expires_at) };
  }

  async approve(a: Actor, input: unknown): Promise<void> {
    const userCode = normaliseCode(parseInput(deviceApproveSchema, input).userCode);
    if (await approveDeviceLogin(this.em, userCode, a.userId)) return;
    throw await this.notDecidable(userCode);
  }

  /** Refuses the login: the command line polling it hears access_denied (RFC 8628 3.5). */
  async deny(a: Actor, input: unknown): Promise<void> {
    const userCode = normaliseCode(parseInput(deviceApproveSchema, input).userCode);
    if (await denyDeviceLogin(this.em, userCode)) return;
    throw await this.notDecidable(userCode);
  }

  private async notDecidable(userCode: string): Promise<DomainError> {
    const row = await deviceLoginDecision(this.em, userCode);
    if (!row || row.expired) return notPending();
    if (row.denied) return conflict('already_denied', { detail: 'This device login was denied' });
    return conflict('already_approved', { detail: 'This device login was already approved' });
  }

  /** Exchanges an approved device code for a `device` session, once. */
  async exchange(input: unknown, origin: ClientOrigin): Promise<SignedIn> {
    const hash = sha256(parseInput(deviceTokenSchema, input).deviceCode);
    const taken = await consumeDeviceCode(this.em, hash);
    if (taken) {
      const user = await userById(this.em, taken.approved_by_id);
      if (!user) throw deviceGrantError('invalid_grant', 'The approving account no longer exists');
      return this.signIns.openSession(user, 'device', 'device', origin);
    }
    const row = await deviceCodeState(this.em, hash);
    if (!row) throw deviceGrantError('invalid_grant', 'Unknown device code');
    if (row.consumed) throw deviceGrantError('invalid_grant', 'This device code was already exchanged');
    if (row.denied) throw deviceGrantError('access_denied', 'The login was denied on the approval page');
    if (row.expired) throw deviceGrantError('expired_token', 'The device code expired; start again');
    throw deviceGrantError('authorization_pending', 'Waiting for the code to be approved on the approval page');
  }
}
