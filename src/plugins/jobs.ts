import type { Config, Plugin } from 'payload'

import { installAfterCommit } from '../../jobs/afterCommit'

/** Background work: lets jobs run after the writing transaction commits, in every Payload instance. */
export const jobsPlugin = (): Plugin => (config: Config): Config => ({
  ...config,
  onInit: async (payload) => {
    await config.onInit?.(payload)
    installAfterCommit(payload, (error) => payload.logger.error({ err: error }, 'background job failed'))
  },
})
