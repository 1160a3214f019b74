import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BARRIER_MAX_WAIT_MS, InputOrder, MAX_WAIT_MS } from './input-order.ts';

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
