// The comment form with a script (CONTRACT §8): it posts JSON and shows the answer in
// place; without a script the same form posts and comes back (303). Reply buttons put a
// comment's id in the form. Avatars of mentions load from their own sites only once they
// are in view (no third-party request before).
import { dateFormatter } from '../../shared/visitor-dates.ts';

interface Answer {
  id?: string;
  status?: 'pending' | 'approved';
  error?: string;
}

interface Listed {
  comments: { id: string; html: string; date: string }[];
}

function field(form: HTMLFormElement, name: string): HTMLInputElement | HTMLTextAreaElement | null {
  return form.elements.namedItem(name) as HTMLInputElement | HTMLTextAreaElement | null;
}

function startForm(form: HTMLFormElement): void {
  const status = form.querySelector<HTMLElement>('.s-form-status');
  const submit = form.querySelector<HTMLButtonElement>('.s-submit');
  const say = (text: string, kind: 'ok' | 'error' | '') => {
    if (!status) return;
    status.textContent = text;
    status.dataset.kind = kind;
  };
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const body: Record<string, unknown> = {};
    // A JSON post is judged by the fields, links, rate limit and moderation (CONTRACT §8): no times to send.
    for (const [key, value] of data) if (typeof value === 'string') body[key] = value;
    if (submit) submit.disabled = true;
    say(form.dataset.sending ?? '…', '');
    try {
      const res = await fetch(form.action, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(body) });
      const answer = (await res.json().catch(() => ({}))) as Answer;
      if (res.status !== 202) {
        say(`${form.dataset.failed ?? ''} ${answer.error ?? res.status}`.trim(), 'error');
        return;
      }
      say((answer.status === 'approved' ? form.dataset.approved : form.dataset.pending) ?? '', 'ok');
      const text = field(form, 'body');
      if (text) text.value = '';
      if (answer.status === 'approved' && answer.id) await showNew(form, answer.id);
      cancelReply(form);
    } catch {
      say(form.dataset.failed ?? '', 'error');
    } finally {
      if (submit) submit.disabled = false;
    }
  });
  form.querySelector('.s-cancel-reply')?.addEventListener('click', () => cancelReply(form));
  for (const comment of document.querySelectorAll<HTMLElement>('#comments .s-comment[data-id]')) addReplyButton(form, comment);
}

/** An approved comment appears at once (the page itself has it on the next visit). */
async function showNew(form: HTMLFormElement, id: string): Promise<void> {
  const path = field(form, 'path')?.value ?? '';
  const res = await fetch(`${form.action}?path=${encodeURIComponent(path)}`, { headers: { accept: 'application/json' } });
  if (!res.ok) return;
  const found = ((await res.json()) as Listed).comments.find((c) => c.id === id);
  if (!found) return;
  const item = document.createElement('li');
  item.className = 's-comment s-new';
  item.id = `comment-${id}`;
  const head = document.createElement('div');
  head.className = 's-comment-head';
  const author = document.createElement('span');
  author.className = 's-comment-author';
  author.dir = 'auto';
  author.textContent = field(form, 'name')?.value ?? '';
  const avatar = document.createElement('span');
  avatar.className = 's-avatar';
  avatar.setAttribute('aria-hidden', 'true');
  avatar.textContent = Array.from(author.textContent.trim())[0]?.toUpperCase() ?? '?';
  head.append(avatar, author);
  // Written as the page writes every date: the locales come from the form (one per calendar shown).
  const locales = (form.dataset.dateLocales ?? '').split(' ').filter(Boolean);
  const ms = Date.parse(found.date);
  if (locales.length && !Number.isNaN(ms)) {
    const link = document.createElement('a');
    link.className = 's-comment-date';
    link.href = `#comment-${id}`;
    const time = document.createElement('time');
    time.dateTime = found.date;
    time.textContent = dateFormatter(locales)(ms);
    link.append(time);
    head.append(' ', link);
  }
  const body = document.createElement('div');
  body.className = 's-comment-body';
  body.dir = 'auto';
  // The server's rendering: Markdown without HTML, every visitor character escaped.
  body.innerHTML = found.html;
  item.append(head, body);
  const parent = field(form, 'parent')?.value;
  const host = parent ? document.getElementById(`comment-${parent}`) : null;
  let list = host ? host.querySelector<HTMLElement>(':scope > .s-replies') : document.querySelector<HTMLElement>('#comments .s-thread-list');
  if (!list) {
    list = document.createElement('ol');
    list.className = host ? 's-replies' : 's-thread-list';
    (host ?? form).insertAdjacentElement(host ? 'beforeend' : 'beforebegin', list);
    document.querySelector('#comments .s-no-comments')?.remove();
  }
  list.append(item);
}

function addReplyButton(form: HTMLFormElement, comment: HTMLElement): void {
  const head = comment.querySelector(':scope > .s-comment-head');
  if (!head) return;
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 's-reply-button';
  button.textContent = form.dataset.reply ?? 'Reply';
  button.addEventListener('click', () => {
    const parent = field(form, 'parent');
    if (parent) parent.value = comment.dataset.id ?? '';
    const line = form.querySelector<HTMLElement>('.s-replying');
    const to = form.querySelector<HTMLElement>('.s-replying-to');
    const name = comment.querySelector('.s-comment-author')?.textContent?.trim() ?? '';
    if (to) to.textContent = `${form.dataset.replying ?? ''} ${name}`.trim();
    if (line) line.hidden = false;
    form.scrollIntoView({ block: 'nearest' });
    field(form, 'body')?.focus();
  });
  head.append(button);
}

function cancelReply(form: HTMLFormElement): void {
  const parent = field(form, 'parent');
  if (parent) parent.value = '';
  const line = form.querySelector<HTMLElement>('.s-replying');
  if (line) line.hidden = true;
}

/** Avatars from other sites: requested once in view, never before. */
function startAvatars(): void {
  const images = Array.from(document.querySelectorAll<HTMLImageElement>('img[data-src]'));
  if (images.length === 0 || !('IntersectionObserver' in window)) return;
  // A hidden image has no box: its holder (the initial's circle) is what comes into view.
  const imageOf = new Map<Element, HTMLImageElement>(images.map((img) => [img.parentElement ?? img, img]));
  const observer = new IntersectionObserver((entries) => {
    for (const entry of entries) {
      const img = imageOf.get(entry.target);
      if (!entry.isIntersecting || !img) continue;
      observer.unobserve(entry.target);
      img.addEventListener('load', () => (img.hidden = false), { once: true });
      img.src = img.dataset.src ?? '';
    }
  });
  for (const holder of imageOf.keys()) observer.observe(holder);
}

export function startComments(): void {
  const form = document.querySelector<HTMLFormElement>('#comments .s-comment-form');
  if (form) startForm(form);
  startAvatars();
}
