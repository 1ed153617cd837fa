import type { LegacyIndex } from '../../entities/legacy-index.entity';
import type { LegacyCaller } from '../legacy/legacy-caller';
import { notController } from '../legacy/legacy.errors';

/** Only an index's controller changes it, its items and their embeddings; anyone reads it. */
export function requireIndexController(index: LegacyIndex, caller: LegacyCaller): void {
  if (index.controllerId !== caller.userId) throw notController();
}
