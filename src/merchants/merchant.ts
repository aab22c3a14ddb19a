import type { Environment } from '../environment.js';

export interface Merchant {
  id: number;
  idx: string;
  name: string;
  email: string;
  mobile: string;
  fee_bps: number;
  created_at: Date;
}

/** Who is calling the API: the merchant and the environment its key selects. */
export interface ApiCaller {
  merchant: Merchant;
  environment: Environment;
  keyId: number;
}
