import type { UpdateInfo } from '../../../admin-api/backend.ts';

/** The update check (spec: Update check): TODO (issue 6) */
export class UpdateChecker {
  /** The cached answer; `refresh` asks again now. */
  get(_refresh: boolean): Promise<UpdateInfo> {
    return Promise.resolve({ configured: false, product: 'Ode', current: '0', newer: false });
  }
}
