import type { Command } from 'commander';
import { CliError, usageError } from '../context';
import { fields, oneLine, table, when } from '../output';
import { example, run } from '../run';

const STATUSES = ['pending', 'accepted', 'rejected', 'expired'] as const;
const ACTIONS = ['propose', 'counter', 'accept', 'decline'] as const;
type Action = (typeof ACTIONS)[number];

export function register(program: Command): void {
  const opps = program.command('opportunities').alias('opportunity').alias('opp').description('Opportunities: proposed introductions between two intents');

  example(
    opps
      .command('list')
      .description('Your opportunities as cards (negotiating ones included unless --status is given)')
      .option('--status <status>', `only this status (${STATUSES.join(', ')})`)
      .option('--intent <id>', 'only those of this intent')
      .option('--network <id>', 'only those in this network')
      .option('--limit <n>', 'how many', (v) => Number(v))
      .action(
        run(async (ctx, _a, opts: { status?: string; intent?: string; network?: string; limit?: number }) => {
          if (opts.status && !(STATUSES as readonly string[]).includes(opts.status)) throw usageError(`--status is one of ${STATUSES.join(', ')}`);
          const query = {
            ...(opts.status ? { status: opts.status } : {}),
            ...(opts.network ? { networkId: opts.network } : {}),
            ...(opts.limit ? { limit: opts.limit } : {}),
          };
          const api = ctx.client();
          const res = (opts.intent ? await api.intents.opportunities(opts.intent, query) : await api.opportunities.list(query)) as {
            opportunities: Array<{ opportunityId: string; status: string; peer: { name: string }; headline: string; mainText: string; updatedAt: string }>;
          };
          ctx.print(res, () =>
            ctx.line(table(ctx.colour, ['id', 'status', 'with', 'headline', 'updated'], res.opportunities.map((o) => [o.opportunityId, o.status, o.peer.name, oneLine(o.headline || o.mainText, 50), when(o.updatedAt)]))),
          );
        }),
      ),
    ['intro opportunities list', 'intro opportunities list --status pending --json'],
  );

  example(
    opps
      .command('show')
      .description('The opportunity card')
      .argument('<id>', 'opportunity id (or short id)')
      .action(
        run(async (ctx, [id]) => {
          const o = await ctx.client().opportunities.get(id);
          ctx.print(o, () => {
            ctx.line(ctx.colour.bold(o.headline));
            ctx.line(o.mainText);
            ctx.line(
              fields(ctx.colour, [
                ['id', o.id],
                ['status', o.status],
                ['with', `${o.peer.name} (${o.peer.userId})`],
                ['your role', o.myRole],
                ['network', o.network ? `${o.network.title} (${o.network.id})` : null],
                ['confidence', o.confidence],
                ['next', o.primaryActionLabel],
              ]),
            );
          });
        }),
      ),
    ['intro opportunities show 5d1e2f3a'],
  );

  example(
    opps
      .command('open')
      .description('Open opportunities between your intent and counterparties’ intents (from intro discover)')
      .argument('<intent>', 'your intent id')
      .argument('<counterparties...>', 'their intent ids')
      .option('--network <id>', 'the network they were found in (default: looked up by discovery)')
      .action(
        run(async (ctx, [intentId, theirs], opts: { network?: string }) => {
          const api = ctx.client();
          let picks: Array<{ intentId: string; networkId: string }>;
          if (opts.network) picks = (theirs as string[]).map((t) => ({ intentId: t, networkId: opts.network! }));
          else {
            const { counterparties } = await ctx.wait('Finding the networks…', api.intents.discover(intentId, { query: '', limit: 30 }));
            picks = (theirs as string[]).map((t) => {
              const found = counterparties.find((c) => c.intentId === t || c.intentId.startsWith(t));
              if (!found) throw new CliError(`Intent ${t} is not among the counterparties discovery finds for ${intentId}; pass --network`);
              return { intentId: found.intentId, networkId: found.networkId };
            });
          }
          const res = await api.intents.openOpportunities(intentId, picks);
          ctx.print(res, () => {
            for (const o of res.opportunities as Array<{ opportunityId: string; status?: string }>) ctx.line(`${ctx.colour.green('Opened')} opportunity ${o.opportunityId}${o.status ? ` (${o.status})` : ''}`);
          });
        }),
      ),
    ['intro opportunities open 3fa85f64 7c9e6679-…', 'intro opportunities open 3fa85f64 7c9e6679-… --network 9b2e1c4d-…'],
  );

  const decide = (name: 'accept' | 'reject', status: 'accepted' | 'rejected', description: string) =>
    example(
      opps
        .command(name)
        .description(description)
        .argument('<id>', 'opportunity id')
        .action(
          run(async (ctx, [id]) => {
            const api = ctx.client();
            await api.opportunities.setStatus(id, status);
            const o = await api.opportunities.get(id);
            ctx.print({ opportunityId: o.id, status: o.status, decision: status }, () => ctx.line(`${name === 'accept' ? 'Approved' : 'Passed on'} opportunity ${o.id}; it is ${o.status}`));
          }),
        ),
      [`intro opportunities ${name} 5d1e2f3a`],
    );
  decide('accept', 'accepted', 'Approve the introduction (both owners approve before a chat opens)');
  decide('reject', 'rejected', 'Pass on the introduction');

  example(
    opps
      .command('start-chat')
      .description('Open the conversation of an approved introduction')
      .argument('<id>', 'opportunity id')
      .action(
        run(async (ctx, [id]) => {
          const res = await ctx.client().opportunities.startChat(id);
          ctx.print(res, () =>
            ctx.line(res.conversationId ? `Conversation ${res.conversationId} is open; send with: intro conversations send ${res.conversationId} "Hello"` : 'Waiting for the other owner to approve; the conversation opens then.'),
          );
        }),
      ),
    ['intro opportunities start-chat 5d1e2f3a'],
  );

  const negotiation = program.command('negotiation').alias('negotiations').description('Negotiations: the turns agents take on an opportunity');
  example(
    negotiation
      .command('list')
      .description('Negotiations where you hold a seat')
      .option('--intent <id>', 'only those of this intent')
      .option('--state <state>', 'open or settled')
      .action(
        run(async (ctx, _a, opts: { intent?: string; state?: string }) => {
          if (opts.state && opts.state !== 'open' && opts.state !== 'settled') throw usageError('--state is open or settled');
          const res = await ctx.client().negotiations.list({ ...(opts.intent ? { intentId: opts.intent } : {}), ...(opts.state ? { state: opts.state as 'open' | 'settled' } : {}) });
          const rows = (res as { negotiations: Array<{ opportunityId: string; outcome: string | null; turnCount: number; awaitingUserId: string | null; counterparty: { name: string } | null }> }).negotiations;
          ctx.print(res, () => ctx.line(table(ctx.colour, ['opportunity', 'with', 'turns', 'outcome', 'awaiting'], rows.map((n) => [n.opportunityId, n.counterparty?.name ?? '-', n.turnCount, n.outcome ?? 'open', n.awaitingUserId ?? '-']))));
        }),
      ),
    ['intro negotiation list --state open'],
  );

  example(
    negotiation
      .command('show')
      .description('The timeline of an opportunity’s negotiation and what you may do next')
      .argument('<opportunity>', 'opportunity id')
      .action(
        run(async (ctx, [id]) => {
          const { negotiation: n } = await ctx.client().negotiations.get(id);
          ctx.print({ negotiation: n }, () => {
            const seat = (uid: string) => (uid === n.counterparty?.userId ? n.counterparty.name : 'you');
            if (n.introducer) ctx.line(ctx.colour.dim(`Introduced by ${n.introducer.name}: ${n.introducer.context}`));
            if (n.counterparty) ctx.line(ctx.colour.dim(`With ${n.counterparty.name}: ${oneLine(n.counterparty.statement, 100)}`));
            for (const t of n.turns ?? []) ctx.line(`${String(t.turnIndex).padStart(2)} ${when(t.createdAt)} ${ctx.colour.bold(seat(t.seatUserId).padEnd(10))} ${t.action.padEnd(8)} ${t.message}`);
            ctx.line(
              fields(ctx.colour, [
                ['outcome', n.outcome ?? 'open'],
                ['turns', `${n.turnCount} of ${n.protocol?.maxTurns ?? 12}`],
                ['you may', n.protocol?.availableActions.join(', ') || `nothing (${n.protocol?.blockedReason ?? 'settled'})`],
              ]),
            );
          });
        }),
      ),
    ['intro negotiation show 5d1e2f3a'],
  );

  example(
    negotiation
      .command('turn')
      .description('Take a turn: propose, counter, accept or decline, with a message')
      .argument('<opportunity>', 'opportunity id')
      .argument('<action>', ACTIONS.join(' | '))
      .argument('[message...]', 'the message (up to 4000 characters)')
      .option('--agent <agentId>', 'take it as this agent of yours (the selected negotiator)')
      .action(
        run(async (ctx, [id, action, words], opts: { agent?: string }) => {
          if (!(ACTIONS as readonly string[]).includes(action)) throw usageError(`The action is one of ${ACTIONS.join(', ')}, not ${action}`);
          const message = (words as string[] | undefined)?.join(' ') || action;
          const { negotiation: n } = await ctx.client().negotiations.turn(id, { action: action as Action, message }, opts.agent);
          ctx.print({ negotiation: n }, () => ctx.line(`Took turn ${n.turnCount - 1} (${action}); outcome: ${n.outcome ?? 'open'}`));
        }),
      ),
    ['intro negotiation turn 5d1e2f3a propose "We raise a seed round; you invest at seed. Shall we meet?"', 'intro negotiation turn 5d1e2f3a accept Agreed'],
  );
}
