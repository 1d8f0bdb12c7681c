import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { AppConfig } from '@app/config';
import { createHttpApp, type HttpAppOptions } from '@app/http';
import { facesWing } from '../../web/src';
import { restEdge } from './rest-edge';

export { BODY_LIMIT_BYTES, servedRoutes, type ServedRoute } from '@app/http';

export type AppOptions = HttpAppOptions;

/** The HTTP process: the REST edge and the faces, over libs/http's process. */
export function createApp(config: AppConfig, options: AppOptions = {}): Promise<NestFastifyApplication> {
  return createHttpApp(config, [restEdge, facesWing], options);
}
