import type { FastifyReply } from 'fastify';

/** Why a request's work was stopped: its client closed the connection (or the server's timeout did) before the answer. */
export class ClientGone extends Error {
  constructor() {
    super('the client closed the connection before the answer was sent');
    this.name = 'ClientGone';
  }
}

/**
 * Aborted once the response's connection closes before the answer was written, so long work for a
 * client that went away stops instead of running on with no one to answer.
 */
export function abortedWhenClientGoes(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) controller.abort(new ClientGone());
  });
  return controller.signal;
}
