/**
 * Fields the server owns: their values come from Payload, the database or
 * Inkwell's own hooks, never from a client. Field-level access is the depth at
 * which REST, GraphQL and the Local API (with `overrideAccess: false`) all obey:
 * a value a client sends for them is dropped, and a `where` or `sort` on them
 * answers 400 ("The following path cannot be queried").
 */
import type { Field, FieldAccess } from 'payload'

const never: FieldAccess = () => false

/** Written only by the server; readable as usual. */
export const serverWritten = { create: never, update: never }

/** Neither written nor read (nor queried, nor sorted on) by any client. */
export const serverSecret = { read: never, create: never, update: never }

/**
 * Payload adds createdAt/updatedAt only when a collection does not define them;
 * defining them here (with Payload's own shape: an indexed date hidden in the
 * admin) adds the access rule without changing the schema. A reply "dated
 * 2099" would otherwise pin its article to the top of "latest replies".
 */
export function timestampFields(): Field[] {
  return (['updatedAt', 'createdAt'] as const).map((name) => ({
    name,
    type: 'date',
    index: true,
    admin: { disableBulkEdit: true, hidden: true },
    label: ({ t }: { t: (key: string) => string }) => t(`general:${name}`),
    access: serverWritten,
  })) as Field[]
}

/**
 * Payload's authentication fields, re-declared by name only to tighten their
 * access: Payload merges a collection's field of the same name into its own
 * definition. Out of the box `sessions` is readable (and so queryable) by an
 * anonymous visitor, since its rule compares `user?.id` with `doc?.id` and both
 * are undefined when a query is validated, which lets anyone recover session
 * ids bit by bit with `where[author.sessions.id][like]`; `_verified` is
 * readable and writable by any signed-in user. (`salt` and `hash` are reserved
 * names Payload itself keeps out of queries.)
 */
export function authSecretFields(auth: AuthOptions): Field[] {
  const secret = (name: string, type: 'text' | 'date' | 'number' | 'checkbox'): Field =>
    ({ name, type, access: serverSecret }) as Field
  // Only the fields Payload adds for this auth configuration: a name it does not
  // add would become a new column instead of a merged definition.
  return [
    secret('resetPasswordToken', 'text'),
    secret('resetPasswordExpiration', 'date'),
    // Payload's defaults: a 15 s interval between reset requests, 5 attempts, sessions on.
    ...(auth.forgotPassword?.minRequestInterval !== 0 ? [secret('resetPasswordRequestedAt', 'date')] : []),
    ...(auth.verify ? [secret('_verified', 'checkbox'), secret('_verificationToken', 'text')] : []),
    ...(auth.maxLoginAttempts !== 0 ? [secret('loginAttempts', 'number'), secret('lockUntil', 'date')] : []),
    ...(auth.useSessions !== false ? [{ name: 'sessions', type: 'array', access: serverSecret, fields: [] } as Field] : []),
  ]
}

type AuthOptions = { verify?: unknown; maxLoginAttempts?: number; useSessions?: boolean; forgotPassword?: { minRequestInterval?: number } }
