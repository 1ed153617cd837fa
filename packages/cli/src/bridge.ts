import { spawn } from 'node:child_process';
import { ApiError, type IntroMatchClient, type Schemas } from '@intro-match/client';
import { CliError } from './context';

type Negotiation = Schemas['Negotiation'];
type Action = 'propose' | 'counter' | 'accept' | 'decline';
const ACTIONS: readonly string[] = ['propose', 'counter', 'accept', 'decline'];
const MESSAGE_LIMIT = 4000;

/** What the agent command reads on its standard input, once per awaited turn. */
export interface TurnRequest {
  opportunityId: string;
  agentId: string;
  me: { userId: string };
  intent: { id: string; payload: string } | null;
  negotiation: Negotiation;
}

/** What the bridge reports (human lines on stderr, or JSON lines on stdout). */
export type BridgeEvent =
  | { type: 'ready'; agentId: string; agentName: string; userId: string; command: string[] }
  | { type: 'turn'; opportunityId: string; turnIndex: number; action: Action; message: string; outcome: string | null }
  | { type: 'skipped'; opportunityId: string; reason: string }
  | { type: 'refused'; opportunityId: string; status: number; error: string }
  | { type: 'agent_error'; opportunityId: string; error: string }
  | { type: 'stopped'; reason: string };

export interface BridgeOptions {
  api: IntroMatchClient;
  agentId: string;
  userId: string;
  command: string[];
  turnTimeoutMs: number;
  rescanMs: number;
  report: (e: BridgeEvent) => void;
  signal: AbortSignal;
  /** Where the agent command's stderr goes: inherited (the process's own), or copied into a stream. */
  stderr?: NodeJS.WritableStream | 'inherit';
}

/** Refusals after which the turn is simply not the bridge's to take any more. */
const GONE = new Set([
  'This negotiation has already settled',
  'An intent in this negotiation is paused or removed',
  'The protocol turn limit was reached; the outcome remains undecided',
  'It is not your turn',
  'You do not hold a seat in this negotiation',
  'No negotiation for this opportunity',
]);
const RACED = 'The other seat moved first; re-read the negotiation';
const FENCED = 'The selected negotiation executor changed; stop this work';

/**
 * Runs the agent command once: the request as JSON on its stdin, and its turn read from its
 * stdout (the last line that is a JSON object). Its stderr passes through: inherited from this
 * process (the program may see the terminal), or copied into the stream given.
 */
export function runAgent(command: string[], request: TurnRequest, timeoutMs: number, stderr: NodeJS.WritableStream | 'inherit' = 'inherit'): Promise<{ action: Action; message: string }> {
  return new Promise((resolve, reject) => {
    const shell = command.length === 1 && /\s/.test(command[0]);
    const child = spawn(command[0], command.slice(1), { stdio: ['pipe', 'pipe', stderr === 'inherit' ? 'inherit' : 'pipe'], shell });
    if (stderr !== 'inherit') child.stderr!.on('data', (c: Buffer) => stderr.write(c));
    let out = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the agent command gave no turn within ${timeoutMs / 1000}s`));
    }, timeoutMs);
    child.stdout!.on('data', (c: Buffer) => (out += c.toString('utf8')));
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(new Error(`cannot run ${command[0]}: ${err.message}`));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code !== 0) return reject(new Error(`the agent command exited with ${code}`));
      const line = out
        .split('\n')
        .map((l) => l.trim())
        .reverse()
        .find((l) => l.startsWith('{'));
      if (!line) return reject(new Error('the agent command printed no JSON turn'));
      let turn: { action?: unknown; message?: unknown };
      try {
        turn = JSON.parse(line);
      } catch {
        return reject(new Error(`the agent command printed invalid JSON: ${line.slice(0, 200)}`));
      }
      if (typeof turn.action !== 'string' || !ACTIONS.includes(turn.action)) return reject(new Error(`the agent's action must be one of ${ACTIONS.join(', ')}`));
      const message = typeof turn.message === 'string' && turn.message.trim() ? turn.message.trim() : turn.action;
      if (message.length > MESSAGE_LIMIT) return reject(new Error(`the agent's message is longer than ${MESSAGE_LIMIT} characters`));
      resolve({ action: turn.action as Action, message });
    });
    child.stdin!.on('error', () => undefined);
    child.stdin!.end(`${JSON.stringify(request)}\n`);
  });
}

/**
 * The agent bridge: holds the agent's consumer stream, and for each negotiation awaiting this
 * user's seat runs the command and submits its turn as the agent. Wakes on negotiation.turn,
 * opportunity.new, negotiation.changed and principal.input, on every (re)connection and every
 * `rescanMs`; handles the documented refusals (a lost race is read again and retried; a settled,
 * paused, limited or not-awaited negotiation is left; a moved executor fence stops the bridge).
 */
export async function runBridge(o: BridgeOptions): Promise<void> {
  const queue = new Set<string>();
  const intents = new Map<string, { id: string; payload: string }>();
  let wake: (() => void) | null = null;
  let fatal: Error | null = null;
  // Stops the stream and the worker on the caller's signal or on a fatal refusal.
  const inner = new AbortController();
  if (o.signal.aborted) inner.abort();
  o.signal.addEventListener('abort', () => inner.abort(), { once: true });
  const enqueue = (id: string) => {
    queue.add(id);
    wake?.();
  };
  const scan = async () => {
    const res = (await o.api.negotiations.list({ state: 'open' })) as { negotiations: Array<{ opportunityId: string; awaitingUserId: string | null }> };
    for (const n of res.negotiations) if (n.awaitingUserId === o.userId) enqueue(n.opportunityId);
  };

  const intentOf = async (id: string | null) => {
    if (!id) return null;
    if (!intents.has(id)) {
      const { intent } = await o.api.intents.get(id);
      intents.set(id, { id: intent.id, payload: intent.payload });
    }
    return intents.get(id)!;
  };

  const takeTurn = async (opportunityId: string) => {
    for (let attempt = 0; attempt < 5; attempt++) {
      const { negotiation } = await o.api.negotiations.get(opportunityId);
      if (negotiation.awaitingUserId !== o.userId || !negotiation.protocol?.availableActions.length) return;
      const request: TurnRequest = { opportunityId, agentId: o.agentId, me: { userId: o.userId }, intent: await intentOf(negotiation.intentId), negotiation };
      let turn: { action: Action; message: string };
      try {
        turn = await runAgent(o.command, request, o.turnTimeoutMs, o.stderr);
      } catch (err) {
        o.report({ type: 'agent_error', opportunityId, error: (err as Error).message });
        return;
      }
      if (!negotiation.protocol.availableActions.includes(turn.action)) {
        o.report({ type: 'agent_error', opportunityId, error: `the agent chose ${turn.action}; allowed now: ${negotiation.protocol.availableActions.join(', ')}` });
        return;
      }
      try {
        const { negotiation: after } = await o.api.negotiations.turn(opportunityId, turn, o.agentId);
        o.report({ type: 'turn', opportunityId, turnIndex: after.turnCount - 1, action: turn.action, message: turn.message, outcome: after.outcome });
        return;
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        o.report({ type: 'refused', opportunityId, status: err.status, error: err.error });
        if (err.error === FENCED) throw new CliError(`This agent is no longer the selected negotiator (${FENCED})`);
        if (err.error === RACED) continue;
        if (GONE.has(err.error)) return;
        // Any other refusal (a 400 for the agent's action or message): left until the next change.
        return;
      }
    }
  };

  const worker = (async () => {
    while (!inner.signal.aborted) {
      const next = queue.values().next();
      if (next.done) {
        await new Promise<void>((r) => {
          wake = r;
          inner.signal.addEventListener('abort', () => r(), { once: true });
        });
        wake = null;
        continue;
      }
      queue.delete(next.value);
      try {
        await takeTurn(next.value);
      } catch (err) {
        if (err instanceof CliError || (err instanceof ApiError && (err.status === 401 || err.status === 403))) {
          fatal = err as Error;
          inner.abort();
          break;
        }
        o.report({ type: 'agent_error', opportunityId: next.value, error: err instanceof Error ? err.message : String(err) });
      }
    }
  })();

  const rescan = setInterval(() => void scan().catch(() => undefined), o.rescanMs);
  try {
    for await (const frame of o.api.events.stream({ consumer: o.agentId, signal: inner.signal, handshakes: true })) {
      const f = frame as { type: string; data?: Record<string, unknown> };
      if (f.type === 'connected') await scan().catch((err) => o.report({ type: 'agent_error', opportunityId: '', error: `listing open negotiations: ${(err as Error).message}` }));
      else if (['negotiation.turn', 'opportunity.new', 'negotiation.changed'].includes(f.type) && typeof f.data?.opportunityId === 'string') enqueue(f.data.opportunityId);
      else if (f.type === 'opportunity.status' && f.data?.status === 'negotiating' && typeof f.data.opportunityId === 'string') enqueue(f.data.opportunityId);
      else if (f.type === 'principal.input' || f.type === 'negotiation.changed') await scan().catch(() => undefined);
    }
  } catch (err) {
    if (!inner.signal.aborted) throw err;
  } finally {
    clearInterval(rescan);
    inner.abort();
  }
  // A turn in flight is given a moment to land before the bridge returns.
  await Promise.race([worker, new Promise((r) => setTimeout(r, 5000).unref())]);
  if (fatal) throw fatal;
}
