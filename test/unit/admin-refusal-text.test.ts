// The server's refusals and a sync pass's result are said in the admin's language: every code
// the server can refuse with (read from the source, so a new one fails here until it has a
// decision) has a sentence in English and in Arabic, or is one no path of the app can show;
// every reason and every sync word the server names has its sentence; the English ones are
// the server's own. A code, reason or word the app does not know keeps the server's English.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { OPERATION_SENTENCES } from '../../admin/sync/git-operation.ts';
import { en, lang } from '../../admin/ui/src/i18n.ts';
import { ar } from '../../admin/ui/src/i18n-ar.ts';
import { refusalText, syncText } from '../../admin/ui/src/refusal-text.ts';
import type { SyncWords } from '../../admin/ui/src/types.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * Codes only an API client or a visitor's page can meet: the app never sends such a request
 * (it sends JSON from its own page, well-formed fields, full ids), or the answer goes to the
 * public site's own pages, not to the admin.
 */
const NOT_SHOWN: Record<string, string> = {
  cross_site: 'the app calls from its own origin',
  json_only: 'the app sends JSON',
  bad_hash: 'the app sends back the hash the server gave it',
  form_only: 'the webmention endpoint, called by other sites',
  bad_json: 'the app sends a JSON object',
  bad_action: 'the app sends one of the actions it lists',
  bad_at: 'the app sends the version times the server listed',
  bad_content: 'the app sends text',
  bad_cursor: 'the app sends the cursor the server gave',
  bad_data: 'the app sends base64',
  bad_id: 'the app sends ids the server listed',
  bad_limit: 'the app sends its own limit',
  bad_mtime: 'the app sends the time the server gave',
  bad_overwrite: 'the app sends true or false',
  bad_restore: 'the app sends true or false',
  bad_page: 'the app sends page numbers it counted',
  bad_parent: "a visitor's reply on the public site",
  bad_query: 'the app sends only id',
  bad_sha: 'the app sends commit ids the server listed',
  bad_status: 'the app sends pending or approved',
  bad_text: 'the app sends text',
  bad_pref: "the app's preferences are its own keys and values",
  unknown_setting: 'the settings form sends only its own fields (a wrong value is said beside its field)',
  bad_password: 'the sign-in form asks for the password before sending',
  bad_field: "a visitor's comment form on the public site",
  bad_email: "a visitor's comment form on the public site",
  too_many_links: "a visitor's comment form on the public site",
  not_an_attachment: 'the app reads notes through /api/note',
};

async function sources(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await fs.readdir(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) {
      if (rel !== 'admin/ui/src') out.push(...(await sources(rel)));
    } else if (entry.name.endsWith('.ts')) out.push(rel);
  }
  return out;
}

const files = [...(await sources('admin')), ...(await sources('shared'))];
const texts = new Map(await Promise.all(files.map(async (f) => [f, await fs.readFile(path.join(ROOT, f), 'utf8')] as const)));
const all = [...texts.values()].join('\n');

/** Every refusal code in the server's source: refuse('x', …), a DomainError's own code, notFound, the filesystem's table. */
const CODES = new Set<string>(['not_found']);
for (const pattern of [/\brefuse\(\s*'([a-z_]+)'/g, /new DomainError\(\s*'([a-z_]+)'/g, /\bsuper\(\s*'([a-z_]+)'/g, /\bbad\(\s*'([a-z_]+)'/g]) {
  for (const m of all.matchAll(pattern)) CODES.add(m[1]!);
}
// admin/http.ts answers a few codes itself: the filesystem's refusals, git's failure, the unexpected.
const http = texts.get('admin/http.ts')!;
for (const m of http.matchAll(/[A-Z]+: \['([a-z_]+)', '/g)) CODES.add(m[1]!);
for (const m of http.matchAll(/\bcode: '([a-z_]+)'/g)) CODES.add(m[1]!);

const keys = Object.keys(en);
const saysCode = (code: string) => keys.some((k) => k === `refused_${code}` || k.startsWith(`refused_${code}_`));

afterEach(() => lang.set('en'));

describe('every refusal the server can answer has a decision', () => {
  it('the scan finds the refusals', () => {
    for (const code of ['exists', 'bad_name', 'too_large', 'stale', 'not_found', 'busy', 'no_space', 'holds_data_dir', 'bad_path', 'sync_off']) expect(CODES, code).toContain(code);
  });

  it.each([...CODES].sort())('%s is said in English and Arabic, or no path of the app shows it', (code) => {
    if (Object.hasOwn(NOT_SHOWN, code)) {
      expect(saysCode(code), `${code} is on the list of codes no UI path shows, yet has sentences`).toBe(false);
      return;
    }
    expect(saysCode(code), `${code} needs a sentence in admin/ui/src/i18n-refusals.ts (or a place on NOT_SHOWN)`).toBe(true);
    for (const key of keys.filter((k) => k === `refused_${code}` || k.startsWith(`refused_${code}_`))) expect(Object.hasOwn(ar, key), key).toBe(true);
  });

  it('every reason a refusal names has its sentence', () => {
    // refuse('code', …, { reason: 'x' }) (or the comment rules' bad()), notFound(…, 'x'), a PathError's reason, the filesystem's table.
    const pairs: Array<[string, string]> = [];
    for (const m of all.matchAll(/\b(?:refuse|bad)\(\s*'([a-z_]+)',(?:(?!\);$)[\s\S])*?\breason: '([a-z_]+)'/gm)) pairs.push([m[1]!, m[2]!]);
    for (const m of all.matchAll(/\bnotFound\([^;]*?, '([a-z_]+)'\)/g)) pairs.push(['not_found', m[1]!]);
    for (const m of all.matchAll(/new PathError\((?:[^;])*?, '([a-z_]+)'/g)) pairs.push(['bad_path', m[1]!]);
    for (const m of http.matchAll(/\['([a-z_]+)', '[^']*', '([a-z_]+)'\]/g)) pairs.push([m[1]!, m[2]!]);
    for (const m of all.matchAll(/new DomainError\(\s*'([a-z_]+)',[^;]*?\breason: '([a-z_]+)'/g)) pairs.push([m[1]!, m[2]!]);
    expect(pairs.length).toBeGreaterThan(40);
    for (const [code, reason] of pairs) {
      expect(Object.hasOwn(en, `refused_${code}_${reason}`), `refused_${code}_${reason}`).toBe(true);
      expect(Object.hasOwn(ar, `refused_${code}_${reason}`), `ar refused_${code}_${reason}`).toBe(true);
    }
  });

  it('every word a sync pass says has its sentence, and every hint', () => {
    const sync = ['admin/sync/pass.ts', 'admin/sync/service.ts'].map((f) => texts.get(f)!).join('\n');
    const words = new Set([...sync.matchAll(/\bkey: (?:committed \? )?'([a-z_]+)'(?: : '([a-z_]+)')?/g)].flatMap((m) => [m[1]!, m[2]].filter((k): k is string => !!k)));
    for (const m of sync.matchAll(/'(hint_[a-z_]+)'/g)) words.add(m[1]!);
    expect(words).toContain('diverged');
    expect(words).toContain('hint_credentials');
    for (const word of words) {
      const key = [`sync_${word}`, `refused_bad_settings_${word}`, `refused_${word}`].find((k) => Object.hasOwn(en, k));
      expect(key, word).toBeDefined();
      expect(Object.hasOwn(ar, key!), key).toBe(true);
    }
  });

  it("the English sentences are the server's own", () => {
    // A sentence with no figures is found as it is in the server's source.
    const source = all.replace(/\\'/g, "'").replaceAll('${TRASH_DIR}', '.trash');
    for (const key of keys.filter((k) => k.startsWith('refused_') || k.startsWith('sync_'))) {
      const text = en[key as keyof typeof en];
      if (typeof text !== 'string' || text.includes('{')) continue;
      const bare = text.replace(/ Nothing was changed\.$/, '');
      expect(source.includes(bare), `${key}: “${text}”`).toBe(true);
    }
  });
});

describe('a refusal said in the admin’s language', () => {
  const taken = { error: 'Notes/Plan.md already exists: choose another name.', code: 'exists', reason: 'taken', path: 'Notes/Plan.md' };

  it('English says the server’s sentence, from the table', () => {
    expect(refusalText('exists', taken, taken.error).replace(/[\u2066\u2068\u2069]/g, '')).toBe(taken.error);
  });

  it('Arabic says it in Arabic, the name kept whole', () => {
    lang.set('ar');
    // A path is left to right whatever its letters (LRI … PDI).
    expect(refusalText('exists', taken, taken.error)).toBe('«\u2066Notes/Plan.md\u2069» موجود من قبل: اختر اسمًا آخر.');
    expect(refusalText('too_many', { max: 500 }, 'Ask for at most 500 paths at once.')).toBe('اطلب 500 مسار على الأكثر في المرة الواحدة.');
    expect(refusalText('busy', { reason: 'vault_on_host', holder: { pid: 42, hostname: 'box' } }, 'x')).toContain('pid 42 على \u2068box\u2069');
  });

  it('a saved branch a pass refuses is said with the settings form’s own Arabic reason', () => {
    const body = { reason: 'branch_refused', field: 'sync.branch', why: 'branch_dots', problem: 'That is not a valid branch name. It may not contain "..".' };
    const english = `The branch in settings is refused: ${body.problem}`;
    expect(refusalText('bad_settings', body, english).replace(/[\u2068\u2069]/g, '')).toBe(english);
    lang.set('ar');
    expect(refusalText('bad_settings', body, english)).toBe('الفرع المحفوظ في الإعدادات مرفوض: ليس اسم فرع صالحًا؛ «..» غير مسموح بها.');
  });

  it('a code, a reason or a figure it does not know keeps the server’s English', () => {
    lang.set('ar');
    expect(refusalText('a_new_code', {}, 'Something new.')).toBe('Something new.');
    expect(refusalText('exists', { reason: 'a_new_reason' }, 'In the way.')).toBe('In the way.');
    expect(refusalText('exists', { reason: 'taken' }, 'Already there.')).toBe('Already there.');
  });
});

describe('no commit while git is midway through the owner’s operation', () => {
  it('each operation the service refuses to commit through is said in English (the server’s own) and Arabic', () => {
    for (const [operation, sentence] of Object.entries(OPERATION_SENTENCES)) {
      const key = `refused_operation_in_progress_${operation}` as keyof typeof en;
      expect(en[key], key).toBe(sentence);
      expect(Object.hasOwn(ar, key), key).toBe(true);
      // A Snapshot now refusal and a sync pass's words say the same sentence.
      expect(refusalText('operation_in_progress', { reason: operation }, 'x')).toBe(sentence);
      expect(syncText({ message: 'x', words: [{ key: `operation_in_progress_${operation}` }] })).toBe(sentence);
    }
  });

  it('Arabic names git’s commands whole, left to right', () => {
    lang.set('ar');
    const merge = refusalText('operation_in_progress', { reason: 'merge' }, 'x');
    expect(merge).toMatch(/^عملية دمج جارية/);
    expect(merge).toContain('\u2066git merge --abort\u2069');
  });

  it('what the remote said follows git’s line, a line each, in either language', () => {
    const line = '! [remote rejected] HEAD -> main (pre-receive hook declined)';
    const lines = 'GH013: Repository rule violations found for refs/heads/main.\n- Push cannot contain secrets';
    const result = { message: `Sync failed. Git said: ${line} The remote said:\n${lines}`, words: [{ key: 'failed' }, { key: 'git_said', line }, { key: 'remote_said', lines }] as SyncWords[] };
    expect(syncText(result).replace(/[\u2068\u2069]/g, '')).toBe(result.message);
    lang.set('ar');
    expect(syncText(result)).toBe(`فشلت المزامنة. قال git: \u2068${line}\u2069 قال المستودع البعيد:\n\u2068${lines}\u2069`);
  });
});

describe('a sync result said in the admin’s language', () => {
  const line = "fatal: unable to access 'https://nohost.invalid/r.git/': Could not resolve host: nohost.invalid";
  const failed = { message: `Sync failed. The remote’s host name was not found: check the address. Git said: ${line}`, words: [{ key: 'failed' }, { key: 'hint_host_unknown' }, { key: 'git_said', line }] as SyncWords[] };

  it('English is the server’s sentence; Arabic says the hint, and git’s line as git wrote it', () => {
    expect(syncText(failed).replace(/[\u2068\u2069]/g, '')).toBe(failed.message);
    lang.set('ar');
    expect(syncText(failed)).toBe(`فشلت المزامنة. لم يُعثر على اسم مضيف المستودع البعيد: تحقّق من العنوان. قال git: \u2068${line}\u2069`);
  });

  it('counts take their plural forms, and an unknown word keeps the English', () => {
    lang.set('ar');
    const diverged = { message: 'x', words: [{ key: 'diverged', host: 'example.org', ahead: 2, behind: 11 }] };
    expect(syncText(diverged)).toBe('تفرّع سجلّا هذه الخزنة و\u2068example.org\u2069 (إيداعان هنا، و11 إيداعًا هناك)؛ لم يُودَع ولم يُدفع شيء. ادمجهما يدويًا بـ git.');
    expect(syncText({ message: 'Something new happened.', words: [{ key: 'nothing_to_push' }, { key: 'a_new_word' }] })).toBe('Something new happened.');
    expect(syncText({ message: 'Written before words were kept.' })).toBe('Written before words were kept.');
  });
});
