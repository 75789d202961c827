import { SecurityPaths } from '@cfx/contract/routes.ts';
import { api } from '../../../lib/api.ts';
import type { ExportTicket } from './types.ts';

/** export/apply: a 15-minute download link; with a security code the export holds the full name and ID number. */
export function requestExport(smsCode?: string) {
  return api<ExportTicket>(SecurityPaths.exportApply, smsCode ? { smsCode } : {});
}
