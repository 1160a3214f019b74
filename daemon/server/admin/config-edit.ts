import { AdminError, type AdminBackend } from '../../../admin-api/backend.ts';
import type { AdminParts } from './parts.ts';

/** config(), editConfig(): TODO (issue 6) */
export function configPart(parts: AdminParts): Pick<AdminBackend, 'config' | 'editConfig'> {
  return {
    config: () => ({ file: parts.config.file, values: { ...parts.config.get() }, editable: { contentSecurityPolicy: '', frameAncestors: [], postAllowHosts: [], wopiHosts: [] } }),
    editConfig: () => Promise.reject(new AdminError('no_config_file', 'not implemented yet')),
  };
}
