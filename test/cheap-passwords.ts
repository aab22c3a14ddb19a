// A set-up file of the in-process suites (vitest.config.ts, vitest.browser.config.ts): passwords
// and MPINs are hashed at scrypt's test cost (src/people/password.ts), about 45 s of
// CPU less in an `npm test` on the 2-core machine.
import { usePasswordCost } from '../src/people/password.js';

usePasswordCost('tests');
