import type { PayloadRequest } from 'payload'

type Args = { req?: PayloadRequest; token?: string; user?: { name?: string | null } } | undefined

/** What the password-reset mail needs, from the arguments Payload gives its forgot-password templates. */
export async function resetMailArgs(args: Args, baseUrl: string) {
  const settings = args?.req
    ? await args.req.payload.findGlobal({ slug: 'site-settings', depth: 0, overrideAccess: true, req: args.req })
    : undefined
  return {
    siteName: (settings as { siteName?: string } | undefined)?.siteName || 'Inkwell',
    baseUrl,
    token: args?.token ?? '',
    name: args?.user?.name,
  }
}
