import knex, { type Knex } from 'knex';
import { databaseNow, databaseNowPlus } from '../../src/db/databaseTime';
import { acquireLease, holdLease, releaseLease, renewLease, type HeldLease } from '../../src/jobs/lease';
import { TEST_DATABASES } from '../support/databases';
import { createTwoContexts, type TwoContexts } from '../support/twoContexts';

const HOUR = 3_600_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Seconds since the epoch of a `YYYY-MM-DD HH:MM:SS` UTC value. */
const secondsOf = (dateTime: string | null | undefined) => Date.parse(`${String(dateTime).replace(' ', 'T')}Z`) / 1000;

interface LeaseRow {
  owner: string | null;
  expires_at: string | null;
  acquired_at: string | null;
  generation: number;
}

interface LogEntry {
  level: string;
  message: string;
  job?: string;
}

/** Milliseconds from `since` (performance.now()) until the lease's signal aborts. */
const abortedAfter = (held: HeldLease, since: number) =>
  new Promise<number>((resolve) => held.signal.addEventListener('abort', () => resolve(performance.now() - since), { once: true }));

describe.each(TEST_DATABASES)('job leases on %s', (kind) => {
  let t: TwoContexts;
  let counter = 0;
  /** A lease name of its own per test: tests share the database. */
  let name: string;

  beforeAll(async () => {
    t = await createTwoContexts(kind, { ownClocks: true });
  });
  afterAll(() => t.close());
  beforeEach(() => {
    counter += 1;
    name = `test-job-${counter}`;
  });

  const leaseRow = async (): Promise<LeaseRow | undefined> => {
    const row = await t.first
      .db('job_leases')
      .where({ name })
      .first<LeaseRow | undefined>('owner', 'expires_at', 'acquired_at', 'generation');
    return row && { ...row, generation: Number(row.generation) };
  };
  const databaseNowText = async () => (await t.first.db.first<{ now: string }>(databaseNow(t.first.db).wrap('', ' as now'))).now;
  /** The lease runs out without waiting for it: its expiry moved into the past, its holder unchanged. */
  const expireLease = () => t.first.db('job_leases').where({ name }).update({ expires_at: '2000-01-01 00:00:00' });
  const logged = (message: string) =>
    t.logs.lines.map((line) => JSON.parse(line) as LogEntry).filter((entry) => entry.job === name && entry.message.includes(message));

  it(
    'When nobody holds the lease, then the first owner takes it until database now plus its length and a second owner ' + 'cannot',
    async () => {
      const before = await databaseNowText();
      expect(await acquireLease(t.first, name, 'owner-a', 60)).toEqual({ name, owner: 'owner-a', generation: 1 });
      const after = await databaseNowText();

      const row = await leaseRow();
      expect(row?.owner).toBe('owner-a');
      expect(secondsOf(row?.acquired_at)).toBeGreaterThanOrEqual(secondsOf(before));
      expect(secondsOf(row?.acquired_at)).toBeLessThanOrEqual(secondsOf(after));
      expect(secondsOf(row?.expires_at) - secondsOf(row?.acquired_at)).toBe(60);
      expect(await acquireLease(t.second, name, 'owner-b', 60)).toBeNull();
      expect((await leaseRow())?.owner).toBe('owner-a');
    },
  );

  it(
    'When the instances’ clocks are hours apart, then the one ahead cannot take an unexpired lease, and expiry is database now plus ' +
      'the length',
    async () => {
      t.clock.set(new Date(Date.now() - 3 * HOUR));
      t.secondClock.set(new Date(Date.now() + 3 * HOUR));
      try {
        const before = await databaseNowText();
        const lease = await acquireLease(t.first, name, 'owner-a', 60);
        if (!lease) throw new Error('lease not taken');
        const expiresIn = secondsOf((await leaseRow())?.expires_at) - secondsOf(before);
        expect(expiresIn).toBeGreaterThanOrEqual(60);
        expect(expiresIn).toBeLessThanOrEqual(61);
        expect(await acquireLease(t.second, name, 'owner-b', 60)).toBeNull();

        // The other way round: the instance behind renews to database time, not to three hours ago.
        const renewedAt = await databaseNowText();
        expect(await renewLease(t.first, lease, 60)).toBe(true);
        expect(secondsOf((await leaseRow())?.expires_at) - secondsOf(renewedAt)).toBeGreaterThanOrEqual(60);
        expect(await acquireLease(t.second, name, 'owner-b', 60)).toBeNull();
      } finally {
        t.clock.set(new Date());
        t.secondClock.set(new Date());
      }
    },
  );

  it('When the owner asks again while its lease runs, then it does not get it twice', async () => {
    expect(await acquireLease(t.first, name, 'owner-a', 60)).not.toBeNull();
    expect(await acquireLease(t.first, name, 'owner-a', 60)).toBeNull();
  });

  it(
    'When the lease has expired, then another owner takes it over with the next generation and the old owner cannot renew ' + 'it',
    async () => {
      const old = await acquireLease(t.first, name, 'owner-a', 60);
      await expireLease();
      expect(await acquireLease(t.second, name, 'owner-b', 60)).toEqual({ name, owner: 'owner-b', generation: 2 });
      const row = await leaseRow();
      expect(row).toMatchObject({ owner: 'owner-b', generation: 2 });
      expect(secondsOf(row?.expires_at) - secondsOf(row?.acquired_at)).toBe(60);
      expect(old && (await renewLease(t.first, old, 60))).toBe(false);
    },
  );

  it('When a 1-second lease is not renewed, then nobody else gets it within its second and anyone gets it within two', async () => {
    expect(await acquireLease(t.first, name, 'owner-a', 1)).not.toBeNull();
    expect(await acquireLease(t.second, name, 'owner-b', 1)).toBeNull();
    await sleep(800);
    expect(await acquireLease(t.second, name, 'owner-b', 1)).toBeNull();
    await sleep(1_300);
    expect(await acquireLease(t.second, name, 'owner-b', 1)).toEqual({ name, owner: 'owner-b', generation: 2 });
  });

  it('When the owner renews, then the expiry moves to database now plus the length and nobody can take it meanwhile', async () => {
    const lease = await acquireLease(t.first, name, 'owner-a', 60);
    if (!lease) throw new Error('lease not taken');
    await t.first
      .db('job_leases')
      .where({ name })
      .update({ expires_at: databaseNowPlus(t.first.db, 5) });
    const renewedAt = await databaseNowText();
    expect(await renewLease(t.first, lease, 60)).toBe(true);
    const expiresIn = secondsOf((await leaseRow())?.expires_at) - secondsOf(renewedAt);
    expect(expiresIn).toBeGreaterThanOrEqual(60);
    expect(expiresIn).toBeLessThanOrEqual(61);
    expect(await acquireLease(t.second, name, 'owner-b', 60)).toBeNull();
    // Renewing at the same instant still counts as ours (affected rows are matched rows on MySQL too).
    expect(await renewLease(t.first, lease, 60)).toBe(true);
    expect(await renewLease(t.first, lease, 60)).toBe(true);
  });

  it('When the owner releases, then another owner takes it at once; a release by a non-owner changes nothing', async () => {
    const lease = await acquireLease(t.first, name, 'owner-a', 60);
    if (!lease) throw new Error('lease not taken');
    await releaseLease(t.second, { ...lease, owner: 'owner-b' });
    expect((await leaseRow())?.owner).toBe('owner-a');
    await releaseLease(t.first, lease);
    expect(await leaseRow()).toMatchObject({ owner: null, expires_at: null, generation: 1 });
    expect(await acquireLease(t.second, name, 'owner-b', 60)).toEqual({ name, owner: 'owner-b', generation: 2 });
  });

  it(
    'When the lease changed hands, then each acquisition has a higher generation and the old holder’s renew and release change ' +
      'nothing',
    async () => {
      const first = await acquireLease(t.first, name, 'owner-a', 60);
      if (!first) throw new Error('lease not taken');
      await expireLease();
      const second = await acquireLease(t.second, name, 'owner-b', 60);
      if (!second) throw new Error('lease not taken over');
      expect(second.generation).toBeGreaterThan(first.generation);

      const taken = await leaseRow();
      expect(await renewLease(t.first, first, 60)).toBe(false);
      await releaseLease(t.first, first);
      expect(await leaseRow()).toEqual(taken);

      // Even when the same owner takes it again, its earlier acquisition stays fenced off.
      await releaseLease(t.second, second);
      const again = await acquireLease(t.first, name, 'owner-a', 60);
      if (!again) throw new Error('lease not taken again');
      expect(again.generation).toBeGreaterThan(second.generation);
      const retaken = await leaseRow();
      expect(await renewLease(t.first, first, 60)).toBe(false);
      await releaseLease(t.first, first);
      expect(await leaseRow()).toEqual(retaken);
      expect(await renewLease(t.first, again, 60)).toBe(true);
    },
  );

  it(
    'When a lease is held and renewals succeed, then it outlasts its length unaborted, nobody else gets it, and it is released at ' +
      'the end',
    async () => {
      // Renewed every third of a second of real time, whatever the instances' clocks say.
      t.clock.set('2020-01-01T00:00:00Z');
      const held = await holdLease(t.first, name, 'owner-a', 1);
      if (!held) throw new Error('lease not held');
      expect(held.generation).toBe(1);
      await sleep(2_500);
      expect(held.signal.aborted).toBe(false);
      expect(await acquireLease(t.second, name, 'owner-b', 1)).toBeNull();
      expect(secondsOf((await leaseRow())?.expires_at)).toBeGreaterThanOrEqual(secondsOf(await databaseNowText()));
      expect(logged('').filter((entry) => entry.level === 'error')).toEqual([]);
      await held.release();
      expect((await leaseRow())?.owner).toBeNull();
      t.clock.set(new Date());
    },
  );

  it(
    'When a held lease is taken over after it expired, then the next renewal notices, aborts the signal at once and logs an ' + 'error',
    async () => {
      const began = performance.now();
      const held = await holdLease(t.first, name, 'owner-a', 1);
      if (!held) throw new Error('lease not held');
      const aborted = abortedAfter(held, began);
      // Renewals stall (a long pause of the process): the lease runs out and another instance takes it.
      await expireLease();
      expect(await acquireLease(t.second, name, 'owner-b', 60)).not.toBeNull();
      // The first renewal, a third of a second in, finds it taken: well before the local deadline.
      expect(await aborted).toBeLessThan(600);
      expect(String(held.signal.reason)).toContain('another instance took it over');
      expect(logged('job lease lost while running').map((entry) => entry.level)).toEqual(['error']);
      // Releasing a lost lease leaves the new owner's lease alone.
      await held.release();
      expect((await leaseRow())?.owner).toBe('owner-b');
    },
  );

  it(
    'When renewals keep failing, then the signal aborts at the local deadline, before the lease could expire in the database, and ' +
      'each failure is logged as an error',
    async () => {
      // An instance of its own whose connection pool goes away: every renewal then fails at once.
      const lonely = { ...t.first, db: knex((t.first.db.client as Knex.Client).config) };
      const began = performance.now();
      const held = await holdLease(lonely, name, 'owner-a', 1);
      if (!held) throw new Error('lease not held');
      const aborted = abortedAfter(held, began);
      await lonely.db.destroy();

      const afterMs = await aborted;
      // The deadline is two thirds of the lease; the database keeps others out for at least the whole of it.
      expect(afterMs).toBeGreaterThanOrEqual(600);
      expect(afterMs).toBeLessThan(1_000);
      expect(await acquireLease(t.second, name, 'owner-b', 1)).toBeNull();
      expect(String(held.signal.reason)).toContain('could not be renewed in time');
      const failures = logged('job lease renewal failed');
      expect(failures.length).toBeGreaterThanOrEqual(1);
      expect(failures.every((entry) => entry.level === 'error')).toBe(true);
      expect(logged('could not be renewed in time').map((entry) => entry.level)).toEqual(['error']);
      // Renewal has stopped: no more attempts, no more failures.
      await sleep(500);
      expect(logged('job lease renewal failed')).toHaveLength(failures.length);
    },
  );

  (kind === 'mysql' ? it : it.skip)(
    'When a renewal hangs in a database stall, then the signal aborts at the local deadline without waiting for it',
    async () => {
      const began = performance.now();
      const held = await holdLease(t.first, name, 'owner-a', 1);
      if (!held) throw new Error('lease not held');
      const aborted = abortedAfter(held, began);
      // Another connection keeps the lease row locked: the renewal's UPDATE waits for it.
      const locker = await t.second.db.transaction();
      await locker('job_leases').where({ name }).forUpdate().first();

      expect(await aborted).toBeLessThan(1_000);
      expect(String(held.signal.reason)).toContain('could not be renewed in time');
      expect(logged('could not be renewed in time').map((entry) => entry.level)).toEqual(['error']);
      expect(logged('job lease renewal failed')).toEqual([]);

      await locker.commit();
      // The renewal that hung completes unheeded; the release after it still gives the lease back.
      await held.release();
      expect((await leaseRow())?.owner).toBeNull();
    },
  );
});
