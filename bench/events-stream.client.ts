/**
 * The client side of bench/events-stream.bench.ts, run as a child process so the service's
 * memory and file descriptors are its own. It opens SSE streams, parses frames and records, for
 * each `bench.frame`, the time from its `sentAt` (set by the writer) to its arrival here.
 */
import http from 'node:http';

interface OpenCmd {
  cmd: 'open';
  url: string;
  tokens: string[];
  concurrency: number;
}
type Cmd = OpenCmd | { cmd: 'collect' } | { cmd: 'close' };

const now = () => performance.timeOrigin + performance.now();
const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
const open: http.ClientRequest[] = [];
let latencies: number[] = [];
let lastArrival = 0;
let received = 0;

function openOne(url: string, token: string): Promise<boolean> {
  return new Promise((resolve) => {
    const req = http.get(`${url}/api/events`, { agent, headers: { Authorization: `Bearer ${token}`, accept: 'text/event-stream' } });
    let greeted = false;
    let buffer = '';
    req.on('error', () => resolve(greeted));
    req.on('response', (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        return resolve(false);
      }
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let at: number;
        while ((at = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, at);
          buffer = buffer.slice(at + 2);
          const data = block.split('\n').find((l) => l.startsWith('data: '));
          if (!data) continue;
          const frame = JSON.parse(data.slice(6)) as { type: string; sentAt?: number };
          if (frame.type === 'connected' && !greeted) {
            greeted = true;
            resolve(true);
          } else if (frame.type === 'bench.frame' && frame.sentAt) {
            const t = now();
            latencies.push(t - frame.sentAt);
            lastArrival = Math.max(lastArrival, t);
            received += 1;
          }
        }
      });
    });
    open.push(req);
  });
}

async function openAll(c: OpenCmd): Promise<{ opened: number; failed: number }> {
  let next = 0;
  let opened = 0;
  let failed = 0;
  const worker = async () => {
    while (next < c.tokens.length) {
      const token = c.tokens[next++];
      if (await openOne(c.url, token)) opened += 1;
      else failed += 1;
    }
  };
  await Promise.all(Array.from({ length: c.concurrency }, worker));
  return { opened, failed };
}

process.on('message', (m: Cmd) => {
  const reply = (v: unknown) => process.send?.(v);
  if (m.cmd === 'open') void openAll(m).then(reply);
  else if (m.cmd === 'collect') {
    reply({ latencies, received, lastArrival });
    latencies = [];
    received = 0;
    lastArrival = 0;
  } else if (m.cmd === 'close') {
    open.splice(0).forEach((r) => r.destroy());
    reply({ closed: true });
  }
});
process.on('disconnect', () => process.exit(0));
