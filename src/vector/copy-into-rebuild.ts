import type { IndexRebuild, VectorIndex } from './vector-index';

/** How far a reindex has got, for its progress line. */
export interface ReindexProgress {
  done: number;
  total: number;
}

/**
 * Fills a rebuild batch by batch and puts it in service, or drops it on any failure. Returns,
 * per id, the database time its batch was copied at, so the caller can put again what other
 * processes changed after that. `copy` returns the ids still waiting (an embedding that failed).
 */
export async function copyIntoRebuild(
  ids: string[],
  batchSize: number,
  rebuild: IndexRebuild,
  copy: (batch: string[], target: Pick<VectorIndex, 'upsert' | 'remove'>) => Promise<string[]>,
  now: () => Promise<Date>,
  onProgress?: (p: ReindexProgress) => void,
): Promise<{ copiedAt: Map<string, Date>; pending: string[] }> {
  const copiedAt = new Map<string, Date>();
  const pending: string[] = [];
  try {
    onProgress?.({ done: 0, total: ids.length });
    for (let i = 0; i < ids.length; i += batchSize) {
      const batch = ids.slice(i, i + batchSize);
      pending.push(...(await copy(batch, rebuild.target)));
      const at = await now();
      for (const id of batch) copiedAt.set(id, at);
      onProgress?.({ done: Math.min(i + batchSize, ids.length), total: ids.length });
    }
    await rebuild.commit();
  } catch (err) {
    await rebuild.abort();
    throw err;
  }
  return { copiedAt, pending };
}
