// The entry of a structure worker thread (engine-pool.ts): worker threads do not inherit the daemon's tsx
// loader, so the worker registers it before importing the TypeScript task module.
import { register } from 'tsx/esm/api';

register();
const tasks = await import('./engine-tasks.ts');
export default tasks.default;
