// `npm run build`: prepares dist/initial-store, the data directory a first start copies (see initial-store.ts).
import { INITIAL_STORE, writeInitialStore } from './initial-store.js';

await writeInitialStore(INITIAL_STORE);
console.log(`bhuktani: prepared ${INITIAL_STORE}`);
