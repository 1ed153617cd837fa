import type { Intent } from '../../entities/intent.entity';
import { notification, type FrameInput } from '../events/event-log';
import { cutText } from '../shared/text-cut';

export type LifecycleStatus = 'active' | 'paused' | 'archived';

const LIFECYCLE_TITLES: Record<LifecycleStatus, string> = {
  active: 'Intent resumed',
  paused: 'Intent paused',
  archived: 'Intent archived',
};

const bodyOf = (intent: Intent) => intent.summary || cutText(intent.payload, 200);

export const intentCreatedFrame = (intent: Intent): FrameInput =>
  notification('intent.created', 'Intent created', bodyOf(intent), { intentId: intent.id });

/** `archived` is derived from archivedAt; the stored status stays as it was (core-api.md, States). */
export const intentLifecycleFrame = (intent: Intent, status: LifecycleStatus): FrameInput =>
  notification('intent.lifecycle', LIFECYCLE_TITLES[status], bodyOf(intent), { intentId: intent.id, status });
