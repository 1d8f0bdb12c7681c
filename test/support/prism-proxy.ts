import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './processes';
import { waitFor } from './wait';

const ROOT = join(__dirname, '..', '..');
const PRISM = join(ROOT, 'node_modules', '@stoplight', 'prism-cli', 'dist', 'index.js');

/** One difference Prism found between an exchange and the document, as its `sl-violations` header lists them. */
export interface PrismViolation {
  location: string[];
  severity: string;
  code: string | number;
  message: string;
}

export interface PrismProxy {
  /** Send requests here instead of to the service: Prism forwards them and answers with the service's answer. */
  url: string;
  stop(): Promise<void>;
}

/**
 * Stoplight Prism (an implementation of OpenAPI independent of ours and of openapi-backend) as a
 * validating proxy in front of the service: it forwards every request, answers with the service's
 * answer, and names each way the request or the answer differs from the document in the
 * `sl-violations` header. `--errors=false`: an invalid request is still forwarded, to see its refusal.
 */
export async function startPrismProxy(document: unknown, upstream: string): Promise<PrismProxy> {
  const folder = await mkdtemp(join(tmpdir(), 'prism-'));
  const file = join(folder, 'openapi.json');
  await writeFile(file, JSON.stringify(document));
  const port = await freePort();
  const child = spawn(process.execPath, [PRISM, 'proxy', file, upstream, '--errors=false', '--host', '127.0.0.1', '--port', String(port)], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', SCARF_ANALYTICS: 'false', NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
    await rm(folder, { recursive: true, force: true });
  };
  try {
    await waitFor(async () => {
      if (child.exitCode !== null) throw new Error(`Prism exited (${child.exitCode}):\n${output}`);
      return output.includes('Prism is listening');
    }, () => `Prism to listen on ${port}: ${output.slice(-500)}`);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: `http://127.0.0.1:${port}`, stop };
}

/** The violations Prism reported on one answer (none when it sent no header). */
export function prismViolations(headers: Headers): PrismViolation[] {
  const header = headers.get('sl-violations');
  return header ? (JSON.parse(header) as PrismViolation[]) : [];
}
