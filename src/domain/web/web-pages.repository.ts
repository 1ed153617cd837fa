import type { EntityManager } from '@mikro-orm/postgresql';
import { WebPage } from '../../entities/web-page.entity';

/** Web pages: shared nodes, written when read and found by id. */

/** Writes a new page. */
export async function savePage(em: EntityManager, page: WebPage): Promise<void> {
  em.persist(page);
  await em.flush();
}

export async function webPageById(em: EntityManager, id: string): Promise<WebPage | null> {
  return em.findOne(WebPage, { id });
}

/** Whether a page with this id exists. */
export async function webPageExists(em: EntityManager, id: string): Promise<boolean> {
  return (await em.count(WebPage, { id })) > 0;
}

/** Pages by id, in no order. */
export async function webPagesByIds(em: EntityManager, ids: string[]): Promise<WebPage[]> {
  return ids.length ? em.find(WebPage, { id: { $in: [...new Set(ids)] } }) : [];
}
