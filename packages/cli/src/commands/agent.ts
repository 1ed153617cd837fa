import { ApiError, type IntroMatchClient } from '@intro-match/client';
import type { Command } from 'commander';
import { runBridge, type BridgeEvent } from '../bridge';
import { CliError, type Context, usageError } from '../context';
import { table, when } from '../output';
import { example, run } from '../run';

export const DEFAULT_AGENT_NAME = 'intro agent bridge';

interface Agent {
  id: string;
  name: string;
  type: string;
  status: string;
  handleNegotiations: boolean;
}

/**
 * The agent the bridge negotiates as: --agent, else the external agent called --name (created
 * when missing); selected as the negotiator (session only). With an API key, the key's seat must
 * already be an external agent.
 */
async function selectAgent(ctx: Context, api: IntroMatchClient, opts: { agent?: string; name: string }): Promise<Agent> {
  if (ctx.credential().apiKey && !ctx.credential().token) {
    const seat = (await api.agents.seat()) as { agent: Agent | null };
    if (seat.agent?.type === 'external' && (!opts.agent || seat.agent.id === opts.agent)) return seat.agent;
    throw new CliError('An API key cannot select a negotiator; sign in with intro login (or select the agent first, and run with a key)');
  }
  let agent: Agent | undefined;
  if (opts.agent) agent = ((await api.agents.get(opts.agent)) as { agent: Agent }).agent;
  else {
    const { agents } = (await api.agents.list()) as { agents: Agent[] };
    agent = agents.find((a) => a.type === 'external' && a.name === opts.name);
    agent ??= ((await api.agents.create(opts.name)) as { agent: Agent }).agent;
  }
  if (agent.type !== 'external') throw usageError(`Agent ${agent.id} is the hosted negotiator; name one of your external agents`);
  if (!agent.handleNegotiations || agent.status !== 'active') {
    agent = ((await api.agents.update(agent.id, { status: 'active', handleNegotiations: true })) as { agent: Agent }).agent ?? agent;
  }
  return agent;
}

function reporter(ctx: Context): (e: BridgeEvent) => void {
  return (e) => {
    if (ctx.json) return ctx.jsonLine(e);
    switch (e.type) {
      case 'ready':
        return ctx.note(`${ctx.colour.green('Negotiating')} as agent "${e.agentName}" (${e.agentId}) with: ${e.command.join(' ')}`);
      case 'turn':
        return ctx.note(`${e.opportunityId}: turn ${e.turnIndex} ${ctx.colour.bold(e.action)}: ${e.message}${e.outcome ? ctx.colour.green(` -> ${e.outcome}`) : ''}`);
      case 'skipped':
        return ctx.note(ctx.colour.dim(`${e.opportunityId}: ${e.reason}`));
      case 'refused':
        return ctx.note(ctx.colour.yellow(`${e.opportunityId}: refused ${e.status}: ${e.error}`));
      case 'agent_error':
        return ctx.note(ctx.colour.red(`${e.opportunityId || 'bridge'}: ${e.error}`));
      case 'stopped':
        return ctx.note(ctx.colour.dim(`Stopped: ${e.reason}`));
    }
  };
}

export function register(program: Command): void {
  const agent = program.command('agent').alias('agents').description('Your agents, and the bridge that makes any program your negotiator');

  example(
    agent
      .command('list')
      .description('Your agents; the selected negotiator is marked')
      .action(
        run(async (ctx) => {
          const res = (await ctx.client().agents.list()) as { agents: Array<Agent & { lastSeenAt: string | null }> };
          ctx.print(res, () =>
            ctx.line(table(ctx.colour, ['id', 'name', 'type', 'status', 'negotiator', 'last seen'], res.agents.map((a) => [a.id, a.name, a.type, a.status, a.handleNegotiations ? 'yes' : '', when(a.lastSeenAt)]))),
          );
        }),
      ),
    ['intro agent list'],
  );

  example(
    agent
      .command('run')
      .description(
        'Negotiate with a program: for each turn awaited from you it gets the negotiation as JSON on stdin and prints one turn {"action","message"} on stdout',
      )
      .argument('<command...>', 'the program and its arguments (after --)')
      .option('--agent <agentId>', 'negotiate as this external agent (default: the one called --name)')
      .option('--name <name>', 'the external agent to use or create', DEFAULT_AGENT_NAME)
      .option('--turn-timeout <seconds>', 'how long the program may take for a turn', (v) => Number(v), 120)
      .option('--rescan <seconds>', 'how often to look for awaited turns besides the event stream', (v) => Number(v), 30)
      .action(
        run(async (ctx, [command], opts: { agent?: string; name: string; turnTimeout: number; rescan: number }) => {
          if (!(opts.turnTimeout > 0) || !(opts.rescan > 0)) throw usageError('--turn-timeout and --rescan take a number of seconds');
          const api = ctx.client();
          const { user } = await api.account.me();
          const chosen = await selectAgent(ctx, api, opts);
          const report = reporter(ctx);
          const controller = new AbortController();
          const unsubscribe = ctx.io.onStop((sig) => {
            report({ type: 'stopped', reason: sig });
            controller.abort();
          });
          // Ready only once a signal stops the bridge cleanly.
          report({ type: 'ready', agentId: chosen.id, agentName: chosen.name, userId: user.id, command });
          try {
            await runBridge({ api, agentId: chosen.id, userId: user.id, command, turnTimeoutMs: opts.turnTimeout * 1000, rescanMs: opts.rescan * 1000, report, signal: controller.signal, stderr: ctx.io.inheritable ? 'inherit' : ctx.io.stderr });
          } catch (err) {
            if (err instanceof ApiError && err.status === 409) throw new CliError(`This agent is not the selected negotiator any more: ${err.error}`);
            throw err;
          } finally {
            unsubscribe();
          }
        }),
      ),
    ['intro agent run -- node packages/cli/examples/negotiator.js', 'intro agent run --name "my bot" --json -- python3 my_agent.py'],
  );
}
