// `npm run build`: the server and the CLI as bundles (dist/bundle/), which `npm start` and
// bin/bhuktani.js run. Loading 418 modules one by one (each resolved, read and compiled on its own)
// was a third of a restart; a bundle is one file per entry. Modules loaded only when used (the
// PostgreSQL driver, each CLI command, the QR code) are in it but run only when they are. Not split
// into chunks: esbuild gives a chunk of CommonJS loaded by import() a default export only, where
// Node gives its named exports too (@fastify/cookie's import('cookie') then found no functions).
import { build, type BuildOptions, type Plugin } from 'esbuild';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const BUNDLE_DIR = join(ROOT, 'dist/bundle');

/*
 * A module finds files from its own address (assets/, dist/initial-store, package.json). In a bundle
 * every module's address would be the bundle's, so each module's `import.meta.url` is written as the
 * address its compiled file has in dist/ (src/http/x.ts: dist/http/x.js), found from the bundle's:
 * the same paths resolve as from tsc's output.
 */
function ownAddresses(outdir: string): Plugin {
  return {
    name: 'own-addresses',
    setup(build) {
      build.onLoad({ filter: /\/src\/.*\.ts$/ }, async (args) => {
        const source = await readFile(args.path, 'utf8');
        if (!source.includes('import.meta.url')) return { contents: source, loader: 'ts' };
        const compiled = join(ROOT, 'dist', relative(join(ROOT, 'src'), args.path)).replace(/\.ts$/, '.js');
        const address = `new URL(${JSON.stringify(relative(outdir, compiled))}, import.meta.url).href`;
        return { contents: source.replaceAll('import.meta.url', address), loader: 'ts' };
      });
    },
  };
}

/*
 * Each bundle is written in ASCII. esbuild leaves the text of template literals (the pages' `html`)
 * and comments as written, and one character outside ASCII makes V8 hold the whole 3.7 MB script as
 * a two-byte string: read and decoded on every start (48 ms, against 24 ms for ASCII read as Latin-1, on the 2-core machine) and
 * twice the memory while it lives. Written as escapes, each means what it meant: in a string, a
 * cooked template (no bundled code reads a template's raw text), a regular expression or a comment.
 */
function asciiOnly(text: string, file: string): string {
  if (/\\[^\x00-\x7f]/.test(text)) throw new Error(`${file}: a character outside ASCII after a backslash cannot be written as an escape`);
  return text.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Builds with esbuild, and writes what it built in ASCII. */
async function buildAscii(options: BuildOptions): Promise<void> {
  const { outputFiles } = await build({ ...options, write: false });
  await Promise.all(outputFiles.map(async (file) => {
    await mkdir(dirname(file.path), { recursive: true });
    await writeFile(file.path, asciiOnly(file.text, file.path));
  }));
}

export async function bundle(outdir = BUNDLE_DIR): Promise<void> {
  // Chunks are named by their content: an earlier build's would stay beside the new ones.
  await rm(outdir, { recursive: true, force: true });
  const common = {
    outdir,
    bundle: true,
    platform: 'node',
    target: 'node20',
    // PGlite finds its WebAssembly and file system beside its own modules; pg-native is pg's optional
    // native binding, never installed.
    external: ['@electric-sql/pglite', 'pg-native'],
    plugins: [ownAddresses(outdir)],
    logLevel: 'warning',
    legalComments: 'none',
  } satisfies BuildOptions;
  await Promise.all([
    buildAscii({
      ...common,
      entryPoints: { server: join(ROOT, 'src/main.ts'), cli: join(ROOT, 'src/cli/main.ts') },
      format: 'esm',
      // The CommonJS packages bundled (Fastify, pino, pg …) call require for Node's own modules.
      banner: { js: "import { createRequire as bundleRequire } from 'node:module'; const require = bundleRequire(import.meta.url);" },
    }),
    // The server's own code, as a script: main.ts runs it through V8's code cache (code-cache.ts),
    // which Node 20 offers scripts only. Its modules' addresses (above) are found from its own. The
    // store's thread is a script too, and loads PGlite's CommonJS build: a thread that loads both so
    // had PGlite ready about 15 ms sooner than one importing their ES modules (measured alone, on
    // the 2-core machine), and every restart waits for that thread.
    buildAscii({
      ...common,
      entryPoints: { serve: join(ROOT, 'src/serve.ts'), 'store-thread-worker': join(ROOT, 'src/db/store-thread-worker.ts') },
      format: 'cjs',
      outExtension: { '.js': '.cjs' },
      define: { 'import.meta.url': 'bundleUrl' },
      banner: { js: "const bundleUrl = require('node:url').pathToFileURL(__filename).href;" },
    }),
  ]);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await bundle();
  console.log(`bhuktani: bundled ${relative(ROOT, BUNDLE_DIR)}/server.js and cli.js`);
}
