#!/usr/bin/env node
// Opens code-server's workbench in headless Chromium with a `payload` that makes it run the
// extension tests (extensionDevelopmentPath + extensionTestsPath), the way @vscode/test-web
// does, and exits with the tests' exit code.
//
//   node run-e2e.js URL FOLDER DEV_PATH TESTS_PATH [TIMEOUT_MS]
//
// Env: CHROMIUM (default /usr/bin/chromium), SCREENSHOT (PNG path, taken when the tests end),
// SCREENSHOT_DIR (where a test's `SKILL_LSP_E2E_SCREENSHOT name` log line puts name.png; the
// test waits for the file, which appears whole, by a rename).
// Prints `e2e result: passed=N failed=M` when the suite reported its counts.
'use strict';

const fs = require('fs');
const path = require('path');
const util = require('util');
const { chromium } = require('playwright-core');

/** Writes DIR/NAME.png whole: the test polls for the name, so it must not see half a file. */
async function screenshot(page, dir, name) {
  const file = path.join(dir, `${name}.png`);
  try {
    fs.mkdirSync(dir, { recursive: true });
    const image = await page.screenshot();
    fs.writeFileSync(`${file}.part`, image);
    fs.renameSync(`${file}.part`, file);
    console.log(`screenshot: ${file}`);
  } catch (error) {
    console.log(`screenshot ${file} failed: ${error}`);
  }
}

async function main() {
  const [url, folder, devPath, testsPath, timeoutArg = '150000'] = process.argv.slice(2);
  if (!testsPath) {
    throw new Error('usage: run-e2e.js URL FOLDER DEV_PATH TESTS_PATH [TIMEOUT_MS]');
  }
  const host = new URL(url).host;
  const remote = (p) => `vscode-remote://${host}${p}`;
  const payload = [
    ['extensionDevelopmentPath', remote(devPath)],
    ['extensionTestsPath', remote(testsPath)],
  ];
  const target = `${url}/?folder=${encodeURIComponent(folder)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;

  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  let counts;
  let code;
  try {
    const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
    let finish;
    const exited = new Promise((resolve) => (finish = resolve));
    // One screenshot at a time, in the order the tests ask for them.
    let shots = Promise.resolve();
    await page.exposeFunction('codeAutomationLog', (type, args) => {
      const line = util.format(...args);
      const match = /SKILL_LSP_E2E_RESULT passed=(\d+) failed=(\d+)/.exec(line);
      if (match) {
        counts = { passed: Number(match[1]), failed: Number(match[2]) };
      }
      const shot = /SKILL_LSP_E2E_SCREENSHOT ([\w-]+)/.exec(line);
      if (shot && process.env.SCREENSHOT_DIR) {
        shots = shots.then(() => screenshot(page, process.env.SCREENSHOT_DIR, shot[1]));
      }
      console.log(`[exthost ${type}] ${line}`);
    });
    await page.exposeFunction('codeAutomationExit', (exitCode) => finish(exitCode));
    page.on('pageerror', (error) => console.log(`[pageerror] ${error.message}`));
    await page.goto(target);
    const timeoutMs = Number(timeoutArg);
    let timer;
    code = await Promise.race([exited, new Promise((resolve) => (timer = setTimeout(() => resolve('timeout'), timeoutMs)))]);
    clearTimeout(timer);
    if (process.env.SCREENSHOT) {
      await page.screenshot({ path: process.env.SCREENSHOT });
      console.log(`screenshot: ${process.env.SCREENSHOT}`);
    }
  } finally {
    await browser.close();
  }
  if (code === 'timeout') {
    console.log(`e2e: the tests did not finish within ${timeoutArg} ms`);
  }
  if (counts) {
    console.log(`e2e result: passed=${counts.passed} failed=${counts.failed}`);
  }
  console.log(`e2e exit code: ${code}`);
  return code === 0 && counts !== undefined ? 0 : 1;
}

main().then(
  (status) => process.exit(status),
  (error) => {
    console.error(error);
    process.exit(2);
  },
);
