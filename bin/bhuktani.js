#!/usr/bin/env node
import { enableCompileCache } from '../dist/compile-cache.js';

enableCompileCache();
await import('../dist/bundle/cli.js');
