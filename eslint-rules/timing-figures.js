/**
 * ESLint plugin `parley`, rule `no-timing-figures`: code comments say why, never how fast. A comment in `src/`
 * may not quote a measured time or rate — a number followed by µs, ns or ms, a throughput (req/s, ops/s,
 * msg/s, "… a second", "/s") or a cost per request (µs/req, s/req) — because such figures go stale with every
 * change of the code or the machine, and the comment then states something false. The numbers that justified
 * a decision live once, in docs/decisions/; the benchmark's latest output is docs/performance.md.
 *
 * Durations in seconds ("a 30 s lease", "a 60 s time-to-live") are contract or configuration values, not
 * measurements, and pass. A configured interval in milliseconds is named by its constant or written in seconds.
 */

/** Each pattern finds one kind of timing figure; the rule reports the first match. */
const PATTERNS = [
  // A time: 40 µs, 0.39 ms, 1,600–2,070 µs, 5ns.
  /(?<![\w.])\d[\d,.]*\s?(?:µs|μs|us|ns|ms)\b/,
  // A rate: 3,000 req/s, 120 ops/s, 958 msg/s, 2,000/s.
  /\b(?:req|reqs|requests|ops|msg|msgs|messages|tx|transactions)\/s\b/,
  /(?<![\w.])\d[\d,.]*\s?\/s\b/,
  // A cost per request: µs/req, s/req.
  /\/req\b/,
  // A rate in words: 1,510 req a second, 2,000 new rooms per second.
  /(?<![\w.])\d[\d,.]*(?:\s+[A-Za-z-]+){0,3}\s+(?:a|per)\s+second\b/,
];

/** The first timing figure in `text`, or null. */
export function timingFigure(text) {
  for (const pattern of PATTERNS) {
    const match = pattern.exec(text);
    if (match) return match[0];
  }
  return null;
}

const noTimingFigures = {
  meta: {
    type: 'suggestion',
    docs: { description: 'Comments say why, never how fast: no measured times or rates in comments.' },
    schema: [],
    messages: {
      figure:
        'Timing figure "{{figure}}" in a comment: comments say why, never how fast. Move the measurement to docs/decisions/ (or docs/performance.md) and keep the reason here.',
    },
  },
  create(context) {
    return {
      Program() {
        for (const comment of context.sourceCode.getAllComments()) {
          const figure = timingFigure(comment.value);
          if (figure) context.report({ loc: comment.loc, messageId: 'figure', data: { figure } });
        }
      },
    };
  },
};

export default { meta: { name: 'parley' }, rules: { 'no-timing-figures': noTimingFigures } };
