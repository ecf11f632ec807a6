#!/usr/bin/env node
// Packs the npm packages (npm/): the `skill-lsp` launcher, and one package per platform made
// from the template in npm/platform with the binary copied in.
//
//   node scripts/release/npm-pack.js launcher OUTDIR
//   node scripts/release/npm-pack.js PLATFORM BINARY OUTDIR     (PLATFORM: linux-x64, darwin-arm64, …)
//
// The platforms are the launcher's optionalDependencies; the version is Cargo.toml's (the
// launcher's own must match it: scripts/release/versions.py). Each package is staged in a temp
// folder with the licences, then `npm pack` writes OUTDIR/<name>-<version>.tgz, whose path is
// printed on stdout. No binary is ever written into the source tree.
'use strict';

const { execFileSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

const ROOT = path.resolve(__dirname, '..', '..');

function die(message) {
  process.stderr.write(`npm-pack: ${message}\n`);
  process.exit(2);
}

function cargoVersion() {
  const text = fs.readFileSync(path.join(ROOT, 'Cargo.toml'), 'utf8');
  const section = /^\[package\]\s*$([\s\S]*?)(?=^\[)/m.exec(text);
  const version = section && /^version\s*=\s*"([^"]+)"/m.exec(section[1]);
  if (!version) {
    die('no version in the [package] section of Cargo.toml');
  }
  return version[1];
}

function readJson(file) {
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

function writeJson(file, value) {
  fs.writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}

/** `linux-x64` -> os linux, cpu x64: the Node names (process.platform, process.arch) are the npm ones. */
function platformFields(platform) {
  const match = /^(linux|darwin|win32)-(x64|arm64)$/.exec(platform);
  if (!match) {
    die(`cannot tell os and cpu from '${platform}'`);
  }
  return { os: [match[1]], cpu: [match[2]] };
}

function pack(stage, outDir) {
  fs.mkdirSync(outDir, { recursive: true });
  const out = execFileSync('npm', ['pack', '--json', '--pack-destination', path.resolve(outDir)], {
    cwd: stage,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [result] = JSON.parse(out);
  return path.join(path.resolve(outDir), result.filename);
}

function copyLicences(stage) {
  for (const name of ['LICENSE-MIT', 'LICENSE-APACHE']) {
    fs.copyFileSync(path.join(ROOT, name), path.join(stage, name));
  }
}

function main(argv) {
  const version = cargoVersion();
  const launcherDir = path.join(ROOT, 'npm', 'skill-lsp');
  const launcher = readJson(path.join(launcherDir, 'package.json'));
  if (launcher.version !== version) {
    die(`npm/skill-lsp/package.json has version ${launcher.version}, Cargo.toml ${version} (python3 scripts/release/versions.py sync)`);
  }
  const stage = fs.mkdtempSync(path.join(os.tmpdir(), 'skill-lsp-npm-'));
  try {
    if (argv[0] === 'launcher' && argv.length === 2) {
      fs.cpSync(launcherDir, stage, { recursive: true });
      copyLicences(stage);
      const manifest = readJson(path.join(stage, 'package.json'));
      manifest.files = [...manifest.files, 'LICENSE-MIT', 'LICENSE-APACHE'];
      writeJson(path.join(stage, 'package.json'), manifest);
      return pack(stage, argv[1]);
    }
    if (argv.length !== 3) {
      die('usage: npm-pack.js launcher OUTDIR | npm-pack.js PLATFORM BINARY OUTDIR');
    }
    const [platform, binary, outDir] = argv;
    const name = `@skill-lsp/cli-${platform}`;
    if (!(name in (launcher.optionalDependencies || {}))) {
      die(`${name} is not among the optionalDependencies of npm/skill-lsp/package.json`);
    }
    if (!fs.statSync(binary, { throwIfNoEntry: false })?.isFile()) {
      die(`${binary} is not a file`);
    }
    const template = path.join(ROOT, 'npm', 'platform');
    const manifest = readJson(path.join(template, 'package.json'));
    Object.assign(manifest, platformFields(platform), {
      name,
      version,
      description: manifest.description.replace('PLATFORM', platform),
    });
    manifest.files = [...manifest.files, 'LICENSE-MIT', 'LICENSE-APACHE'];
    writeJson(path.join(stage, 'package.json'), manifest);
    const readme = fs.readFileSync(path.join(template, 'README.md'), 'utf8').replaceAll('PLATFORM', platform);
    fs.writeFileSync(path.join(stage, 'README.md'), readme);
    copyLicences(stage);
    const exe = platform.startsWith('win32-') ? 'skill-lsp.exe' : 'skill-lsp';
    fs.mkdirSync(path.join(stage, 'bin'));
    fs.copyFileSync(binary, path.join(stage, 'bin', exe));
    fs.chmodSync(path.join(stage, 'bin', exe), 0o755);
    return pack(stage, outDir);
  } finally {
    fs.rmSync(stage, { recursive: true, force: true });
  }
}

process.stdout.write(`${main(process.argv.slice(2))}\n`);
