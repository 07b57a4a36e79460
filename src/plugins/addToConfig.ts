import type { AdminViewConfig, CollectionConfig, Config, Endpoint, GlobalConfig, Plugin } from 'payload'

/** Admin components a plugin adds (import-map paths): lists are appended (or put first), views merged by name. */
export type AdminParts = {
  views?: Record<string, AdminViewConfig>
  afterNavLinks?: string[]
  /** Put before the other plugins' links (the dashboard's: it is the admin's home). */
  firstNavLinks?: string[]
  beforeDashboard?: string[]
  header?: string[]
}

/** The shape Inkwell plugins share: add collections, globals, endpoints and admin components to the config. */
export function addToConfig(parts: { collections?: CollectionConfig[]; globals?: GlobalConfig[]; endpoints?: Endpoint[]; admin?: AdminParts }): Plugin {
  return (config: Config): Config => {
    const components = config.admin?.components ?? {}
    const admin = parts.admin ?? {}
    return {
      ...config,
      collections: [...(config.collections ?? []), ...(parts.collections ?? [])],
      globals: [...(config.globals ?? []), ...(parts.globals ?? [])],
      endpoints: [...(config.endpoints ?? []), ...(parts.endpoints ?? [])],
      admin: {
        ...config.admin,
        components: {
          ...components,
          views: { ...components.views, ...admin.views },
          afterNavLinks: [...(admin.firstNavLinks ?? []), ...(components.afterNavLinks ?? []), ...(admin.afterNavLinks ?? [])],
          beforeDashboard: [...(components.beforeDashboard ?? []), ...(admin.beforeDashboard ?? [])],
          header: [...(components.header ?? []), ...(admin.header ?? [])],
        },
      },
    }
  }
}
