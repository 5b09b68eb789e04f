#!/usr/bin/env node
// `npm run bench`: runs bench/run.ts (TypeScript) through tsx; see bench/results.md.
import { register } from 'tsx/esm/api'

register()
await import('../bench/run.ts')
