// The real-browser harness: a static server over a folder and Debian's headless Chromium.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync } from 'node:fs';
import sirv from 'sirv';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** CI sets this so that a missing browser fails the run instead of skipping the browser tests. */
export const BROWSER_REQUIRED = process.env.BITPUZZLE_BROWSER_TESTS === 'required';
export const chromiumAvailable = existsSync(CHROMIUM);

/**
 * Serves `root` over HTTP on a free port (application/wasm for .wasm, as a real host would);
 * `isolated` sends the headers that make its pages cross-origin isolated (SharedArrayBuffer).
 */
export async function serve(root: string, options: { isolated?: boolean } = {}): Promise<{ url: string; close: () => Promise<void> }> {
  const files = sirv(root, { dev: true });
  const server = http.createServer((req, res) => {
    if (options.isolated) {
      res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
      res.setHeader('Cross-Origin-Embedder-Policy', 'require-corp');
    }
    files(req, res, () => {
      res.statusCode = 404;
      res.end('not found');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
