/**
 * How the end-to-end spec files are spread over the suite's servers (playwright.config.ts, ADR 0045): each
 * server's files run one after another in one worker, so the suite ends when the slowest server does.
 */

/** The seconds each spec file took in a recorded run (e2e/durations.json), by path relative to e2e/. */
export type Durations = Readonly<Record<string, number>>;

/**
 * Spreads `files` over `count` groups of about the same total time: the longest file first, each file to the
 * group with the least time so far (the lower index on a tie). A file with no recorded duration (a new spec)
 * counts as the mean of the recorded ones, so it lands in some group all the same. The same files and
 * durations always give the same groups; each group is in name order, the order Playwright runs a project's
 * files in.
 */
export function splitByDuration(files: readonly string[], durations: Durations, count: number): string[][] {
  const known = files.map((f) => durations[f]).filter((d): d is number => d !== undefined && d >= 0);
  const fallback = known.length > 0 ? known.reduce((a, b) => a + b, 0) / known.length : 1;
  const cost = (f: string) => {
    const d = durations[f];
    return d !== undefined && d >= 0 ? d : fallback;
  };
  const groups = Array.from({ length: Math.max(1, Math.floor(count)) }, () => ({
    files: [] as string[],
    total: 0,
  }));
  const order = [...new Set(files)].sort((a, b) => cost(b) - cost(a) || (a < b ? -1 : a > b ? 1 : 0));
  for (const file of order) {
    const lightest = groups.reduce((best, g) => (g.total < best.total ? g : best));
    lightest.files.push(file);
    lightest.total += cost(file);
  }
  return groups.map((g) => g.files.sort());
}
