// What a process that serves the faces mounts: their module, and the cookie, CSRF and form plugins their pages need.
export * from './faces.module';
export * from './kit/web-plugins';
