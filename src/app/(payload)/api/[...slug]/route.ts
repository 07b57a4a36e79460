import config from '@payload-config'
import '@payloadcms/next/css'
import { REST_DELETE, REST_GET, REST_OPTIONS, REST_PATCH, REST_POST, REST_PUT } from '@payloadcms/next/routes'

import { acceptingEveryBodyForm } from '../../../../lib/requestBody'

export const GET = REST_GET(config)
// Form, query-string, JSON and multipart bodies all reach Payload as the forms it reads.
export const POST = acceptingEveryBodyForm(REST_POST(config))
export const DELETE = REST_DELETE(config)
export const PATCH = acceptingEveryBodyForm(REST_PATCH(config))
export const PUT = acceptingEveryBodyForm(REST_PUT(config))
export const OPTIONS = REST_OPTIONS(config)
