import type { Command } from 'commander';
import { usageError } from '../context';
import { fields, oneLine, table, when } from '../output';
import { example, run } from '../run';

const POLICIES = ['anyone', 'invite_only'] as const;
function policy(v: string | undefined): (typeof POLICIES)[number] | undefined {
  if (v === undefined) return undefined;
  if (!(POLICIES as readonly string[]).includes(v)) throw usageError(`--join-policy is anyone or invite_only, not ${v}`);
  return v as (typeof POLICIES)[number];
}

export function register(program: Command): void {
  const networks = program.command('networks').alias('network').description('Networks: the groups your intents are shared in');

  example(
    networks
      .command('list')
      .description('The networks you belong to (--public: the public ones you may join)')
      .option('--public', 'list public networks instead')
      .action(
        run(async (ctx, _a, opts: { public?: boolean }) => {
          const api = ctx.client();
          const res = (opts.public ? await api.networks.publicList() : await api.networks.mine()) as { networks: Array<{ id: string; title: string; joinPolicy: string; memberCount?: number; role?: string | null }> };
          ctx.print(res, () => ctx.line(table(ctx.colour, ['id', 'title', 'role', 'members', 'join'], res.networks.map((n) => [n.id, n.title, n.role ?? '-', n.memberCount ?? '-', n.joinPolicy]))));
        }),
      ),
    ['intro networks list', 'intro networks list --public --json'],
  );

  example(
    networks
      .command('show')
      .description('One network, with its members')
      .argument('<id>', 'network id')
      .action(
        run(async (ctx, [id]) => {
          const api = ctx.client();
          const { network } = await api.networks.get(id);
          const { members } = (await api.networks.members(id)) as { members: Array<{ name: string; email?: string | null; permissions: string[] }> };
          ctx.print({ network, members }, () => {
            const n = network;
            ctx.line(fields(ctx.colour, [['id', n.id], ['title', n.title], ['prompt', n.prompt], ['join policy', n.joinPolicy], ['your role', n.role], ['owner', n.owner?.name ?? null], ['members', n.memberCount]]));
            ctx.line(table(ctx.colour, ['member', 'email', 'permissions'], members.map((m) => [m.name, m.email ?? '', m.permissions.join(', ')])));
          });
        }),
      ),
    ['intro networks show 9b2e1c4d-…'],
  );

  example(
    networks
      .command('create')
      .description('Create a network (needs early access; others: --request asks for one)')
      .argument('<title>', 'its title')
      .option('--prompt <text>', 'what the network is about')
      .option('--join-policy <policy>', 'anyone or invite_only')
      .option('--request', 'ask the operators for this network instead of creating it')
      .action(
        run(async (ctx, [title], opts: { prompt?: string; joinPolicy?: string; request?: boolean }) => {
          const api = ctx.client();
          const joinPolicy = policy(opts.joinPolicy);
          if (opts.request) {
            const res = await api.networks.requestNetwork({ name: title, ...(opts.prompt ? { purpose: opts.prompt } : {}), ...(joinPolicy ? { joinPolicy } : {}) });
            return ctx.print(res, () => ctx.line(`Requested network "${title}"`));
          }
          const { network } = await api.networks.create({ title, ...(opts.prompt ? { prompt: opts.prompt } : {}), ...(joinPolicy ? { joinPolicy } : {}) });
          ctx.print({ network }, () => ctx.line(`${ctx.colour.green("Created")} network ${network.id} "${title}"`));
        }),
      ),
    ['intro networks create "Climate founders" --join-policy invite_only', 'intro networks create "Rust Berlin" --request'],
  );

  const membership = (name: 'join' | 'leave', description: string, done: string) =>
    example(
      networks
        .command(name)
        .description(description)
        .argument('<id>', 'network id')
        .action(
          run(async (ctx, [id]) => {
            const res = await ctx.client().networks[name](id);
            ctx.print({ networkId: id, ...(res as object) }, () => ctx.line(`${done} network ${id}`));
          }),
        ),
      [`intro networks ${name} 9b2e1c4d-…`],
    );
  membership('join', 'Join a public network', 'Joined');
  membership('leave', 'Leave a network', 'Left');

  example(
    networks
      .command('invite')
      .description('Invite someone by email (network owners)')
      .argument('<id>', 'network id')
      .argument('<email>', 'their email address')
      .option('--name <name>', 'their name, for the invitation')
      .action(
        run(async (ctx, [id, email], opts: { name?: string }) => {
          const res = await ctx.client().networks.invite(id, { email, ...(opts.name ? { name: opts.name } : {}) });
          ctx.print(res, () => {
            const r = res as { created: boolean; alreadyMember: boolean };
            ctx.line(r.alreadyMember ? `${email} is already a member` : `Invited ${email}${r.created ? ' (a new account)' : ''}`);
          });
        }),
      ),
    ['intro networks invite 9b2e1c4d-… ben@example.com --name Ben'],
  );

  example(
    networks
      .command('requests')
      .description('Join requests of a network you own; --approve/--decline one. Without an id: your network requests')
      .argument('[id]', 'network id')
      .option('--approve <userId>', 'approve this person’s request')
      .option('--decline <userId>', 'decline this person’s request')
      .action(
        run(async (ctx, [id], opts: { approve?: string; decline?: string }) => {
          const api = ctx.client();
          if (!id) {
            if (opts.approve || opts.decline) throw usageError('--approve and --decline need the network id');
            const res = (await api.networks.myRequests()) as { requests: Array<{ id: string; title: string; status: string; purpose: string | null; submittedAt: string }> };
            return ctx.print(res, () => ctx.line(table(ctx.colour, ['id', 'title', 'status', 'purpose', 'submitted'], res.requests.map((r) => [r.id, r.title, r.status, oneLine(r.purpose ?? '', 40), when(r.submittedAt)]))));
          }
          if (opts.approve && opts.decline) throw usageError('Choose one of --approve and --decline');
          const who = opts.approve ?? opts.decline;
          if (who) {
            const decision = opts.approve ? 'approve' : 'decline';
            const res = await api.networks.reviewJoinRequest(id, who, decision);
            return ctx.print({ networkId: id, userId: who, decision, ...(res as object) }, () => ctx.line(`${decision === 'approve' ? 'Approved' : 'Declined'} ${who}`));
          }
          const res = await api.networks.joinRequests(id);
          ctx.print(res, () =>
            ctx.line(table(ctx.colour, ['user', 'name', 'status', 'asked'], res.joinRequests.map((r) => [r.userId, r.user?.name ?? '', r.status, when(r.createdAt)]))),
          );
        }),
      ),
    ['intro networks requests 9b2e1c4d-…', 'intro networks requests 9b2e1c4d-… --approve 1c2d…', 'intro networks requests'],
  );
}
