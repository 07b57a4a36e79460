import { AuthenticationError, LockedAuth, type AfterErrorHook, type CollectionAfterErrorHook } from 'payload'

/**
 * Only an existing account can be locked, so "locked" would tell that an
 * address has an account. hooks/loginTiming.ts refuses a locked account with
 * the unknown-address error before Payload looks; these two cover the lock a
 * parallel attempt sets while a login runs. Over REST it answers exactly as a
 * wrong password does. (The reader site's form says both in one sentence.)
 */
export const lockoutAnswersAsWrongPassword: CollectionAfterErrorHook = ({ error, req }) => {
  if (!(error instanceof LockedAuth)) return
  const alike = new AuthenticationError(req.t)
  return { response: { errors: [{ message: alike.message }] }, status: alike.status }
}

/** The same for GraphQL's `loginUser` (GraphQL errors reach only the config's hooks): message, name and status of a wrong password. */
export const graphqlLockoutAnswersAsWrongPassword: AfterErrorHook = ({ error, graphqlResult, req }) => {
  const original = (error as { originalError?: unknown }).originalError
  if (!graphqlResult || !(original instanceof LockedAuth) || !/^login/.test(String(graphqlResult.path?.[0] ?? ''))) return
  const alike = new AuthenticationError(req.t)
  return { graphqlResult: { ...graphqlResult, message: alike.message, extensions: { ...graphqlResult.extensions, name: alike.name, statusCode: alike.status } } }
}
