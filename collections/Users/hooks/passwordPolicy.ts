import { ValidationError, type CollectionBeforeOperationHook } from 'payload'

import { passwordProblem } from '../../../src/lib/password'
import { validationTranslator } from '../../../src/lib/i18n/request'

const SETS_PASSWORD = new Set(['create', 'update', 'updateByID', 'resetPassword'])

/**
 * The one password policy on every path that sets a password: registration,
 * REST/GraphQL/Local API updates, the admin, and reset links. Payload's own
 * check only wants three characters.
 */
export const enforcePasswordPolicy: CollectionBeforeOperationHook = ({ args, operation, req }) => {
  if (!SETS_PASSWORD.has(operation)) return args
  const password = (args as { data?: { password?: unknown } }).data?.password
  if (password === undefined || password === null || password === '') return args
  const problem = passwordProblem(password, validationTranslator(req))
  if (problem) throw new ValidationError({ collection: 'users', errors: [{ path: 'password', message: problem }] })
  return args
}
