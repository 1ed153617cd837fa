import WebSocket from 'ws';
import type { ServiceProcess } from '../helpers/service-process';

/**
 * The live heap of a service process started with `--inspect=127.0.0.1:0`, measured after a
 * full collection through the inspector protocol. Resident memory alone swings by a tenth from
 * one sample to the next as V8 sizes its heap to the load, so it cannot tell a leak from noise;
 * what survives a full collection can.
 */
export async function liveHeapAfterGc(proc: ServiceProcess): Promise<number> {
  const url = /ws:\/\/127\.0\.0\.1:\d+\/[\w-]+/.exec(proc.stderr())?.[0];
  if (!url) throw new Error(`the service prints no inspector address; stderr: ${proc.stderr().slice(-500)}`);
  const ws = new WebSocket(url);
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  let next = 0;
  const send = (method: string, params: object = {}) =>
    new Promise<any>((resolve, reject) => {
      const id = ++next;
      const onMessage = (data: WebSocket.RawData) => {
        const msg = JSON.parse(data.toString());
        if (msg.id !== id) return;
        ws.off('message', onMessage);
        if (msg.error) reject(new Error(msg.error.message));
        else resolve(msg.result);
      };
      ws.on('message', onMessage);
      ws.send(JSON.stringify({ id, method, params }));
    });
  try {
    await send('HeapProfiler.collectGarbage');
    const r = await send('Runtime.evaluate', { expression: 'process.memoryUsage().heapUsed', returnByValue: true });
    return Number(r.result.value);
  } finally {
    ws.close();
  }
}
