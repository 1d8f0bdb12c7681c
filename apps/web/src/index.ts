import type { HttpWing } from '@app/http';
import { FacesModule } from './faces.module';
import { registerWebPlugins } from './kit/web-plugins';

// What a process that serves the faces mounts: their module, and the cookie, CSRF and upload-form plugins their pages need.
export * from './faces.module';
export * from './kit/web-plugins';

/** The faces as a process serves them (ROLE=faces alone, ROLE=all beside the REST edge). */
export const facesWing: HttpWing = { modules: [FacesModule], plugins: registerWebPlugins };
