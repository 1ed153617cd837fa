import type { EntityManager } from '@mikro-orm/postgresql';

/** The statements of command-line device logins (RFC 8628; device-login.service.ts). */

export async function deleteDeviceLoginsExpiredBefore(em: EntityManager, before: Date): Promise<void> {
  await em.execute(`delete from device_logins where expires_at < ?`, [before], 'run');
}

export interface PendingDeviceLoginRow {
  requested_user_agent: string | null;
  requested_ip: string | null;
  created_at: Date;
  expires_at: Date;
}

/** The login a user code names while it waits for a decision. */
export async function pendingDeviceLogin(em: EntityManager, userCode: string): Promise<PendingDeviceLoginRow | undefined> {
  const [row] = await em.execute<PendingDeviceLoginRow[]>(
    `select requested_user_agent, requested_ip, created_at, expires_at from device_logins
      where user_code = ? and approved_by_id is null and denied_at is null and expires_at > now()`,
    [userCode],
  );
  return row;
}

/** Approves a pending login; false when none waits under the code. */
export async function approveDeviceLogin(em: EntityManager, userCode: string, userId: string): Promise<boolean> {
  const approved = await em.execute<Array<{ id: string }>>(
    `update device_logins set approved_by_id = ?, approved_at = now()
     where user_code = ? and approved_by_id is null and denied_at is null and expires_at > now() returning id`,
    [userId, userCode],
  );
  return approved.length > 0;
}

/** Denies a pending login; false when none waits under the code. */
export async function denyDeviceLogin(em: EntityManager, userCode: string): Promise<boolean> {
  const denied = await em.execute<Array<{ id: string }>>(
    `update device_logins set denied_at = now()
     where user_code = ? and approved_by_id is null and denied_at is null and expires_at > now() returning id`,
    [userCode],
  );
  return denied.length > 0;
}

export async function deviceLoginDecision(em: EntityManager, userCode: string): Promise<{ expired: boolean; denied: boolean } | undefined> {
  const [row] = await em.execute<Array<{ expired: boolean; denied: boolean }>>(
    `select expires_at <= now() as expired, denied_at is not null as denied from device_logins where user_code = ?`,
    [userCode],
  );
  return row;
}

/** Consumes an approved, live device code once: the approving user, or undefined. */
export async function consumeDeviceCode(em: EntityManager, deviceCodeHash: string): Promise<{ approved_by_id: string } | undefined> {
  const [taken] = await em.execute<Array<{ approved_by_id: string }>>(
    `update device_logins set consumed_at = now()
     where device_code_hash = ? and approved_by_id is not null and consumed_at is null and expires_at > now()
     returning approved_by_id`,
    [deviceCodeHash],
  );
  return taken;
}

export async function deviceCodeState(em: EntityManager, deviceCodeHash: string): Promise<{ expired: boolean; consumed: boolean; denied: boolean } | undefined> {
  const [row] = await em.execute<Array<{ expired: boolean; consumed: boolean; denied: boolean }>>(
    `select expires_at <= now() as expired, consumed_at is not null as consumed, denied_at is not null as denied from device_logins where device_code_hash = ?`,
    [deviceCodeHash],
  );
  return row;
}
