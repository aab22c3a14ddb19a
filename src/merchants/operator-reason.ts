// The reason an operator gives for a decision: trimmed, bounded, and required where the merchant
// must be told why (a rejection, a suspension).
import { AppError } from '../http/errors.js';

export const MAX_REASON_LENGTH = 500;

export function operatorReason(reason: string | undefined, required: boolean): string | undefined {
  const why = reason?.trim() || undefined;
  if (!why && required) throw new AppError('validation_error', { fields: { reason: ['Give a reason: the merchant is shown it.'] } });
  if (why && why.length > MAX_REASON_LENGTH) throw new AppError('validation_error', { fields: { reason: [`Ensure this field has no more than ${MAX_REASON_LENGTH} characters.`] } });
  return why;
}
