#!/usr/bin/env node
// The `skill-lsp` command of the npm package: runs the native binary from the platform package
// npm installed beside this one. Each @skill-lsp/cli-<platform>-<arch> package is an optional
// dependency whose `os` and `cpu` fields match one kind of machine, so npm installs only the
// one for this machine (the layout biome and oxlint use). Arguments, stdin/stdout/stderr (the
// language server speaks over them), the exit code and a death by signal all pass through.
'use strict';

const { spawn } = require('child_process');
const path = require('path');

const key = `${process.platform}-${process.arch}`;
const pkg = `@skill-lsp/cli-${key}`;
const exe = process.platform === 'win32' ? 'skill-lsp.exe' : 'skill-lsp';

function binaryPath() {
  let manifest;
  try {
    manifest = require.resolve(`${pkg}/package.json`);
  } catch {
    const supported = Object.keys(require('../package.json').optionalDependencies || {});
    const known = supported.includes(pkg);
    process.stderr.write(
      known
        ? `skill-lsp: the package ${pkg}, which holds the skill-lsp binary for ${key}, is not installed.\n` +
            'npm installs it with skill-lsp as an optional dependency: install again without --omit=optional ' +
            `(or --no-optional), or add ${pkg} to your dependencies.\n`
        : `skill-lsp: there is no prebuilt skill-lsp for ${key} (${pkg} does not exist; prebuilt: ${supported.join(', ')}).\n` +
            'Build it with the Rust toolchain instead: cargo install --git https://github.com/skill-lsp/skill-lsp\n',
    );
    process.exit(2);
  }
  return path.join(path.dirname(manifest), 'bin', exe);
}

const binary = binaryPath();
const child = spawn(binary, process.argv.slice(2), { stdio: 'inherit', windowsHide: false });

// Ctrl-C and Ctrl-\ reach the child already (the terminal signals the whole process group);
// passing them on would make one press count twice (`skill-lsp chat` quits on the second).
// This process only outlives them, to report how the child ended. Signals sent to this
// process alone are passed on.
const forwarded = ['SIGTERM', 'SIGHUP'];
const swallowed = ['SIGINT', 'SIGQUIT'];
const handlers = new Map();
for (const signal of [...forwarded, ...swallowed]) {
  const handler = forwarded.includes(signal) ? () => child.kill(signal) : () => {};
  handlers.set(signal, handler);
  try {
    process.on(signal, handler);
  } catch {
    // Not every signal exists on every platform (SIGQUIT on Windows).
  }
}

child.on('error', (error) => {
  process.stderr.write(`skill-lsp: could not run ${binary}: ${error.message}\n`);
  process.exit(2);
});

child.on('exit', (code, signal) => {
  if (signal) {
    // Die the same way, so a shell or CI sees the signal and not a made-up exit code.
    for (const [name, handler] of handlers) {
      process.removeListener(name, handler);
    }
    process.kill(process.pid, signal);
    return;
  }
  process.exit(code === null ? 1 : code);
});
