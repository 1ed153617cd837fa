import type { Actor } from '../../auth/actor';
import { AvatarCid } from '../../../entities/avatar-cid.entity';
import type { ImageStorageService } from '../../storage/image-storage.service';
import { DomainService, type CoreDeps } from '../../shared/domain-service';
import { badRequest, notFound } from '../../shared/errors';
import { parseInput } from '../../shared/validation';
import { isCid, rawCidOf } from '../cid.rules';
import { parsePkhDid } from '../did.rules';
import { legacyCaller } from '../legacy-caller';
import { didProfileSchema } from './did-profile.schemas';
import { avatarByCid, avatarByFile, insertAvatarCid } from './profile.repository';
import { saveUser, userById, userByIdentity } from '../../accounts/users.repository';

/** A profile as the earlier route group reads it: the core profile's name and intro, and the avatar's CID. */
export interface DidProfile {
  controllerDID: string;
  name: string;
  bio: string;
  /** The CID of the avatar uploaded through upload_avatar; null when the avatar is not one (or none is set). */
  avatar: string | null;
}

export interface AvatarUpload {
  cid: string;
  url: string;
}

/**
 * Profiles bound to a DID. They are the account's own profile (the same user a SIWE sign-in
 * reaches): name is its name, bio its intro, and avatar a CID naming an image this service
 * stored, whose URL becomes the account's avatar.
 */
export class DidProfileService extends DomainService {
  constructor(
    core: CoreDeps,
    private readonly storage: ImageStorageService,
  ) {
    super(core);
  }

  /** Stores the image with the foundation's checks and answers its CIDv1 (raw, sha2-256). */
  async uploadAvatar(a: Actor, bytes: Buffer): Promise<AvatarUpload> {
    const stored = await this.storage.store(a, 'avatars', bytes);
    const cid = await rawCidOf(bytes);
    // The same bytes uploaded again keep their first file; the new copy is not needed.
    await insertAvatarCid(this.em, { userId: a.userId, cid, filename: stored.filename, contentType: stored.contentType, size: stored.size });
    const row = await avatarByCid(this.em, a.userId, cid);
    if (!row) throw new Error('The avatar row written a moment ago is gone');
    if (row.filename !== stored.filename) await this.storage.removeFile('avatars', a.userId, stored.filename);
    return { cid, url: this.urlOf(row) };
  }

  private urlOf(a: AvatarCid): string {
    return `${this.config.PUBLIC_URL}/api/storage/avatars/${a.userId}/${a.filename}`;
  }

  async update(actor: Actor, input: unknown): Promise<DidProfile> {
    const caller = await legacyCaller(this.em, actor);
    const req = parseInput(didProfileSchema, input ?? {});
    let avatar: AvatarCid | null = null;
    if (req.avatar) {
      if (!isCid(req.avatar)) throw badRequest([{ path: 'avatar', message: 'Not a CID' }]);
      avatar = await avatarByCid(this.em, caller.userId, req.avatar);
      if (!avatar) throw badRequest([{ path: 'avatar', message: 'Not the CID of an image you uploaded (POST /api/profile/upload_avatar)' }]);
    }
    const user = await userById(this.em, caller.userId);
    if (!user) throw notFound('Profile');
    user.name = req.name;
    user.intro = req.bio;
    user.avatar = avatar ? this.urlOf(avatar) : '';
    await saveUser(this.em, user);
    return { controllerDID: caller.did, name: user.name, bio: user.intro, avatar: avatar?.cid ?? null };
  }

  /** The profile of the account behind a DID (any chain id of the same wallet). */
  async byDid(did: string): Promise<DidProfile> {
    const parsed = parsePkhDid(did);
    if (!parsed) throw badRequest([{ path: 'did', message: 'Not a did:pkh:eip155 DID (did:pkh:eip155:<chainId>:<0x address>)' }]);
    const user = await userByIdentity(this.em, { walletAddress: parsed.address });
    if (!user) throw notFound('Profile');
    const filename = user.avatar.startsWith(`${this.config.PUBLIC_URL}/api/storage/avatars/${user.id}/`) ? user.avatar.slice(user.avatar.lastIndexOf('/') + 1) : null;
    const avatar = filename ? await avatarByFile(this.em, user.id, filename) : null;
    return { controllerDID: parsed.did, name: user.name, bio: user.intro, avatar: avatar?.cid ?? null };
  }
}
