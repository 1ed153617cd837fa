import type { EventFrame } from '@intro-match/client';
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { api, ApiError } from './api';
import { useAuth } from './auth';

export type Frame = Exclude<EventFrame, { type: 'connected' }>;
type Listener = (frame: Frame) => void;

interface EventsState {
  /** connecting until the first connection answers; reconnecting after a drop (it resumes with Last-Event-ID). */
  connection: 'off' | 'connecting' | 'live' | 'reconnecting';
  /** Frames worth a person's attention since they last looked at Activity. */
  unseen: number;
  /** The frames received in this tab, newest first. */
  recent: Frame[];
  markSeen(): void;
  subscribe(listener: Listener): () => void;
}

const EventsContext = createContext<EventsState | null>(null);

/** What counts toward the badge: everything but my own writes echoing back. */
function notable(frame: Frame, myId: string | undefined): boolean {
  if (frame.type === 'message') {
    const m = (frame as { message: { senderId: string | null; metadata?: { questionId?: unknown } } }).message;
    // A question from the agent arrives twice (its message and question.pending): it counts once.
    return m.senderId !== myId && !m.metadata?.questionId;
  }
  if (frame.type === 'principal.input' || frame.type === 'intent.created' || frame.type === 'intent.lifecycle') return false;
  return true;
}

/**
 * The tab's one event-stream connection (GET /api/events through the typed client, which
 * reconnects after a back-off with Last-Event-ID). Every view subscribes to it instead of opening
 * its own, and the header's badge counts what arrived since Activity was last opened.
 */
export function EventsProvider({ children }: { children: ReactNode }) {
  const { status, me, refresh } = useAuth();
  const listeners = useRef(new Set<Listener>());
  const [connection, setConnection] = useState<EventsState['connection']>('off');
  const [unseen, setUnseen] = useState(0);
  const [recent, setRecent] = useState<Frame[]>([]);
  const myId = me?.id;

  useEffect(() => {
    if (status !== 'signed-in') {
      setConnection('off');
      return;
    }
    const controller = new AbortController();
    setConnection('connecting');
    (async () => {
      try {
        const frames = api.events.stream({
          signal: controller.signal,
          handshakes: true,
          backoff: { initialMs: 1000, maxMs: 15_000 },
          onReconnect: () => setConnection('reconnecting'),
        });
        for await (const frame of frames) {
          setConnection('live');
          if (frame.type === 'connected') continue;
          const f = frame as Frame;
          setRecent((r) => [f, ...r].slice(0, 100));
          if (notable(f, myId)) setUnseen((n) => n + 1);
          for (const l of [...listeners.current]) {
            try {
              l(f);
            } catch (err) {
              console.warn('event listener failed', err);
            }
          }
        }
      } catch (err) {
        if (controller.signal.aborted) return;
        setConnection('off');
        if (err instanceof ApiError && err.status === 401) await refresh().catch(() => undefined);
      }
    })();
    return () => controller.abort();
  }, [status, myId, refresh]);

  const subscribe = useCallback((l: Listener) => {
    listeners.current.add(l);
    return () => {
      listeners.current.delete(l);
    };
  }, []);
  const markSeen = useCallback(() => setUnseen(0), []);
  const value = useMemo(() => ({ connection, unseen, recent, markSeen, subscribe }), [connection, unseen, recent, markSeen, subscribe]);
  return <EventsContext.Provider value={value}>{children}</EventsContext.Provider>;
}

export function useEvents(): EventsState {
  const ctx = useContext(EventsContext);
  if (!ctx) throw new Error('useEvents outside EventsProvider');
  return ctx;
}

/** Calls `handler` for every frame while the component is mounted (the latest handler each time). */
export function useFrames(handler: (frame: Frame) => void): void {
  const { subscribe } = useEvents();
  const ref = useRef(handler);
  ref.current = handler;
  useEffect(() => subscribe((f) => ref.current(f)), [subscribe]);
}

/** The opportunity a frame is about, if any. */
export function opportunityOf(frame: Frame): string | null {
  const data = (frame as { data?: { opportunityId?: string | null } }).data;
  return data?.opportunityId ?? null;
}

/** The intent a frame is about, if any. */
export function intentOf(frame: Frame): string | null {
  const data = (frame as { data?: { intentId?: string | null } }).data;
  return data?.intentId ?? null;
}
