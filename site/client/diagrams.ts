// CONTRACT §7: ```mermaid blocks are readable code until mermaid's script (loaded only
// on pages that have a diagram, before this one) draws them, in the reader's colour
// scheme, and again when the scheme changes.
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
      document.documentElement.dataset.diagrams = theme;
    });
  };
  draw();
  onThemeChange(draw);
}
