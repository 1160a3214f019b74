#!/usr/bin/env node
// The `ode` command. TypeScript sources run through tsx's loader, so the checkout needs no build step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../cli/main.ts');
await main(process.argv);
