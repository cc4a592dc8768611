import type { Clock } from '../../src/time';

/** A clock tests move by hand. */
export class TestClock implements Clock {
  private current: Date;

  constructor(start: string | Date = '2026-11-21T10:00:00Z') {
    this.current = new Date(start);
  }

  now(): Date {
    return new Date(this.current);
  }

  set(to: string | Date): void {
    this.current = new Date(to);
  }

  advance(milliseconds: number): void {
    this.current = new Date(this.current.getTime() + milliseconds);
  }
}
