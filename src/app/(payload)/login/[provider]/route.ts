import config from '@payload-config'
import { getPayload } from 'payload'

import { startSignIn } from '../../../../lib/oauth/flow'

type Context = { params: Promise<{ provider: string }> }

/** GET: sign in with the provider. POST (the profile's "Link" button): link it to the signed-in account. */
export async function GET(request: Request, { params }: Context): Promise<Response> {
  return startSignIn(await getPayload({ config }), request, (await params).provider)
}

export async function POST(request: Request, { params }: Context): Promise<Response> {
  return startSignIn(await getPayload({ config }), request, (await params).provider)
}
