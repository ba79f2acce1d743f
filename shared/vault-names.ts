// How the vault's names compare: composed (NFC), and case aside where macOS and Windows set
// it aside. A Mac's older file systems store `é` as `e` and a combining accent (NFD); what
// people type, what git on a Mac commits, and the addresses Obsidian and Hugo publish are
// composed. No Node modules here: the admin app's browser code reads it too.

/**
 * A name or tag as the site spells it: composed (NFC), so a static host finds a page at the
 * address typed, and `#résumé` is one tag however it was stored.
 */
export const composed = (name: string): string => name.normalize('NFC');

/** A name as macOS and Windows compare it: case and Unicode form aside. */
export const sameName = (p: string): string => composed(p).toLowerCase();

/**
 * Whether `p` lies in `folder` (vault-relative; slashes around it aside), names compared as
 * macOS and Windows compare them: the templates folder `Modèles` a Mac named with a combining
 * accent is the folder the settings call `Modèles`, and its notes are templates, not posts.
 */
export function isInFolder(p: string, folder: string): boolean {
  const f = sameName(folder.replace(/^\/+|(?<!\/)\/+$/g, ''));
  return f !== '' && (sameName(p) + '/').startsWith(f + '/');
}
