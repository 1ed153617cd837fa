import type { Command } from 'commander';
import { CliError, type Context, usageError } from '../context';
import { type Io, readLine } from '../io';
import { fields, oneLine, table, when } from '../output';
import { askRecovery, onStderr, prompts } from '../prompts';
import { example, run } from '../run';

const MAX_ROUNDS = 8;

const collect = (value: string, previous: string[] = []) => [...previous, value];

/** `--answer "Label=value"`: answers given up front (a label's answers may repeat for a multi field). */
function parseAnswers(raw: string[]): Map<string, string[]> {
  const m = new Map<string, string[]>();
  for (const a of raw) {
    const eq = a.indexOf('=');
    if (eq <= 0) throw usageError(`--answer takes "question=answer", not ${JSON.stringify(a)}`);
    const label = a.slice(0, eq).trim();
    m.set(label, [...(m.get(label) ?? []), a.slice(eq + 1).trim()]);
  }
  return m;
}

async function draftText(io: Io, words: string[]): Promise<string> {
  if (words.length) return words.join(' ');
  if (io.stdin.isTTY) return prompts().input({ message: 'What are you looking for, or offering?' }, onStderr(io));
  io.stderr.write('What are you looking for, or offering? ');
  const line = await readLine(io);
  io.stderr.write('\n');
  if (line === null) throw usageError('No intent text given (as arguments or on standard input)');
  return line;
}

/**
 * The prepare loop: the draft is checked; while it needs a fact, the recovery questions are
 * asked (answers sent again each round, as the API wants) and the draft checked again; once
 * ready it is created with its receipt.
 */
async function newIntent(ctx: Context, words: string[], opts: { network?: string[]; answer?: string[]; sourceType?: string; sourceId?: string }): Promise<void> {
  const api = ctx.client();
  const preset = parseAnswers(opts.answer ?? []);
  const payload = (await draftText(ctx.io, words)).trim();
  const answers: Array<{ prompt: string; answer: string | string[] }> = [];
  const asked: string[] = [];
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const result = await ctx.wait('Checking the draft…', api.intents.prepare({ payload, answers }));
    if (result.status === 'ready') {
      const created = await ctx.wait(
        'Creating the intent…',
        api.intents.create({
          description: result.payload,
          preparationReceipt: result.preparationReceipt,
          ...(opts.network?.length ? { networkIds: opts.network } : {}),
          ...(opts.sourceType ? { sourceType: opts.sourceType } : {}),
          ...(opts.sourceId ? { sourceId: opts.sourceId } : {}),
        }),
      );
      ctx.print({ ...created, payload: result.payload, questionsAsked: asked }, () => {
        ctx.line(`${ctx.colour.green('Created')} intent ${created.intentId}`);
        ctx.line(`  ${result.payload}`);
        ctx.line(ctx.colour.dim(`  shared in ${created.networkIds.length} network(s)`));
      });
      return;
    }
    if (!ctx.json) ctx.note(ctx.colour.yellow(result.feedback));
    if (!result.recovery.length) throw new CliError(`The draft needs revision: ${result.feedback}`);
    for (const field of result.recovery) {
      const given = preset.get(field.label) ?? preset.get(field.id);
      const answer = given ? (field.kind === 'multi' ? given : given.join(', ')) : await askRecovery(ctx.io, field);
      asked.push(field.label);
      const existing = answers.findIndex((a) => a.prompt === field.label);
      if (existing >= 0) answers.splice(existing, 1);
      answers.push({ prompt: field.label, answer });
    }
  }
  throw new CliError(`The draft was still not ready after ${MAX_ROUNDS} rounds of questions`);
}

export function register(program: Command): void {
  const intent = program.command('intent').alias('intents').description('Your intents: what you look for or offer');

  example(
    intent
      .command('new')
      .description('Write an intent: the draft is checked and any missing facts are asked as prompts, then it is created')
      .argument('[text...]', 'the intent (asked for when missing)')
      .option('-n, --network <networkId>', 'share it only in this network (repeatable; default: all your networks)', collect)
      .option('-a, --answer <question=answer>', 'answer a question before it is asked (repeatable)', collect)
      .option('--source-type <type>', 'your own label for where it came from')
      .option('--source-id <id>', 'your own id for it')
      .action(run(async (ctx, [words], opts) => newIntent(ctx, words ?? [], opts))),
    ['intro intent new "Looking for a seed investor in climate software"', 'intro intent new Looking for a room, in person --answer "Where should this happen?=East Austin"'],
  );

  example(
    intent
      .command('list')
      .description('List your intents, newest first')
      .option('-q, --query <text>', 'only those whose text matches')
      .option('--archived', 'include archived intents')
      .option('--source-type <type>', 'only those with this source type')
      .option('--limit <n>', 'how many', (v) => Number(v))
      .option('--page <n>', 'which page', (v) => Number(v))
      .action(
        run(async (ctx, _a, opts: { query?: string; archived?: boolean; sourceType?: string; limit?: number; page?: number }) => {
          const res = await ctx.client().intents.list({
            ...(opts.query ? { q: opts.query } : {}),
            ...(opts.archived ? { archived: true } : {}),
            ...(opts.sourceType ? { sourceType: opts.sourceType } : {}),
            ...(opts.limit ? { limit: opts.limit } : {}),
            ...(opts.page ? { page: opts.page } : {}),
          });
          ctx.print(res, () => {
            ctx.line(table(ctx.colour, ['id', 'status', 'intent', 'created'], res.intents.map((i) => [i.id, i.archivedAt ? 'archived' : i.status, oneLine(i.payload, 60), when(i.createdAt)])));
            ctx.line(ctx.colour.dim(`page ${res.pagination.page} of ${res.pagination.totalPages}, ${res.pagination.total} in all`));
          });
        }),
      ),
    ['intro intent list', 'intro intent list -q investor --archived --json'],
  );

  example(
    intent
      .command('show')
      .description('Show one intent and the networks it is shared in')
      .argument('<id>', 'intent id (or its 8-character short id)')
      .action(
        run(async (ctx, [id]) => {
          const api = ctx.client();
          const { intent: i } = await api.intents.get(id);
          const { networkIds } = await api.intents.networks(i.id);
          ctx.print({ intent: i, networkIds }, () =>
            ctx.line(
              fields(ctx.colour, [
                ['id', i.id],
                ['status', i.archivedAt ? `archived (${i.status})` : i.status],
                ['intent', i.payload],
                ['summary', i.summary],
                ['source', i.sourceType ? `${i.sourceType}${i.sourceId ? ` / ${i.sourceId}` : ''}` : null],
                ['networks', networkIds.join(', ') || '-'],
                ['created', when(i.createdAt)],
              ]),
            ),
          );
        }),
      ),
    ['intro intent show 3fa85f64'],
  );

  example(
    intent
      .command('edit')
      .description('Change an intent’s text (checked again) or its source fields')
      .argument('<id>', 'intent id')
      .argument('[text...]', 'the new text')
      .option('--source-type <type>', 'set the source type ("" clears it)')
      .option('--source-id <id>', 'set the source id ("" clears it)')
      .action(
        run(async (ctx, [id, words], opts: { sourceType?: string; sourceId?: string }) => {
          const body: { description?: string; sourceType?: string | null; sourceId?: string | null } = {};
          if (words?.length) body.description = words.join(' ');
          if (opts.sourceType !== undefined) body.sourceType = opts.sourceType === '' ? null : opts.sourceType;
          if (opts.sourceId !== undefined) body.sourceId = opts.sourceId === '' ? null : opts.sourceId;
          if (!Object.keys(body).length) throw usageError('Give the new text, --source-type or --source-id');
          const res = await ctx.wait('Saving…', ctx.client().intents.update(id, body));
          ctx.print(res, () => ctx.line(`${ctx.colour.green('Updated')} intent ${res.intentId}: ${res.description}`));
        }),
      ),
    ['intro intent edit 3fa85f64 "Looking for a seed investor in climate software, Berlin"', 'intro intent edit 3fa85f64 --source-type crm --source-id 42'],
  );

  const lifecycle = (name: string, description: string, call: (ctx: Context, id: string) => Promise<unknown>, done: string) =>
    example(
      intent
        .command(name)
        .description(description)
        .argument('<id>', 'intent id')
        .action(
          run(async (ctx, [id]) => {
            await call(ctx, id);
            const { intent: i } = await ctx.client().intents.get(id);
            ctx.print({ intentId: i.id, status: i.status, archivedAt: i.archivedAt }, () => ctx.line(`${done} intent ${i.id}`));
          }),
        ),
      [`intro intent ${name} 3fa85f64`],
    );
  lifecycle('pause', 'Pause an intent: no discovery or negotiation turns while paused', (ctx, id) => ctx.client().intents.setStatus(id, 'paused'), 'Paused');
  lifecycle('resume', 'Resume a paused intent', (ctx, id) => ctx.client().intents.setStatus(id, 'active'), 'Resumed');
  lifecycle('archive', 'Archive (remove) an intent', (ctx, id) => ctx.client().intents.archive(id), 'Archived');

  example(
    intent
      .command('share')
      .description('Share an intent in one more network')
      .argument('<id>', 'intent id')
      .argument('<networkId>', 'network id')
      .action(
        run(async (ctx, [id, networkId]) => {
          const api = ctx.client();
          await api.intents.share(id, networkId);
          const res = await api.intents.networks(id);
          ctx.print({ intentId: id, ...res }, () => ctx.line(`Shared intent ${id} in ${networkId}`));
        }),
      ),
    ['intro intent share 3fa85f64 9b2e1c4d-…'],
  );
  example(
    intent
      .command('unshare')
      .description('Stop sharing an intent in a network')
      .argument('<id>', 'intent id')
      .argument('<networkId>', 'network id')
      .action(
        run(async (ctx, [id, networkId]) => {
          const api = ctx.client();
          await api.intents.unshare(id, networkId);
          const res = await api.intents.networks(id);
          ctx.print({ intentId: id, ...res }, () => ctx.line(`Intent ${id} is no longer shared in ${networkId}`));
        }),
      ),
    ['intro intent unshare 3fa85f64 9b2e1c4d-…'],
  );

  example(
    program
      .command('discover')
      .description('Ranked counterparties for an intent, in a table with scores (reads and writes nothing)')
      .argument('<intent>', 'intent id')
      .option('-q, --query <text>', 'narrow the search', '')
      .option('--limit <n>', 'how many (1 to 30)', (v) => Number(v))
      .option('--since <iso>', 'only intents created or shared since then')
      .action(
        run(async (ctx, [id], opts: { query: string; limit?: number; since?: string }) => {
          const res = await ctx.wait(
            'Discovering…',
            ctx.client().intents.discover(id, { query: opts.query, ...(opts.limit ? { limit: opts.limit } : {}), ...(opts.since ? { since: opts.since } : {}) }),
          );
          ctx.print(res, () => {
            if (!res.counterparties.length) return ctx.line('No counterparties yet.');
            ctx.line(
              table(
                ctx.colour,
                ['#', 'score', 'name', 'statement', 'intent', 'network'],
                res.counterparties.map((c, i) => [i + 1, c.score.toFixed(3), c.name, oneLine(c.statement, 50), c.intentId, c.networkId]),
              ),
            );
            ctx.line(ctx.colour.dim(`Open one: intro opportunities open ${id} <intent>`));
          });
        }),
      ),
    ['intro discover 3fa85f64', 'intro discover 3fa85f64 --limit 5 --json'],
  );
}
