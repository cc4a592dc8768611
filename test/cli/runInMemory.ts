import type { AppContext } from '../../src/context';
import { runCli } from '../../src/cli/run';

export interface CliResult {
  code: number;
  out: string[];
  err: string[];
}

/** Runs one command line in-process against the test app's database and collects what it printed. */
export async function cli(ctx: AppContext, ...argv: string[]): Promise<CliResult> {
  return cliWithStdin(ctx, '', ...argv);
}

/** As `cli`, with `stdin` as the text on standard input (empty for `cli`). */
export async function cliWithStdin(ctx: AppContext, stdin: string, ...argv: string[]): Promise<CliResult> {
  const out: string[] = [];
  const err: string[] = [];
  const io = { out: (line: string) => out.push(line), err: (line: string) => err.push(line), readStdin: async () => stdin };
  const code = await runCli(argv, io, { ctx });
  return { code, out, err };
}

/** The last line a command printed on stdout: where `tokens create` puts the token. */
export function lastLine(lines: string[]): string {
  return lines[lines.length - 1] ?? '';
}
