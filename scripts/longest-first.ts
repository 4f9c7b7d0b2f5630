import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * A test run's order: the files named start first, in the order given, then every other file in
 * vitest's own order (failed first, then longest first by the last run's times, which a clean
 * clone has none of: it falls back to the larger file first).
 *
 * Two workers take files from one queue, so a long file that starts last runs on alone while the
 * other worker idles: the PostgreSQL run's minute-long outage test, started when most of the suite
 * was done, held it up for 48 s (docs/benchmarks.md, "Longest files first"). A clean clone (CI,
 * a newcomer) has no times of an earlier run, and a run on PostgreSQL would otherwise go by the
 * PGlite run's times, where a PostgreSQL-only file took none.
 */
export function longestFirst(files: readonly string[]) {
  return class LongestFirst extends BaseSequencer {
    override async sort(specs: TestSpecification[]): Promise<TestSpecification[]> {
      const rank = (spec: TestSpecification) => {
        const at = files.findIndex((file) => spec.moduleId.endsWith(`/${file}`));
        return at < 0 ? files.length : at;
      };
      // Array.prototype.sort is stable: the files not named keep vitest's order.
      return (await super.sort(specs)).sort((a, b) => rank(a) - rank(b));
    }
  };
}
