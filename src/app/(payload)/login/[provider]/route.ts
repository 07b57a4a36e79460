import config from '@payload-config'
import { getPayload } from 'payload'

import { startSignIn } from '../../../../plugins/oauth/flow'

type Context = { params: Promise<{ provider: string }> }

/** Sign in with the provider; with `?intent=link` (the profile's "Link"), link it to the signed-in account. */
export async function GET(request: Request, { params }: Context): Promise<Response> {
  return startSignIn(await getPayload({ config }), request, (await params).provider)
}
