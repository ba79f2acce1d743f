// A new note starts from the default template when the templates folder holds one:
// the note named `Default` in the templates folder (Settings: folders.templates,
// `Templates` unless changed). Obsidian's core template variables are filled in:
// {{title}}, {{date}}, {{time}}, and {{date:FORMAT}} / {{time:FORMAT}} with moment-style tokens.
import { api, ApiError } from '../api.ts';
import { sameName } from '../../../../shared/vault-names.ts';
import { entries } from './model.ts';

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** The moment.js tokens Obsidian templates use most. */
export function formatMoment(d: Date, format: string): string {
  return format.replace(/YYYY|YY|MM|M|DD|D|HH|H|mm|ss/g, (token) => {
    switch (token) {
      case 'YYYY':
        return String(d.getFullYear());
      case 'YY':
        return pad(d.getFullYear() % 100);
      case 'MM':
        return pad(d.getMonth() + 1);
      case 'M':
        return String(d.getMonth() + 1);
      case 'DD':
        return pad(d.getDate());
      case 'D':
        return String(d.getDate());
      case 'HH':
        return pad(d.getHours());
      case 'H':
        return String(d.getHours());
      case 'mm':
        return pad(d.getMinutes());
      default:
        return pad(d.getSeconds());
    }
  });
}

export function fillTemplate(template: string, title: string, now = new Date()): string {
  return template.replace(/\{\{\s*(title|date|time)\s*(?::([^{}]*))?\}\}/gi, (_whole, name: string, format?: string) => {
    const key = name.toLowerCase();
    if (key === 'title') return title;
    return formatMoment(now, format?.trim() || (key === 'date' ? 'YYYY-MM-DD' : 'HH:mm'));
  });
}

/** The default template's path, when the templates folder holds one. */
export async function defaultTemplatePath(): Promise<string | null> {
  let folder = 'Templates';
  try {
    folder = (await api.settings()).folders?.templates || folder;
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) throw err;
  }
  const want = sameName(folder.replace(/^\/+|(?<!\/)\/+$/g, ''));
  const found = entries.get().find((e) => {
    const slash = e.path.lastIndexOf('/');
    return e.kind === 'note' && sameName(e.path.slice(0, Math.max(slash, 0))) === want && /^default\.(md|markdown)$/i.test(e.path.slice(slash + 1));
  });
  return found?.path ?? null;
}

/** The text a new note called `title` starts with: the default template filled in, or nothing. */
export async function newNoteText(title: string): Promise<string> {
  const template = await defaultTemplatePath();
  if (!template) return '';
  try {
    return fillTemplate((await api.note(template)).content, title);
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return '';
    throw err;
  }
}
