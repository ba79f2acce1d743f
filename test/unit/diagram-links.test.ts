// Obsidian's help ("Linking files in a diagram"): `class A,B internal-link;` makes a mermaid
// node a link to the note its text names. A family tree, a firmware architecture note and Java
// notes used it; the site drew the nodes and linked none.
import { describe, expect, it } from 'vitest';
import { renderNoteHtml, type RenderLinks } from '../../shared/note/markdown.ts';
import { linkedDiagramNodes } from '../../shared/note/obsidian/diagram-links.ts';

const links: RenderLinks = {
  note: (t) => (['biology', 'felicia dorthana', 'freertos (cmsis-rtos v2)'].includes(t.toLowerCase()) ? { href: `/${t.replace(/ /g, '-')}`, title: t, headings: [] } : null),
  attachment: () => null,
  tag: (t) => `/topic/${t}`,
};
const render = (body: string) => renderNoteHtml(body, 'Title', links);

describe('the nodes a diagram links', () => {
  it('by a class statement or the ::: shorthand, each with the text it shows (its id when it has none)', () => {
    expect(linkedDiagramNodes('graph TD\nBiology --> Chemistry\nclass Biology,Chemistry internal-link;')).toEqual([['Biology', 'Biology'], ['Chemistry', 'Chemistry']]);
    expect(linkedDiagramNodes('flowchart TB\nA["Daniel"] --> C["Felicia Dorthana"]\nG["Alois"]:::internal-link\nX-->Y[Why]\nclass C,Y internal-link')).toEqual([['C', 'Felicia Dorthana'], ['Y', 'Why'], ['G', 'Alois']]);
    expect(linkedDiagramNodes('graph TD\n APP["Aplicação"] --> RTOS["FreeRTOS (CMSIS-RTOS v2)"]\n class RTOS internal-link;')).toEqual([['RTOS', 'FreeRTOS (CMSIS-RTOS v2)']]);
    expect(linkedDiagramNodes('graph LR\n A[[Sub routine]] --> B((Circle))\n class A,B internal-link')).toEqual([['A', 'Sub routine'], ['B', 'Circle']]);
    expect(linkedDiagramNodes('graph TD\n A --> B\n classDef internal-link fill:#f00')).toEqual([]);
  });

  it('reach the page as the addresses of the notes a visitor may see, nothing of the others', () => {
    expect(render('```mermaid\ngraph TD\n  A[Biology] --> B[Secret plans]\n  class A,B internal-link;\n```')).toBe(
      '<pre class="mermaid" data-links="{&quot;A&quot;:&quot;/Biology&quot;}">graph TD\n  A[Biology] --&gt; B[Secret plans]\n  class A,B internal-link;\n</pre>\n',
    );
    expect(render('```mermaid\ngraph TD\n  A[Nobody] --> B\n  class A internal-link;\n```')).toMatch(/^<pre class="mermaid">graph TD/);
    expect(render('```mermaid\ngraph TD\n  A --> B\n```')).toMatch(/^<pre class="mermaid">graph TD/);
  });
});
