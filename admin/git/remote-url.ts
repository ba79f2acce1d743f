// Remote URL and branch validation (spec 2.9, issue 4). Each check returns null when
// the value is acceptable, else a sentence saying why it is refused.
// Placeholder rules: the git issue replaces these with the full table-tested ones.

export function checkRemoteUrl(url: string): string | null {
  if (/^https:\/\/[^\s@:/]+(\/[^\s]*)?$/.test(url) || /^git@[\w.-]+:[\w./-]+$/.test(url)) return null;
  return 'The remote URL must be an https:// or SSH address.';
}

export function checkBranchName(name: string): string | null {
  return /^[A-Za-z0-9._/-]+$/.test(name) && !name.includes('..') ? null : 'That is not a valid branch name.';
}

/** The host part of a remote URL, for the status panel. */
export function remoteHost(url: string | null): string | null {
  if (!url) return null;
  const scp = url.match(/^[^@/]+@([^:/]+):/);
  if (scp) return scp[1]!;
  try {
    return new URL(url).hostname || null;
  } catch {
    return null;
  }
}
