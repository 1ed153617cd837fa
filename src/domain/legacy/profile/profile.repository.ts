import type { EntityManager } from '@mikro-orm/postgresql';
import { AvatarCid } from '../../../entities/avatar-cid.entity';

export interface AvatarCidFields {
  userId: string;
  cid: string;
  filename: string;
  contentType: string;
  size: number;
}

/** Records an uploaded avatar's CID; the same bytes uploaded again keep their first file. */
export async function insertAvatarCid(em: EntityManager, a: AvatarCidFields): Promise<void> {
  await em.execute(
    `insert into avatar_cids (user_id, cid, filename, content_type, size, created_at) values (?, ?, ?, ?, ?, now())
     on conflict (user_id, cid) do nothing`,
    [a.userId, a.cid, a.filename, a.contentType, a.size],
  );
}

/** The account's avatar named by this CID, read afresh. */
export async function avatarByCid(em: EntityManager, userId: string, cid: string): Promise<AvatarCid | null> {
  return em.findOne(AvatarCid, { userId, cid }, { refresh: true });
}

/** The account's avatar stored in this file. */
export async function avatarByFile(em: EntityManager, userId: string, filename: string): Promise<AvatarCid | null> {
  return em.findOne(AvatarCid, { userId, filename });
}
