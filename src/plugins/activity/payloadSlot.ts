import type { Payload } from 'payload'

/**
 * A value the activity plugin attaches to a Payload instance at init (its
 * view counter, its last-active recorder) and that whoever holds the instance
 * reads back: the web server, the reader site, field hooks. On the instance,
 * not in a module variable, because the Astro bundle has its own copy of
 * every module; the key is Symbol.for(name) so both copies find it.
 */
export function payloadSlot<T>(name: string) {
  const key = Symbol.for(name)
  const slots = (payload: Payload) => payload as unknown as Record<symbol, T | undefined>
  return {
    install: (payload: Payload, value: T): void => void (slots(payload)[key] = value),
    of: (payload: Payload): T | undefined => slots(payload)[key],
  }
}
