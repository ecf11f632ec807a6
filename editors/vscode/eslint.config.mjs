// ESLint flat config: the recommended rules of ESLint and typescript-eslint (not type-aware).
// Formatting is Prettier's job (`npm run format`); no stylistic rules here.
import eslint from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import tseslint from 'typescript-eslint';

export default defineConfig(
  globalIgnores(['out/', 'dist/', 'node_modules/', 'bundled/', 'test/']),
  eslint.configs.recommended,
  tseslint.configs.recommended,
  {
    // The webview pages run in the browser: tsc checks their names against the DOM library
    // (src/webview/tsconfig.json), which ESLint's no-undef does not know.
    files: ['src/webview/**/*.ts'],
    rules: { 'no-undef': 'off' },
  },
  {
    // The bundling script runs in Node.
    files: ['esbuild.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
);
