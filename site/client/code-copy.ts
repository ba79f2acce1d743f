// A Copy button on each code block of an article, where scripts run and the clipboard is
// there (a secure page); without it the block reads and selects as before.
const SHOWN_MS = 1500;

export function startCodeCopy(): void {
  const body = document.querySelector<HTMLElement>('.s-article-body[data-copy]');
  if (!body || !navigator.clipboard) return;
  const label = body.dataset.copy ?? 'Copy';
  const copied = body.dataset.copied ?? label;
  for (const pre of body.querySelectorAll<HTMLPreElement>('pre:not(.mermaid)')) {
    const code = pre.querySelector(':scope > code');
    if (!code) continue;
    const wrap = document.createElement('div');
    wrap.className = 's-code';
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 's-copy';
    button.textContent = label;
    let timer = 0;
    button.addEventListener('click', () => {
      void navigator.clipboard.writeText(code.textContent ?? '').then(() => {
        button.textContent = copied;
        clearTimeout(timer);
        timer = window.setTimeout(() => (button.textContent = label), SHOWN_MS);
      });
    });
    pre.before(wrap);
    wrap.append(pre, button);
  }
}
