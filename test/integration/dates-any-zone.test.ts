// A post's date reads the same on every server, whatever its time zone. Without a written zone
// the JavaScript engine reads `January 15, 2024`, `15 January 2024` or `2024/01/15` in the
// server's own zone: on a server in Tokyo or Berlin, east of UTC, each such post showed
// January 14, on its page, in its lists and in the feed, while a CI snapshot showed the 15th.
// In the processes project: the zone is the process's, and this file's process is its own.
process.env.TZ = 'Asia/Tokyo';

import { describe, expect, it } from 'vitest';
import { parseDateValue } from '../../shared/note/dates.ts';

describe('frontmatter dates on a server east of UTC', () => {
  it('are the day written, as a bare YAML date is', () => {
    expect(new Date(Date.UTC(2024, 0, 15)).getDate()).toBe(15); // the zone took: 09:00 in Tokyo
    expect(new Date(Date.parse('2024/01/15')).getUTCDate()).toBe(14); // the engine's own reading
    for (const text of ['January 15, 2024', '15 January 2024', '2024/01/15', 'Jan 15 2024', '01/15/2024']) {
      expect(parseDateValue(text), text).toBe(Date.UTC(2024, 0, 15));
    }
    expect(parseDateValue('15 Jan 2024 10:30')).toBe(Date.UTC(2024, 0, 15, 10, 30));
    // A zone the text writes is kept.
    expect(parseDateValue('Mon Jan 15 2024 10:30:00 GMT+0100 (Central European Standard Time)')).toBe(Date.UTC(2024, 0, 15, 9, 30));
    expect(parseDateValue('2024-01-15T10:30:00+02:00')).toBe(Date.UTC(2024, 0, 15, 8, 30));
  });
});
