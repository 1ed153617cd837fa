import { notifyChannel, type SqlRunner } from './events.repository';

/**
 * The Postgres channel for short-lived stream data that is not an event-log frame (the pieces
 * of an answer being written, say). Notices are delivered to every instance's listener
 * (EventNotifier.onTopic) and kept nowhere: a stream that is not open misses them.
 */
export const TOPICS_CHANNEL = 'im_topics';

export interface TopicNotice {
  topic: string;
  data: unknown;
}

/** Postgres refuses NOTIFY payloads of 8000 bytes or more. */
export const TOPIC_PAYLOAD_MAX = 7900;

/**
 * Publishes a notice. Inside a transaction it is delivered at commit (and dropped on
 * rollback); outside one, at once. Awaiting each call keeps one publisher's notices in order.
 */
export async function publishTopic(em: SqlRunner, topic: string, data: unknown): Promise<void> {
  const payload = JSON.stringify({ topic, data } satisfies TopicNotice);
  if (Buffer.byteLength(payload) > TOPIC_PAYLOAD_MAX) throw new Error(`topic notice of ${Buffer.byteLength(payload)} bytes is over the ${TOPIC_PAYLOAD_MAX}-byte limit`);
  await notifyChannel(em, TOPICS_CHANNEL, payload);
}
