/** Where a command writes: stdout for results, stderr for messages; tests collect both in memory. */
export interface CliIo {
  out(line: string): void;
  err(line: string): void;
}

/** A mistake of the person at the keyboard: printed as one line, exit code 1, never a stack. */
export class CliUsageError extends Error {}
