// A small popup menu anchored to the element that opened it; arrow keys move,
// Escape closes and gives focus back.
import { useLayoutEffect, useRef } from 'preact/hooks';
import { Store, useStore } from '../store.ts';

export interface MenuItem {
  label: string;
  run: () => void | Promise<void>;
  danger?: boolean;
}

interface OpenMenu {
  items: MenuItem[];
  x: number;
  y: number;
  returnFocus: HTMLElement | null;
}

const menu = new Store<OpenMenu | null>(null);

export function openMenu(anchor: HTMLElement, items: MenuItem[]): void {
  const rect = anchor.getBoundingClientRect();
  menu.set({ items, x: rect.left, y: rect.bottom + 2, returnFocus: anchor });
}

function close(refocus = true): void {
  const current = menu.get();
  menu.set(null);
  if (refocus) current?.returnFocus?.focus();
}

export function MenuLayer() {
  const current = useStore(menu);
  const ref = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    if (!current || !ref.current) return;
    const el = ref.current;
    // Keep the menu inside the window (a 360 px phone, an RTL frame).
    const rect = el.getBoundingClientRect();
    const maxX = window.innerWidth - rect.width - 4;
    const maxY = window.innerHeight - rect.height - 4;
    el.style.left = `${Math.max(4, Math.min(current.x, maxX))}px`;
    el.style.top = `${Math.max(4, Math.min(current.y, maxY))}px`;
    el.querySelector<HTMLButtonElement>('button')?.focus();
    const onDown = (e: MouseEvent) => {
      if (!el.contains(e.target as Node)) close(false);
    };
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
  }, [current]);
  if (!current) return null;
  const onKey = (e: KeyboardEvent) => {
    const buttons = [...(ref.current?.querySelectorAll('button') ?? [])];
    const i = buttons.indexOf(document.activeElement as HTMLButtonElement);
    if (e.key === 'Escape') {
      e.preventDefault();
      close();
    } else if (e.key === 'ArrowDown') {
      e.preventDefault();
      buttons[(i + 1) % buttons.length]?.focus();
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      buttons[(i - 1 + buttons.length) % buttons.length]?.focus();
    } else if (e.key === 'Tab') {
      close();
    }
  };
  return (
    <div class="menu" role="menu" ref={ref} onKeyDown={onKey} style={{ left: `${current.x}px`, top: `${current.y}px` }}>
      {current.items.map((item) => (
        <button
          type="button"
          role="menuitem"
          class={item.danger ? 'danger' : ''}
          onClick={() => {
            close(false);
            void item.run();
          }}
        >
          {item.label}
        </button>
      ))}
    </div>
  );
}
