/** The reader-facing and mail strings this plugin adds, in English, for the i18n catalogs. */
export const messages = {
  awaitingModeration: 'Awaiting moderation',
  report: 'Report',
  awaitingModerationNote: 'Only you can see this reply until a moderator approves it.',
  blockedWord: 'This reply contains a word that is not allowed here: “{word}”.',
  onlyInvisible: 'A reply cannot be empty.',
  stateNotYours: 'Only moderators can change the state of a reply.',
  registrationRefused: 'We could not create this account. If you are a person, wait a moment and try again.',
  digestSubject: '{count} replies are waiting for moderation',
  digestLead: 'These replies on {site} are waiting for a moderator:',
  digestLink: 'Open the moderation queue',
} as const

export function message(key: keyof typeof messages, values: Record<string, string | number> = {}): string {
  return messages[key].replace(/\{(\w+)\}/g, (_, name: string) => String(values[name] ?? ''))
}
