/**
 * The order files start in. `npm test` runs every project in one pool of two
 * workers, which keeps a worker (and every module it loaded) for the next file
 * only when that file is of the same project; a file of another project gets a
 * freshly started worker that loads everything again. So the files run project
 * by project, the projects with the longest files first, and within a project
 * the longest files first; the many short files of the last projects fill the
 * gaps at the end, so the two workers finish together.
 *
 * The longest files are named below, longest first (they dominate every run and
 * do not change often); every other file follows by its duration in vitest's
 * results cache of earlier runs, longest first, then by size.
 */
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const PROJECTS = ['sqlite-process', 'postgres-process', 'postgres', 'sqlite', 'unit', 'console'];

const LONGEST_FIRST = [
  'test/browser/console.test.ts',
  'test/browser/console-journey.test.ts',
  'test/reliability/crash-durability.test.ts',
  'test/browser/widget-journeys.test.ts',
  'test/reliability/process-races.test.ts',
  'test/process/scale-out.test.ts',
  'test/process/realtime-scale-out.test.ts',
  'test/reliability/hostile-clients.test.ts',
  'test/fuzz/openapi-fuzz.test.ts',
  'test/browser/widget.test.ts',
  'test/reliability/log-secrets.test.ts',
];

export default class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const project = (spec: TestSpecification) => {
      const index = PROJECTS.indexOf(spec.project.name);
      return index === -1 ? PROJECTS.length : index;
    };
    const rank = (spec: TestSpecification) => {
      const index = LONGEST_FIRST.indexOf(relative(root, spec.moduleId));
      return index === -1 ? LONGEST_FIRST.length : index;
    };
    const cached = (spec: TestSpecification) =>
      this.ctx.cache.getFileTestResults(`${spec.project.name}:${relative(root, spec.moduleId)}`)?.duration ?? -1;
    const size = (spec: TestSpecification) => this.ctx.cache.getFileStats(`${spec.project.name}:${relative(root, spec.moduleId)}`)?.size ?? 0;
    return [...files].sort((a, b) => project(a) - project(b) || rank(a) - rank(b) || cached(b) - cached(a) || size(b) - size(a));
  }
}
