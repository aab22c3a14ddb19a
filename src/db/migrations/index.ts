import m001 from './001_merchants_payments.js';

/** Applied in order, each once, each in its own transaction. Never edit one that has shipped: add another. */
export const migrations: { name: string; sql: string }[] = [{ name: '001_merchants_payments', sql: m001 }];
