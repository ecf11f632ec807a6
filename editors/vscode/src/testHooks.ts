// What the tests read of the webview pages, built only into the test bundle: behind
// SKILL_LSP_TEST_HOOKS (src/webview/build.d.ts) the minifier drops it all from the shipped one,
// the message types and names included; scripts/ci_vscode.sh checks the packaged .vsix for them.
// Written as an expression under the flag, not as declarations: --keep-names keeps every
// declared function in the bundle, used or not.

import type { ContrastReport, FromAgentPage, FromEvalPage, ScrollState, ToAgentPage } from './webview/messages';

/** A page's reports: what it last drew, where it was scrolled, the prompt it was given, its contrast audit. */
export interface PageReports {
  text?: string;
  html?: string;
  scroll?: ScrollState;
  draft?: string;
  /** Takes a report of the page; false for any other message, which the panel handles. */
  take(message: FromAgentPage | FromEvalPage): boolean;
  /** Asks the page for its contrast audit through `post` and resolves with it. */
  audit(post: (message: ToAgentPage) => Promise<boolean>): Promise<ContrastReport>;
}

/** A new page's reports, in the test bundle; undefined in the shipped one. */
export const pageReports: (() => PageReports) | undefined = SKILL_LSP_TEST_HOOKS
  ? () => {
      const audits: ((report: ContrastReport) => void)[] = [];
      const reports: PageReports = {
        take(message) {
          switch (message.type) {
            case 'rendered':
              reports.text = message.text;
              if ('html' in message) {
                reports.html = message.html;
                reports.scroll = message.scroll;
              }
              return true;
            case 'draft':
              reports.draft = message.text;
              return true;
            case 'contrast':
              for (const resolve of audits.splice(0)) resolve(message.report);
              return true;
          }
          return false;
        },
        audit(post) {
          return new Promise((resolve) => {
            audits.push(resolve);
            void post({ type: 'audit' });
          });
        },
      };
      return reports;
    }
  : undefined;
