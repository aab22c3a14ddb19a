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
