// The orders the site shows and resolves by, in one locale whatever the server's `LANG`: the
// default collator follows the environment (a Swedish server sorts `ö` after `z`, an English one
// before it), so the same vault listed its notes, and broke ties between same-named notes, one
// way on a laptop and another in a container or in CI. One collator each for the process:
// `localeCompare` given options makes an ICU collator a call, and a sort of the whole vault's
// names took twenty times as long.
const ORDER_LOCALE = 'en';
const natural = new Intl.Collator(ORDER_LOCALE, { numeric: true });
const plain = new Intl.Collator(ORDER_LOCALE);
/** Whether the environment's own order is the site's (C.UTF-8, en_US): then the engine's plain `localeCompare`, about twice as quick as a collator's `compare`. */
const environmentOrders = new Intl.Collator().resolvedOptions().locale.split('-')[0] === ORDER_LOCALE;

/** Names in the order a reader expects them ("Note 2" before "Note 10"), as Obsidian's file list sorts. */
export const naturalCompare = (a: string, b: string): number => natural.compare(a, b);

/** Texts and paths in dictionary order: `localeCompare`, in the site's one locale. */
export const textCompare: (a: string, b: string) => number = environmentOrders ? (a, b) => a.localeCompare(b) : (a, b) => plain.compare(a, b);
