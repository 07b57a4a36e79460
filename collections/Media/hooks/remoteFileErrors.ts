import type { AfterErrorHook, CollectionAfterErrorHook } from 'payload'

/**
 * A media file taken from a URL (`url` and `filename` in a create, or the
 * admin's "paste URL") that cannot be fetched is the client's mistake: a host
 * Payload's safe fetch blocks (private or internal addresses), or one that
 * does not answer with the file. Payload reports both as a 500; they answer
 * 400 naming `url`, with the reason.
 */
const BLOCKED = 'Blocked unsafe attempt'
const FAILED = 'Failed to fetch'

function remoteFileProblem(error: unknown): string | undefined {
  const message = error instanceof Error ? error.message : ''
  if (message.includes(BLOCKED)) return 'url: this address is not allowed (it resolves to a private or internal address).'
  if (message.includes(FAILED) || message.includes('There was a problem while retrieving the file')) return 'url: the file could not be fetched from this address.'
  return undefined
}

/** REST: POST /api/media with a url, GET /api/media/paste-url. Payload's error shape, naming the field. */
export const remoteFileErrorsAsBadRequest: CollectionAfterErrorHook = ({ error }) => {
  const problem = remoteFileProblem(error)
  if (!problem) return
  return { response: { errors: [{ name: 'ValidationError', message: problem, data: { errors: [{ path: 'url', message: problem }] } }] }, status: 400 }
}

/** GraphQL (whose errors reach only the config's hooks). */
export const remoteFileErrorsAsBadRequestInGraphQL: AfterErrorHook = ({ error, graphqlResult }) => {
  if (!graphqlResult) return
  const problem = remoteFileProblem((error as { originalError?: unknown }).originalError ?? error)
  if (!problem) return
  return { graphqlResult: { ...graphqlResult, message: problem, extensions: { ...graphqlResult.extensions, name: 'ValidationError', statusCode: 400 } } }
}
