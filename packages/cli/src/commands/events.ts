import type { EventFrame } from '@intro-match/client';
import type { Command } from 'commander';
import { type Colours, type Context, usageError } from '../context';
import { when } from '../output';
import { example, run } from '../run';

type Frame = EventFrame & Record<string, any>;

/** One line for people: id, time, type, and the title and body (or the chat text). */
export function humanLine(colour: Colours, f: Frame): string {
  const head = `${colour.dim(`#${f.eventId}`)} ${colour.dim(when(f.at))} ${colour.cyan(f.type)}`;
  if (f.type === 'message') {
    const text = (f.message?.parts ?? []).map((p: { text: string }) => p.text).join(' ');
    return `${head} ${f.conversationId}: ${text}`;
  }
  const data = f.data && typeof f.data === 'object' ? Object.entries(f.data as Record<string, unknown>).map(([k, v]) => `${k}=${v}`).join(' ') : '';
  return `${head} ${f.title ?? ''}${f.body ? ` - ${f.body}` : ''}${data ? colour.dim(` (${data})`) : ''}`;
}

async function tail(ctx: Context, opts: { after?: string; resume?: boolean; count?: number; type?: string[] }): Promise<void> {
  if (opts.after && opts.resume) throw usageError('Choose one of --after and --resume');
  const api = ctx.client();
  const after = opts.after ?? (opts.resume ? ctx.store.settings(ctx.profile).lastEventId : undefined);
  const controller = new AbortController();
  const unsubscribe = ctx.io.onStop(() => controller.abort());
  let printed = 0;
  if (!ctx.json) ctx.note(ctx.colour.dim(`Listening on ${ctx.server}${after ? ` after #${after}` : ''}; Ctrl-C stops.`));
  try {
    for await (const frame of api.events.stream({
      after,
      signal: controller.signal,
      handshakes: true,
      onReconnect: ({ delayMs }) => ctx.note(ctx.colour.dim(`Disconnected; reconnecting in ${Math.round(delayMs / 100) / 10}s`)),
    })) {
      const f = frame as Frame;
      if (f.type === 'connected') {
        ctx.note(ctx.colour.dim(`connected at ${f.at}`));
        continue;
      }
      ctx.store.updateSettings(ctx.profile, { lastEventId: String(f.eventId) });
      if (opts.type?.length && !opts.type.includes(f.type)) continue;
      if (ctx.json) ctx.jsonLine(f);
      else ctx.line(humanLine(ctx.colour, f));
      if (opts.count && ++printed >= opts.count) break;
    }
  } finally {
    unsubscribe();
  }
}

export function register(program: Command): void {
  example(
    program
      .command('events')
      .description('Tail your event stream: a line per frame, or one JSON frame per line with --json')
      .option('--after <eventId>', 'start after this event (replays what is kept since)')
      .option('--resume', 'start after the last event this profile printed')
      .option('--count <n>', 'stop after this many frames', (v) => Number(v))
      .option('--type <type>', 'only frames of this type (repeatable)', (v: string, prev: string[] = []) => [...prev, v])
      .action(run(async (ctx, _a, opts) => tail(ctx, opts))),
    ['intro events', 'intro events --resume --json', 'intro events --after 0 --type negotiation.turn --count 1'],
  );
}
