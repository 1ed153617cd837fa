import { Intent } from '../../src/entities/intent.entity';
import type { TestApp } from '../helpers/app';

/** Intents are the intents area's; onboarding only needs rows to exist, so tests write them directly. */
export async function insertIntent(app: TestApp, userId: string, fields: Partial<Pick<Intent, 'payload' | 'archivedAt' | 'createdAt'>> = {}): Promise<Intent> {
  return app.withEm(async (em) => {
    const intent = new Intent();
    intent.userId = userId;
    intent.payload = fields.payload ?? 'Looking for a seed investor in climate tech';
    if (fields.archivedAt) intent.archivedAt = fields.archivedAt;
    if (fields.createdAt) intent.createdAt = fields.createdAt;
    em.persist(intent);
    await em.flush();
    return intent;
  });
}

export const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
