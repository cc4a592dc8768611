import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { freePort } from './ports';

const ROOT = path.resolve(__dirname, '../..');
const SERVER = path.join(ROOT, 'dist/src/server.js');
const CLI = path.join(ROOT, 'dist/src/cli.js');

export interface ServiceProcess {
  /** http://127.0.0.1:<port> */
  url: string;
  /** Kills the process at once, mid-request, as a crash or an OOM kill would. */
  crash(): Promise<void>;
  /** Asks it to shut down (SIGTERM) and waits. */
  stop(): Promise<void>;
  /** What it wrote, for a failing test's message. */
  output(): string;
}


/**
 * Starts the built service (`npm run build` first; `npm test` does) as a child process with only the
 * given environment, and resolves once it answers /healthz.
 */
export async function startServiceProcess(env: Record<string, string>): Promise<ServiceProcess> {
  if (!existsSync(SERVER)) throw new Error(`${SERVER} is missing: run \`npm run build\` first (npm test does)`);
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [SERVER], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', PORT: String(port), CRON: 'off', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = once(child, 'exit');
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the service exited at start: ${output}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the service did not start within 20 s: ${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url,
    async crash() {
      child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
    output: () => output,
  };
}

/** Runs one command of the built CLI with only the given environment, as an operator would. */
export async function runCliProcess(env: Record<string, string>, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return startCliProcess(env, args).exited;
}

export interface RunningCli {
  /** Kills it at once (SIGKILL), as a crash or an OOM kill would. */
  crash(): Promise<void>;
  exited: Promise<{ code: number | null; stdout: string; stderr: string }>;
}

/** Starts one command of the built CLI without waiting for it, so a test can kill it halfway. */
export function startCliProcess(env: Record<string, string>, args: string[]): RunningCli {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first (npm test does)`);
  const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = once(child, 'exit').then(([code]) => ({ code: code as number | null, stdout, stderr }));
  return {
    async crash() {
      child.kill('SIGKILL');
      await exited;
    },
    exited,
  };
}
