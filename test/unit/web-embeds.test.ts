// Obsidian embeds a web page written in image syntax: `![](https://www.youtube.com/watch?v=…)`
// plays the video in the note, `![](https://x.com/…/status/…)` shows the post. The site read
// both as pictures, and a reader saw a broken image where the note had a video.
import { describe, expect, it } from 'vitest';
import { renderNoteHtml, type RenderLinks } from '../../shared/note/markdown.ts';
import { youTubeVideo } from '../../shared/note/obsidian/web-embeds.ts';
import { sanitizeNoteHtml } from '../../shared/note/sanitize.ts';

const links: RenderLinks = { note: () => null, attachment: () => null, tag: (t) => `/topic/${t}` };
const render = (body: string) => renderNoteHtml(body, 'Title', links);

describe('youTubeVideo', () => {
  it('reads every address YouTube gives a video, with where it starts', () => {
    expect(youTubeVideo('https://www.youtube.com/watch?v=dQw4w9WgXcQ')).toEqual({ id: 'dQw4w9WgXcQ', start: 0 });
    expect(youTubeVideo('https://youtu.be/dQw4w9WgXcQ?t=90')).toEqual({ id: 'dQw4w9WgXcQ', start: 90 });
    expect(youTubeVideo('https://m.youtube.com/watch?v=dQw4w9WgXcQ&t=1m30s&list=x')).toEqual({ id: 'dQw4w9WgXcQ', start: 90 });
    expect(youTubeVideo('https://www.youtube.com/shorts/dQw4w9WgXcQ')).toEqual({ id: 'dQw4w9WgXcQ', start: 0 });
    expect(youTubeVideo('https://www.youtube.com/live/dQw4w9WgXcQ?start=5')).toEqual({ id: 'dQw4w9WgXcQ', start: 5 });
    expect(youTubeVideo('https://www.youtube.com/embed/dQw4w9WgXcQ')).toEqual({ id: 'dQw4w9WgXcQ', start: 0 });
  });

  it('is null for anything else: a channel, a playlist, another host, an id that is not one', () => {
    for (const address of ['https://www.youtube.com/@obsidianmd', 'https://www.youtube.com/playlist?list=PL1', 'https://example.com/watch?v=dQw4w9WgXcQ', 'https://youtu.be/short', 'https://www.youtube.com/watch?v=dQw4w9WgXcQ"onload="x', 'javascript:alert(1)', 'not a url']) {
      expect(youTubeVideo(address), address).toBeNull();
    }
  });
});

describe('a web embed on the page', () => {
  it("a video plays in YouTube's privacy-enhanced player, titled by the alt text, and survives the sanitiser", () => {
    const html = render('Watch: ![The talk](https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=42)');
    expect(html).toBe('<p>Watch: <iframe class="s-video" src="https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?start=42" title="The talk" loading="lazy" allow="accelerometer; clipboard-write; encrypted-media; gyroscope; picture-in-picture; fullscreen" referrerpolicy="strict-origin-when-cross-origin" allowfullscreen></iframe></p>\n');
    expect(sanitizeNoteHtml(html)).toContain('<iframe class="s-video" src="https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?start=42" title="The talk"');
  });

  // A study vault's `![|400](https://youtu.be/…)`: Obsidian sizes the player, the site drew it full width.
  it('a size after a bar sizes the player, never wider than the page', () => {
    expect(render('![|400](https://youtu.be/dQw4w9WgXcQ)')).toContain('<iframe class="s-video" src="https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ" title="YouTube video" style="width:400px;max-width:100%" loading="lazy"');
    expect(render('![Talk|640x360](https://youtu.be/dQw4w9WgXcQ)')).toContain('title="Talk" style="width:640px;max-width:100%;height:360px;aspect-ratio:auto"');
    expect(sanitizeNoteHtml(render('![|400](https://youtu.be/dQw4w9WgXcQ)'))).toContain('style="width:400px;max-width:100%"');
  });

  it('a post on X or Twitter is a link to it; a web picture stays a picture', () => {
    expect(render('![](https://twitter.com/obsdmd/status/1580548874246443010)')).toBe('<p><a class="s-web-post" href="https://twitter.com/obsdmd/status/1580548874246443010" rel="noopener">https://twitter.com/obsdmd/status/1580548874246443010</a></p>\n');
    expect(render('![A post](https://x.com/obsdmd/status/1580548874246443010?s=20)')).toContain('<a class="s-web-post" href="https://x.com/obsdmd/status/1580548874246443010?s=20" rel="noopener">A post</a>');
    expect(render('![logo|100](https://obsidian.md/logo.svg)')).toBe('<p><img src="https://obsidian.md/logo.svg" alt="logo" width="100" loading="lazy"></p>\n');
  });
});
