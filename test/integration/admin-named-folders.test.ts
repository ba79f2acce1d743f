// The admin app answers /api/… and /admin as written. A documentation vault's `API/` folder
// (or an `Admin/` one) was kept off the site as if it were the admin's: every note in it
// unpublished, with a warning each. The folders the site writes pages into (topic/, folder/,
// page/) stay its own in any case: on a case-insensitive disk `Topic/` is `topic/`.
import { describe, expect, it } from 'vitest';
import { isReservedAddress, type Address } from '../../shared/model/addresses.ts';
import { blogForFile } from '../fixtures/blog/helpers.ts';

const note = (body: string) => `---\npublish: true\ndate: 2024-03-01\n---\n${body}\n`;
const blog = blogForFile({
  fixture: false,
  files: {
    'API/Reference.md': note('REFERENCE-TEXT'),
    'Admin/Guide.md': note('GUIDE-TEXT'),
    'Topic/Note.md': note('TOPIC-TEXT'),
  },
});

describe('a vault folder named API or Admin', () => {
  it('is published at its own address, while /api/… and /admin still belong to the admin app', async () => {
    expect((await blog.page('/API/Reference')).text).toContain('REFERENCE-TEXT');
    expect((await blog.page('/Admin/Guide')).text).toContain('GUIDE-TEXT');
    expect((await blog.api('GET', '/api/posts')).body.map((p: { url: string }) => p.url).sort()).toEqual(['/API/Reference', '/Admin/Guide']);
    expect((await blog.page('/admin/')).text).not.toContain('GUIDE-TEXT');
  });

  it('while a folder named as one the site writes pages into, in any case, is not', async () => {
    expect((await blog.page('/Topic/Note')).status).toBe(404);
    for (const address of ['/api/x', '/admin', '/topic/x', '/Topic/x', '/FOLDER/x', '/Page/2']) expect(isReservedAddress(address as Address), address).toBe(true);
    for (const address of ['/API/x', '/Admin', '/Api/x']) expect(isReservedAddress(address as Address), address).toBe(false);
  });
});
