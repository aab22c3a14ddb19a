// The response shape of the transaction list (specification 2.5), for serialization and OpenAPI.
import { paginatedSchema } from '../http/paginated.js';

const idxName = { type: 'object', required: ['idx', 'name'], properties: { idx: { type: 'string' }, name: { type: 'string' } } };
const party = {
  type: 'object',
  required: ['idx', 'name', 'mobile'],
  properties: { idx: { type: 'string' }, name: { type: 'string' }, mobile: { type: 'string' } },
};

export const transactionRecordSchema = {
  type: 'object',
  required: ['idx', 'type', 'state', 'amount', 'fee_amount', 'refunded', 'created_on', 'ebanker', 'user', 'merchant'],
  properties: {
    idx: { type: 'string', description: 'The transaction id (for a payment) or the refund id.' },
    type: { ...idxName, description: 'How the payer paid: `Wallet payment`, or through a provider, `<provider> payment` (`Khalti payment`, `eSewa payment`, …); or `Refund`.' },
    state: {
      type: 'object',
      required: ['idx', 'name', 'template'],
      properties: { idx: { type: 'string' }, name: { type: 'string', enum: ['Completed', 'Confirmed', 'Canceled'] }, template: { type: 'string' } },
    },
    amount: { type: 'integer', description: 'Paisa.' },
    fee_amount: { type: 'integer', description: 'Paisa.' },
    refunded: { type: 'boolean' },
    created_on: { type: 'string', format: 'date-time', description: 'ISO 8601 with microseconds and the offset of TIME_ZONE.' },
    ebanker: { type: 'null' },
    user: { ...party, description: 'The payer; mobile masked, e.g. 98XXXXXXX1.' },
    merchant: party,
    pidx: { type: 'string' },
    purchase_order_id: { type: 'string' },
    payment_link: { type: 'string', description: 'The idx of the payment link the payment was made through; only on the records of such payments (and their refunds).' },
  },
};

export const transactionPageSchema = paginatedSchema(transactionRecordSchema);
