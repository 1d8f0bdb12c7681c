import type { Type } from '@nestjs/common';
import type { AppConfig } from '@app/config';

/**
 * The modules a process loads for its ROLE: the projector for `all` and `projector`, the workers
 * (callbacks, scheduled payment work) for `all` and `worker`. A module not loaded does nothing,
 * so no service needs to ask which role it runs in.
 */
export function workerModules(config: AppConfig, modules: { projector: Type; workers: readonly Type[] }): Type[] {
  const projector = config.role === 'all' || config.role === 'projector';
  const workers = config.role === 'all' || config.role === 'worker';
  return [...(projector ? [modules.projector] : []), ...(workers ? modules.workers : [])];
}
