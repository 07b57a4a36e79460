/**
 * A session switched by the debug-only user switcher (src/plugins/userSwitch)
 * is the browsed-as user with `switchedFrom` naming who is really there. Read
 * here by every feature that refuses such a session something: it browses and
 * acts as the user (every act logged), but never takes their credentials:
 * no access tokens, no password or e-mail change, no sign-in provider linked
 * or unlinked.
 */
export type SwitchedFrom = { id: number; name: string }

export function switchedFrom(user: unknown): SwitchedFrom | undefined {
  return (user as { switchedFrom?: SwitchedFrom } | null | undefined)?.switchedFrom
}
