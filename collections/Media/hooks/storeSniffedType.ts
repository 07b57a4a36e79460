import type { CollectionBeforeOperationHook } from 'payload'

import { avatarFileName, sniffAvatar } from '../../../src/lib/avatarImage'

/**
 * An upload is stored under the extension and type its bytes are, not the
 * ones the client named: a PNG/HTML polyglot sent as `page.html` is accepted
 * as the PNG it also is, and stored as `page.png` (a file server or bucket
 * that types files by extension would otherwise serve it as HTML). Before
 * Payload reads the file (every path that carries one: REST, the admin, the
 * Local API).
 */
export const storeSniffedType: CollectionBeforeOperationHook = async ({ args, operation, req }) => {
  if (operation !== 'create' && operation !== 'update' && operation !== 'updateByID') return args
  const file = req.file
  if (!file?.data) return args
  const sniffed = await sniffAvatar(file.data)
  if (sniffed) {
    file.name = avatarFileName(file.name ?? '', sniffed.ext, 'image')
    file.mimetype = sniffed.mime
  }
  return args
}
