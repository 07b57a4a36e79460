/**
 * Credentials never reach a log line: the `access_token` query parameter
 * (URLs end up in logs, which is why it is the less safe form) and the value
 * of Bearer/JWT authorization are replaced by [REDACTED].
 */
const ACCESS_TOKEN_PARAMETER = /(access_token=)[^&\s"'#<>]+/gi
const AUTHORIZATION_VALUE = /\b(Bearer|JWT) [A-Za-z0-9._~+/=-]+/g
const BARE_TOKEN = /\biwt_[a-z0-9]{12}_[A-Za-z0-9_-]+/g

/** Whether a text may hold any of the above (the log's hot path: most lines hold none, and skip three replaces). */
const MAY_HOLD_CREDENTIAL = /access_token=|Bearer |JWT |iwt_/i

export function redactCredentials(text: string): string {
  if (!MAY_HOLD_CREDENTIAL.test(text)) return text
  return text.replace(ACCESS_TOKEN_PARAMETER, '$1[REDACTED]').replace(AUTHORIZATION_VALUE, '$1 [REDACTED]').replace(BARE_TOKEN, 'iwt_[REDACTED]')
}

/** Every string inside a log record (message, error message and stack, URLs), redacted; other values kept. */
export function redactLogValue(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redactCredentials(value)
  if (depth > 4 || value === null || typeof value !== 'object') return value
  if (value instanceof Error) {
    const copy = new Error(redactCredentials(value.message))
    copy.name = value.name
    copy.stack = value.stack && redactCredentials(value.stack)
    return copy
  }
  // Copied only when something in it changed: a request's line holds no credential, and is logged as it is.
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined
    value.forEach((v, i) => {
      const redacted = redactLogValue(v, depth + 1)
      if (redacted !== v) (copy ??= [...value])[i] = redacted
    })
    return copy ?? value
  }
  let copy: Record<string, unknown> | undefined
  for (const [k, v] of Object.entries(value)) {
    const redacted = redactLogValue(v, depth + 1)
    if (redacted !== v) (copy ??= { ...value })[k] = redacted
  }
  return copy ?? value
}

type LogMethod = (...args: unknown[]) => void

/** pino's `hooks` for Payload's logger: every argument of every log call redacted before it is written. */
export const redactingLogHooks = {
  logMethod(this: unknown, args: unknown[], method: LogMethod) {
    return method.apply(this, args.map((arg) => redactLogValue(arg)))
  },
}
