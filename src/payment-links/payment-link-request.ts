// What creating a payment link takes, with the contract's validation shape:
// every failing field at once. The API reads it from JSON or a form; the dashboard's form is turned
// into the same fields first, so both refuse the same things with the same words.
import type { FieldErrors } from '../http/errors.js';
import { choice, type Field, integer, messages, object, text } from '../http/fields.js';
import { addDays, dayStart } from '../local-days.js';
import { MIN_AMOUNT_PAISA } from '../payments/payment.js';
import { askable, type Askable } from './payment-link.js';

export const MAX_PAYMENTS_LIMIT = 1_000_000;

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2})$/;
const expiryFormat = 'Datetime has wrong format. Use one of these formats instead: YYYY-MM-DD, YYYY-MM-DDThh:mm[:ss[.uuuuuu]]±hh:mm.';

/**
 * When the link stops taking payments: a date is that whole day in `timeZone` (the link works until
 * the next day begins); a timestamp, with its offset, is that instant. It must be in the future.
 */
function expiry(timeZone: string, now: () => Date): Field<Date> {
  return {
    required: false,
    jsonSchema: {
      type: 'string',
      format: 'date-time',
      description: `When the link stops taking payments: \`YYYY-MM-DD\` (through that whole day in TIME_ZONE) or an ISO 8601 timestamp with its offset. In the future.`,
    },
    parse(value) {
      if (typeof value !== 'string') return { ok: false, error: [expiryFormat] };
      const given = value.trim();
      let at: Date;
      if (DATE.test(given)) {
        const day = new Date(`${given}T00:00:00Z`);
        if (Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) !== given) return { ok: false, error: [expiryFormat] };
        at = dayStart(addDays(given, 1), timeZone);
      } else if (TIMESTAMP.test(given) && !Number.isNaN(new Date(given).getTime())) {
        at = new Date(given);
      } else {
        return { ok: false, error: [expiryFormat] };
      }
      if (at.getTime() <= now().getTime()) return { ok: false, error: ['The expiry must be in the future.'] };
      return { ok: true, value: at };
    },
  };
}

/**
 * Which of the payer's name, phone and e-mail the link's page asks: a list, or (as a form sends one
 * value) text with the names separated by commas. A wrong item is named by its place, as the
 * gateway's list fields do: `{"ask": {"1": ["\"address\" is not a valid choice."]}}`.
 */
function askList(): Field<Askable[]> {
  const item = choice(askable);
  return {
    required: false,
    jsonSchema: {
      type: 'array',
      items: item.jsonSchema,
      maxItems: askable.length,
      description: "Which of the payer's name, phone and e-mail the link's page asks (each required there). A form may send them as one value, separated by commas.",
    },
    parse(value) {
      const given = typeof value === 'string' ? value.split(',').map((name) => name.trim()).filter(Boolean) : value;
      if (!Array.isArray(given)) return { ok: false, error: [messages.list(value)] };
      if (given.length > askable.length) return { ok: false, error: [`Ensure this field has no more than ${askable.length} elements.`] };
      const errors: FieldErrors = {};
      const asked: Askable[] = [];
      for (const [i, name] of given.entries()) {
        const parsed = item.parse(name);
        if (parsed.ok) asked.push(parsed.value);
        else errors[String(i)] = parsed.error;
      }
      return Object.keys(errors).length ? { ok: false, error: errors } : { ok: true, value: asked };
    },
  };
}

export function paymentLinkRequest(options: { maxAmountPaisa: number; timeZone: string; now: () => Date }) {
  const paisa = (description: string) =>
    integer({ min: MIN_AMOUNT_PAISA, max: options.maxAmountPaisa, minMessage: 'Amount should be at least 10 paisa.', description });
  return object(
    {
      name: text({ required: true, maxLength: 120, description: 'What is paid for, as the payer sees it: "Tuition, May", "Momo platter".' }),
      description: text({ maxLength: 1000, description: 'More about it, shown under the name.' }),
      amount: paisa('A fixed amount in paisa. Or, instead, min_amount and max_amount.'),
      min_amount: paisa('The least the payer may pay, in paisa (with max_amount: the payer chooses the amount).'),
      max_amount: paisa('The most the payer may pay, in paisa.'),
      expires_on: expiry(options.timeZone, options.now),
      max_payments: integer({ min: 1, max: MAX_PAYMENTS_LIMIT, description: 'How many payments the link takes at most; none: no limit.' }),
      ask: askList(),
    },
    {
      refine(value): FieldErrors | undefined {
        const fixed = value.amount !== undefined;
        const range = value.min_amount !== undefined || value.max_amount !== undefined;
        if (!fixed && !range) return { amount: ['Give amount, or min_amount and max_amount.'] };
        if (fixed && range) return { amount: ['Give amount, or min_amount and max_amount, not both.'] };
        if (!fixed) {
          if (value.min_amount === undefined) return { min_amount: [messages.required] };
          if (value.max_amount === undefined) return { max_amount: [messages.required] };
          if (value.min_amount > value.max_amount) return { max_amount: ['Ensure this value is greater than or equal to min_amount.'] };
        }
        if (value.ask && new Set(value.ask).size !== value.ask.length) return { ask: ['Ask for each of name, phone and email at most once.'] };
        return undefined;
      },
    },
  );
}

export type PaymentLinkInput = NonNullable<Extract<ReturnType<ReturnType<typeof paymentLinkRequest>['parse']>, { ok: true }>['value']>;
