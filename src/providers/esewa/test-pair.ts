/** eSewa's published test pair, which its sandbox (and the simulator) answer to. */
export const ESEWA_TEST_PAIR = { product_code: 'EPAYTEST', secret_key: '8gBm/:&EnhH.1/q' };
