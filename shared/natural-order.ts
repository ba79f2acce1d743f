// Names in the order a reader expects them ("Note 2" before "Note 10"), as Obsidian's file
// list sorts. One collator for the process: `localeCompare` given options makes an ICU
// collator a call, and a sort of the whole vault's names took twenty times as long.
const collator = new Intl.Collator(undefined, { numeric: true });

export const naturalCompare = (a: string, b: string): number => collator.compare(a, b);
