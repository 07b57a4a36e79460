/**
 * The switcher's API, thin over the strategy (strategy.ts):
 *
 *   GET  /api/user-switch        who you are, who you really are, the users you may pick
 *   POST /api/user-switch        { user }: browse as that user
 *   POST /api/user-switch/back   back to yourself
 *
 * Where the switcher is not active every route answers 404, the same as a
 * route that does not exist. A signed-in user without users.switch gets 403.
 * Every switch and switch back is written to the user-switches log.
 */
import type { Endpoint, PayloadRequest, TypedUser } from 'payload'
import { translatorFor } from '../../lib/i18n/request'

import { isCrossSite, readBody } from '../../lib/accountHttp'
import { errorBody } from '../../lib/errorResponse'
import { expiredSwitchCookie, signSwitch, switchCookie, type SwitcherSettings } from './switchCookie'
import { isActiveFor, ownerSessionOf, switchedFrom, userCan } from './strategy'

const PICK_LIMIT = 50

function answer(body: unknown, status = 200, cookies: string[] = []): Response {
  const headers = new Headers({ 'cache-control': 'no-store' })
  for (const cookie of cookies) headers.append('set-cookie', cookie)
  return Response.json(body, { status, headers })
}

const notFound = () => answer({ errors: [{ message: 'Not Found' }] }, 404)
const secureOf = (req: PayloadRequest) => Boolean(req.payload.collections.users.config.auth.cookies?.secure)

type Owner = { id: number; name: string; sid: string }

/** The person really at the keyboard, if they may switch; else the Response that says why not. */
async function ownerOf(req: PayloadRequest): Promise<Owner | Response> {
  const user = req.user
  if (!user || user.collection !== 'users') return answer({ errors: [{ message: translatorFor(req)('error.switch.signIn') }] }, 401)
  const from = switchedFrom(user)
  const sid = from ? ownerSessionOf(user) : (user as { _sid?: string })._sid
  // The strategy only lets a switch through for a live holder of users.switch.
  const allowed = from ? true : await userCan(req.payload, user as TypedUser, 'users.switch', req)
  if (!allowed || !sid) return answer({ errors: [{ message: translatorFor(req)('error.switch.permission') }] }, 403)
  return { id: from?.id ?? (user.id as number), name: from?.name ?? String((user as { name?: string }).name ?? ''), sid }
}

async function logSwitch(req: PayloadRequest, actor: number, target: number, action: 'switch' | 'back'): Promise<void> {
  await req.payload.create({ collection: 'user-switches', data: { actor, target, action }, overrideAccess: true, depth: 0, req })
  req.payload.logger.info(`user switch: user ${actor} ${action === 'switch' ? 'now browses as' : 'switched back from'} user ${target}`)
}

/** The `user` of a JSON body (a number or digits) or of a form; NaN when absent or malformed. */
async function requestedUser(req: PayloadRequest): Promise<number> {
  let raw: unknown
  if ((req.headers.get('content-type') ?? '').includes('application/json')) {
    raw = ((await req.json!().catch(() => ({}))) as { user?: unknown } | null)?.user
  } else {
    raw = (await readBody(req)).user
  }
  const text = typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? raw.trim() : ''
  return /^\d{1,10}$/.test(text) ? Number(text) : NaN
}

function guarded(settings: SwitcherSettings, handler: (req: PayloadRequest) => Promise<Response>): Endpoint['handler'] {
  return async (req) => {
    if (!isActiveFor(settings, req.headers, req.url)) return notFound()
    if (req.method === 'POST' && isCrossSite(req)) return answer({ errors: [{ message: translatorFor(req)('error.switch.crossSite') }] }, 403)
    return handler(req)
  }
}

export function userSwitchEndpoints(settings: SwitcherSettings): Endpoint[] {
  const state = guarded(settings, async (req) => {
    const owner = await ownerOf(req)
    if (owner instanceof Response) return owner
    const q = typeof req.query?.q === 'string' ? req.query.q.trim().slice(0, 100) : ''
    const { docs } = await req.payload.find({
      collection: 'users',
      where: q ? { or: [{ name: { like: q } }, { email: { like: q } }] } : {},
      select: { name: true, email: true },
      sort: 'name',
      limit: PICK_LIMIT,
      depth: 0,
      overrideAccess: true,
      req,
    })
    const current = req.user!
    return answer({
      current: { id: current.id, name: (current as { name?: string }).name ?? '' },
      switchedFrom: switchedFrom(current) ?? null,
      users: docs.map((u) => ({ id: u.id, name: u.name, email: u.email })),
    })
  })

  const switchTo = guarded(settings, async (req) => {
    const owner = await ownerOf(req)
    if (owner instanceof Response) return owner
    const targetId = await requestedUser(req)
    const target = Number.isSafeInteger(targetId)
      ? await req.payload.findByID({ collection: 'users', id: targetId, depth: 0, overrideAccess: true, disableErrors: true, req })
      : null
    if (!target) return answer(errorBody('user: choose an existing user to switch to.', { user: 'user: choose an existing user to switch to.' }), 400)
    const cookies: string[] = []
    if (target.id === owner.id) {
      cookies.push(expiredSwitchCookie(secureOf(req)))
    } else {
      cookies.push(switchCookie(signSwitch(req.payload.secret, { ownerId: owner.id, sid: owner.sid, targetId: target.id }), secureOf(req)))
    }
    const previous = switchedFrom(req.user) ? (req.user!.id as number) : undefined
    if (previous !== undefined) await logSwitch(req, owner.id, previous, 'back')
    if (target.id !== owner.id) await logSwitch(req, owner.id, target.id, 'switch')
    return answer({ message: target.id === owner.id ? translatorFor(req)('switch.back') : translatorFor(req)('switch.now', { name: target.name }), user: { id: target.id, name: target.name } }, 200, cookies)
  })

  const switchBack = guarded(settings, async (req) => {
    const owner = await ownerOf(req)
    if (owner instanceof Response) return owner
    const cookies = [expiredSwitchCookie(secureOf(req))]
    if (!switchedFrom(req.user)) return answer({ message: translatorFor(req)('switch.already'), user: { id: owner.id, name: owner.name } }, 200, cookies)
    await logSwitch(req, owner.id, req.user!.id as number, 'back')
    return answer({ message: translatorFor(req)('switch.back'), user: { id: owner.id, name: owner.name } }, 200, cookies)
  })

  return [
    { path: '/user-switch', method: 'get', handler: state },
    { path: '/user-switch', method: 'post', handler: switchTo },
    { path: '/user-switch/back', method: 'post', handler: switchBack },
  ]
}
