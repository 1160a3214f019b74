import { OdeError } from '../errors.ts';
import type { Handler } from './context.ts';

/** GET /hosting/discovery. */
export const discovery: Handler = () => {
  throw new OdeError('not_found', 'discovery is not ready');
};

/** GET /hosting/capabilities. */
export const capabilities: Handler = () => {
  throw new OdeError('not_found', 'capabilities are not ready');
};
