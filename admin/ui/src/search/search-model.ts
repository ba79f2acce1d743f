// Vault search as the app holds it: the query, the answer of GET /api/search
// for it (a newer query's answer replaces an older one; a stale one is dropped), and
// which result is selected.
import { api } from '../api.ts';
import { Store } from '../store.ts';
import type { SearchResult } from '../types.ts';

export interface SearchState {
  query: string;
  results: SearchResult[];
  total: number;
  busy: boolean;
  error: string | null;
  selected: number;
}

export const searchState = new Store<SearchState>({ query: '', results: [], total: 0, busy: false, error: null, selected: 0 });

const DEBOUNCE_MS = 150;
let timer: ReturnType<typeof setTimeout> | null = null;
let asked = 0;

export function setQuery(query: string): void {
  searchState.update((s) => ({ ...s, query, busy: query.trim() !== '' }));
  if (timer) clearTimeout(timer);
  timer = setTimeout(() => void run(query), DEBOUNCE_MS);
}

/** Asks again for the current query (the vault changed). */
export function rerun(): void {
  const { query } = searchState.get();
  if (query.trim()) void run(query);
}

async function run(query: string): Promise<void> {
  const ticket = ++asked;
  if (query.trim() === '') {
    searchState.update((s) => ({ ...s, results: [], total: 0, busy: false, error: null, selected: 0 }));
    return;
  }
  try {
    const answer = await api.search(query);
    if (ticket !== asked) return;
    searchState.update((s) => ({ ...s, results: answer.results, total: answer.total, busy: false, error: null, selected: 0 }));
  } catch (err) {
    if (ticket !== asked) return;
    searchState.update((s) => ({ ...s, busy: false, error: err instanceof Error ? err.message : String(err) }));
  }
}

export function select(index: number): void {
  searchState.update((s) => ({ ...s, selected: Math.max(0, Math.min(index, s.results.length - 1)) }));
}
