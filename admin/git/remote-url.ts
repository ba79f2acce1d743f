// Remote URL and branch validation (spec 2.9, 5.4). Each check returns null when the
// value is acceptable, else a sentence saying why it is refused. The URL reaches git's
// argv, so anything git could read as an option, a transport helper or a local path
// is refused, and so is any secret that would end up in .git/config.

const MAX_URL_LENGTH = 2048;

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

function checkHost(host: string): string | null {
  if (host === '') return 'The remote URL has no host.';
  if (host.startsWith('-')) return 'A host may not start with "-".';
  if (IPV6.test(host)) return null;
  if (!HOST_NAME.test(host)) return `"${host}" is not a valid host name.`;
  return null;
}

function checkUser(user: string | null): string | null {
  if (user === null) return null;
  if (user.includes(':') || /%3a/i.test(user)) return 'The remote URL may not carry a password or token; put the token in the Access token field.';
  if (user === '') return 'The remote URL has an empty user name.';
  if (user.startsWith('-')) return 'A user name may not start with "-".';
  if (!USER.test(user)) return 'The user name in the remote URL has characters git cannot take safely.';
  if (/%(?![0-9A-Fa-f]{2})/.test(user)) return 'The user name has a malformed %-escape.';
  if (looksLikeToken(user)) return 'The user part of the remote URL looks like an access token; put the token in the Access token field.';
  return null;
}

function checkPath(p: string, scpStyle: boolean): string | null {
  const bare = p.replace(/^\/+/, '');
  if (bare === '' || bare === '~') return 'The remote URL names no repository.';
  if (bare.startsWith('-') || /\/-/.test(p)) return 'A repository path segment may not start with "-".';
  if (!PATH_SEGMENTS.test(p)) return 'The repository path has characters git cannot take safely.';
  if (/%(?![0-9A-Fa-f]{2})/.test(p)) return 'The repository path has a malformed %-escape.';
  if (/%(0[0-9a-f]|1[0-9a-f]|7f)/i.test(p)) return 'The repository path hides a control character.';
  if (scpStyle && p.startsWith('/') && p.startsWith('//')) return 'The repository path is malformed.';
  return null;
}

/** Splits `user@host` (the user is the part before the last `@`). */
function splitUser(authority: string): { user: string | null; hostPort: string } {
  const at = authority.lastIndexOf('@');
  if (at < 0) return { user: null, hostPort: authority };
  return { user: authority.slice(0, at), hostPort: authority.slice(at + 1) };
}

function splitPort(hostPort: string): { host: string; port: string | null } | string {
  if (hostPort.startsWith('[')) {
    const end = hostPort.indexOf(']');
    if (end < 0) return 'The IPv6 host is not closed with "]".';
    const rest = hostPort.slice(end + 1);
    if (rest === '') return { host: hostPort.slice(0, end + 1), port: null };
    if (!rest.startsWith(':')) return 'The host is malformed.';
    return { host: hostPort.slice(0, end + 1), port: rest.slice(1) };
  }
  const colon = hostPort.indexOf(':');
  if (colon < 0) return { host: hostPort, port: null };
  return { host: hostPort.slice(0, colon), port: hostPort.slice(colon + 1) };
}

function checkPort(port: string | null): string | null {
  if (port === null) return null;
  if (!/^\d{1,5}$/.test(port) || Number(port) < 1 || Number(port) > 65535) return 'The port must be a number from 1 to 65535.';
  return null;
}

/** `https://host/path` and `ssh://[user@]host[:port]/path`. */
function checkSchemeUrl(url: string, scheme: 'https' | 'ssh'): string | null {
  const rest = url.slice(scheme.length + 3);
  const slash = rest.indexOf('/');
  if (slash < 0) return 'The remote URL names no repository.';
  const authority = rest.slice(0, slash);
  const repoPath = rest.slice(slash);
  const { user, hostPort } = splitUser(authority);
  const userProblem = checkUser(user);
  if (userProblem) return userProblem;
  const split = splitPort(hostPort);
  if (typeof split === 'string') return split;
  return checkHost(split.host) ?? checkPort(split.port) ?? checkPath(repoPath, false);
}

/** scp-style `[user@]host:path` (git's rule: no `/` before the first `:`). */
function checkScpUrl(url: string): string | null {
  let hostEnd: number;
  if (url.includes('@[') || url.startsWith('[')) {
    const close = url.indexOf(']');
    if (close < 0 || url[close + 1] !== ':') return 'The remote URL is malformed.';
    hostEnd = close + 1;
  } else {
    hostEnd = url.indexOf(':');
  }
  const authority = url.slice(0, hostEnd);
  const repoPath = url.slice(hostEnd + 1);
  if (authority.includes('/')) return 'Use an https:// or SSH remote URL, not a local path.';
  // `user:token@host:repo` parses as host "user": an embedded credential all the same.
  if (repoPath.includes('@')) return 'The remote URL may not carry a password or token; put the token in the Access token field.';
  const { user, hostPort } = splitUser(authority);
  const userProblem = checkUser(user);
  if (userProblem) return userProblem;
  if (hostPort.includes(':') && !hostPort.startsWith('[')) return 'The remote URL is malformed.';
  return checkHost(hostPort) ?? checkPath(repoPath, true);
}

export function checkRemoteUrl(url: string): string | null {
  if (typeof url !== 'string' || url === '') return 'A remote URL is required.';
  if (url.length > MAX_URL_LENGTH) return 'The remote URL is too long.';
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0020\u007f]/.test(url) || /\s/u.test(url)) return 'The remote URL may not contain spaces, line breaks or control characters.';
  if (/[^\u0000-\u007f]/.test(url)) return 'The remote URL may only contain ASCII characters (percent-encode the rest).';
  if (url.startsWith('-')) return 'The remote URL may not start with "-".';
  if (SHELL_CHARACTERS.test(url)) return 'The remote URL contains shell characters.';
  if (/^[A-Za-z0-9+.-]*::/.test(url)) return 'Transport helpers (such as ext::) are not allowed; use an https:// or SSH remote URL.';
  const scheme = url.match(/^([A-Za-z][A-Za-z0-9+.-]*):\/\//)?.[1]?.toLowerCase();
  if (scheme === 'https' && url.startsWith('https://')) return checkSchemeUrl(url, 'https');
  if (scheme === 'ssh' && url.startsWith('ssh://')) return checkSchemeUrl(url, 'ssh');
  if (scheme !== undefined) return `The ${scheme}:// scheme is not allowed; use https:// or SSH.`;
  if (/^[^/]*:/.test(url) && !/^[A-Za-z]:/.test(url)) return checkScpUrl(url);
  return 'Use an https:// or SSH remote URL (for example git@host:owner/repo.git), not a local path.';
}

/** git check-ref-format rules for refs/heads/<name>, plus what `git branch` refuses. */
export function checkBranchName(name: string): string | null {
  const bad = 'That is not a valid branch name.';
  if (typeof name !== 'string' || name === '') return 'A branch name is required.';
  if (name.length > 255) return 'The branch name is too long.';
  if (name.startsWith('-')) return `${bad} It may not start with "-".`;
  if (name === 'HEAD' || name === '@') return `${bad} "${name}" is reserved.`;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0020\u007f~^:?*[\\]/.test(name)) return `${bad} Spaces and ~ ^ : ? * [ \\ are not allowed.`;
  if (name.includes('..')) return `${bad} ".." is not allowed.`;
  if (name.includes('@{')) return `${bad} "@{" is not allowed.`;
  if (name.startsWith('/') || name.endsWith('/') || name.includes('//')) return `${bad} Slashes must separate non-empty parts.`;
  if (name.endsWith('.')) return `${bad} It may not end with ".".`;
  for (const part of name.split('/')) {
    if (part.startsWith('.')) return `${bad} A part may not start with ".".`;
    if (part.endsWith('.lock')) return `${bad} A part may not end with ".lock".`;
  }
  return null;
}

/** A remote URL's scheme ('https', 'ssh', or 'scp' for `user@host:path`), host and port, or null. */
function hostAndPort(url: string | null): { scheme: string; host: string; port: string | null } | null {
  if (!url) return null;
  const scheme = url.match(/^(https|ssh):\/\/([^/]*)/i);
  const authority = scheme ? scheme[2]! : url.match(/^([^/]*?):/)?.[1];
  if (!authority) return null;
  const split = splitPort(authority.slice(authority.lastIndexOf('@') + 1));
  if (typeof split === 'string' || !split.host) return null;
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
