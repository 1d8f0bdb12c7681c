import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { AppConfig, Role } from '@app/config';
import { createHttpApp, type HttpAppOptions, type HttpWing } from '@app/http';
import { facesWing } from '../../web/src';
import { restEdge } from './rest-edge';

export { BODY_LIMIT_BYTES, servedRoutes, type ServedRoute } from '@app/http';

export type AppOptions = HttpAppOptions;

/**
 * The one place the two wings meet (eslint.config.mjs names it): what an HTTP process serves by its ROLE.
 * `rest` is the REST edge alone, `faces` the server-rendered faces alone (docs/operations/scaling.md); `all`
 * and `api` serve both, as they always have, and so does a `worker` or `projector` started here rather than as apps/worker.
 */
export function wingsFor(role: Role): HttpWing[] {
  if (role === 'rest') return [restEdge];
  if (role === 'faces') return [facesWing];
  return [restEdge, facesWing];
}

/** Which of the wings a process of this ROLE serves: what its start-up banner may point to (banner.ts). */
export function servedWings(role: Role): { rest: boolean; faces: boolean } {
  const wings = wingsFor(role);
  return { rest: wings.includes(restEdge), faces: wings.includes(facesWing) };
}

export function createApp(config: AppConfig, options: AppOptions = {}): Promise<NestFastifyApplication> {
  return createHttpApp(config, wingsFor(config.role), options);
}
