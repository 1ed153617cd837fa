import type { EntityManager } from '@mikro-orm/postgresql';

/** The statements of email sign-in codes (email-sign-in.service.ts holds the limits they apply). */

/** Expired codes whose start window has passed too: neither a code nor a budget is left in them. */
export async function deleteSpentEmailCodes(em: EntityManager, windowMs: number): Promise<void> {
  await em.execute(`delete from email_codes where expires_at < now() and window_started_at < now() - ? * interval '1 millisecond'`, [windowMs], 'run');
}

export interface EmailCodeStart {
  email: string;
  codeHash: string;
  ttlMs: number;
  windowMs: number;
  startsPerWindow: number;
}

/**
 * One statement replaces the code and counts the start; when the window's budget is spent the
 * conflict update is skipped and nothing comes back (false).
 */
export async function storeEmailCode(em: EntityManager, s: EmailCodeStart): Promise<boolean> {
  const stored = await em.execute<Array<{ email: string }>>(
    `insert into email_codes (email, code_hash, attempts, expires_at, created_at, start_count, window_started_at)
     values (?, ?, 0, now() + ? * interval '1 millisecond', now(), 1, now())
     on conflict (email) do update set
       code_hash = excluded.code_hash, attempts = 0, expires_at = excluded.expires_at, created_at = excluded.created_at,
       start_count = case when email_codes.window_started_at > now() - ? * interval '1 millisecond' then email_codes.start_count + 1 else 1 end,
       window_started_at = case when email_codes.window_started_at > now() - ? * interval '1 millisecond' then email_codes.window_started_at else now() end
     where email_codes.start_count < ? or email_codes.window_started_at <= now() - ? * interval '1 millisecond'
     returning email`,
    [s.email, s.codeHash, s.ttlMs, s.windowMs, s.windowMs, s.startsPerWindow, s.windowMs],
  );
  return stored.length > 0;
}

/** The code never reached anyone: it stops working and its start is given back. */
export async function withdrawEmailCode(em: EntityManager, email: string): Promise<void> {
  await em.execute(`update email_codes set expires_at = now(), start_count = greatest(start_count - 1, 0) where email = ?`, [email], 'run');
}

/** Counts a verification attempt on the live code, while attempts are left. */
export async function countEmailCodeAttempt(em: EntityManager, email: string, maxAttempts: number): Promise<{ code_hash: string; attempts: number } | undefined> {
  const [row] = await em.execute<Array<{ code_hash: string; attempts: number }>>(
    `update email_codes set attempts = attempts + 1 where email = ? and expires_at > now() and attempts < ? returning code_hash, attempts`,
    [email, maxAttempts],
  );
  return row;
}

/** Single use: of two verifications racing with the right code, only one deletes the row (true). */
export async function useEmailCode(em: EntityManager, email: string, codeHash: string): Promise<boolean> {
  const used = await em.execute<Array<{ email: string }>>(`delete from email_codes where email = ? and code_hash = ? returning email`, [email, codeHash]);
  return used.length > 0;
}

export async function emailCodeState(em: EntityManager, email: string): Promise<{ expired: boolean; attempts: number } | undefined> {
  const [row] = await em.execute<Array<{ expired: boolean; attempts: number }>>(`select expires_at <= now() as expired, attempts from email_codes where email = ?`, [email]);
  return row;
}

/** Seconds until the address's start window ends (a number or its text, as the driver gives it). */
export async function emailStartRetryAfter(em: EntityManager, email: string, windowMs: number): Promise<string | number | undefined> {
  const [row] = await em.execute<Array<{ retry_after: string | number }>>(
    `select ceil(extract(epoch from (window_started_at + ? * interval '1 millisecond' - now()))) as retry_after from email_codes where email = ?`,
    [windowMs, email],
  );
  return row?.retry_after;
}

export async function deleteEmailCodes(em: EntityManager, email: string): Promise<void> {
  await em.execute(`delete from email_codes where email = ?`, [email], 'run');
}
