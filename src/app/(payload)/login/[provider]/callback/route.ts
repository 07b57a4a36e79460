// The provider's redirect back: the handler is the oauth plugin's (src/plugins/oauth/routes.ts).
export { callbackRoute as GET } from '../../../../../plugins/oauth/routes'
