import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { freePort } from '../../fakes/ports';

const ROOT = path.resolve(__dirname, '../..');
const SERVER = path.join(ROOT, 'dist/src/server.js');
const CLI = path.join(ROOT, 'dist/src/cli.js');

export interface ServiceProcess {
  /** http://127.0.0.1:<port> (HOST instead of 127.0.0.1 when the environment sets it) */
  url: string;
  port: number;
  /** Kills the process at once, mid-request, as a crash or an OOM kill would. */
  crash(): Promise<void>;
  /**
   * Asks it to shut down (SIGTERM, sent before this returns) and resolves with how it exited; a
   * test may act between sending and awaiting.
   */
  stop(): Promise<ServiceExit>;
  /** What it wrote, for a failing test's message. */
  output(): string;
}

export interface ServiceExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ServiceCommand {
  /** What to run instead of the built server of this checkout, e.g. `['npm', 'start']`. */
  command: string[];
  /** Where to run it. */
  cwd: string;
  /** How long it may take to answer /healthz (20 s unless said), e.g. when it builds first. */
  startsWithinMs?: number;
}

/**
 * Starts the built service (`npm run build` first; `npm test` does) as a child process with only the
 * given environment, and resolves once it answers /healthz. With `run`, another command starts it in
 * its own process group (npm does not pass SIGTERM on to the script it runs), and the whole group is
 * signalled, as a supervisor would.
 */
export async function startServiceProcess(env: Record<string, string>, run?: ServiceCommand): Promise<ServiceProcess> {
  if (!run && !existsSync(SERVER)) throw new Error(`${SERVER} is missing: run \`npm run build\` first (npm test does)`);
  const port = await freePort();
  const [command, ...args] = run?.command ?? [process.execPath, SERVER];
  const child: ChildProcess = spawn(command ?? process.execPath, args, {
    cwd: run?.cwd ?? ROOT,
    env: { PATH: process.env.PATH ?? '', PORT: String(port), CRON: 'off', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: run !== undefined,
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const childExited = once(child, 'exit').then(([code, signal]) => ({
    code: code as number | null,
    signal: signal as NodeJS.Signals | null,
  }));
  // With `run`, the service is a grandchild: gone once nothing of its process group is left.
  const exited = run ? childExited.then(async (exit) => (await untilGroupGone(child.pid), exit)) : childExited;
  const signal = (name: NodeJS.Signals) => {
    if (run && child.pid !== undefined) signalGroup(child.pid, name);
    else if (child.exitCode === null && child.signalCode === null) child.kill(name);
  };
  const url = `http://${env.HOST ?? '127.0.0.1'}:${port}`;
  const startsWithinMs = run?.startsWithinMs ?? 20_000;
  const deadline = Date.now() + startsWithinMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the service exited at start: ${output}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      signal('SIGKILL');
      throw new Error(`the service did not start within ${startsWithinMs / 1000} s: ${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url,
    port,
    async crash() {
      signal('SIGKILL');
      await exited;
    },
    stop() {
      signal('SIGTERM');
      return exited;
    },
    output: () => output,
  };
}

/** Signals every process of a group; false when none is left. */
function signalGroup(groupId: number, name: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-groupId, name);
    return true;
  } catch {
    return false;
  }
}

async function untilGroupGone(groupId: number | undefined): Promise<void> {
  while (groupId !== undefined && signalGroup(groupId, 0)) await new Promise((resolve) => setTimeout(resolve, 50));
}

/**
 * Runs the built service with only the given environment until it exits by itself (a refused
 * start); one that starts after all is killed after 20 s, and its code is then null.
 */
export async function runServiceProcess(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const running = runBuilt(SERVER, { PORT: String(await freePort()), CRON: 'off', ...env }, []);
  const timer = setTimeout(() => void running.crash(), 20_000);
  try {
    return await running.exited;
  } finally {
    clearTimeout(timer);
  }
}

/** Runs one command of the built CLI with only the given environment, as an operator would. */
export async function runCliProcess(
  env: Record<string, string>,
  args: string[],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return startCliProcess(env, args).exited;
}

export interface RunningCli {
  /** Kills it at once (SIGKILL), as a crash or an OOM kill would. */
  crash(): Promise<void>;
  exited: Promise<{ code: number | null; stdout: string; stderr: string }>;
}

/** Starts one command of the built CLI without waiting for it, so a test can kill it halfway. */
export function startCliProcess(env: Record<string, string>, args: string[]): RunningCli {
  return runBuilt(CLI, env, args);
}

/** One of the built entry points (server or CLI) with only the given environment, its output collected. */
function runBuilt(script: string, env: Record<string, string>, args: string[]): RunningCli {
  if (!existsSync(script)) throw new Error(`${script} is missing: run \`npm run build\` first (npm test does)`);
  const child = spawn(process.execPath, [script, ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
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
