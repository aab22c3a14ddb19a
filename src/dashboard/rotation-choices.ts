// When a rotated key's predecessor stops working: the choices every rotation form offers (secret
// keys and eSewa's), from ROTATION_GRACE_SECONDS.
import type { Html } from '../http/html.js';
import type { RotationGrace } from '../merchants/rotate-secret-key.js';
import { selectInput } from './form-controls.js';

export const GRACE_CHOICES: [RotationGrace, string][] = [
  [0, 'Immediately'],
  [3600, 'After 1 hour'],
  [86400, 'After 24 hours'],
  [604800, 'After 7 days'],
];

export const graceText = (grace: RotationGrace) => GRACE_CHOICES.find(([s]) => s === grace)![1];

/** `id` and `label` tell the keys page's two rotation forms apart. */
export const graceSelect = (o: { id?: string; label?: string } = {}): Html =>
  selectInput({ name: 'grace', label: o.label ?? 'Revoke the old key', value: '0', options: GRACE_CHOICES.map(([s, t]) => [String(s), t]), id: o.id });
