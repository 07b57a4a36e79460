/**
 * The data of every queue job, by name. Each feature declares its own jobs
 * here by interface merging, beside the plugin that registers the handler:
 *
 *   declare module '../../jobs/definitions' {
 *     interface JobData { 'translate-slug': { articleId: number } }
 *   }
 *   addJobs(config, { 'translate-slug': { handler: translateSlug, tries: 5 } })
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface JobData {}

export type JobName = keyof JobData & string
