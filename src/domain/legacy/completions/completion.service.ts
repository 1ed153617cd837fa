import { ProviderError, type ChatMessage } from '../../shared/ports';
import type { AnswerModel } from '../ports';
import type { Actor } from '../../auth/actor';
import { DomainService, type CoreDeps } from '../../shared/domain-service';
import { parseInput } from '../../shared/validation';
import { answerFailed } from '../legacy.errors';
import type { RetrievalService } from '../retrieval/retrieval.service';
import { completionSchema } from './completion.schemas';

/** Completions grounded on retrieval over the sources the caller names. */
export class CompletionService extends DomainService {
  constructor(
    core: CoreDeps,
    private readonly retrieval: RetrievalService,
    private readonly model: AnswerModel,
  ) {
    super(core);
  }

  async complete(a: Actor, input: unknown): Promise<{ completion: string }> {
    const req = parseInput(completionSchema, input ?? {});
    const messages: ChatMessage[] = req.prompt ? [{ role: 'user', content: req.prompt }] : req.messages!;
    const question = [...messages].reverse().find((m) => m.role === 'user' && m.content.trim())!.content;
    const indexIds = await this.retrieval.resolveSources(req.sources);
    const passages = await this.retrieval.passagesFor(indexIds, question);
    try {
      return { completion: await this.model.answer({ messages, passages }) };
    } catch (err) {
      if (!(err instanceof ProviderError)) throw err;
      this.logger.warn({ err: { message: err.message, status: err.status } }, 'completion failed');
      throw answerFailed();
    }
  }
}
