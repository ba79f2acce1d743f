// A base's views as HTML, worked out at build time over the published notes only (a note
// visitors cannot see is never a row, nor counted). A base the site cannot show renders
// a sentence saying what it uses, never its YAML. CONTRACT §12: `<div class="s-base">`,
// a table view a `<table>` with one `<tr>` per row.
import { linkTargetName, wholeLink } from '../../shared/wikilinks.ts';
import { readBase, readsThis, type BaseProblem, type BaseSpec, type BaseView } from '../../shared/bases/base-file.ts';
import { MAX_STEPS_PER_BASE, type BaseLinks, type BaseRowSource } from '../../shared/bases/evaluate.ts';
import { runView, type BaseResult, type BaseResultRow, type BaseSummaryCell, type BaseSummaryRow } from '../../shared/bases/query.ts';
import { BaseDate, BaseLink, BaseObject, dateText, displayText, type Value } from '../../shared/bases/values.ts';
import { outboundSet } from '../../shared/model/links.ts';
import type { NoteRecord } from '../../shared/model/note-record.ts';
import { stampSize } from '../../shared/file-stamp.ts';
import { escapeHtml } from '../../shared/note/escape.ts';
import { composed } from '../../shared/vault-names.ts';
import { siteLanguageAttrs } from './frame.ts';
import type { PageContext } from './page-context.ts';

/** Where a base sits: the `.base` file, or the note holding the block (`this` in its expressions). */
export interface BaseHost {
  path: string;
  folder: string;
  /** Its properties (a note's frontmatter; none for a `.base` file). */
  properties: Readonly<Record<string, unknown>>;
}

const rowSources = new WeakMap<NoteRecord, BaseRowSource>();
/** The note each row was made from (rowOf), for where its links lead. */
const rowNotes = new WeakMap<BaseRowSource, NoteRecord>();

/** What a base reads of a note, made once per record. */
export function rowOf(note: NoteRecord): BaseRowSource {
  let row = rowSources.get(note);
  if (!row) {
    // Paths as Obsidian gives them to a base: composed (a folder named on a Mac matches `inFolder("Café")`).
    const path = composed(note.path);
    const name = path.slice(path.lastIndexOf('/') + 1);
    const dot = name.lastIndexOf('.');
    row = {
      properties: note.data,
      file: {
        name,
        basename: composed(note.name),
        path,
        folder: composed(note.folder),
        ext: dot > 0 ? name.slice(dot + 1) : '',
        ctime: note.date.ms,
        // Its last change where known, else its creation (a note edited soon after it was made has no change of its own).
        mtime: note.changedMs ?? note.date.ms,
        size: stampSize(note.stamp),
        tags: note.tags,
        links: [...note.links, ...note.transclusions.map((t) => t.target)],
      },
    };
    rowSources.set(note, row);
    rowNotes.set(row, note);
  }
  return row;
}

function hostRow(host: BaseHost): BaseRowSource {
  const path = composed(host.path);
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return {
    properties: host.properties,
    file: { name, basename: dot > 0 ? name.slice(0, dot) : name, path, folder: composed(host.folder), ext: dot > 0 ? name.slice(dot + 1) : '', ctime: null, mtime: null, size: null, tags: [], links: [] },
  };
}

/** A link cell: the note's title when it is published, else the words written (never an unpublished note's title). */
function linkHtml(ctx: PageContext, target: string, display: string | null, from: NoteRecord): string {
  const other = ctx.model.resolver.resolve(target, from);
  if (other && ctx.model.isVisible(other)) return `<a class="internal-link" href="${escapeHtml(ctx.url(ctx.addressOf(other)))}">${escapeHtml(display ?? other.title)}</a>`;
  return escapeHtml(display ?? linkTargetName(target));
}

function cellHtml(ctx: PageContext, v: Value, from: NoteRecord, depth = 0): string {
  if (v instanceof BaseLink) return linkHtml(ctx, v.target, v.display, from);
  if (v instanceof BaseDate) return `<time datetime="${escapeHtml(new Date(v.ms).toISOString())}">${escapeHtml(dateText(v))}</time>`;
  if (typeof v === 'string') {
    const link = wholeLink(v);
    return link && !link.embed ? linkHtml(ctx, link.target, link.alias?.trim() || null, from) : escapeHtml(v);
  }
  if (Array.isArray(v) && depth < 3) return v.map((x) => cellHtml(ctx, x, from, depth + 1)).join(', ');
  if (v instanceof BaseObject || Array.isArray(v)) return escapeHtml(displayText(v));
  return escapeHtml(displayText(v));
}

/** The row's name cell: its file's name as Obsidian shows a note's (without `.md`), never its title, linked. */
function nameHtml(ctx: PageContext, note: NoteRecord): string {
  return `<a class="internal-link" href="${escapeHtml(ctx.url(ctx.addressOf(note)))}">${escapeHtml(rowOf(note).file.basename)}</a>`;
}

const cellOf = (ctx: PageContext, id: string, v: Value, note: NoteRecord) => (id === 'file.name' || id === 'file.basename' ? nameHtml(ctx, note) : cellHtml(ctx, v, note));

const HTTP_URL = /^https?:\/\/[^\s"'<>]{1,2000}$/i;
const IMAGE_PATH = /\.(png|jpe?g|gif|webp|avif|svg|bmp)$/i;
const HEX_COLOUR = /^#(?:[0-9a-f]{3}|[0-9a-f]{4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;

/**
 * A card's cover (Obsidian's cards `image`): an http(s) URL as written, a link or path to a vault
 * image at its published address (as a note's banner), a `#hex` colour as a swatch; else nothing.
 */
function coverHtml(ctx: PageContext, view: BaseView, v: Value, note: NoteRecord): string {
  const value = Array.isArray(v) ? (v[0] ?? null) : v;
  const written = value instanceof BaseLink ? value.target : typeof value === 'string' ? value.trim() : '';
  if (written === '') return '';
  const box = `s-base-cover s-base-cover-${view.imageFit}`;
  // Obsidian's ratio is the cover's height to its width.
  const ratio = `aspect-ratio:1/${view.imageAspectRatio}`;
  if (HEX_COLOUR.test(written)) return `<div class="${box}" style="${ratio};background:${written}"></div>`;
  let src: string | null = null;
  if (HTTP_URL.test(written)) src = written;
  else {
    const link = value instanceof BaseLink ? null : wholeLink(written);
    const target = (link ? link.target : written).replace(/[#|][^]*$/, '').trim();
    const p = target === '' ? null : ctx.attachments.resolve(target, note);
    src = p && IMAGE_PATH.test(p) ? ctx.publish(p) : null;
  }
  return src === null ? '' : `<div class="${box}" style="${ratio}"><img src="${escapeHtml(src)}" alt="" loading="lazy"></div>`;
}

/** A summary's value: numbers in the site's digits, a span of dates in days; an unsupported one says so. */
function summaryValueHtml(ctx: PageContext, cell: BaseSummaryCell, from: NoteRecord | null): string {
  const { result } = cell;
  const { strings } = ctx.frame;
  if (result.kind === 'unsupported') return `<span class="s-base-summary-unsupported">${escapeHtml(strings.baseSummaryUnsupported(result.name))}</span>`;
  if (result.kind === 'span') {
    const days = Math.round((result.ms / 86_400_000) * 10) / 10;
    return escapeHtml(strings.baseDays(ctx.fmt.number(days), days));
  }
  const v = result.value;
  if (typeof v === 'number') return escapeHtml(ctx.fmt.number(v));
  return from ? cellHtml(ctx, v, from) : escapeHtml(displayText(v));
}

const summaryLabel = (ctx: PageContext, cell: BaseSummaryCell) => (cell.known ? ctx.frame.strings.baseSummaryNames[cell.known] ?? cell.known : cell.name);

function summaryCellHtml(ctx: PageContext, cell: BaseSummaryCell | null, from: NoteRecord | null): string {
  if (!cell) return '<td></td>';
  if (cell.result.kind === 'unsupported') return `<td>${summaryValueHtml(ctx, cell, from)}</td>`;
  return `<td><span class="s-base-summary-name">${escapeHtml(summaryLabel(ctx, cell))}</span> <span class="s-base-summary-value">${summaryValueHtml(ctx, cell, from)}</span></td>`;
}

/** A table's summary row (a footer's, or a group's last row). */
function summaryTr(ctx: PageContext, summaries: BaseSummaryRow, rows: BaseResultRow<NoteRecord>[]): string {
  return summaries ? `<tr class="s-base-summary">${summaries.map((cell) => summaryCellHtml(ctx, cell, rows[0]?.source ?? null)).join('')}</tr>` : '';
}

/** Summaries beside cards or a list: `Rating · Average 3.5`. */
function summaryDl(ctx: PageContext, result: BaseResult<NoteRecord>, summaries: BaseSummaryRow, rows: BaseResultRow<NoteRecord>[]): string {
  if (!summaries) return '';
  const items = summaries
    .map((cell, i) => (cell ? `<div><dt>${escapeHtml(result.columns[i]!.label)} · ${escapeHtml(summaryLabel(ctx, cell))}</dt><dd>${summaryValueHtml(ctx, cell, rows[0]?.source ?? null)}</dd></div>` : ''))
    .join('');
  return `<dl class="s-base-summaries" aria-label="${escapeHtml(ctx.frame.strings.baseSummaries)}">${items}</dl>`;
}

/** A group's name: its value as a cell shows it, or "No value"; with its count of rows. */
function groupLabelHtml(ctx: PageContext, key: Value, rows: BaseResultRow<NoteRecord>[]): string {
  const label = key === null ? escapeHtml(ctx.frame.strings.baseNoValue) : cellHtml(ctx, key, rows[0]!.source);
  return `${label} <span class="s-base-group-count">${escapeHtml(ctx.fmt.number(rows.length))}</span>`;
}

function tableHtml(ctx: PageContext, result: BaseResult<NoteRecord>): string {
  const { columns } = result;
  const trs = (rows: BaseResultRow<NoteRecord>[]) => rows.map((r) => `<tr>${r.cells.map((v, i) => `<td>${cellOf(ctx, columns[i]!.id, v, r.source)}</td>`).join('')}</tr>`).join('\n');
  const ths = columns.map((c) => `<th scope="col">${escapeHtml(c.label)}</th>`).join('');
  let bodies: string;
  if (result.groups) {
    bodies = result.groups
      .map((g) => `<tbody class="s-base-group">\n<tr class="s-base-group-head"><th scope="rowgroup" colspan="${columns.length}">${groupLabelHtml(ctx, g.key, g.rows)}</th></tr>\n${trs(g.rows)}\n${summaryTr(ctx, g.summaries, g.rows)}</tbody>`)
      .join('\n');
  } else {
    const foot = result.summaries ? `\n<tfoot>${summaryTr(ctx, result.summaries, result.rows)}</tfoot>` : '';
    bodies = `<tbody>\n${trs(result.rows)}\n</tbody>${foot}`;
  }
  return `<div class="s-base-scroll"><table class="s-base-table">\n<thead><tr>${ths}</tr></thead>\n${bodies}\n</table></div>`;
}

function itemsHtml(ctx: PageContext, result: BaseResult<NoteRecord>, rows: BaseResultRow<NoteRecord>[]): string {
  const { columns, view } = result;
  const cls = view.type === 'cards' ? 's-base-cards' : 's-base-list';
  const items = rows.map((r) => {
    const title = nameHtml(ctx, r.source);
    const fields = r.cells
      .map((v, i) => ({ id: columns[i]!.id, label: columns[i]!.label, v }))
      .filter((f) => f.id !== 'file.name' && f.id !== 'file.basename' && f.v !== null && displayText(f.v) !== '')
      .map((f) => `<div><dt>${escapeHtml(f.label)}</dt><dd>${cellHtml(ctx, f.v, r.source)}</dd></div>`)
      .join('');
    const cover = view.type === 'cards' ? coverHtml(ctx, view, r.image, r.source) : '';
    return `<li class="s-base-item">${cover}<p class="s-base-item-title">${title}</p>${fields ? `<dl>${fields}</dl>` : ''}</li>`;
  });
  return `<ul class="${cls}">\n${items.join('\n')}\n</ul>`;
}

/** A view the site cannot show (a kanban, a filter naming what it lacks): its name and a sentence; the base's other views are shown. */
function refusedViewHtml(ctx: PageContext, view: BaseView, problem: BaseProblem, named: boolean): string {
  const head = named ? `<p class="s-base-view-name">${escapeHtml(view.name)}</p>\n` : '';
  return `<section class="s-base-view s-base-view-refused">\n${head}${unsupportedHtml(ctx, problem)}</section>`;
}

function unsupportedHtml(ctx: PageContext, problem: BaseProblem): string {
  const { strings } = ctx.frame;
  const text = problem.kind === 'unsupported' ? strings.baseUnsupported(problem.what) : strings.baseUnreadable(problem.what);
  return `<div class="s-base-unsupported" role="note"><p${siteLanguageAttrs(ctx.frame)}>${escapeHtml(text)}</p></div>\n`;
}

function viewHtml(ctx: PageContext, result: BaseResult<NoteRecord>, named: boolean): string {
  const { view } = result;
  // What its columns use that the site lacks: those cells are empty, and the reader is told why.
  const gaps = view.gaps.map((what) => `<p class="s-base-gap" role="note"${siteLanguageAttrs(ctx.frame)}>${escapeHtml(ctx.frame.strings.baseUnsupported(what))}</p>\n`).join('');
  // In the site's language, and its direction: "3 results" in an Arabic note read "results 3".
  const count = `<p class="s-base-count"${siteLanguageAttrs(ctx.frame)}>${escapeHtml(ctx.frame.strings.baseResults(ctx.fmt.number(result.total), result.total))}</p>`;
  const head = named ? `<p class="s-base-view-name">${escapeHtml(view.name)}</p>\n` : '';
  let body: string;
  if (view.type === 'table') body = tableHtml(ctx, result);
  else if (result.groups) {
    body = result.groups
      .map((g) => `<div class="s-base-group">\n<p class="s-base-group-head">${groupLabelHtml(ctx, g.key, g.rows)}</p>\n${itemsHtml(ctx, result, g.rows)}\n${summaryDl(ctx, result, g.summaries, g.rows)}</div>`)
      .join('\n');
  } else body = itemsHtml(ctx, result, result.rows) + summaryDl(ctx, result, result.summaries, result.rows);
  return `<section class="s-base-view s-base-view-${view.type}">\n${head}${gaps}${body}\n${count}\n</section>`;
}

/** The published notes a base reads, in path order. */
function rowsOf(ctx: PageContext): { source: NoteRecord; row: BaseRowSource }[] {
  return ctx.model.visible
    .slice()
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
    .map((note) => ({ source: note, row: rowOf(note) }));
}

/** Each base's text read once (its views read, never changed): its pages and the question below share it. */
const reads = new Map<string, { read: ReturnType<typeof readBase>; ignoresHost: boolean }>();

function baseRead(yaml: string): { read: ReturnType<typeof readBase>; ignoresHost: boolean } {
  let known = reads.get(yaml);
  if (!known) {
    const read = readBase(yaml);
    known = { read, ignoresHost: !read.ok || !readsThis(read.spec) };
    if (reads.size >= 1_000) reads.clear();
    reads.set(yaml, known);
  }
  return known;
}

/**
 * Whether a base shows the same wherever it is shown (no expression names `this`): its HTML
 * is then made once a pass for every note embedding it, not once a note (a base reads every
 * published note, and a hundred notes embedding one took a hundred times its work).
 */
export const baseIgnoresHost = (yaml: string): boolean => baseRead(yaml).ignoresHost;

/**
 * Which views a base shows: all, in order (its own page, a ```base block: a static page has no
 * view switcher), or one, as Obsidian embeds it (`![[X.base#Name]]`: that view; else the first).
 */
export type ShownViews = 'all' | { embed: string | null };

/** The view an embed shows: the one named after `#` (any case when no exact match), else the first. */
function embeddedView(spec: BaseSpec, name: string | null): BaseView {
  const wanted = name?.trim() ?? '';
  const found = spec.views.find((v) => v.name === wanted) ?? spec.views.find((v) => v.name.toLowerCase() === wanted.toLowerCase());
  return found ?? spec.views[0]!;
}

/** A base's HTML: its views (`shown`), or the sentence saying why it cannot be shown. */
export function baseHtml(ctx: PageContext, yaml: string, host: BaseHost, shown: ShownViews = 'all'): string {
  const { read } = baseRead(yaml);
  const { strings } = ctx.frame;
  if (!read.ok) {
    const text = read.problem.kind === 'unsupported' ? strings.baseUnsupported(read.problem.what) : strings.baseUnreadable(read.problem.what);
    return `<div class="s-base s-base-unsupported" role="note"><p${siteLanguageAttrs(ctx.frame)}>${escapeHtml(text)}</p></div>\n`;
  }
  const views = shown === 'all' ? read.spec.views : [embeddedView(read.spec, shown.embed)];
  return `<div class="s-base">\n${viewsHtml(ctx, read.spec, views, host)}</div>\n`;
}

/** Where links lead, by the site's resolver: a row's own (its note's outbound paths), and a link text from it. */
function linksOf(ctx: PageContext): BaseLinks {
  const { resolver } = ctx.model;
  return {
    targetsOf: (row) => {
      const note = rowNotes.get(row);
      return note ? outboundSet(note, resolver) : null;
    },
    resolve: (target, row) => resolver.resolve(target, rowNotes.get(row) ?? null)?.path ?? null,
  };
}

function viewsHtml(ctx: PageContext, spec: BaseSpec, views: readonly BaseView[], host: BaseHost): string {
  const rows = rowsOf(ctx);
  const self = hostRow(host);
  const named = spec.views.length > 1;
  // One budget for the base's views together (evaluate.ts): a hostile base costs a bounded time.
  const budget = { left: MAX_STEPS_PER_BASE };
  const links = linksOf(ctx);
  return views.map((view) => (view.problem ? refusedViewHtml(ctx, view, view.problem, named) : viewHtml(ctx, runView(spec, view, rows, ctx.now, self, budget, links), named)) + '\n').join('');
}

/** Base blocks one note shows at most: each reads every published note. */
export const MAX_BASES_PER_NOTE = 10;

export function tooManyBases(ctx: PageContext): string {
  return `<div class="s-base s-base-unsupported" role="note"><p>${escapeHtml(ctx.frame.strings.baseUnreadable(`the note holds more than ${MAX_BASES_PER_NOTE} bases`))}</p></div>\n`;
}
