/** Debian's Chromium driven by playwright-core; never a downloaded browser. */
import { chromium, type Browser } from 'playwright-core'

/** `extraArgs`: more Chromium switches, e.g. `--host-resolver-rules=MAP inkwell.test 127.0.0.1`. */
export function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', ...extraArgs],
  })
}
