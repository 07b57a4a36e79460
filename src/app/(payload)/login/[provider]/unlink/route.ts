import config from '@payload-config'
import { getPayload } from 'payload'

import { unlinkProvider } from '../../../../../plugins/oauth/flow'

/** The profile's "Unlink" button. */
export async function POST(request: Request, { params }: { params: Promise<{ provider: string }> }): Promise<Response> {
  return unlinkProvider(await getPayload({ config }), request, (await params).provider)
}
