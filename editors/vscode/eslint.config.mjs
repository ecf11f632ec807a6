// ESLint flat config: the recommended rules of ESLint and typescript-eslint (not type-aware).
// Formatting is Prettier's job (`npm run format`); no stylistic rules here.
import eslint from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import tseslint from 'typescript-eslint';

export default defineConfig(
  globalIgnores(['out/', 'dist/', 'node_modules/', 'bundled/', 'media/', 'webview/', 'test/']),
  eslint.configs.recommended,
  tseslint.configs.recommended,
);
