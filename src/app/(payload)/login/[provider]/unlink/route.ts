// Unlink a provider from the profile: the handler is the oauth plugin's (src/plugins/oauth/routes.ts).
export { unlinkRoute as POST } from '../../../../../plugins/oauth/routes'
