import type { EventNotifier } from '../events/notifier';
import type { JobQueue } from '../../jobs/job-queue';
import type { VectorIndex } from '../../vector/vector-index';
import type { DomainHooks } from '../shared/domain-hooks';
import type { CoreDeps } from '../shared/domain-service';
import type { ImageStorageService } from '../storage/image-storage.service';
import { CompletionService } from './completions/completion.service';
import { PrivateConversationService } from './conversations/private-conversation.service';
import { PrivateMessageService } from './conversations/private-message.service';
import { REPLY_SWEEP_JOB, ReplyService } from './conversations/reply.service';
import { EmbeddingService } from './embeddings/embedding.service';
import { IndexService } from './indexes/index.service';
import { ITEM_EMBED_JOB, ITEM_SWEEP_JOB, ItemIndexer } from './items/item-indexer.service';
import { ItemService } from './items/item.service';
import type { AnswerModel, TextEmbedder } from './ports';
import { DidProfileService } from './profile/did-profile.service';
import { RetrievalService } from './retrieval/retrieval.service';

/** The earlier route group (legacy-api.md): indexes, items, embeddings, private conversations, completions, profiles. */
export interface LegacyServices {
  indexer: ItemIndexer;
  indexes: IndexService;
  items: ItemService;
  embeddings: EmbeddingService;
  retrieval: RetrievalService;
  conversations: PrivateConversationService;
  messages: PrivateMessageService;
  replies: ReplyService;
  completions: CompletionService;
  profiles: DidProfileService;
  /** Jobs, hooks and the item index; called from services.start(). */
  start(): Promise<void>;
  /** Waits for replies being written and stops the index sync. */
  stop(): Promise<void>;
}

export interface LegacyDeps {
  textEmbedder: TextEmbedder;
  answerModel: AnswerModel;
  notifier: EventNotifier;
  jobs: JobQueue;
  hooks: DomainHooks;
  storage: ImageStorageService;
  /** The item vector index, apart from the intents' one. */
  itemIndex: VectorIndex;
}

export function createLegacyServices(core: CoreDeps, deps: LegacyDeps): LegacyServices {
  const indexer = new ItemIndexer(core, deps.textEmbedder, deps.itemIndex, deps.jobs);
  const model = deps.answerModel;
  const indexes = new IndexService(core, indexer);
  const items = new ItemService(core, indexes, indexer);
  const retrieval = new RetrievalService(core, indexer);
  const conversations = new PrivateConversationService(core, retrieval, deps.notifier);
  const replies = new ReplyService(core, retrieval, model);
  return {
    indexer,
    indexes,
    items,
    embeddings: new EmbeddingService(core, indexes, items, indexer),
    retrieval,
    conversations,
    messages: new PrivateMessageService(core, conversations, replies),
    replies,
    completions: new CompletionService(core, retrieval, model),
    profiles: new DidProfileService(core, deps.storage),
    async start() {
      deps.jobs.register<{ itemIds?: string[] }>({
        name: ITEM_EMBED_JOB,
        handler: async ({ itemIds }) => {
          const pending = itemIds?.length ? await indexer.embedItems(itemIds, { retryLater: false }) : await indexer.retryPending();
          // A throw makes pg-boss retry with backoff.
          if (pending.length) throw new Error(`${pending.length} items still wait for their embedding`);
        },
      });
      // Heals the item vector index after an outage with no hand work (entries of removed items leave).
      deps.jobs.register({ name: ITEM_SWEEP_JOB, cron: '* * * * *', handler: async () => void (await indexer.retryPending()) });
      deps.jobs.register({ name: REPLY_SWEEP_JOB, cron: '* * * * *', handler: async () => void (await replies.sweep()) });
      deps.hooks.on('intents.changed', ({ intentIds }) => indexer.nodesChanged(intentIds));
      const local = deps.itemIndex.name === 'local';
      await indexer.load({ fromStore: local });
      if (local) indexer.startSync(core.config.MATCH_SYNC_MS);
    },
    async stop() {
      await replies.idle();
      await indexer.stop();
      await deps.itemIndex.close();
    },
  };
}
