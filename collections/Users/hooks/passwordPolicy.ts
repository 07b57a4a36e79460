import { ValidationError, type CollectionBeforeOperationHook } from 'payload'

import { passwordProblem } from '../../../src/lib/password'

const SETS_PASSWORD = new Set(['create', 'update', 'updateByID', 'resetPassword'])

/**
 * The one password policy on every path that sets a password: registration,
 * REST/GraphQL/Local API updates, the admin, and reset links. Payload's own
 * check only wants three characters.
 */
export const enforcePasswordPolicy: CollectionBeforeOperationHook = ({ args, operation }) => {
  if (!SETS_PASSWORD.has(operation)) return args
  const password = (args as { data?: { password?: unknown } }).data?.password
  if (password === undefined || password === null || password === '') return args
  const problem = passwordProblem(password)
  if (problem) throw new ValidationError({ collection: 'users', errors: [{ path: 'password', message: problem }] })
  return args
}
