import { Controller, Get, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { CONSOLE_CSS } from './console-css';

/** The consoles' stylesheet, served by us (pages load nothing from elsewhere). */
@ApiExcludeController()
@Controller('assets')
export class AssetsController {
  @Get('console.css')
  stylesheet(@Res() reply: FastifyReply) {
    return reply
      .header('content-type', 'text/css; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .header('x-content-type-options', 'nosniff')
      .send(CONSOLE_CSS);
  }
}
