// A set-up file of the in-process suites (vitest.config.ts, vitest.browser.config.ts): passwords
// and MPINs are hashed at scrypt's test cost (src/people/password.ts), about 45 s of
// CPU less in an `npm test` on the 2-core machine. The test that measures a hash's time takes the
// production cost back for itself.
import { usePasswordCost } from '../src/people/password.js';

usePasswordCost('tests');
