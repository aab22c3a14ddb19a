// Why a sign-in step (a password, a two-factor code, a link) was refused, for every kind of account.
export class SignInError extends Error {
  constructor(
    readonly code: 'wrong_credentials' | 'wrong_code' | 'locked',
    readonly retryAfterSeconds = 0,
  ) {
    super(
      code === 'locked'
        ? `Too many failed attempts. Try again in ${retryAfterSeconds} seconds.`
        : code === 'wrong_code'
          ? 'That code is not valid. Codes change every 30 seconds and each works once.'
          : 'Wrong e-mail or password.',
    );
  }
}

/** How a page answers a link from an e-mail it refused: dead or wrong, `deadMessage` (404); its address locked, when to come back (429). */
export function linkRefusal(error: SignInError, deadMessage: string): { status: 404 | 429; message: string; headers: Record<string, string> } {
  if (error.code === 'locked') return { status: 429, message: error.message, headers: { 'retry-after': String(error.retryAfterSeconds) } };
  return { status: 404, message: deadMessage, headers: {} };
}
