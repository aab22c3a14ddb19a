// Khalti's v2 web checkout, spoken as a client: initiate, send the payer to
// payment_url, and on the way back ask lookup; refunds through its refund API. `base_url` is the
// root that /api/v2/epayment/initiate/ is appended to; the secret key goes as `Authorization: Key …`.
import type { PageProvider, SetupWith } from '../provider.js';
import { TransportError, type Transport } from '../provider-http.js';
import { ProviderRefusedError, ProviderUnavailableError, type Customer } from '../provider.js';
import { initiated, lookupAnswer, refundAnswer, refundedRecord, validationRefusal, type KhaltiReference } from './transformers.js';

/** `customer_info` as Khalti takes it at initiate: the fields given, none empty; undefined without one. */
function customerInfo(customer: Customer): Record<string, string> | undefined {
  const given = Object.entries(customer ?? {}).filter(([name, value]) => ['name', 'email', 'phone'].includes(name) && typeof value === 'string' && value.trim() !== '');
  return given.length ? Object.fromEntries(given) : undefined;
}

/** The payer's mobile as Khalti's refund API takes it (98XXXXXXXX), from the customer's phone; undefined when it is none. */
function payerMobile(customer: Customer): string | undefined {
  const digits = (customer?.phone ?? '').replace(/[\s()-]/g, '').replace(/^(\+?977)(?=9\d{9}$)/, '');
  return /^9[678]\d{8}$/.test(digits) ? digits : undefined;
}

export function khaltiConnector(setup: SetupWith<{ base_url: string }, { secret_key: string }>, transport: Transport): PageProvider<KhaltiReference> {
  const base = setup.settings.base_url;
  const headers = { authorization: `Key ${setup.credentials.secret_key}`, 'content-type': 'application/json' };
  const post = (path: string, body: unknown) => transport({ url: `${base}${path}`, method: 'POST', headers, body: JSON.stringify(body) });

  return {

    async start(attempt) {
      try {
        const answer = await post('/api/v2/epayment/initiate/', {
          return_url: attempt.returnUrl('success'),
          website_url: attempt.websiteUrl,
          amount: attempt.amount,
          purchase_order_id: attempt.idx,
          purchase_order_name: attempt.orderName.slice(0, 200),
          customer_info: customerInfo(attempt.customer),
        });
        const refused = validationRefusal(answer);
        if (refused) throw new ProviderRefusedError(refused);
        const started = initiated(answer);
        if (typeof started === 'string') throw new ProviderUnavailableError(started);
        return { redirect: { method: 'GET', url: started.payment_url }, providerReference: { pidx: started.pidx } };
      } catch (error) {
        if (error instanceof TransportError) throw new ProviderUnavailableError(error.message);
        throw error;
      }
    },

    readReturn(path, query) {
      const status = query.status;
      return { attemptIdx: path[0] ?? query.purchase_order_id, claim: status === 'Completed' ? 'paid' : status === 'User canceled' ? 'canceled' : 'unclear' };
    },

    async status(attempt) {
      if (!attempt.providerReference) return { kind: 'unknown', detail: 'Khalti never gave this attempt a pidx' };
      try {
        const { pidx } = attempt.providerReference;
        return lookupAnswer(await post('/api/v2/epayment/lookup/', { pidx }), { pidx, amount: attempt.amount });
      } catch (error) {
        if (error instanceof TransportError) return { kind: 'unknown', detail: error.message, fault: true };
        throw error;
      }
    },

    async refund(attempt, refund) {
      try {
        // A payment made from a bank is refunded to the Khalti account of the payer's mobile: Khalti's
        // refund API requires `mobile` for those, and its lookup does not say which payments they are.
        const mobile = payerMobile(attempt.customer);
        const answer = await post(`/api/merchant-transaction/${encodeURIComponent(attempt.providerTransactionId)}/refund/`, { ...(refund.whole ? {} : { amount: refund.amount }), ...(mobile ? { mobile } : {}) });
        return refundAnswer(answer);
      } catch (error) {
        if (error instanceof TransportError) return { kind: 'unknown', detail: error.message, fault: true };
        throw error;
      }
    },

    async refunded(attempt) {
      if (!attempt.providerReference) return { kind: 'unknown', detail: 'Khalti never gave this attempt a pidx' };
      try {
        const { pidx } = attempt.providerReference;
        return refundedRecord(await post('/api/v2/epayment/lookup/', { pidx }), { pidx, amount: attempt.amount });
      } catch (error) {
        if (error instanceof TransportError) return { kind: 'unknown', detail: error.message, fault: true };
        throw error;
      }
    },
  };
}
