#!/usr/bin/env node
// Finds the Chromium the browser tests drive (Debian's package; Playwright's
// own browser download is never used). Installs it with apt-get when running
// as root on Debian, otherwise says exactly what to install.
import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'

const path = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
if (existsSync(path)) process.exit(0)

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0
if (process.env.CHROMIUM_PATH === undefined && isRoot && existsSync('/usr/bin/apt-get')) {
  console.error(`[ensure-chromium] ${path} not found: installing Debian's chromium package…`)
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env })
  execFileSync('apt-get', ['install', '-y', '-qq', 'chromium'], { stdio: 'inherit', env })
  if (existsSync(path)) process.exit(0)
}
console.error(
  `[ensure-chromium] no Chromium at ${path}.\n` +
    `Install Debian's package (as root: apt-get install -y chromium), or set CHROMIUM_PATH to a Chromium binary.`,
)
process.exit(1)
