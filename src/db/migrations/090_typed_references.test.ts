// Migration 090 on a store with the packed references of before: Khalti's pidx, Fonepay's QR message
// (a message holding colons) and verified web return, an attempt with none, and a reference that fits
// no known packing. Each becomes its provider's fields; nothing is lost.
import { describe, expect, it } from 'vitest';
import { afterUpgrade } from '../../../test/migration-upgrade.js';

describe('migration 090_typed_references', () => {
  it("turns each packed reference into its provider's fields, as JSON", async () => {
    const seen = await afterUpgrade('090_typed_references', {
      async before(tx) {
        await tx.query("INSERT INTO merchants (idx, name, email, mobile, fee_bps, status, status_changed_at, created_at) VALUES ('m1', 'One', 'one@example.com', '', 300, 'approved', now(), now())");
        await tx.query(
          `INSERT INTO payments (pidx, merchant_id, environment, purchase_order_id, purchase_order_name, amount, fee, return_url, website_url, status, created_at, expires_at, updated_at)
           SELECT 'P1', id, 'test', 'o1', 'Order', 1000, 0, 'https://shop.example/r', 'https://shop.example', 'Initiated', now(), now(), now() FROM merchants`,
        );
        const attempts: [string, string, string | null][] = [
          ['A1', 'khalti', 'bZQLD9wRVWo4CdESSfuSsB'],
          ['A2', 'fonepay', 'qr:00020101021226:3400;x=y'],
          ['A3', 'fonepay', 'web:36463:NICENPKA'],
          ['A4', 'fonepay', null],
          ['A5', 'esewa', null],
          ['A6', 'fonepay', 'something else'],
        ];
        for (const [idx, provider, reference] of attempts) {
          await tx.query("INSERT INTO provider_attempts (idx, pidx, environment, provider, amount, state, provider_reference, created_at, updated_at) VALUES ($1, 'P1', 'test', $2, 1000, 'Started', $3, now(), now())", [idx, provider, reference]);
        }
      },
      after: (tx) => tx.query<{ idx: string; provider_reference: unknown }>('SELECT idx, provider_reference FROM provider_attempts ORDER BY idx'),
    });
    expect(seen).toEqual([
      { idx: 'A1', provider_reference: { pidx: 'bZQLD9wRVWo4CdESSfuSsB' } },
      { idx: 'A2', provider_reference: { way: 'qr', qrMessage: '00020101021226:3400;x=y' } },
      { idx: 'A3', provider_reference: { way: 'web', uid: '36463', bankCode: 'NICENPKA' } },
      { idx: 'A4', provider_reference: null },
      { idx: 'A5', provider_reference: null },
      { idx: 'A6', provider_reference: { unread: 'something else' } },
    ]);
  });
});
