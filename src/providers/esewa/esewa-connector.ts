// eSewa's ePay v2, spoken as a client: the payer's browser posts a
// signed form to form_url; on the way back the signed `data` is read as a hint only, and the status
// check (status_url, no authorization, as eSewa publishes it) decides. eSewa has no refund API.
import type { PageProvider, SetupWith } from '../provider.js';
import { TransportError, type Transport } from '../provider-http.js';
import { requestRupees } from '../../protocols/esewa-epay/rupees.js';
import { signedFieldNames, signFields } from '../../protocols/esewa-epay/signature.js';
import { returnedData, statusAnswer } from './transformers.js';

const SIGNED = 'total_amount,transaction_uuid,product_code';

export function esewaConnector(setup: SetupWith<{ form_url: string; status_url: string; product_code: string }, { secret_key: string }>, transport: Transport): PageProvider<null> {
  const { form_url: formUrl, status_url: statusUrl, product_code: productCode } = setup.settings;
  const secretKey = setup.credentials.secret_key;

  return {

    async start(attempt) {
      const total = requestRupees(attempt.amount);
      const fields: Record<string, string> = {
        amount: total,
        tax_amount: '0',
        total_amount: total,
        transaction_uuid: attempt.idx,
        product_code: productCode,
        product_service_charge: '0',
        product_delivery_charge: '0',
        success_url: attempt.returnUrl('success'),
        failure_url: attempt.returnUrl('failure'),
        signed_field_names: SIGNED,
      };
      fields.signature = signFields(secretKey, fields, signedFieldNames(SIGNED));
      return { redirect: { method: 'POST', url: formUrl, fields: Object.entries(fields) } };
    },

    readReturn(path, query) {
      const [attemptIdx, outcome] = path;
      if (outcome !== 'success') return { attemptIdx, claim: outcome === 'failure' ? 'canceled' : 'unclear' };
      const data = returnedData(query.data, secretKey);
      // eSewa's signature over this attempt's own data: another transaction's says nothing of it.
      const signed = data?.transaction_uuid === attemptIdx && data.product_code === productCode;
      return { attemptIdx, claim: signed && data.status === 'COMPLETE' ? 'paid' : 'unclear', signed };
    },

    async status(attempt) {
      const query = new URLSearchParams({ product_code: productCode, total_amount: requestRupees(attempt.amount), transaction_uuid: attempt.idx });
      try {
        const answer = await transport({ url: `${statusUrl}?${query}`, method: 'GET', headers: { accept: 'application/json' } });
        return statusAnswer(answer, { transactionUuid: attempt.idx, productCode, amount: attempt.amount });
      } catch (error) {
        if (error instanceof TransportError) return { kind: 'unknown', detail: error.message, fault: true };
        throw error;
      }
    },
  };
}
