/**
 * The operator console in a real browser for a Node test file: Debian's Chromium (CHROMIUM_PATH
 * overrides; no browser download is possible) driven by playwright-core, against the real runtime
 * over HTTP (./runtime.ts), with screenshots under test-artifacts/console.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { ROOT } from '../../../runtime/local-runtime.mjs';
import { START_HOOK_MS } from '../../support/processes';
import { startTestRuntime } from './runtime';

export const ADMIN = 'dev-admin-token';
export const SHOTS = path.join(ROOT, 'test-artifacts', 'console');

/** Chromium, headless; fails at once, saying how to get it, where there is none. */
export function launchChromium(): Promise<Browser> {
  const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(executablePath))
    throw new Error(`Chromium not found at ${executablePath} (apt-get install chromium)`);
  mkdirSync(SHOTS, { recursive: true });
  return chromium.launch({ executablePath, args: ['--no-sandbox'] });
}

/** A webhook receiver that answers 500 until fixed, then 200: FAILED deliveries for the console to redeliver. */
export async function failingReceiver(): Promise<{ url: string; fix(): void; close(): Promise<void> }> {
  let failing = true;
  const server = createServer((req, res) => {
    req.resume();
    res.writeHead(failing ? 500 : 200).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    fix: () => {
      failing = false;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Signs `page` in to the console at `base` with the admin token. */
export async function signIn(page: Page, base: string): Promise<void> {
  await page.goto(`${base}/admin/console`);
  await page.fill('input[name="token"]', ADMIN);
  await Promise.all([page.waitForURL(/\/admin\/console$/), page.click('button[type="submit"]')]);
}

/**
 * A runtime and a browser for the file's tests (and, when asked, a webhook receiver that fails until
 * fixed): started before them (`label` names the work directory), closed after them.
 */
export function consoleInBrowser(label: string, options: { failingReceiver?: boolean } = {}) {
  let runtime: Awaited<ReturnType<typeof startTestRuntime>>;
  let browser: Browser;
  let receiver: Awaited<ReturnType<typeof failingReceiver>> | undefined;
  const work = mkdtempSync(path.join(tmpdir(), `connectpsp-${label}-`));
  beforeAll(async () => {
    if (options.failingReceiver) receiver = await failingReceiver();
    runtime = await startTestRuntime(work);
    browser = await launchChromium();
  }, START_HOOK_MS);
  afterAll(async () => {
    await browser?.close();
    await runtime?.dispose();
    await receiver?.close();
    rmSync(work, { recursive: true, force: true });
  }, 60_000);
  return {
    get runtime() {
      return runtime;
    },
    get browser() {
      return browser;
    },
    get receiver() {
      if (!receiver) throw new Error('consoleInBrowser: ask for { failingReceiver: true }');
      return receiver;
    },
  };
}
