// A payment link as the API shows it, and its JSON schema for serialization
// and the OpenAPI document. Times are ISO 8601 with the offset of TIME_ZONE, like the transaction list.
import { paginatedSchema } from '../http/paginated.js';
import { formatTimestamp } from '../http/timestamp.js';
import { askable, linkStatus, linkStatuses, linkUrls, type PaymentLink } from './payment-link.js';
import type { LinkTotals } from './payment-link-store.js';

export function paymentLinkJson(link: PaymentLink, totals: LinkTotals, options: { publicUrl: string; timeZone: string; now: Date }) {
  return {
    idx: link.idx,
    ...linkUrls(options.publicUrl, link.code),
    name: link.name,
    description: link.description,
    amount: link.amount,
    min_amount: link.min_amount,
    max_amount: link.max_amount,
    expires_on: link.expires_at ? formatTimestamp(link.expires_at, options.timeZone) : null,
    max_payments: link.max_payments,
    ask: link.ask,
    active: link.active,
    status: linkStatus(link, options.now),
    ...totals,
    created_by: link.created_by,
    created_on: formatTimestamp(link.created_at, options.timeZone),
  };
}

const paisaOrNull = (description: string) => ({ type: ['integer', 'null'], description: `${description} Paisa.` });

export const paymentLinkSchema = {
  type: 'object',
  required: [
    'idx', 'url', 'qr_svg_url', 'qr_png_url', 'name', 'description', 'amount', 'min_amount', 'max_amount', 'expires_on', 'max_payments', 'ask',
    'active', 'status', 'payments_count', 'payments_total', 'refunded_total', 'created_by', 'created_on',
  ],
  properties: {
    idx: { type: 'string', description: 'The link, in this API.' },
    url: { type: 'string', format: 'uri', description: 'Its page for payers: `<PUBLIC_URL>/l/<code>`. Share it, or its QR code.' },
    qr_svg_url: { type: 'string', format: 'uri', description: "Its QR code as SVG, the business's name under it (to print at any size)." },
    qr_png_url: { type: 'string', format: 'uri', description: 'Its QR code as a large PNG (the code alone).' },
    name: { type: 'string' },
    description: { type: ['string', 'null'] },
    amount: paisaOrNull('The fixed amount; null when the payer chooses one.'),
    min_amount: paisaOrNull('The least a payer may choose; null for a fixed amount.'),
    max_amount: paisaOrNull('The most a payer may choose; null for a fixed amount.'),
    expires_on: { type: ['string', 'null'], format: 'date-time', description: 'When it stops taking payments; null: never.' },
    max_payments: { type: ['integer', 'null'], description: 'How many payments it takes at most; null: no limit.' },
    ask: { type: 'array', items: { type: 'string', enum: [...askable] }, description: 'What its page asks the payer.' },
    active: { type: 'boolean', description: 'False once deactivated (until activated again).' },
    status: { type: 'string', enum: [...linkStatuses], description: 'Whether it takes payments now: `active`, or why not.' },
    payments_count: { type: 'integer', description: 'Its paid payments (Completed, and those refunded since).' },
    payments_total: { type: 'integer', description: 'Their amount. Paisa.' },
    refunded_total: { type: 'integer', description: 'What was refunded of them. Paisa.' },
    created_by: { type: 'string', description: '`api`, or the dashboard user who made it.' },
    created_on: { type: 'string', format: 'date-time' },
  },
} as const;

export const paymentLinkPageSchema = paginatedSchema(paymentLinkSchema);
