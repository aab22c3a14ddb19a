// Fonepay's published test merchant ("Testing Credentials" of its Dynamic QR document; its web
// document's PHP sample): the sandbox's set-up (fonepay.ts) and its simulator (src/sandbox/fonepay/).
export const FONEPAY_TEST_MERCHANT = { merchant_code: 'fonepay123', secret_key: 'fonepay', username: 'bijayk', password: 'password' };
