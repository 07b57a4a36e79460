/** The queue console (see src/admin/QueueConsole). A route handler, so that refusals are real 403s. */
import config from '@payload-config'
import { getPayload } from 'payload'

import { handleQueueConsoleAction, renderQueueConsole } from '../../../../admin/QueueConsole/queueConsole'

export const dynamic = 'force-dynamic'

export async function GET(request: Request) {
  return renderQueueConsole(request, await getPayload({ config }))
}

export async function POST(request: Request) {
  return handleQueueConsoleAction(request, await getPayload({ config }))
}
