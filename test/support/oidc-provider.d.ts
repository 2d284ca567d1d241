// oidc-provider ships no types; the tests use its constructor and its request handler only.
declare module 'oidc-provider' {
  import { type IncomingMessage, type ServerResponse } from 'node:http';

  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
  }
}
