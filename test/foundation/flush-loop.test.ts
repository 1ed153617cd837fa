import { FlushLoop } from '../../src/domain/shared/flush-loop';
import { eventually } from '../helpers/eventually';

describe('FlushLoop (batched writes off the request path)', () => {
  const loops: FlushLoop[] = [];
  afterEach(async () => {
    for (const l of loops.splice(0)) await l.stop();
  });

  it('never runs two at once: a flush asked during a run starts after it', async () => {
    const log: string[] = [];
    let release!: () => void;
    let n = 0;
    const loop = new FlushLoop(
      async () => {
        const k = ++n;
        log.push(`start ${k}`);
        if (k === 1) await new Promise<void>((r) => (release = r));
        log.push(`end ${k}`);
      },
      60_000,
    );
    loops.push(loop);
    const first = loop.flush();
    const second = loop.flush();
    await eventually(() => release, 'the first run to start');
    expect(log).toEqual(['start 1']);
    release();
    await second;
    await first;
    expect(log).toEqual(['start 1', 'end 1', 'start 2', 'end 2']);
  });

  it('runs on its timer only while there is something to do', async () => {
    let pending = 0;
    let runs = 0;
    const loop = new FlushLoop(
      async () => {
        runs += 1;
        pending = 0;
      },
      10,
      () => pending > 0,
    );
    loops.push(loop);
    pending = 3;
    await eventually(() => runs === 1, 'the timer to run the work');
    await new Promise((r) => setTimeout(r, 50));
    expect(runs).toBe(1);
  });

  it('goes on after a run that failed, and stop() runs a last time', async () => {
    let runs = 0;
    const loop = new FlushLoop(async () => {
      runs += 1;
      if (runs === 1) throw new Error('store away');
    }, 60_000);
    // Asked while the failing run is still going: it runs all the same.
    const failing = loop.flush();
    const after = loop.flush();
    await expect(failing).rejects.toThrow('store away');
    await after;
    expect(runs).toBe(2);
    await loop.stop();
    expect(runs).toBe(3);
  });
});
