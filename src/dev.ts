// `npm run dev`: the server from its sources (tsx), started again by tsx on every change of a file it
// loads. The embedded store opens on this thread (npm start's has a thread of its own, main.ts).
import { loadConfig } from './config.js';
import { serve } from './serve.js';

try {
  await serve(loadConfig());
} catch (error) {
  const known = error instanceof Error && (error.name === 'ConfigError' || error.name === 'DataDirBusyError');
  console.error(known ? `bhuktani: ${error.message}` : error);
  process.exit(1);
}
