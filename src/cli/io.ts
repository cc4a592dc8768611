/** Where a command writes: stdout for results, stderr for messages; tests collect both in memory. */
export interface CliIo {
  out(line: string): void;
  err(line: string): void;
  /**
   * Standard input, for values that must stay out of argv and shell history (an API key). On a
   * terminal the person is asked with `prompt` on stderr and one line is read; from a pipe or file,
   * the text up to its first line end.
   */
  readStdin(prompt?: string): Promise<string>;
}

/** A mistake of the person at the keyboard: printed as one line, exit code 1, never a stack. */
export class CliUsageError extends Error {}
