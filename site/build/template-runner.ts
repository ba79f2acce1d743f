// Renders a pass's views through the site's templates (site/templates/*.njk). Each
// template names in its front matter the list of views it renders (`pagination: data:
// vault.<list>`) and how many go into one batch (`size`): one batch is one render of the
// template (its macros imported once for them all), each output a `{% file path %}` block
// (file-tag.ts). The templates read the views as `vault` and their batch as
// `pagination.items`.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { OUTPUTS, type OutputSink } from './file-tag.ts';
import { compileTemplate, type CompiledTemplate } from './nunjucks-engine.ts';
import { TEMPLATES_DIR } from './paths.ts';
import type { RenderData } from './render-state.ts';

type ViewList = Exclude<keyof RenderData, 'site'>;

interface PageTemplate {
  /** The render state's list this template renders, one output per item. */
  list: ViewList;
  /** Items per batch. */
  size: number;
  render: CompiledTemplate;
}

const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n---(?:\r?\n|$)/;

/** A template's front matter, as the templates write it: `pagination:` with `data: vault.<list>` and `size: N`. */
export function paginationOf(name: string, text: string): { list: ViewList; size: number; body: string } {
  const m = FRONT_MATTER.exec(text);
  const list = m && /^\s+data:\s*vault\.(\w+)\s*$/m.exec(m[1]!)?.[1];
  if (!m || !list) throw new Error(`site/templates/${name}: its front matter names no list to render (pagination: data: vault.<list>)`);
  const size = Number(/^\s+size:\s*(\d+)\s*$/m.exec(m[1]!)?.[1] ?? 1);
  return { list: list as ViewList, size: Math.max(1, size), body: text.slice(m[0].length) };
}

/** Every page template, compiled (once per process: the templates ship with the code). */
function loadTemplates(): PageTemplate[] {
  return readdirSync(TEMPLATES_DIR)
    .filter((name) => name.endsWith('.njk'))
    .sort()
    .map((name) => {
      const file = path.join(TEMPLATES_DIR, name);
      const { list, size, body } = paginationOf(name, readFileSync(file, 'utf8'));
      return { list, size, render: compileTemplate(body, file) };
    });
}

export class TemplateRunner {
  private templates: PageTemplate[] | null = null;

  /**
   * Renders every view in `data`, handing each output to `sink` as it is made, in the order
   * of the views. A sink's failure (a write's) fails the render as it was thrown, its code
   * kept (Nunjucks would wrap it in a template error).
   */
  async render(data: RenderData, sink: OutputSink): Promise<void> {
    this.templates ??= loadTemplates();
    const failure: { thrown: boolean; error?: unknown } = { thrown: false };
    const guarded: OutputSink = (file, text) => {
      try {
        sink(file, text);
      } catch (error) {
        if (!failure.thrown) Object.assign(failure, { thrown: true, error });
        throw error;
      }
    };
    for (const { list, size, render } of this.templates) {
      const items = data[list];
      for (let at = 0; at < items.length; at += size) {
        try {
          await render({ vault: data, pagination: { items: items.slice(at, at + size) }, [OUTPUTS]: guarded });
        } catch (err) {
          throw failure.thrown ? failure.error : err;
        }
      }
    }
  }
}
