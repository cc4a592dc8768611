import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import autocannon from 'autocannon';
import { freePort } from '../fakes/ports';

/** What one autocannon run measured. */
export interface Load {
  requestsPerSecond: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
}

/** A Node process of ours (the built service, or a ceiling server), answering once `/healthz` does. */
export async function startNode(
  script: string,
  env: Record<string, string>,
): Promise<{ url: string; child: ChildProcess; stop(): Promise<void> }> {
  const port = await freePort();
  // BENCH_PROFILE_DIR=<dir>: each process writes a V8 CPU profile there when it stops (for a profiler's view of a case).
  const profile = process.env.BENCH_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`] : [];
  const child = spawn(process.execPath, [...profile, script], {
    env: { PATH: process.env.PATH ?? '', ...env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let attempt = 0; attempt < 300; attempt += 1) {
    if (
      await fetch(`${url}/healthz`).then(
        (res) => res.ok,
        () => false,
      )
    ) {
      return {
        url,
        child,
        stop: () =>
          new Promise<void>((resolve) => {
            child.once('exit', () => resolve());
            child.kill('SIGTERM');
          }),
      };
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`${path.basename(script)} did not start`);
}

/** Runs `use` against a node process of ours (see startNode) and stops the process afterwards, whatever happens. */
export async function whileRunning<T>(script: string, env: Record<string, string>, use: (url: string) => Promise<T>): Promise<T> {
  const node = await startNode(script, env);
  try {
    return await use(node.url);
  } finally {
    await node.stop();
  }
}

/** The built service's entry point (npm run bench builds it). */
export const SERVER_SCRIPT = path.resolve(__dirname, '../src/server.js');
export const CEILING_SCRIPT = path.resolve(__dirname, 'ceilingServer.js');

/** `connections` clients in a loop for `seconds`, after a warm-up of 2 s that is not counted. */
export async function load(options: {
  url: string;
  connections: number;
  seconds: number;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
}): Promise<Load> {
  const base = {
    url: options.url,
    connections: options.connections,
    method: options.method ?? 'GET',
    headers: options.headers,
    body: options.body,
  };
  await autocannon({ ...base, duration: 2 });
  const result = await autocannon({ ...base, duration: options.seconds });
  return {
    requestsPerSecond: Math.round(result.requests.average),
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

export const round2 = (value: number) => Math.round(value * 100) / 100;
