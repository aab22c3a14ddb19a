// What the demo shop sells. Prices in paisa, like everything else; each tea's description is in the
// payer's catalogues (src/language/: demo.products), by its id.
import type { Messages } from '../language/en.js';

export interface Product {
  id: keyof Messages['demo']['products'];
  name: string;
  /** Paisa. */
  price: number;
  /** Picks the tin's colours in demo.css. */
  tone: 'green' | 'amber' | 'gold';
}

export const PRODUCTS: readonly Product[] = [
  { id: 'ilam-first-flush', name: 'Ilam First Flush', price: 65000, tone: 'green' },
  { id: 'masala-chai', name: 'Kathmandu Masala Chai', price: 42000, tone: 'amber' },
  { id: 'golden-tips', name: 'Himalayan Golden Tips', price: 120000, tone: 'gold' },
];

/** Added to every order, to show an amount breakdown on the payment page. */
export const DELIVERY_PAISA = 10000;

export function findProduct(id: unknown): Product | undefined {
  return PRODUCTS.find((product) => product.id === id);
}
