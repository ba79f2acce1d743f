// CONTRACT §7: ```mermaid blocks are readable code until mermaid's script (loaded only
// on pages that have a diagram, before this one) draws them, in the reader's colour
// scheme, and again when the scheme changes. A node Obsidian links (`class A internal-link;`) is
// wrapped in a link to the address the page names for it (data-links: shared/note/slots.ts).
import { onThemeChange, shownTheme } from './theme.ts';

interface Mermaid {
  initialize(config: Record<string, unknown>): void;
  run(options: { nodes: HTMLElement[] }): Promise<void>;
}

export function startDiagrams(): void {
  const mermaid = (window as unknown as { mermaid?: Mermaid }).mermaid;
  const blocks = Array.from(document.querySelectorAll<HTMLElement>('pre.mermaid'));
  if (!mermaid || blocks.length === 0) return;
  const sources = blocks.map((b) => b.textContent ?? '');
  let drawing = Promise.resolve();
  const draw = () => {
    drawing = drawing.then(async () => {
      const theme = shownTheme();
      mermaid.initialize({ startOnLoad: false, securityLevel: 'strict', theme: theme === 'dark' ? 'dark' : 'default' });
      blocks.forEach((b, i) => {
        b.removeAttribute('data-processed');
        b.textContent = sources[i]!;
      });
      await mermaid.run({ nodes: blocks }).catch(() => undefined);
      for (const block of blocks) linkNodes(block);
      document.documentElement.dataset.diagrams = theme;
    });
  };
  draw();
  onThemeChange(draw);
}

const SVG = 'http://www.w3.org/2000/svg';

function sameSite(href: string): boolean {
  try {
    return new URL(href, location.href).origin === location.origin;
  } catch {
    return false;
  }
}

/** Wraps each drawn node the block's `data-links` names (by its id in the diagram's source) in a link. */
function linkNodes(block: HTMLElement): void {
  let links: Record<string, unknown>;
  try {
    links = JSON.parse(block.dataset.links ?? '{}') as Record<string, unknown>;
  } catch {
    return;
  }
  for (const node of block.querySelectorAll<SVGGElement>('g.node')) {
    // Mermaid names a flowchart's node `…flowchart-<id>-<n>` (after the diagram's own prefix).
    const at = node.id.indexOf('flowchart-');
    const id = at < 0 ? undefined : node.id.slice(at + 'flowchart-'.length, node.id.lastIndexOf('-'));
    const href = id !== undefined && Object.hasOwn(links, id) ? links[id] : null;
    // Only the site's own addresses: the page wrote them.
    if (typeof href !== 'string' || !sameSite(href)) continue;
    const link = document.createElementNS(SVG, 'a');
    link.setAttribute('href', href);
    link.setAttribute('class', 'internal-link');
    node.replaceWith(link);
    link.append(node);
  }
}
