import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';

/** Answers a request and says true, or says false and leaves it to the framework. */
export type FrontRequestHandler = (req: IncomingMessage, res: ServerResponse) => boolean;

/**
 * Puts `front` before the listener the framework installed on its server: a request `front`
 * answers never reaches the framework; every other one does, as before.
 */
export function answerBeforeFramework(server: Server, front: FrontRequestHandler): void {
  const framework = server.listeners('request') as RequestListener[];
  if (framework.length === 0) throw new Error('the framework has not installed its listener yet');
  server.removeAllListeners('request');
  server.on('request', (req, res) => {
    if (front(req, res)) return;
    for (const listener of framework) listener(req, res);
  });
}
