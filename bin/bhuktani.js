#!/usr/bin/env node
// `node bin/bhuktani.js <command>` from the project's root, or `bhuktani` where the package is
// installed: the compiled CLI in dist/, which npm install builds. Without it, say so in one line.
let compileCache;
try {
  compileCache = await import('../dist/compile-cache.js');
} catch (error) {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND') throw error;
  console.error('bhuktani: dist/ is not built; run npm install (or npm run build) in the project first');
  process.exit(1);
}
compileCache.enableCompileCache();
await import('../dist/cli/main.js');
