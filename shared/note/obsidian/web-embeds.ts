// Obsidian's embeds of a web page in image syntax: `![](https://www.youtube.com/watch?v=ID)`
// plays the video inside the note, `![](https://x.com/user/status/ID)` shows the post. Read
// as images, both were a broken picture. A page plays the video in YouTube's privacy-enhanced
// player (no cookie until it plays; the site's CSP already allows https frames); a post,
// which would need X's own script in the reader's browser, is a link to it.
import { escapeHtml } from '../escape.ts';

const YOUTUBE_HOSTS = new Set(['youtube.com', 'www.youtube.com', 'm.youtube.com', 'music.youtube.com', 'youtube-nocookie.com', 'www.youtube-nocookie.com']);
const VIDEO_ID = /^[A-Za-z0-9_-]{11}$/;
/** `t=90`, `t=1m30s`, `t=1h2m3s`: seconds. */
const TIME = /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s?)?$/;

export interface YouTubeVideo {
  id: string;
  /** Where it starts, in seconds (`t=` or `start=`), or 0. */
  start: number;
}

function seconds(value: string | null): number {
  const m = value ? TIME.exec(value) : null;
  if (!m || value === '') return 0;
  return Number(m[1] ?? 0) * 3600 + Number(m[2] ?? 0) * 60 + Number(m[3] ?? 0);
}

/** The video a YouTube address plays (watch, youtu.be, shorts, live, embed), or null. */
export function youTubeVideo(address: string): YouTubeVideo | null {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  const host = url.hostname.toLowerCase();
  const parts = url.pathname.split('/').filter(Boolean);
  let id: string | null = null;
  if (host === 'youtu.be') id = parts[0] ?? null;
  else if (YOUTUBE_HOSTS.has(host)) id = parts[0] === 'watch' ? url.searchParams.get('v') : ['shorts', 'live', 'embed', 'v'].includes(parts[0] ?? '') ? (parts[1] ?? null) : null;
  if (id === null || !VIDEO_ID.test(id)) return null;
  return { id, start: seconds(url.searchParams.get('t') ?? url.searchParams.get('start')) };
}

const POST = /^https?:\/\/(?:www\.|mobile\.)?(?:twitter|x)\.com\/[A-Za-z0-9_]{1,15}\/status(?:es)?\/\d{1,25}(?:[/?#]|$)/i;

/** The HTML a web embed is on the page (a video player, a link to a post), or null for an address that is a picture. */
export function webEmbedHtml(address: string, title: string, size: { width: string | null; height: string | null } = { width: null, height: null }): string | null {
  const video = youTubeVideo(address);
  if (video) {
    const src = `https://www.youtube-nocookie.com/embed/${video.id}${video.start > 0 ? `?start=${video.start}` : ''}`;
    // `![|400](https://youtu.be/…)` sizes the player as Obsidian does (digits only: takeSize read them), never wider than the page.
    const sized = size.width ? ` style="width:${size.width}px;max-width:100%${size.height ? `;height:${size.height}px;aspect-ratio:auto` : ''}"` : '';
    return `<iframe class="s-video" src="${src}" title="${escapeHtml(title || 'YouTube video')}"${sized} loading="lazy" allow="accelerometer; clipboard-write; encrypted-media; gyroscope; picture-in-picture; fullscreen" referrerpolicy="strict-origin-when-cross-origin" allowfullscreen></iframe>`;
  }
  if (POST.test(address)) return `<a class="s-web-post" href="${escapeHtml(address)}" rel="noopener">${escapeHtml(title || address)}</a>`;
  return null;
}
