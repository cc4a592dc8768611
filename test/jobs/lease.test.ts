import { acquireLease, holdLease, releaseLease, renewLease } from '../../src/jobs/lease';
import { TEST_DATABASES } from '../support/databases';
import { createTwoContexts, type TwoContexts } from '../support/twoContexts';

describe.each(TEST_DATABASES)('job leases on %s', (kind) => {
  let t: TwoContexts;
  let counter = 0;
  /** A lease name of its own per test: tests share the database. */
  let name: string;

  beforeAll(async () => {
    t = await createTwoContexts(kind);
  });
  afterAll(() => t.close());
  beforeEach(() => {
    counter += 1;
    name = `test-job-${counter}`;
  });

  const leaseRow = (leaseName = name) =>
    t.first.db('job_leases').where({ name: leaseName }).first<{ owner: string | null; expires_at: string | null; acquired_at: string | null }>('owner', 'expires_at', 'acquired_at');

  it('When nobody holds the lease, then the first owner takes it until now plus its length and a second owner cannot', async () => {
    t.clock.set('2026-11-21T10:00:00Z');
    expect(await acquireLease(t.first, name, 'owner-a', 60)).toBe(true);
    expect(await leaseRow()).toEqual({ owner: 'owner-a', expires_at: '2026-11-21 10:01:00', acquired_at: '2026-11-21 10:00:00' });

    t.clock.advance(59_000);
    expect(await acquireLease(t.second, name, 'owner-b', 60)).toBe(false);
    expect((await leaseRow())?.owner).toBe('owner-a');
  });

  it('When the owner asks again while its lease runs, then it does not get it twice', async () => {
    expect(await acquireLease(t.first, name, 'owner-a', 60)).toBe(true);
    expect(await acquireLease(t.first, name, 'owner-a', 60)).toBe(false);
  });

  it('When the lease has expired, then another owner steals it', async () => {
    t.clock.set('2026-11-21T10:00:00Z');
    expect(await acquireLease(t.first, name, 'owner-a', 60)).toBe(true);
    t.clock.advance(60_000);
    expect(await acquireLease(t.second, name, 'owner-b', 60)).toBe(true);
    expect(await leaseRow()).toEqual({ owner: 'owner-b', expires_at: '2026-11-21 10:02:00', acquired_at: '2026-11-21 10:01:00' });
    // The old owner's renewal then finds it lost.
    expect(await renewLease(t.first, name, 'owner-a', 60)).toBe(false);
  });

  it('When the owner renews, then the expiry moves on and nobody can steal it at the old expiry', async () => {
    t.clock.set('2026-11-21T10:00:00Z');
    await acquireLease(t.first, name, 'owner-a', 60);
    t.clock.advance(40_000);
    expect(await renewLease(t.first, name, 'owner-a', 60)).toBe(true);
    expect((await leaseRow())?.expires_at).toBe('2026-11-21 10:01:40');
    t.clock.advance(30_000);
    expect(await acquireLease(t.second, name, 'owner-b', 60)).toBe(false);
    // Renewing at the same instant still counts as ours (affected rows are matched rows on MySQL too).
    expect(await renewLease(t.first, name, 'owner-a', 60)).toBe(true);
    expect(await renewLease(t.first, name, 'owner-a', 60)).toBe(true);
  });

  it('When the owner releases, then another owner takes it at once; a release by a non-owner changes nothing', async () => {
    await acquireLease(t.first, name, 'owner-a', 60);
    await releaseLease(t.second, name, 'owner-b');
    expect((await leaseRow())?.owner).toBe('owner-a');
    await releaseLease(t.first, name, 'owner-a');
    expect(await leaseRow()).toMatchObject({ owner: null, expires_at: null });
    expect(await acquireLease(t.second, name, 'owner-b', 60)).toBe(true);
  });

  it('When a lease is held, then it is renewed on a timer while the holder works, and released at the end', async () => {
    t.clock.set('2026-11-21T10:00:00Z');
    // 0.3 s: renewed every 100 ms of real time.
    const held = await holdLease(t.first, name, 'owner-a', 0.3);
    expect(held).not.toBeNull();
    t.clock.set('2026-11-21T11:00:00Z');
    await new Promise((resolve) => setTimeout(resolve, 250));
    // expires_at = 11:00:00 + 0.3 s, stored to the second.
    expect((await leaseRow())?.expires_at).toBe('2026-11-21 11:00:00');
    expect(held?.signal.aborted).toBe(false);
    await held?.release();
    expect((await leaseRow())?.owner).toBeNull();
  });

  it('When a held lease is taken over after it expired, then the renewal notices, aborts the signal and logs it', async () => {
    t.clock.set('2026-11-21T10:00:00Z');
    const held = await holdLease(t.first, name, 'owner-a', 0.3);
    // Renewals stall (a long pause of the process): the lease runs out and another instance takes it.
    t.clock.advance(5_000);
    expect(await acquireLease(t.second, name, 'owner-b', 60)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(held?.signal.aborted).toBe(true);
    expect(t.logs.lines.some((line) => line.includes('job lease lost while running') && line.includes(name))).toBe(true);
    // Releasing a lost lease leaves the new owner's lease alone.
    await held?.release();
    expect((await leaseRow())?.owner).toBe('owner-b');
  });
});
