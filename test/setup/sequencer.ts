/**
 * The order files start in. `npm test` runs every project in one pool of two
 * workers; vitest's own order goes project by project (by name), so a long file
 * of a late project (e.g. `sqlite-process`'s crash test) could start last and
 * keep one worker busy long after the other ran dry. Here the longest files of
 * the whole run start first, both backends of a file side by side, and the many
 * short files fill the gaps at the end, so the two workers finish together.
 *
 * The longest files are named below, longest first (they dominate every run and
 * do not change often); every other file follows by its duration in vitest's
 * results cache of earlier runs, longest first, then by size.
 */
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const LONGEST_FIRST = [
  'test/browser/widget-journeys.test.ts',
  'test/browser/console.test.ts',
  'test/reliability/crash-durability.test.ts',
  'test/reliability/process-races.test.ts',
  'test/fuzz/openapi-fuzz.test.ts',
  'test/process/scale-out.test.ts',
  'test/browser/widget.test.ts',
  'test/process/realtime-scale-out.test.ts',
  'test/reliability/hostile-clients.test.ts',
  'test/reliability/graceful-shutdown.test.ts',
  'test/reliability/log-secrets.test.ts',
];

export default class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const rank = (spec: TestSpecification) => {
      const index = LONGEST_FIRST.indexOf(relative(root, spec.moduleId));
      return index === -1 ? LONGEST_FIRST.length : index;
    };
    const cached = (spec: TestSpecification) =>
      this.ctx.cache.getFileTestResults(`${spec.project.name}:${relative(root, spec.moduleId)}`)?.duration ?? -1;
    const size = (spec: TestSpecification) => this.ctx.cache.getFileStats(`${spec.project.name}:${relative(root, spec.moduleId)}`)?.size ?? 0;
    return [...files].sort((a, b) => rank(a) - rank(b) || cached(b) - cached(a) || size(b) - size(a));
  }
}
