// CONTRACT §9: `/` anywhere on a page (outside a text field) or Ctrl/Cmd+K opens the search
// dialog over the page; on the search page they put the cursor in its own field. The
// dialog is modal (the page behind is inert, Tab cycles inside it), Esc or a click on the
// backdrop closes it and focus goes back where it was. Its results come from search.js
// (MiniSearch and the results, search/dialog.ts), loaded when the dialog first opens, so
// no other page carries it. Focusing the masthead box fetches the index's manifest and
// field lengths ahead (both small), so the search that follows finds them cached.
const EDITABLE = /^(INPUT|TEXTAREA|SELECT)$/;
const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled])';

function prefetchIndex(form: HTMLFormElement): void {
  const manifest = new URL(form.action + '.json');
  fetch(manifest)
    .then((res) => (res.ok ? (res.json() as Promise<{ lengths?: unknown }>) : null))
    .then((m) => (typeof m?.lengths === 'string' ? fetch(new URL(m.lengths, manifest)) : null))
    .catch(() => null);
}

const editable = (target: EventTarget | null) => target instanceof HTMLElement && (target.isContentEditable || EDITABLE.test(target.tagName));

export function startSearchBox(): void {
  const pageInput = document.querySelector<HTMLInputElement>('.s-search-page-form .s-search-input');
  const dialog = document.querySelector<HTMLDialogElement>('dialog.s-search-dialog');
  const input = dialog?.querySelector<HTMLInputElement>('input[name="q"]');
  let returnTo: HTMLElement | null = null;
  let loading = false;

  const open = () => {
    if (!dialog || !input) return;
    if (!dialog.open) {
      returnTo = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      if (!loading && dialog.dataset.script) {
        loading = true;
        const script = document.createElement('script');
        script.src = dialog.dataset.script;
        document.head.append(script);
      }
      dialog.showModal();
    }
    input.focus();
    input.select();
  };

  document.addEventListener('keydown', (e) => {
    if (e.defaultPrevented || e.altKey) return;
    const slash = e.key === '/' && !e.ctrlKey && !e.metaKey && !editable(e.target);
    const k = (e.key === 'k' || e.key === 'K') && (e.ctrlKey || e.metaKey) && !e.shiftKey;
    if (!slash && !k) return;
    e.preventDefault();
    if (pageInput) {
      pageInput.focus();
      pageInput.select();
    } else open();
  });

  if (dialog && input) {
    dialog.addEventListener('close', () => {
      const back = returnTo;
      returnTo = null;
      if (back?.isConnected) back.focus();
    });
    // A click on the backdrop (the dialog element itself, outside its box) closes it.
    dialog.addEventListener('click', (e) => {
      if (e.target === dialog) dialog.close();
    });
    dialog.querySelector('.s-search-close')?.addEventListener('click', () => dialog.close());
    // Tab and Shift+Tab cycle through the dialog's own controls, never out to the browser's.
    dialog.addEventListener('keydown', (e) => {
      // Esc in a search field would first clear it: here it closes the dialog, query kept.
      if (e.key === 'Escape' && !e.isComposing) {
        e.preventDefault();
        dialog.close();
        return;
      }
      if (e.key !== 'Tab') return;
      const stops = [...dialog.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => el.getClientRects().length > 0);
      const first = stops[0];
      const last = stops[stops.length - 1];
      if (!first || !last) return;
      if (e.shiftKey && document.activeElement === first) last.focus();
      else if (!e.shiftKey && document.activeElement === last) first.focus();
      else return;
      e.preventDefault();
    });
  }

  const masthead = document.querySelector<HTMLFormElement>('form.s-masthead-search');
  masthead?.addEventListener('focusin', () => prefetchIndex(masthead), { once: true });
}
