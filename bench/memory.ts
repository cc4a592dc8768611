import { readFileSync } from 'node:fs';

/**
 * The peak resident memory of this process from now on, in MB: the set-up's garbage is collected
 * first (run.ts starts each case with --expose-gc), then the RSS is sampled every 50 ms until stop.
 */
export function peakRssSampler(): { stop(): number } {
  (globalThis as { gc?: () => void }).gc?.();
  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
  return {
    stop() {
      clearInterval(sampler);
      peak = Math.max(peak, process.memoryUsage().rss);
      return Math.round(peak / 1024 / 1024);
    },
  };
}

/** The peak resident memory of another process of ours since it started, in MB (Linux: VmHWM). */
export function peakRssOfProcess(pid: number): number | null {
  try {
    const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Math.round(Number(kb) / 1024) : null;
  } catch {
    return null;
  }
}
