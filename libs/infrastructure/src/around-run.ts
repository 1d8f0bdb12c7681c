import type { CommandRunner } from './command-runner';

/**
 * A piece composed around a runner (as Emmett composes its command handler): it sees each command on
 * its way in and its outcome on the way out; reads go to the runner as they are.
 */
export function aroundRun(runner: CommandRunner, run: CommandRunner['run'], decideAcross?: CommandRunner['decideAcross']): CommandRunner {
  const composed = Object.create(runner) as CommandRunner;
  composed.run = run;
  if (decideAcross) composed.decideAcross = decideAcross;
  return composed;
}
