import { Module } from '@nestjs/common';
import { AssetsController } from './assets.controller';
import { CsrfGuard } from './csrf';

/** What the dashboard and the audit console share: the stylesheet and the CSRF check. */
@Module({
  controllers: [AssetsController],
  providers: [CsrfGuard],
  exports: [CsrfGuard],
})
export class WebModule {}
