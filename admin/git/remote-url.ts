// Remote URL and branch validation (spec 2.9, 5.4). Each check returns null when the
// value is acceptable, else why it is refused: a stable reason and a sentence. The URL reaches git's
// argv, so anything git could read as an option, a transport helper or a local path
// is refused, and so is any secret that would end up in .git/config.

const MAX_URL_LENGTH = 2048;
const MAX_BRANCH_LENGTH = 255;

/** Why a remote URL or branch is refused: a stable word the interface says in its language, its figures, and the English sentence. */
export interface GitRefusal {
  reason: string;
  message: string;
  figures?: Record<string, string | number>;
}

const no = (reason: string, message: string, figures?: Record<string, string | number>): GitRefusal => (figures ? { reason, message, figures } : { reason, message });

/** Prefixes of tokens issued by GitHub and GitLab. */
const TOKEN_PREFIXES = ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', 'github_pat_', 'glpat-', 'gldt-', 'glrt-', 'glptt-', 'gloas-', 'glsoat-', 'glcbt-'];

// Shell metacharacters, quotes, globs and a fragment: none belongs in a remote URL.
const SHELL_CHARACTERS = /[;|&$`<>(){}'"\\!*?#^]/;

/** True when a URL's user part looks like a token a host issued (refused on every scheme). */
export function looksLikeToken(user: string): boolean {
  let decoded = user;
  try {
    decoded = decodeURIComponent(user);
  } catch {
    /* malformed escapes are judged as written */
  }
  const lower = decoded.toLowerCase();
  if (TOKEN_PREFIXES.some((p) => lower.startsWith(p))) return true;
  if (/^[0-9a-f]{40}$/i.test(decoded)) return true; // classic 40-hex OAuth token
  // A long run of letters and digits mixed together is a secret, not a user name.
  return decoded.length >= 36 && /[0-9]/.test(decoded) && /[a-z]/i.test(decoded) && /^[A-Za-z0-9_-]+$/.test(decoded);
}

const HOST_NAME = /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;
const IPV6 = /^\[[0-9A-Fa-f:.]+\]$/;
const USER = /^[A-Za-z0-9._~%+-]+$/;
const PATH_SEGMENTS = /^[A-Za-z0-9._~%+=,@:\/-]*$/;

function checkHost(host: string): GitRefusal | null {
  if (host === '') return no('remote_no_host', 'The remote URL has no host.');
  if (host.startsWith('-')) return no('remote_dash', 'A host may not start with "-".');
  if (IPV6.test(host)) return null;
  if (!HOST_NAME.test(host)) return no('remote_bad_host', `"${host}" is not a valid host name.`, { host });
  return null;
}

function checkUser(user: string | null): GitRefusal | null {
  if (user === null) return null;
  if (user.includes(':') || /%3a/i.test(user)) return no('remote_credentials', 'The remote URL may not carry a password or token; put the token in the Access token field.');
  if (user === '') return no('remote_bad_user', 'The remote URL has an empty user name.');
  if (user.startsWith('-')) return no('remote_dash', 'A user name may not start with "-".');
  if (!USER.test(user)) return no('remote_bad_user', 'The user name in the remote URL has characters git cannot take safely.');
  if (/%(?![0-9A-Fa-f]{2})/.test(user)) return no('remote_bad_escape', 'The user name has a malformed %-escape.');
  if (looksLikeToken(user)) return no('remote_token', 'The user part of the remote URL looks like an access token; put the token in the Access token field.');
  return null;
}

function checkPath(p: string, scpStyle: boolean): GitRefusal | null {
  const bare = p.replace(/^\/+/, '');
  if (bare === '' || bare === '~') return no('remote_no_repository', 'The remote URL names no repository.');
  if (bare.startsWith('-') || /\/-/.test(p)) return no('remote_dash', 'A repository path segment may not start with "-".');
  if (!PATH_SEGMENTS.test(p)) return no('remote_bad_path', 'The repository path has characters git cannot take safely.');
  if (/%(?![0-9A-Fa-f]{2})/.test(p)) return no('remote_bad_escape', 'The repository path has a malformed %-escape.');
  if (/%(0[0-9a-f]|1[0-9a-f]|7f)/i.test(p)) return no('remote_control_characters', 'The repository path hides a control character.');
  if (scpStyle && p.startsWith('/') && p.startsWith('//')) return no('remote_malformed', 'The repository path is malformed.');
  return null;
}

/** Splits `user@host` (the user is the part before the last `@`). */
function splitUser(authority: string): { user: string | null; hostPort: string } {
  const at = authority.lastIndexOf('@');
  if (at < 0) return { user: null, hostPort: authority };
  return { user: authority.slice(0, at), hostPort: authority.slice(at + 1) };
}

function splitPort(hostPort: string): { host: string; port: string | null } | GitRefusal {
  if (hostPort.startsWith('[')) {
    const end = hostPort.indexOf(']');
    if (end < 0) return no('remote_malformed', 'The IPv6 host is not closed with "]".');
    const rest = hostPort.slice(end + 1);
    if (rest === '') return { host: hostPort.slice(0, end + 1), port: null };
    if (!rest.startsWith(':')) return no('remote_malformed', 'The host is malformed.');
    return { host: hostPort.slice(0, end + 1), port: rest.slice(1) };
  }
  const colon = hostPort.indexOf(':');
  if (colon < 0) return { host: hostPort, port: null };
  return { host: hostPort.slice(0, colon), port: hostPort.slice(colon + 1) };
}

function checkPort(port: string | null): GitRefusal | null {
  if (port === null) return null;
  if (!/^\d{1,5}$/.test(port) || Number(port) < 1 || Number(port) > 65535) return no('remote_bad_port', 'The port must be a number from 1 to 65535.');
  return null;
}

/** `https://host/path` and `ssh://[user@]host[:port]/path`. */
function checkSchemeUrl(url: string, scheme: 'https' | 'ssh'): GitRefusal | null {
  const rest = url.slice(scheme.length + 3);
  const slash = rest.indexOf('/');
  if (slash < 0) return no('remote_no_repository', 'The remote URL names no repository.');
  const authority = rest.slice(0, slash);
  const repoPath = rest.slice(slash);
  const { user, hostPort } = splitUser(authority);
  const userProblem = checkUser(user);
  if (userProblem) return userProblem;
  const split = splitPort(hostPort);
  if (!('host' in split)) return split;
  return checkHost(split.host) ?? checkPort(split.port) ?? checkPath(repoPath, false);
}

/** scp-style `[user@]host:path` (git's rule: no `/` before the first `:`). */
function checkScpUrl(url: string): GitRefusal | null {
  let hostEnd: number;
  if (url.includes('@[') || url.startsWith('[')) {
    const close = url.indexOf(']');
    if (close < 0 || url[close + 1] !== ':') return no('remote_malformed', 'The remote URL is malformed.');
    hostEnd = close + 1;
  } else {
    hostEnd = url.indexOf(':');
  }
  const authority = url.slice(0, hostEnd);
  const repoPath = url.slice(hostEnd + 1);
  if (authority.includes('/')) return no('remote_local_path', 'Use an https:// or SSH remote URL, not a local path.');
  // `user:token@host:repo` parses as host "user": an embedded credential all the same.
  if (repoPath.includes('@')) return no('remote_credentials', 'The remote URL may not carry a password or token; put the token in the Access token field.');
  const { user, hostPort } = splitUser(authority);
  const userProblem = checkUser(user);
  if (userProblem) return userProblem;
  if (hostPort.includes(':') && !hostPort.startsWith('[')) return no('remote_malformed', 'The remote URL is malformed.');
  return checkHost(hostPort) ?? checkPath(repoPath, true);
}

/** Why a remote URL is refused (null when it is not). */
export function remoteUrlRefusal(url: string): GitRefusal | null {
  if (typeof url !== 'string' || url === '') return no('remote_required', 'A remote URL is required.');
  if (url.length > MAX_URL_LENGTH) return no('remote_too_long', 'The remote URL is too long.', { max: MAX_URL_LENGTH });
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0020\u007f]/.test(url) || /\s/u.test(url)) return no('remote_control_characters', 'The remote URL may not contain spaces, line breaks or control characters.');
  if (/[^\u0000-\u007f]/.test(url)) return no('remote_not_ascii', 'The remote URL may only contain ASCII characters (percent-encode the rest).');
  if (url.startsWith('-')) return no('remote_dash', 'The remote URL may not start with "-".');
  if (SHELL_CHARACTERS.test(url)) return no('remote_shell_characters', 'The remote URL contains shell characters.');
  if (/^[A-Za-z0-9+.-]*::/.test(url)) return no('remote_transport_helper', 'Transport helpers (such as ext::) are not allowed; use an https:// or SSH remote URL.');
  const scheme = url.match(/^([A-Za-z][A-Za-z0-9+.-]*):\/\//)?.[1]?.toLowerCase();
  if (scheme === 'https' && url.startsWith('https://')) return checkSchemeUrl(url, 'https');
  if (scheme === 'ssh' && url.startsWith('ssh://')) return checkSchemeUrl(url, 'ssh');
  if (scheme !== undefined) return no('remote_scheme', `The ${scheme}:// scheme is not allowed; use https:// or SSH.`, { scheme });
  if (/^[^/]*:/.test(url) && !/^[A-Za-z]:/.test(url)) return checkScpUrl(url);
  return no('remote_local_path', 'Use an https:// or SSH remote URL (for example git@host:owner/repo.git), not a local path.');
}

/** The sentence of remoteUrlRefusal, or null. */
export const checkRemoteUrl = (url: string): string | null => remoteUrlRefusal(url)?.message ?? null;

/** git check-ref-format rules for refs/heads/<name>, plus what `git branch` refuses. */
export function branchRefusal(name: string): GitRefusal | null {
  const bad = 'That is not a valid branch name.';
  if (typeof name !== 'string' || name === '') return no('branch_required', 'A branch name is required.');
  if (name.length > MAX_BRANCH_LENGTH) return no('branch_too_long', 'The branch name is too long.', { max: MAX_BRANCH_LENGTH });
  if (name.startsWith('-')) return no('branch_dash', `${bad} It may not start with "-".`);
  if (name === 'HEAD' || name === '@') return no('branch_reserved', `${bad} "${name}" is reserved.`, { value: name });
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0020\u007f~^:?*[\\]/.test(name)) return no('branch_characters', `${bad} Spaces and ~ ^ : ? * [ \\ are not allowed.`);
  if (name.includes('..')) return no('branch_dots', `${bad} ".." is not allowed.`);
  if (name.includes('@{')) return no('branch_at_brace', `${bad} "@{" is not allowed.`);
  if (name.startsWith('/') || name.endsWith('/') || name.includes('//')) return no('branch_slashes', `${bad} Slashes must separate non-empty parts.`);
  if (name.endsWith('.')) return no('branch_dot_end', `${bad} It may not end with ".".`);
  for (const part of name.split('/')) {
    if (part.startsWith('.')) return no('branch_part_dot', `${bad} A part may not start with ".".`);
    if (part.endsWith('.lock')) return no('branch_lock', `${bad} A part may not end with ".lock".`);
  }
  return null;
}

/** The sentence of branchRefusal, or null. */
export const checkBranchName = (name: string): string | null => branchRefusal(name)?.message ?? null;

/** A remote URL's scheme ('https', 'ssh', or 'scp' for `user@host:path`), host and port, or null. */
function hostAndPort(url: string | null): { scheme: string; host: string; port: string | null } | null {
  if (!url) return null;
  const scheme = url.match(/^(https|ssh):\/\/([^/]*)/i);
  const authority = scheme ? scheme[2]! : url.match(/^([^/]*?):/)?.[1];
  if (!authority) return null;
  const split = splitPort(authority.slice(authority.lastIndexOf('@') + 1));
  if (!('host' in split) || !split.host) return null;
  return { scheme: scheme ? scheme[1]!.toLowerCase() : 'scp', ...split };
}

/** The host part of a remote URL, for the status panel. */
export function remoteHost(url: string | null): string | null {
  return hostAndPort(url)?.host.replace(/^\[|\]$/g, '') || null;
}

/**
 * The remote's host and, when it is not the scheme's default (443, 22), its port: what the
 * token is bound to (admin/git/credentials.ts). A server on another port of the same host
 * is another server.
 */
export function remoteAuthority(url: string | null): string | null {
  const place = hostAndPort(url);
  if (!place) return null;
  const defaultPort = place.scheme === 'https' ? '443' : '22';
  const port = place.port && String(Number(place.port)) !== defaultPort ? `:${Number(place.port)}` : '';
  return (place.host + port).toLowerCase();
}

/** A remote URL's host and authority, as the token is bound to them. */
export function remotePlace(url: string | null): { host: string | null; authority: string | null } {
  return { host: remoteHost(url), authority: remoteAuthority(url) };
}
