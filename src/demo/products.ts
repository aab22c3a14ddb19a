// What the demo shop sells. Prices in paisa, like everything else.

export interface Product {
  id: string;
  name: string;
  description: string;
  /** Paisa. */
  price: number;
  /** Picks the tin's colours in demo.css. */
  tone: 'green' | 'amber' | 'gold';
}

export const PRODUCTS: readonly Product[] = [
  { id: 'ilam-first-flush', name: 'Ilam First Flush', description: 'Light, floral black tea from the eastern hills. 100 g tin.', price: 65000, tone: 'green' },
  { id: 'masala-chai', name: 'Kathmandu Masala Chai', description: 'Strong black tea with cardamom, ginger and cinnamon. 250 g.', price: 42000, tone: 'amber' },
  { id: 'golden-tips', name: 'Himalayan Golden Tips', description: 'Hand-rolled golden buds, honey-sweet and smooth. 50 g tin.', price: 120000, tone: 'gold' },
];

/** Added to every order, to show an amount breakdown on the payment page. */
export const DELIVERY_PAISA = 10000;

export function findProduct(id: unknown): Product | undefined {
  return PRODUCTS.find((product) => product.id === id);
}
