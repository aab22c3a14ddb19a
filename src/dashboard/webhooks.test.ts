import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { merchantBrowser, paidPayment } from '../../test/dashboard-client.js';
import { startTestApp, type TestApp } from '../../test/test-app.js';
import { webhookReceiver } from '../../test/webhook-receiver.js';
import { verifyWebhook } from '../client/signatures.js';
import { webhookSender } from '../webhooks/webhook-sender.js';

let t: TestApp;
let receiver: Awaited<ReturnType<typeof webhookReceiver>>;
beforeAll(async () => {
  t = await startTestApp({ ownDb: true }); // its sender and sweep act on the whole store
  receiver = await webhookReceiver();
});
afterAll(async () => {
  await receiver.close();
  await t.close();
});

const send = () => webhookSender(t.ctx, { onError: (e) => { throw e; } }).runOnce();

describe('the webhooks page', () => {
  it('shows the signing secret, sets the endpoint, lists deliveries with their answers and resends one', async () => {
    const browser = merchantBrowser(t.app);
    const { keys } = await browser.signUp();
    let page = await browser.get('/dashboard/webhooks');
    expect(page.status).toBe(200);
    const secret = /data-testid="signing-secret">(whsec_[0-9a-f]+)</.exec(page.body)?.[1];
    expect(secret).toMatch(/^whsec_[0-9a-f]{48}$/);

    expect((await browser.post('/dashboard/webhooks/endpoint', { url: 'not a url' })).status).toBe(400);
    page = await browser.post('/dashboard/webhooks/endpoint', { url: receiver.url });
    expect(page.status).toBe(200);
    expect(page.body).toContain('Endpoint saved.');

    const { pidx } = await paidPayment(t.app, keys.test);
    receiver.answerWith(503);
    await send();
    page = await browser.get('/dashboard/webhooks');
    expect(page.body).toContain('payment.completed');
    expect(page.body).toContain(pidx);
    expect(page.body).toContain('HTTP 503');
    const id = /action="\/dashboard\/webhooks\/(\d+)\/resend"/.exec(page.body)![1];

    receiver.answerWith(200);
    expect((await browser.post(`/dashboard/webhooks/${id}/resend`)).body).toContain('Queued to be sent again.');
    await send();
    const mine = receiver.received.filter((r) => r.body.includes(pidx));
    expect(mine).toHaveLength(2);
    expect(verifyWebhook(mine[1].body, mine[1].headers['bhuktani-signature'] as string, secret!, { now: t.clock.now() })).toBe(true);
    expect((await browser.get('/dashboard/webhooks')).body).toContain('Delivered');
  });

  it('keeps each merchant to its own deliveries', async () => {
    const owner = merchantBrowser(t.app);
    await owner.signUp();
    await owner.post('/dashboard/webhooks/endpoint', { url: receiver.url });
    const other = merchantBrowser(t.app);
    const { keys } = await other.signUp();
    await other.post('/dashboard/webhooks/endpoint', { url: receiver.url });
    await paidPayment(t.app, keys.test);
    await send();
    const page = await other.get('/dashboard/webhooks');
    const id = /action="\/dashboard\/webhooks\/(\d+)\/resend"/.exec(page.body)![1];
    expect((await owner.post(`/dashboard/webhooks/${id}/resend`)).status).toBe(404);
  });
});
