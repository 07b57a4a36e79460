/** What the accounts plugin needs from the typed configuration (src/lib/env.ts), in its own file so no two modules import each other. */
export type AccountsOptions = {
  secureCookies: boolean
  baseUrl: string
  avatarMaxBytes: number
  verifyEmail: boolean
  /** Absolute lifetime of a sign-in (SESSION_MAX_AGE). */
  sessionMaxAgeSeconds: number
}
