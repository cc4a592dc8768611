import type { AppContext } from '../../src/context';
import { runCli } from '../../src/cli/run';

export interface CliResult {
  code: number;
  out: string[];
  err: string[];
}

/** Runs one command line in-process against the test app's database and collects what it printed. */
export async function cli(ctx: AppContext, ...argv: string[]): Promise<CliResult> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, { out: (line) => out.push(line), err: (line) => err.push(line) }, { ctx });
  return { code, out, err };
}

/** The last line a command printed on stdout: where `tokens create` puts the token. */
export function lastLine(lines: string[]): string {
  return lines[lines.length - 1] ?? '';
}
