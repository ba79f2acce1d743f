// `{% file path %}…{% endfile %}`: the block is one output of a batch (template-runner.ts),
// the site's file `path`. Its text is handed to the render's sink as soon as it is made (a
// build's sink writes it at once: write-pages.ts), and nothing goes into the template's
// own output.
//
// Why: a batch of 50 pages used to come out as one text, a marker before each
// file, split once the batch was done. Every page then lived as long as the whole batch,
// long enough to be copied out of V8's young generation into fresh old-generation memory
// (and the batch's text, up to 2.4 MB, into fresh large-object pages when it was
// flattened to be split). Here the first touch of a fresh page costs 12-16 µs. Handed over
// one by one, a page's text dies young: at 10,000 notes 80,000 page faults instead of
// 110,000, peak 281 MB instead of 358, CPU 9.8 s instead of 11.1 (paired rounds: 0.90 of
// the time; 1,000 notes 0.97). A page's path no longer passes through its text either.
import type nunjucks from 'nunjucks';

/** One output of a render: the site file's path, and its text. */
export type RenderedFile = [file: string, text: string];

/** Takes one output of a render: the site file's path, and its text. */
export type OutputSink = (file: string, text: string) => void;

/** The render context's entry the tag hands its files to (an OutputSink). */
export const OUTPUTS = 'outputs';

export const fileTag: nunjucks.Extension & { run(context: nunjucks.Context, file: unknown, body: () => string): string } = {
  tags: ['file'],
  parse(parser, nodes) {
    const start = parser.nextToken();
    const args = parser.parseSignature(null, true);
    parser.advanceAfterBlockEnd(start.value);
    const body = parser.parseUntilBlocks('endfile');
    parser.advanceAfterBlockEnd();
    return new nodes.CallExtension(fileTag, 'run', args, [body]);
  },
  run(context, file, body) {
    const sink = context.ctx[OUTPUTS];
    if (typeof sink !== 'function') throw new Error(`{% file %} needs a sink for its outputs in the render's context (${OUTPUTS})`);
    if (typeof file !== 'string') throw new Error(`{% file %} names no file: ${JSON.stringify(file)}`);
    (sink as OutputSink)(file, body());
    return '';
  },
};
