import request from 'supertest';
import { deliverDueMails } from '../../src/mail/delivery';
import { smtpTransportFor } from '../../src/mail/transport';
import { TEST_DATABASES } from '../support/databases';
import { seedCustomer } from '../support/seed';
import { SmtpFake } from '../support/smtpFake';
import { useTestApp } from '../support/testApp';

const TOKEN_IN_LINK = /\/portal\/session\/([A-Za-z0-9_-]{43})/;

interface MailRow {
  id: string;
  status: string;
  text_body: string;
  html_body: string;
}

/**
 * A mailed log-in link lives in the outbox only until it is sent: a retry needs it, a sent mail's
 * copy in the table (backups, `cli mails list`) must not open the customer's portal.
 */
describe.each(TEST_DATABASES)('log-in links in the mail outbox on %s', (kind) => {
  const t = useTestApp(kind);
  let smtp: SmtpFake;
  let smtpUrl: string;
  const signal = new AbortController().signal;

  beforeAll(async () => {
    smtp = new SmtpFake();
    smtpUrl = await smtp.start();
  });
  afterAll(() => smtp.stop());

  const deliver = () => deliverDueMails(t.ctx, signal, smtpTransportFor({ ...t.ctx.config, SMTP_URL: smtpUrl }));

  it('When the log-in mail is sent, then the outbox keeps no token; a failed try before kept it, and the link works', async () => {
    const { accountId } = await t.newAccount();
    const email = `outbox.${process.pid}.${Date.now()}@example.nl`;
    await seedCustomer(t.ctx.db, accountId, { email });
    await request(t.app).post('/portal').type('form').send({ email }).expect(200);
    await t.ctx.background.idle();
    const mailOf = async (): Promise<MailRow> => t.ctx.db('outgoing_mails').where({ recipient: email, template: 'portal-login' }).first();
    const queued = await mailOf();
    const token = TOKEN_IN_LINK.exec(queued.text_body)?.[1] as string;
    expect(queued.html_body).toContain(token);

    // The SMTP server refuses: the mail stays queued with its link, for the retry.
    smtp.failWith = 451;
    await deliver();
    expect(await mailOf()).toMatchObject({ status: 'queued' });
    expect((await mailOf()).text_body).toContain(token);

    smtp.failWith = null;
    const before = smtp.received.length;
    t.clock.advance(60_000);
    await deliver();
    const sent = await mailOf();
    expect(sent.status).toBe('sent');
    // The customer got the link; the table no longer has it, in either body.
    const received = smtp.received.slice(before).map((mail) => mail.data.replace(/=\r\n/g, ''));
    expect(received.some((data) => data.includes(token))).toBe(true);
    expect(`${sent.text_body}\n${sent.html_body}`).not.toContain(token);
    expect(sent.text_body).toContain('/portal/session/[removed]');
    expect(JSON.stringify(await t.ctx.db('outgoing_mails').where({ id: sent.id }))).not.toContain(token);

    const link = `/portal/session/${token}`;
    expect((await request(t.app).get(link)).status).toBe(200);
    const pressed = await request(t.app).post(link).set('Sec-Fetch-Site', 'same-origin');
    expect([pressed.status, pressed.headers.location]).toEqual([303, '/portal/']);
  });
});
