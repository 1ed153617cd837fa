import type { Command } from 'commander';
import { CliError } from '../context';
import { type Io, readAll } from '../io';
import { oneLine, table, when } from '../output';
import { example, run } from '../run';

interface Message {
  id: string;
  role: string;
  senderId: string | null;
  parts: Array<{ kind: 'text'; text: string }>;
  createdAt: string;
}
const textOf = (m: Message) => m.parts.map((p) => p.text).join('\n');

/** The message text: the arguments, or standard input when they are "-" or missing on a pipe. */
async function messageText(io: Io, words: string[] | undefined): Promise<string> {
  const joined = (words ?? []).join(' ');
  if (joined && joined !== '-') return joined;
  if (io.stdin.isTTY && joined !== '-') throw new CliError('Give the message as arguments (or "-" to read it from standard input)', 2, 'usage');
  const text = (await readAll(io)).trim();
  if (!text) throw new CliError('The message is empty', 2, 'usage');
  return text;
}

export function register(program: Command): void {
  const convs = program.command('conversations').alias('conversation').alias('chat').description('Direct conversations');

  example(
    convs
      .command('list')
      .description('Your conversations, latest first')
      .action(
        run(async (ctx) => {
          const res = await ctx.client().conversations.list();
          ctx.print(res, () =>
            ctx.line(
              table(
                ctx.colour,
                ['id', 'with', 'unread', 'last message', 'updated'],
                res.conversations.map((c) => [c.id, c.participants.map((p) => p.name).join(', '), c.unreadCount, oneLine(c.lastMessage ? textOf(c.lastMessage as Message) : '', 40), when(c.updatedAt)]),
              ),
            ),
          );
        }),
      ),
    ['intro conversations list'],
  );

  example(
    convs
      .command('show')
      .description('The messages of a conversation, oldest first')
      .argument('<id>', 'conversation id (or its prefix)')
      .option('--limit <n>', 'how many of the latest', (v) => Number(v))
      .action(
        run(async (ctx, [id], opts: { limit?: number }) => {
          const api = ctx.client();
          const res = await api.conversations.messages(id, opts.limit ? { limit: opts.limit } : {});
          const me = ctx.credential().userId;
          ctx.print(res, () => {
            for (const m of res.messages as Message[]) ctx.line(`${ctx.colour.dim(when(m.createdAt))} ${ctx.colour.bold(m.senderId === me ? 'you' : m.role === 'agent' ? 'agent' : 'them')}: ${textOf(m)}`);
          });
        }),
      ),
    ['intro conversations show 0c4b2a19'],
  );

  example(
    convs
      .command('send')
      .description('Send a message')
      .argument('<id>', 'conversation id')
      .argument('[text...]', 'the message ("-" reads standard input)')
      .action(
        run(async (ctx, [id, words]) => {
          const text = await messageText(ctx.io, words);
          const res = await ctx.client().conversations.post(id, { parts: [{ kind: 'text', text }] });
          ctx.print(res, () => ctx.line(`Sent message ${(res.message as Message).id}`));
        }),
      ),
    ['intro conversations send 0c4b2a19 "Hello Ben, glad we were introduced!"', 'echo "Hi" | intro conversations send 0c4b2a19 -'],
  );

  example(
    convs
      .command('dm')
      .description('Open (or resume) a direct conversation with someone')
      .argument('<userId>', 'their user id')
      .action(
        run(async (ctx, [userId]) => {
          const res = await ctx.client().conversations.openDirect(userId);
          ctx.print(res, () => ctx.line(`Conversation ${res.conversation.id}`));
        }),
      ),
    ['intro conversations dm 1c2d3e4f-…'],
  );

  const questions = program.command('questions').alias('question').description('Questions your negotiating agent asks you about an intent (the agent thread)');
  example(
    questions
      .command('list')
      .description('The questions waiting for your answer, oldest first')
      .argument('<intent>', 'intent id')
      .action(
        run(async (ctx, [intentId]) => {
          const res = await ctx.client().conversations.agentThread({ intentId });
          const agent = (res as { agent?: { status: string; questions: Array<{ id: string; question: string; scope: string; matches: Array<{ counterparty: { name: string } }> }> } }).agent;
          const list = agent?.questions ?? [];
          ctx.print({ intentId, conversationId: res.conversationId, agentStatus: agent?.status ?? null, questions: list }, () => {
            if (!list.length) return ctx.line('No questions waiting.');
            ctx.line(table(ctx.colour, ['id', 'scope', 'question', 'about'], list.map((q) => [q.id, q.scope, q.question, q.matches.map((m) => m.counterparty.name).join(', ')])));
          });
        }),
      ),
    ['intro questions list 3fa85f64'],
  );
  example(
    questions
      .command('answer')
      .description('Answer one of your agent’s questions')
      .argument('<intent>', 'intent id')
      .argument('<questionId>', 'the question id (from intro questions list)')
      .argument('[text...]', 'your answer ("-" reads standard input)')
      .action(
        run(async (ctx, [intentId, questionId, words]) => {
          const text = await messageText(ctx.io, words);
          const res = await ctx.client().conversations.answerQuestions({ intentId, answers: [{ questionId, text }] });
          ctx.print(res, () => ctx.line(`Answered ${questionId}`));
        }),
      ),
    ['intro questions answer 3fa85f64 q-1 "Seed stage, €1.5M"'],
  );

  example(
    program
      .command('docs')
      .description('The service’s guides: the list of topics, or one topic')
      .argument('[topic]', 'a topic (identity-context, signals, communities-networks, opportunities, negotiations, workflows)')
      .action(
        run(async (ctx, [topic]) => {
          const api = ctx.store.credential(ctx.profile)?.server === ctx.server ? ctx.client() : ctx.anonymous();
          const res = (await api.account.docs(topic)) as { topics?: string[]; topic?: string; content: string };
          ctx.print(res, () => {
            ctx.line(res.content);
            if (res.topics) ctx.line(ctx.colour.dim(`\nTopics: ${res.topics.join(', ')}`));
          });
        }),
      ),
    ['intro docs', 'intro docs negotiations'],
  );
}
