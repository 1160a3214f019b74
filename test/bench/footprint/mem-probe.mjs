// Loaded into a kit by test/bench/footprint/kit-memory.ts (`node --import <this> dist/kit.js`), never by the
// product: answers the harness's `{ type: '__memprobe' }` IPC message with the kit's Node-side memory
// (process.memoryUsage, bytes, and V8's heap spaces). The kit itself ignores messages it does not know.
import { getHeapSpaceStatistics } from 'node:v8';

process.on('message', (msg) => {
  if (!msg || typeof msg !== 'object' || msg.type !== '__memprobe') return;
  const spaces = Object.fromEntries(getHeapSpaceStatistics().map((s) => [s.space_name, s.physical_space_size]));
  process.send?.({ type: '__mem', usage: process.memoryUsage(), spaces });
});
