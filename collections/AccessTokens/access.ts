import type { Access } from 'payload'

import { ownsOr } from '../../src/access'
import { requestToken } from '../../src/plugins/accessTokens/tokens'

/** A token never makes or changes tokens: a leaked token cannot mint itself a successor or widen its scope. */
const notByToken =
  (access: Access): Access =>
  (args) =>
    requestToken(args.req) ? false : access(args)

/** A signed-in user (by password or session) makes tokens for themself. */
export const createOwnToken: Access = notByToken(({ req }) => Boolean(req.user && req.user.collection === 'users'))

/** Holders of `users.manage` see and revoke anyone's tokens (a leaked one, say); everyone else their own. */
export const ownTokensOrManager = ownsOr('users.manage', 'user')

export const renameOwnToken: Access = notByToken(ownsOr('users.manage', 'user'))
