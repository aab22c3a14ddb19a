// `npm start`: the server (serve.ts), its modules loaded once the compile cache is on.
import { enableCompileCache } from './compile-cache.js';

enableCompileCache();
await import('./serve.js');
