/** Moved to tests/helpers/restClient.ts (shared by every integration test); kept so existing imports still work. */
export * from '../helpers/restClient'
