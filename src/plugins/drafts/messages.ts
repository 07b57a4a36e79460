/** The reader-site strings this plugin adds (English), gathered for the i18n catalogs. */
export const draftsMessages = {
  previewBanner: 'Preview of the latest saved version. Readers see the published version until this one is published.',
  previewExpired: 'This preview link is invalid or has expired. Open the preview again from the editor.',
} as const
