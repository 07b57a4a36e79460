import config from '@payload-config'
import { getPayload } from 'payload'

import { finishSignIn } from '../../../../../plugins/oauth/flow'

/** Where the provider sends the browser back: BASE_URL/login/<provider>/callback. */
export async function GET(request: Request, { params }: { params: Promise<{ provider: string }> }): Promise<Response> {
  return finishSignIn(await getPayload({ config }), request, (await params).provider)
}
