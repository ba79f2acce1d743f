// The one place the app talks HTTP. Every call answers parsed JSON or throws an
// ApiError carrying the server's stable `code` and its sentence in the interface's language.
import type {
  Backlink,
  CommentItem,
  MentionItem,
  ModerationAction,
  QueuePage,
  DeclaredCollection,
  Heading,
  NoteMeta,
  SearchResult,
  HealthPage,
  HistoryList,
  NoteDoc,
  NoteState,
  Prefs,
  Settings,
  SyncAnswer,
  SyncStatus,
  TrashEntry,
  TravelReport,
  TreeEntry,
  VersionList,
} from './types.ts';
import type { NotePreview } from './render/preview-document.ts';
import { t } from './i18n.ts';
import { refusalText } from './refusal-text.ts';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly body: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

type Listener = () => void;
const signedOutListeners = new Set<Listener>();

/** Called when any admin call answers 401: the session is gone. */
export function onSignedOut(listener: Listener): () => void {
  signedOutListeners.add(listener);
  return () => signedOutListeners.delete(listener);
}

export async function call<T>(method: string, route: string, body?: unknown): Promise<T> {
  const init: RequestInit = { method, credentials: 'same-origin', headers: { accept: 'application/json' } };
  if (body !== undefined) {
    init.headers = { ...init.headers, 'content-type': 'application/json' };
    init.body = JSON.stringify(body);
  }
  let res: Response;
  try {
    res = await fetch(route, init);
  } catch {
    throw new ApiError(0, 'offline', t('offline'));
  }
  const text = await res.text();
  let parsed: unknown = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  if (!res.ok) {
    const obj = (parsed && typeof parsed === 'object' ? parsed : {}) as Record<string, unknown>;
    const code = typeof obj.code === 'string' ? obj.code : `http_${res.status}`;
    // Said in the interface's language from the code and its fields; the server's English otherwise.
    const message = refusalText(code, obj, typeof obj.error === 'string' ? obj.error : `The server answered ${res.status}.`);
    if (res.status === 401 && route !== '/api/login') for (const l of signedOutListeners) l();
    throw new ApiError(res.status, code, message, obj);
  }
  return parsed as T;
}

const qs = (params: Record<string, string | number | undefined>) => {
  const s = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) s.append(k, String(v));
  return s.toString();
};

export const api = {
  me: () => call<{ admin: boolean }>('GET', '/api/me'),
  login: (password: string) => call<{ admin: boolean }>('POST', '/api/login', { password }),
  logout: () => call<{ admin: boolean }>('POST', '/api/logout'),

  tree: () => call<{ entries: TreeEntry[] }>('GET', '/api/tree'),
  note: (path: string) => call<NoteDoc>('GET', `/api/note?${qs({ path })}`),
  /**
   * `baseHash`: the hash the server answered for the text this one was loaded from (a moved
   * mtime over the same bytes is then no conflict). `overwrite`: this text replaces one the user
   * has not taken in (Keep my version); `restore`: a commit's text restored from History. Either
   * way the server keeps what it replaces.
   */
  saveNote: (path: string, content: string, baseMtimeMs?: number, options: { baseHash?: string; overwrite?: boolean; restore?: boolean } = {}) =>
    call<{ path: string; mtimeMs: number; hash: string }>('PUT', `/api/note?${qs({ path })}`, {
      content,
      ...(baseMtimeMs === undefined ? {} : { baseMtimeMs }),
      ...(options.baseHash === undefined ? {} : { baseHash: options.baseHash }),
      ...(options.overwrite ? { overwrite: true } : {}),
      ...(options.restore ? { restore: true } : {}),
    }),
  /** Where the note once at `path` went (a rename elsewhere), recognised by the hash of the text loaded. */
  noteMoved: (path: string, hash?: string) => call<{ path: string; movedTo: string | null }>('GET', `/api/note/moved?${qs({ path, hash })}`),
  noteStates: (paths: string[]) => {
    const s = new URLSearchParams();
    for (const p of paths) s.append('path', p);
    return call<{ states: NoteState[] }>('GET', `/api/note/state?${s.toString()}`);
  },
  rename: (path: string, to: string) => call<{ path: string; rewritten?: string[] }>('POST', '/api/note/rename', { path, to }),
  remove: (path: string) => call<{ id: string; path: string }>('DELETE', `/api/note?${qs({ path })}`),

  trash: () => call<{ entries: TrashEntry[] }>('GET', '/api/trash'),
  restoreTrash: (id: string) => call<{ path: string }>('POST', '/api/trash/restore', { id }),
  eraseTrash: (id: string) => call<unknown>('DELETE', `/api/trash?${qs({ id })}`),
  emptyTrash: () => call<unknown>('DELETE', '/api/trash'),

  versions: (path: string) => call<VersionList>('GET', `/api/versions?${qs({ path })}`),
  version: (path: string, at: string) => call<{ path: string; at: string; content: string }>('GET', `/api/versions/one?${qs({ path, at })}`),
  /** The editor's text set aside as a version (before the disk's text replaces it in the editor). */
  keepVersion: (path: string, content: string) => call<{ path: string; kept: boolean }>('POST', '/api/versions/keep', { path, content }),
  restoreVersion: (path: string, at: string) => call<{ path: string; mtimeMs: number; hash: string }>('POST', '/api/versions/restore', { path, at }),

  history: (path: string, limit = 100) => call<HistoryList>('GET', `/api/history?${qs({ path, limit })}`),
  blob: (path: string, sha: string) => call<{ sha: string; path: string; content: string }>('GET', `/api/history/blob?${qs({ path, sha })}`),

  syncStatus: () => call<SyncStatus>('GET', '/api/sync/status'),
  syncInit: () => call<Record<string, unknown>>('POST', '/api/sync/init'),
  syncNow: () => call<SyncAnswer>('POST', '/api/sync/now'),
  snapshot: () => call<Record<string, unknown>>('POST', '/api/sync/snapshot'),
  syncVaultRequest: (action: 'allow' | 'ignore') => call<SyncStatus>('POST', '/api/sync/vault-request', { action }),
  syncOpen: () => call<{ ran: boolean; outcome?: string }>('POST', '/api/sync/open'),
  travel: () => call<TravelReport>('GET', '/api/sync/travel'),
  travelNow: () => call<TravelReport>('POST', '/api/sync/travel'),

  settings: () => call<Settings>('GET', '/api/settings'),
  patchSettings: (patch: Record<string, unknown>) => call<Settings>('PATCH', '/api/settings', patch),

  prefs: () => call<Prefs>('GET', '/api/prefs'),
  putPrefs: (keys: Record<string, unknown>, travelWithVault?: boolean) =>
    call<Prefs>('PUT', '/api/prefs', travelWithVault === undefined ? { keys } : { keys, travelWithVault }),

  notes: () => call<{ notes: NoteMeta[] }>('GET', '/api/notes'),
  search: (q: string, limit = 50) => call<{ results: SearchResult[]; total: number }>('GET', `/api/search?${qs({ q, limit })}`),
  backlinks: (path: string) => call<{ backlinks: Backlink[] }>('GET', `/api/backlinks?${qs({ path })}`),
  headings: (path: string) => call<{ headings: Heading[] }>('GET', `/api/headings?${qs({ path })}`),
  /** An image pasted or dropped into `note`: stored in the attachment folder, named uniquely. */
  image: (note: string | null, name: string | null, dataBase64: string) => call<{ path: string; name: string }>('POST', '/api/image', { note, name, dataBase64 }),

  collections: () => call<{ collections: DeclaredCollection[] }>('GET', '/api/collections'),
  /** A note's text rendered by the site's renderer, with the site's stylesheets (the preview and revision view). */
  preview: (path: string, text: string) => call<NotePreview>('POST', `/api/preview?${qs({ path })}`, { text }),
  uploadAttachment: (path: string, dataBase64: string) =>
    call<{ path: string }>('PUT', `/api/attachment?${qs({ path })}`, { dataBase64 }),

  /** CONTRACT §13: what the newest build found wrong, 200 a page. */
  siteWarnings: (page = 1) => call<HealthPage>('GET', `/api/site/warnings?${qs({ page })}`),

  /** CONTRACT §8: comments and mentions, their queue and moderation. */
  comments: (path: string) => call<{ comments: CommentItem[] }>('GET', `/api/comments?${qs({ path })}`),
  mentions: (path: string) => call<{ mentions: MentionItem[] }>('GET', `/api/mentions?${qs({ path })}`),
  commentQueue: (path?: string, after?: string, status?: 'approved') => call<QueuePage>('GET', `/api/comments/queue?${qs({ path, after, status })}`),
  moderate: (id: string, action: ModerationAction) => call<{ id: string; status: string }>('POST', '/api/comments/moderate', { id, action }),
  replyToComment: (id: string, body: string) => call<{ id: string; status: 'approved' }>('POST', '/api/comments/reply', { id, body }),
};

/** The address of a vault file's raw bytes (admin only), for image previews. */
export function fileUrl(path: string): string {
  return `/api/file?${qs({ path })}`;
}
