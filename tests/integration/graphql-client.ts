/**
 * Runs a GraphQL operation the way the Next route does (graphql-http with
 * Payload's schema and validation rules, the request's user resolved from its
 * headers), without a listening server.
 */
import { configToSchema } from '@payloadcms/graphql'
import { createHandler } from 'graphql-http/lib/use/fetch'
import { createPayloadRequest, type Payload } from 'payload'

const schemas = new WeakMap<Payload, ReturnType<typeof configToSchema>>()

export type GraphQLReply = { status: number; data?: Record<string, any> | null; errors?: { message: string }[] }

export async function graphqlRequest(
  { payload, databaseName }: { payload: Payload; databaseName: string },
  query: string,
  headers: Record<string, string> = {},
): Promise<GraphQLReply> {
  if (!schemas.has(payload)) schemas.set(payload, configToSchema(payload.config))
  const { schema, validationRules } = schemas.get(payload)!
  const request = new Request('http://localhost:3000/api/graphql', {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json', accept: 'application/graphql-response+json' },
    body: JSON.stringify({ query }),
  })
  const req = await createPayloadRequest({ config: payload.config, request: request.clone(), payloadInstanceCacheKey: databaseName })
  const response = await createHandler({
    schema,
    context: { req, headers: {} } as never,
    validationRules: (_, args, defaultRules) => defaultRules.concat(validationRules(args)),
  })(request)
  const body = (await response.json()) as GraphQLReply | GraphQLReply['errors']
  // graphql-http answers validation errors as a bare list.
  return { status: response.status, ...(Array.isArray(body) ? { errors: body } : body) }
}
