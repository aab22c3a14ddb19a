// Operators: the people who run the gateway. Not merchants: own accounts,
// roles, always two factors.
export const OPERATOR_ROLES = ['admin', 'support', 'finance'] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

export const isOperatorRole = (value: string): value is OperatorRole => (OPERATOR_ROLES as readonly string[]).includes(value);

export interface Operator {
  id: number;
  email: string;
  role: OperatorRole;
  createdAt: Date;
  /** Null while an invited operator has not yet confirmed a code from their app. */
  totpEnrolledAt: Date | null;
}

export const PASSWORD_MIN_LENGTH = 12;

/** Operators guard everyone's money: longer passwords than merchants'. Undefined when acceptable. */
export function passwordProblem(password: string, email: string): string | undefined {
  if (password.length < PASSWORD_MIN_LENGTH) return `Use at least ${PASSWORD_MIN_LENGTH} characters.`;
  if (password.length > 200) return 'Use at most 200 characters.';
  if (password.toLowerCase() === email.trim().toLowerCase()) return 'Do not use your e-mail as the password.';
  return undefined;
}

/** A plausible e-mail address, normalised; undefined when it is not one. */
export function normalEmail(value: string): string | undefined {
  const email = value.trim();
  return email.length <= 254 && /^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+$/.test(email) ? email : undefined;
}
