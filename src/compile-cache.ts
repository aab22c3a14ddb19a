import module from 'node:module';

/**
 * V8's compile cache, on a Node that has it (22.8 and later; nothing on 20): modules loaded after
 * this call are compiled once and reused by later starts (in NODE_COMPILE_CACHE, else the system's
 * temporary directory). Called by the entry points before they load the rest.
 */
export function enableCompileCache(): void {
  (module as { enableCompileCache?: () => unknown }).enableCompileCache?.();
}
