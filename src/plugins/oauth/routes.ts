/**
 * The Next.js route handlers of the sign-in routes. Next.js serves routes only
 * from src/app, so the files under src/app/(payload)/login/[provider] re-export
 * these; each one finds the Payload instance (and through it this plugin's
 * options) and calls the flow.
 */
import config from '@payload-config'
import { getPayload } from 'payload'

import { finishSignIn, startSignIn, unlinkProvider } from './flow'

type Context = { params: Promise<{ provider: string }> }

/** GET /login/<provider>: sign in with the provider; with `?intent=link` (the profile's "Link"), link it to the signed-in account. */
export async function signInRoute(request: Request, { params }: Context): Promise<Response> {
  return startSignIn(await getPayload({ config }), request, (await params).provider)
}

/** GET /login/<provider>/callback: where the provider sends the browser back (BASE_URL/login/<provider>/callback). */
export async function callbackRoute(request: Request, { params }: Context): Promise<Response> {
  return finishSignIn(await getPayload({ config }), request, (await params).provider)
}

/** POST /login/<provider>/unlink: the profile's "Unlink" button. */
export async function unlinkRoute(request: Request, { params }: Context): Promise<Response> {
  return unlinkProvider(await getPayload({ config }), request, (await params).provider)
}
