// A fold of the right-hand panel (Outline, Backlinks) whose open state this device
// remembers (Appendix C: collapsed sections stay on the device).
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { closedMark } from '../i18n.ts';

const KEY = 'vault-admin-closed-sections';

function closedSet(): Set<string> {
  try {
    return new Set(JSON.parse(localStorage.getItem(KEY) ?? '[]') as string[]);
  } catch {
    return new Set();
  }
}

export function PanelSection({ id, title, children }: { id: string; title: string; children: ComponentChildren }) {
  const [open, setOpen] = useState(() => !closedSet().has(id));
  const toggle = () => {
    const closed = closedSet();
    if (open) closed.add(id);
    else closed.delete(id);
    try {
      localStorage.setItem(KEY, JSON.stringify([...closed]));
    } catch {
      /* a nicety */
    }
    setOpen(!open);
  };
  return (
    <section class="panel-section" id={`panel-${id}`} data-section={id}>
      <h3>
        <button type="button" class="section-toggle" aria-expanded={open} aria-controls={`${id}-content`} onClick={toggle}>
          <span aria-hidden="true">{open ? '▾' : closedMark()}</span> {title}
        </button>
      </h3>
      {open && <div id={`${id}-content`}>{children}</div>}
    </section>
  );
}
