// The initiate payload of specification 2.1, with the contract's validation messages.
import { email, integer, list, object, text, url } from '../../http/fields.js';
import { MIN_AMOUNT_PAISA } from '../../payments/payment.js';

const paisa = (description: string) => integer({ required: true, min: 0, description });

export function initiateRequest(maxAmountPaisa: number) {
  return object(
    {
      return_url: url({ required: true, description: 'Where the payer is redirected (GET) when the attempt ends.' }),
      website_url: url({ required: true, description: "The merchant's website." }),
      amount: integer({
        required: true,
        min: MIN_AMOUNT_PAISA,
        max: maxAmountPaisa,
        minMessage: 'Amount should be at least 10 paisa.',
        description: 'Amount in paisa, a JSON integer or a numeric string; at least 10.',
      }),
      purchase_order_id: text({ required: true, description: "The merchant's order id." }),
      purchase_order_name: text({ required: true, description: 'Name of the product or order.' }),
      customer_info: object({ name: text(), email: email(), phone: text({ maxLength: 32 }) }, { description: 'Whom the transaction is billed to.' }),
      // Clients of the gateway send `[]` for "no breakdown", with no sum to check.
      amount_breakdown: list(object({ label: text({ required: true }), amount: paisa('Paisa') }), {
        description: 'Lines that add up to `amount`; an empty list is the same as none.',
        emptyIsNone: true,
      }),
      product_details: list(
        object({
          identity: text({ required: true }),
          name: text({ required: true }),
          total_price: paisa('Paisa'),
          quantity: integer({ required: true, min: 1 }),
          unit_price: paisa('Paisa'),
        }),
        { description: 'Products of the order; an empty list is the same as none.', emptyIsNone: true },
      ),
    },
    {
      passthrough: (key) => key.startsWith('merchant_'),
      refine(value) {
        if (!value.amount_breakdown) return undefined;
        const sum = value.amount_breakdown.reduce((total, line) => total + (line.amount ?? 0), 0);
        return sum === value.amount ? undefined : { amount: ['Amount Breakdown mismatch.'] };
      },
    },
  );
}

export type InitiateRequest = NonNullable<ReturnType<ReturnType<typeof initiateRequest>['parse']> extends infer R ? (R extends { ok: true; value: infer V } ? V : never) : never>;
