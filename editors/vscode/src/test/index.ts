// extensionTestsPath: runs the mocha suite inside the extension host. Which files run depends on
// SKILL_LSP_E2E_MODE (main: a working server from the setting; restricted: an untrusted workspace;
// bundled: the platform package's own server, nothing on PATH). The counts go
// out on one marker line the runner script parses, because mocha's own summary says "passing".

import * as path from 'path';
import Mocha from 'mocha';

const SUITES: Record<string, string[]> = {
  main: [
    'protocol',
    'activation',
    'diagnostics',
    'editing',
    'typing',
    'catalog',
    'agent',
    'evals',
    'approvals',
    'skills',
    'chatMarkdown',
    'security',
  ],
  restricted: ['restricted'],
  bundled: ['bundled'],
};

export function run(): Promise<void> {
  const mode = process.env.SKILL_LSP_E2E_MODE ?? 'main';
  const files = SUITES[mode];
  if (!files) {
    return Promise.reject(new Error(`unknown SKILL_LSP_E2E_MODE '${mode}'`));
  }
  const mocha = new Mocha({ ui: 'tdd', color: false, timeout: 30_000, reporter: 'spec' });
  const grep = process.env.SKILL_LSP_E2E_GREP;
  if (grep) {
    // A regular expression, so that several suites can be picked at once.
    mocha.grep(new RegExp(grep));
  }
  for (const file of files) {
    mocha.addFile(path.join(__dirname, 'suite', `${file}.test.js`));
  }
  return new Promise((resolve, reject) => {
    let passed = 0;
    let failed = 0;
    const runner = mocha.run((failures) => {
      console.log(`SKILL_LSP_E2E_RESULT passed=${passed} failed=${failed}`);
      if (failures > 0) {
        reject(new Error(`${failures} test(s) failed`));
      } else {
        resolve();
      }
    });
    runner.on('pass', () => {
      passed += 1;
    });
    runner.on('fail', () => {
      failed += 1;
    });
  });
}
