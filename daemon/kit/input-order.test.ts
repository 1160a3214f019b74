import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BARRIER_MAX_WAIT_MS, FENCE_MAX_MS, InputOrder, MAX_WAIT_MS } from './input-order.ts';

describe('InputOrder: synchronous LOK calls wait for posted input', () => {
  let clock = 0;
  let order: InputOrder;
  beforeEach(() => {
    vi.useFakeTimers();
    clock = 0;
    order = new InputOrder(() => clock);
  });
  afterEach(() => vi.useRealTimers());
  const advance = async (ms: number) => {
    for (let i = 0; i < ms; i++) {
      clock += 1;
      await vi.advanceTimersByTimeAsync(1);
    }
  };

  it('runs a UNO command at once when no input is pending', () => {
    const ran: string[] = [];
    order.run(() => ran.push('bold'), true);
    expect(ran).toEqual(['bold']);
  });

  it('holds a UNO command after a posted key until LibreOffice has called back and gone quiet, keeping the order of later input', async () => {
    const ran: string[] = [];
    order.run(() => (ran.push('key'), order.posted()), false);
    order.run(() => ran.push('bold'), true);
    order.run(() => ran.push('key2'), false);
    expect(ran).toEqual(['key']);
    await advance(10);
    expect(ran).toEqual(['key']);
    order.callbackArrived();
    await advance(3);
    expect(ran).toEqual(['key']); // LibreOffice may still be running the rest of the posted events
    await advance(10);
    expect(ran).toEqual(['key', 'bold', 'key2']);
  });

  it('gives up waiting after MAX_WAIT_MS when the key had no visible effect', async () => {
    const ran: string[] = [];
    order.run(() => (ran.push('shift'), order.posted()), false);
    order.run(() => ran.push('save'), true);
    await advance(MAX_WAIT_MS - 5);
    expect(ran).toEqual(['shift']);
    await advance(10);
    expect(ran).toEqual(['shift', 'save']);
  });

  it('a barrier (save, snapshot) waits past MAX_WAIT_MS for LibreOffice to call back, and for a longer quiet after it', async () => {
    const ran: string[] = [];
    order.run(() => (ran.push('key'), order.posted()), false);
    order.run(() => ran.push('save'), 'barrier');
    await advance(MAX_WAIT_MS + 20);
    expect(ran).toEqual(['key']); // a loaded machine: no callback yet, the key may still be queued
    order.callbackArrived();
    await advance(20);
    expect(ran).toEqual(['key']); // the rest of the posted keys may still run
    await advance(60);
    expect(ran).toEqual(['key', 'save']);
  });

  it('a barrier after a key with no visible effect runs after BARRIER_MAX_WAIT_MS', async () => {
    const ran: string[] = [];
    order.run(() => (ran.push('key'), order.posted()), false);
    order.run(() => ran.push('save'), 'barrier');
    await advance(BARRIER_MAX_WAIT_MS - 10);
    expect(ran).toEqual(['key']);
    await advance(20);
    expect(ran).toEqual(['key', 'save']);
  });
});

describe('InputOrder, fence mode: synchronous LOK calls wait for an input fence behind the posted input', () => {
  /** A stand-in for LokDocument.postInputFence: records the fences, the test says when LibreOffice reached each. */
  let fences: Array<() => void>;
  let accept: boolean;
  let order: InputOrder;
  beforeEach(() => {
    vi.useFakeTimers();
    fences = [];
    accept = true;
    order = new InputOrder(undefined, (done) => {
      if (accept) fences.push(done);
      return accept;
    });
  });
  afterEach(() => vi.useRealTimers());

  it('runs a synchronous call at once, without a fence, when nothing was posted', () => {
    const ran: string[] = [];
    order.run(() => ran.push('paste'), true);
    expect(ran).toEqual(['paste']);
    expect(fences).toHaveLength(0);
    expect(order.mode).toBe('fence');
  });

  it('never holds shallow posted input (typed characters, text), however much is pending', () => {
    const ran: string[] = [];
    for (let i = 0; i < 5; i++) order.run(() => (ran.push(`char${i}`), order.posted(false)), false);
    expect(ran).toEqual(['char0', 'char1', 'char2', 'char3', 'char4']);
    expect(fences).toHaveLength(0);
  });

  it('holds posted input behind deep input (an arrow key posts its command as it runs) until the fence is back', async () => {
    const ran: string[] = [];
    order.run(() => (ran.push('left'), order.posted(true)), false);
    order.run(() => (ran.push('e'), order.posted(false)), false);
    order.run(() => (ran.push('f'), order.posted(false)), false);
    await vi.advanceTimersByTimeAsync(5);
    expect(ran).toEqual(['left']);
    expect(fences).toHaveLength(1);
    fences[0]();
    expect(ran).toEqual(['left', 'e', 'f']);
  });

  it('holds a synchronous call after posted keys until the fence comes back, however long that takes, and keeps later input behind it', async () => {
    const ran: string[] = [];
    order.run(() => (ran.push('left'), order.posted()), false);
    order.run(() => ran.push('paste'), true);
    order.run(() => (ran.push('right'), order.posted()), false);
    order.run(() => ran.push('copy'), true);
    await vi.advanceTimersByTimeAsync(5);
    expect(fences).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(2 * BARRIER_MAX_WAIT_MS); // the timing mode would have given up long ago
    expect(ran).toEqual(['left']);
    fences[0]();
    // The paste runs; the right arrow is posted after it, so the copy needs a fence of its own.
    expect(ran).toEqual(['left', 'paste', 'right']);
    await vi.advanceTimersByTimeAsync(1);
    expect(fences).toHaveLength(2);
    fences[1]();
    expect(ran).toEqual(['left', 'paste', 'right', 'copy']);
  });

  it('needs one fence for several synchronous calls in a row, and none once the posted input was seen processed', async () => {
    const ran: string[] = [];
    order.run(() => (ran.push('key'), order.posted()), false);
    order.run(() => ran.push('a'), true);
    order.run(() => ran.push('b'), 'barrier');
    await vi.advanceTimersByTimeAsync(1);
    fences[0]();
    expect(ran).toEqual(['key', 'a', 'b']);
    order.run(() => ran.push('c'), true);
    expect(ran).toEqual(['key', 'a', 'b', 'c']);
    expect(fences).toHaveLength(1);
  });

  it('runs the call when this LibreOffice cannot post a fence', async () => {
    accept = false;
    const ran: string[] = [];
    order.run(() => (ran.push('key'), order.posted()), false);
    order.run(() => ran.push('save'), 'barrier');
    await vi.advanceTimersByTimeAsync(1);
    expect(ran).toEqual(['key', 'save']);
  });

  it('runs the call after FENCE_MAX_MS when the fence never comes back (a hung main loop), and a late fence changes nothing', async () => {
    const write = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const ran: string[] = [];
    order.run(() => (ran.push('key'), order.posted()), false);
    order.run(() => ran.push('save'), 'barrier');
    await vi.advanceTimersByTimeAsync(FENCE_MAX_MS - 10);
    expect(ran).toEqual(['key']);
    await vi.advanceTimersByTimeAsync(20);
    expect(ran).toEqual(['key', 'save']);
    fences[0]();
    expect(ran).toEqual(['key', 'save']);
    write.mockRestore();
  });

  it('a hold keeps every later call queued, fence or not', async () => {
    const ran: string[] = [];
    const release = order.hold();
    order.run(() => ran.push('key'), false);
    await vi.advanceTimersByTimeAsync(5);
    expect(ran).toEqual([]);
    release();
    await vi.advanceTimersByTimeAsync(1);
    expect(ran).toEqual(['key']);
  });
});
