// oidc-provider ships no type declarations; this is the small surface the development provider uses.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http'

  export interface ProviderToken {
    clientId?: string
    accountId?: string
  }
  export class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>)
    proxy: boolean
    callback(): (req: IncomingMessage, res: ServerResponse) => void
    on(event: string, listener: (...args: unknown[]) => void): this
  }
  export default Provider
}
