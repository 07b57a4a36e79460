import { APIError, type CollectionBeforeOperationHook } from 'payload'

import { validationTranslator } from '../src/lib/i18n/request'

/** Whether a query value (a string, or arrays and objects of them) holds a NUL character. */
export function holdsNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000')
  if (depth > 32 || value === null || typeof value !== 'object') return false
  return Object.entries(value).some(([key, v]) => key.includes('\u0000') || holdsNul(v, depth + 1))
}

/**
 * PostgreSQL text cannot hold NUL, so a `where` that names one
 * (`?where[title][equals]=%00`) failed in the database as a 500. It matches
 * nothing that could be stored; the query is refused with 400, on every path
 * (REST, GraphQL, Local API).
 */
export const refuseNulInQuery: CollectionBeforeOperationHook = ({ args, operation, req }) => {
  if (operation === 'create') return args
  const { where } = args as { where?: unknown }
  if (where !== undefined && holdsNul(where)) throw new APIError(validationTranslator(req)('error.query.nul'), 400, undefined, true)
  return args
}
