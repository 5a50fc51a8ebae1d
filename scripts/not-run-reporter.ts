import { appendFileSync } from 'node:fs';
import type { Reporter, TestModule } from 'vitest/node';

/**
 * Counts the suites that `describeNeeding` (apps/server/src/test/needs.ts) skipped because a service was
 * missing, and says so at the end of the run in a banner that is hard to miss. When KABUTO_NOT_RUN_LOG names
 * a file (scripts/test.mjs sets it), each such suite is also appended to it as one JSON line, so that
 * `npm test` can name every absence of all its steps once more at its very end.
 */
export interface NotRunLine {
  file: string;
  suite: string;
  need: string;
  reason: string;
  tests: number;
}

function notRunOf(meta: object): { need: string; reason: string } | undefined {
  const value: unknown = (meta as Record<string, unknown>)['notRun'];
  if (typeof value !== 'object' || value === null) return undefined;
  const { need, reason } = value as Record<string, unknown>;
  return typeof need === 'string' && typeof reason === 'string' ? { need, reason } : undefined;
}

export function notRunLines(modules: ReadonlyArray<TestModule>): NotRunLine[] {
  const lines: NotRunLine[] = [];
  for (const module of modules) {
    for (const suite of module.children.allSuites()) {
      const notRun = notRunOf(suite.meta());
      if (!notRun) continue;
      lines.push({
        file: module.relativeModuleId,
        suite: suite.fullName,
        ...notRun,
        tests: [...suite.children.allTests()].length,
      });
    }
  }
  return lines;
}

export default class NotRunReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const lines = notRunLines(modules);
    if (lines.length === 0) return;
    const log = process.env['KABUTO_NOT_RUN_LOG'];
    if (log) for (const line of lines) appendFileSync(log, `${JSON.stringify(line)}\n`);
    const tests = lines.reduce((n, line) => n + line.tests, 0);
    const count = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
    const rule = '!'.repeat(100);
    console.warn(
      [
        '',
        rule,
        `!! NOT RUN: ${count(tests, 'test')} in ${count(lines.length, 'suite')} needing a service this run did not have:`,
        ...lines.map(
          (line) => `!!   ${line.file} › ${line.suite} (${count(line.tests, 'test')}): ${line.reason}`,
        ),
        rule,
      ].join('\n'),
    );
  }
}
