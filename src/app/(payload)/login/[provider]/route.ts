// Sign in with a provider: the handler is the oauth plugin's (src/plugins/oauth/routes.ts).
export { signInRoute as GET } from '../../../../plugins/oauth/routes'
