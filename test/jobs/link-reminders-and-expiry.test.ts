import { remindAndExpireLinksJob } from '../../src/jobs/remindAndExpireLinks';
import { TEST_DATABASES } from '../support/databases';
import { useTestApp } from '../support/testApp';
import { cli } from '../cli/runInMemory';

/**
 * The job that e-mails link reminders at reminder_at and expires links past expires_at, with the test clock (starts 2026-11-21 10:00 UTC).
 */
describe.each(TEST_DATABASES)('payment link reminders and expiry on %s', (kind) => {
  const t = useTestApp(kind, { perTest: true });
  let token: string;
  let accountName: string;
  const run = () => remindAndExpireLinksJob.run(t.ctx, new AbortController().signal);

  beforeEach(async () => {
    accountName = `Reminder shop ${Math.random().toString(36).slice(2, 8)}`;
    ({ token } = await t.newAccount(accountName));
  });

  async function customer(locale: string | null = 'nl') {
    const res = await t
      .as(token)
      .post('/api/v2/customers', { first_name: 'Anna', last_name: 'de Vries', email: 'anna@example.nl', locale });
    return res.body.id as string;
  }

  const link = async (body: Record<string, unknown>) =>
    (await t.as(token).post('/api/v2/links', { type: 'payment', description: 'Invoice 42', amount: 25, ...body })).body;
  const mails = () => t.ctx.db('outgoing_mails').orderBy('seq');

  it(
    'When reminder_at comes, then the customer gets one reminder in their language, with the merchant’s display name and the ' + 'link',
    async () => {
      await cli(t.ctx, 'accounts', 'set-profile', '--account', accountName, '--display-name', 'Bakkerij Jansen');
      const created = await link({ customer_id: await customer('nl'), reminder_at: '2026-11-22 09:00:00' });

      await run();
      expect(await mails()).toHaveLength(0); // not yet: 09:00 Amsterdam is 08:00 UTC tomorrow

      t.clock.set('2026-11-22T08:00:00Z');
      expect(await run()).toEqual({ processed: 1, failed: 0 });
      const [mail] = await mails();
      expect(mail).toMatchObject({
        recipient: 'anna@example.nl',
        locale: 'nl',
        template: 'link-reminder',
        subject: 'Herinnering: uw betaling aan Bakkerij Jansen',
      });
      expect(mail.text_body).toContain(created.url);
      expect(mail.text_body).toContain('25,00\u00a0€');

      t.clock.advance(60 * 60 * 1000);
      await run();
      expect(await mails()).toHaveLength(1);
    },
  );

  it('When the link was paid or cancelled before reminder_at, then no reminder is sent', async () => {
    const customerId = await customer();
    const paid = await link({ customer_id: customerId, reminder_at: '2026-11-22 09:00:00' });
    const cancelled = await link({ customer_id: customerId, reminder_at: '2026-11-22 09:00:00' });
    await t.ctx.db('payment_links').where({ id: paid.id }).update({ status: 'paid' });
    await t.as(token).delete(`/api/v2/links/${cancelled.id}`);
    t.clock.set('2026-11-23T00:00:00Z');
    await run();
    expect(await mails()).toHaveLength(0);
  });

  it('When two instances run the reminders at once, then one mail is queued', async () => {
    await link({ customer_id: await customer(), reminder_at: '2026-11-22 09:00:00' });
    t.clock.set('2026-11-22T08:00:00Z');
    await Promise.all([run(), run()]);
    expect(await mails()).toHaveLength(1);
  });

  it(
    'When the day of expires_at is over in APP_TIMEZONE, then an open link is expired and inactive; paid links keep their ' + 'status',
    async () => {
      const open = await link({ expires_at: '2026-11-22' });
      const paid = await link({ expires_at: '2026-11-22' });
      await t.ctx.db('payment_links').where({ id: paid.id }).update({ status: 'paid' });

      t.clock.set('2026-11-22T22:59:59Z'); // 23:59:59 in Amsterdam: still the 22nd
      await run();
      expect((await t.as(token).get(`/api/v2/links/${open.id}`)).body).toMatchObject({ status: 'open', active: true });

      t.clock.set('2026-11-22T23:00:00Z'); // midnight in Amsterdam
      expect(await run()).toEqual({ processed: 1, failed: 0 });
      expect((await t.as(token).get(`/api/v2/links/${open.id}`)).body).toMatchObject({ status: 'expired', active: false });
      expect((await t.as(token).get(`/api/v2/links/${paid.id}`)).body).toMatchObject({ status: 'paid' });
    },
  );

  it('When the mails are listed on the command line, then the reminder is there with its recipient and subject', async () => {
    await link({ customer_id: await customer('en'), reminder_at: '2026-11-22 09:00:00' });
    t.clock.set('2026-11-22T08:00:00Z');
    await run();
    const [mail] = await mails();
    const listed = await cli(t.ctx, 'mails', 'list', '--account', accountName);
    expect(listed.code).toBe(0);
    expect(listed.out).toEqual([
      `${mail.created_at}  ${mail.id}  queued  link-reminder  en  anna@example.nl  Reminder: your payment to ${accountName}`,
    ]);
    const shown = await cli(t.ctx, 'mails', 'show', mail.id);
    expect(shown.out).toEqual(expect.arrayContaining(['To: anna@example.nl', `Subject: Reminder: your payment to ${accountName}`]));
    expect((await cli(t.ctx, 'mails', 'list', '--status', 'bogus')).err).toEqual([
      'error: --status is one of queued, sent, stored, failed',
    ]);
  });
});
