#!/usr/bin/env node
// The RAD command-line reader. Runs the TypeScript sources directly through
// tsx, so it works right after `npm install` with no build step.
import { register } from 'tsx/esm/api'

register()
const { main } = await import('../src/cli/main.ts')
process.exitCode = await main(process.argv.slice(2))
