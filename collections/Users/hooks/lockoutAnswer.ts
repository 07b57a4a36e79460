import { AuthenticationError, LockedAuth, type CollectionAfterErrorHook } from 'payload'

/**
 * Only an existing account can be locked, so "locked" would tell that an
 * address has an account: over REST it answers exactly as a wrong password
 * does. (The reader site's form says both in one sentence.)
 */
export const lockoutAnswersAsWrongPassword: CollectionAfterErrorHook = ({ error, req }) => {
  if (!(error instanceof LockedAuth)) return
  const alike = new AuthenticationError(req.t)
  return { response: { errors: [{ message: alike.message }] }, status: alike.status }
}
