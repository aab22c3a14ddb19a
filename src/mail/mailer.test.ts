import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enrolFromLink, newOperator, operatorBrowser } from '../../test/console-client.js';
import { type MailInbox, startMailInbox } from '../../test/mail-inbox.js';
import { startTestApp, type TestApp } from '../../test/test-app.js';
import { loadConfig } from '../config.js';
import { createMailer } from './mailer.js';

describe('the mailer over SMTP', () => {
  let t: TestApp;
  let inbox: MailInbox;

  beforeAll(async () => {
    inbox = await startMailInbox();
    t = await startTestApp({ config: { ...inbox.config, mailFrom: 'Bhuktani Ops <ops@bhuktani.test>' } });
  });
  afterAll(async () => {
    await t.close();
    await inbox.close();
  });

  it('sends the invitation through the SMTP server, and its link enrols the invited operator', async () => {
    expect(t.ctx.mailer.kind).toBe('smtp');
    const admin = await newOperator(t.ctx, 'admin');
    const browser = operatorBrowser(t.app, t.ctx);
    await browser.signIn(admin);
    await browser.get('/console/operators');
    const email = `smtp-invited-${process.pid}-${Date.now()}@example.com`;
    expect((await browser.post('/console/operators/invite', { email, role: 'support' })).status).toBe(303);

    const mail = inbox.to(email)[0];
    expect(mail).toBeDefined();
    expect(mail.from).toBe('ops@bhuktani.test');
    expect(mail.subject).toBe('Your invitation to the Bhuktani operator console');
    expect(mail.html).not.toMatch(/<img/i);
    const url = /http:\/\/bhuktani\.test(\/console\/invitation\/[\w-]{43})/.exec(mail.text)![1];
    expect(mail.html).toContain(url);
    // Nothing of the e-mail went to the log: it was sent.
    expect(t.logs.some((line) => line.includes(url))).toBe(false);

    const invited = operatorBrowser(t.app, t.ctx);
    const { recoveryCodes } = await enrolFromLink(invited, url, 'smtp invited password');
    expect(recoveryCodes).toHaveLength(10);
    expect((await invited.get('/console')).status).toBe(200);
  });

  it('is configured at start: SMTP_URL must be smtp:// or smtps://, and MAIL_FROM comes with it', () => {
    expect(() => loadConfig({ SMTP_URL: 'http://mail.example.com' })).toThrow(/SMTP_URL must be an smtp:\/\/ or smtps:\/\/ URL/);
    expect(() => loadConfig({ SMTP_URL: 'smtps://user:pw@mail.example.com:465' })).toThrow(/MAIL_FROM must be set with SMTP_URL/);
    expect(() => loadConfig({ SMTP_URL: 'smtps://mail.example.com', MAIL_FROM: 'not an address' })).toThrow(/MAIL_FROM must be an e-mail address/);
    expect(loadConfig({ SMTP_URL: 'smtps://mail.example.com', MAIL_FROM: 'Bhuktani <no-reply@example.com>' })).toMatchObject({ smtpUrl: 'smtps://mail.example.com', mailFrom: 'Bhuktani <no-reply@example.com>' });
    expect(loadConfig({}).smtpUrl).toBeUndefined();
  });

  it('opens a connection an e-mail, or with ?pool=true keeps one open for the next e-mails until closed', async () => {
    const log = { info() {} };
    const mail = (n: number) => ({ to: `pool-${n}-${process.pid}@example.com`, subject: `e-mail ${n}`, text: 'text', html: '<p>text</p>' });
    const own = await startMailInbox();
    try {
      const smtpUrl = own.config.smtpUrl.replace('/?pool=true', '');
      const single = createMailer({ ...own.config, smtpUrl }, log);
      for (const n of [1, 2, 3]) await single.send(mail(n));
      await single.close();
      expect(own.connections.opened).toBe(3);
      await expect.poll(() => own.connections.closed).toBe(3);

      const pooled = createMailer({ ...own.config, smtpUrl: `${smtpUrl}/?pool=true` }, log);
      for (const n of [4, 5, 6]) await pooled.send(mail(n));
      expect(own.connections).toEqual({ opened: 4, closed: 3 });
      await pooled.close();
      await expect.poll(() => own.connections.closed).toBe(4);
      expect(own.received.map((m) => m.subject)).toEqual([1, 2, 3, 4, 5, 6].map((n) => `e-mail ${n}`));
    } finally {
      await own.close();
    }
  });
});
