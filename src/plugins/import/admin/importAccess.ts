/**
 * Who may open the import page: holders of `import.run` (the site owner);
 * a visitor who is not signed in is sent to sign in, anyone else refused.
 * The upload itself is refused by the collection (import-reports' access).
 */
import type { PayloadRequest } from 'payload'

import { IMPORT_PERMISSION } from '../../../../collections/ImportReports'
import { hasPermission } from '../../../access/permissions'

export const IMPORT_PAGE_PATH = '/import'

export type ImportPageAccess = 'allowed' | 'sign-in' | 'forbidden'

export const mayImport = (req: PayloadRequest): Promise<boolean> => (req.user ? hasPermission(req, IMPORT_PERMISSION) : Promise.resolve(false))

export async function importPageAccess(req: PayloadRequest): Promise<ImportPageAccess> {
  if (!req.user) return 'sign-in'
  return (await mayImport(req)) ? 'allowed' : 'forbidden'
}
