/**
 * `true` in the test bundle, `false` in the shipped one: esbuild puts the value in at build time
 * (esbuild.mjs), and the minifier drops every branch it guards. Test hooks live only behind it.
 */
declare const SKILL_LSP_TEST_HOOKS: boolean;
