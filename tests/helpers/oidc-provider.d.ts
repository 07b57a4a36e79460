/** oidc-provider ships no types; the tests use this much of it. */
declare module 'oidc-provider' {
  import type { RequestListener } from 'node:http'

  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>)
    callback(): RequestListener
    on(event: string, listener: (...args: unknown[]) => void): this
  }
}
