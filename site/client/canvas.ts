// CONTRACT §12: a canvas pans (drag, arrow keys) and zooms (wheel, +/-, buttons) where
// scripts run; without them its frame simply scrolls. The drawing is the server's: this
// only moves it (one CSS transform on the stage).
const MIN_SCALE = 0.1;
const MAX_SCALE = 3;

const clamp = (n: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, n));

function startCanvas(root: HTMLElement): void {
  const viewport = root.querySelector<HTMLElement>('.s-canvas-viewport');
  const stage = root.querySelector<HTMLElement>('.s-canvas-stage');
  const width = Number(root.dataset.width);
  const height = Number(root.dataset.height);
  if (!viewport || !stage || !(width > 0) || !(height > 0)) return;
  viewport.classList.add('s-canvas-live');
  let scale = 1;
  let x = 0;
  let y = 0;
  const apply = () => {
    stage.style.transform = `translate(${x}px, ${y}px) scale(${scale})`;
  };
  const fit = () => {
    const w = viewport.clientWidth;
    const h = viewport.clientHeight;
    scale = clamp(Math.min(w / width, h / height, 1), MIN_SCALE, MAX_SCALE);
    x = (w - width * scale) / 2;
    y = (h - height * scale) / 2;
    apply();
  };
  /** Zooms by `factor` keeping the point (px, py) of the frame where it is. */
  const zoom = (factor: number, px = viewport.clientWidth / 2, py = viewport.clientHeight / 2) => {
    const next = clamp(scale * factor, MIN_SCALE, MAX_SCALE);
    x = px - ((px - x) * next) / scale;
    y = py - ((py - y) * next) / scale;
    scale = next;
    apply();
  };

  let drag: { id: number; x: number; y: number } | null = null;
  viewport.addEventListener('pointerdown', (e) => {
    // A link or a node's scrolling text keeps its own clicks.
    if (e.button !== 0 || (e.target as Element).closest('a, button')) return;
    drag = { id: e.pointerId, x: e.clientX, y: e.clientY };
    viewport.setPointerCapture(e.pointerId);
    viewport.classList.add('s-canvas-dragging');
  });
  viewport.addEventListener('pointermove', (e) => {
    if (!drag || e.pointerId !== drag.id) return;
    x += e.clientX - drag.x;
    y += e.clientY - drag.y;
    drag.x = e.clientX;
    drag.y = e.clientY;
    apply();
  });
  const stop = (e: PointerEvent) => {
    if (drag?.id !== e.pointerId) return;
    drag = null;
    viewport.classList.remove('s-canvas-dragging');
  };
  viewport.addEventListener('pointerup', stop);
  viewport.addEventListener('pointercancel', stop);
  viewport.addEventListener(
    'wheel',
    (e) => {
      e.preventDefault();
      const rect = viewport.getBoundingClientRect();
      zoom(Math.exp(-clamp(e.deltaY, -100, 100) * 0.002), e.clientX - rect.left, e.clientY - rect.top);
    },
    { passive: false },
  );
  viewport.addEventListener('keydown', (e) => {
    const step = 40;
    const moves: Record<string, [number, number]> = { ArrowLeft: [step, 0], ArrowRight: [-step, 0], ArrowUp: [0, step], ArrowDown: [0, -step] };
    if (e.key in moves) {
      x += moves[e.key]![0];
      y += moves[e.key]![1];
      apply();
    } else if (e.key === '+' || e.key === '=') zoom(1.2);
    else if (e.key === '-') zoom(1 / 1.2);
    else if (e.key === '0') fit();
    else return;
    e.preventDefault();
  });

  const tools = document.createElement('div');
  tools.className = 's-canvas-tools';
  const button = (label: string | undefined, text: string, act: () => void) => {
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = text;
    b.setAttribute('aria-label', label ?? text);
    b.addEventListener('click', act);
    tools.append(b);
  };
  button(root.dataset.zoomOut, '−', () => zoom(1 / 1.2));
  button(root.dataset.zoomIn, '+', () => zoom(1.2));
  button(root.dataset.fit, '⤢', fit);
  root.append(tools);
  requestAnimationFrame(fit); // measured once the page's scripts have changed it (main.ts)
}

export function startCanvases(): void {
  for (const root of document.querySelectorAll<HTMLElement>('.s-canvas[data-width]')) startCanvas(root);
}
