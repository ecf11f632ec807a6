// The bundles the .vsix carries: the extension (Node) and the two webview pages (browser).
// SKILL_LSP_TEST_HOOKS=1 builds the test bundle, with the hooks the code-server suite drives
// (src/webview/build.d.ts); without it, the shipped one, from which the minifier drops them.
import * as esbuild from 'esbuild';

const testHooks = process.env.SKILL_LSP_TEST_HOOKS === '1';
const define = { SKILL_LSP_TEST_HOOKS: String(testHooks) };

await Promise.all([
  esbuild.build({
    entryPoints: ['src/extension.ts'],
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    external: ['vscode'],
    outfile: 'dist/extension.js',
    minify: true,
    keepNames: true,
    sourcemap: true,
    define,
  }),
  esbuild.build({
    entryPoints: ['src/webview/agentPanel.ts', 'src/webview/evalPanel.ts'],
    bundle: true,
    platform: 'browser',
    target: 'chrome120',
    format: 'iife',
    outdir: 'dist',
    minify: true,
    define,
  }),
]);
console.log(`bundled dist/extension.js, dist/agentPanel.js, dist/evalPanel.js (${testHooks ? 'with' : 'without'} test hooks)`);
