import type { Config } from '../../config';
import type { User } from '../../entities/user.entity';

/**
 * decisions.md section 2: the accounts named in EARLY_ACCESS (by email or wallet address)
 * may create networks and review network requests.
 */
export function hasEarlyAccess(config: Pick<Config, 'EARLY_ACCESS'>, user: Pick<User, 'email' | 'walletAddress'>): boolean {
  return [user.email, user.walletAddress].some((v) => !!v && config.EARLY_ACCESS.has(v.toLowerCase()));
}
