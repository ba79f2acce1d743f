// A canvas (JSON Canvas 1.0) drawn at build time as HTML boxes over an SVG of its edges:
// it reads without scripts (the frame scrolls), and the client's canvas script adds zoom
// and pan. Text nodes are the site's Markdown (the one renderer, sanitised alike); a file
// node shows a published note's title and excerpt or a published image; a note visitors
// cannot see (or that is missing) is a neutral placeholder, never its title or text.
// CONTRACT §12: `<div class="s-canvas">`, one `s-canvas-node` per node.
import type { Canvas, CanvasColor, CanvasEdge, CanvasNode, CanvasSide } from '../../shared/canvas/canvas-file.ts';
import type { NoteRecord } from '../../shared/model/note-record.ts';
import { escapeHtml } from '../../shared/note/escape.ts';
import { newRenderSpent, type RenderSpent } from '../../shared/note/render-budget.ts';
import { isImageName } from '../../shared/note/obsidian/wikilinks.ts';
import { headingAnchor } from '../../shared/note/obsidian/headings.ts';
import { linkPlaces } from '../../shared/note/link-places.ts';
import { blockRef } from '../../shared/wikilinks.ts';
import type { PageContext } from './page-context.ts';

const PAD = 40;
const round = (n: number) => Math.round(n * 10) / 10;

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

function colorAttrs(color: CanvasColor): { cls: string; style: string } {
  if (!color) return { cls: '', style: '' };
  if ('preset' in color) return { cls: ` s-canvas-color-${color.preset}`, style: '' };
  return { cls: ' s-canvas-color', style: `--s-canvas-color:${color.hex};` };
}

/** The published notes a canvas shows (its file nodes' notes) or links from its text (their headings make anchors): what its page reads. */
export function canvasNotes(ctx: PageContext, canvas: Canvas, from: NoteRecord): NoteRecord[] {
  const out = new Set<NoteRecord>();
  const add = (target: string) => {
    const note = ctx.model.resolver.resolve(target, from);
    if (note && ctx.model.isVisible(note)) out.add(note);
  };
  for (const node of canvas.nodes) {
    if (node.type === 'file') add(node.file);
    // Where the text's Markdown has links (link-places.ts): `[[Note]]` in code is text, as the node draws it.
    else if (node.type === 'text') for (const link of linkPlaces(node.text, false)) if (link.kind === 'wiki' && link.target.trim()) add(link.target.trim());
  }
  return [...out];
}

function fileNodeHtml(ctx: PageContext, node: Extract<CanvasNode, { type: 'file' }>, from: NoteRecord): string {
  const { strings } = ctx.frame;
  if (isImageName(node.file) || /\.(pdf|mp3|mp4|webm|ogg|wav|m4a|mov)$/i.test(node.file)) {
    const p = ctx.attachments.resolve(node.file, from);
    if (!p) return `<p class="s-canvas-hidden" dir="auto">${escapeHtml(strings.canvasHidden)}</p>`;
    const src = ctx.publish(p);
    if (src === null) return `<p class="s-canvas-hidden" dir="auto">${escapeHtml(strings.canvasHidden)}</p>`;
    const name = p.slice(p.lastIndexOf('/') + 1);
    return isImageName(p) ? `<img class="s-canvas-image" src="${escapeHtml(src)}" alt="${escapeHtml(name)}" loading="lazy">` : `<a class="s-attachment internal-link" href="${escapeHtml(src)}">${escapeHtml(name)}</a>`;
  }
  const note = ctx.model.resolver.resolve(node.file, from);
  if (!note || !ctx.model.isVisible(note)) return `<p class="s-canvas-hidden" dir="auto">${escapeHtml(strings.canvasHidden)}</p>`;
  // `#Heading` or `#^block`, as a wikilink's anchor is made.
  const sub = node.subpath ? node.subpath.slice(1).split('#').filter((s) => s !== '') : [];
  const block = blockRef(sub);
  const href = ctx.url(ctx.addressOf(note)) + (block !== null ? `#^${encodeURIComponent(block)}` : sub.length ? headingAnchor(note.headings, sub) : '');
  return `<p class="s-canvas-file-title"><a class="internal-link" href="${escapeHtml(href)}">${escapeHtml(note.title)}</a></p>` + (note.excerpt ? `<p class="s-canvas-excerpt" dir="auto">${escapeHtml(note.excerpt)}</p>` : '');
}

const BACKGROUND_SIZES = { cover: 'background-size:cover;background-repeat:no-repeat', ratio: 'background-size:contain;background-repeat:no-repeat', repeat: 'background-repeat:repeat' } as const;

/** A group's background picture as its style: a published vault image only (its address is percent-encoded: no quote ends the url). */
function backgroundStyle(ctx: PageContext, node: Extract<CanvasNode, { type: 'group' }>, from: NoteRecord): string {
  if (!node.background || !isImageName(node.background)) return '';
  const p = ctx.attachments.resolve(node.background, from);
  const src = p ? ctx.publish(p) : null;
  return src ? `background-image:url("${src}");background-position:center;${BACKGROUND_SIZES[node.backgroundStyle]};` : '';
}

function nodeHtml(ctx: PageContext, node: CanvasNode, origin: { x: number; y: number }, from: NoteRecord, spent: RenderSpent): string {
  const { cls, style } = colorAttrs(node.color);
  const background = node.type === 'group' ? backgroundStyle(ctx, node, from) : '';
  const place = `left:${round(node.x - origin.x)}px;top:${round(node.y - origin.y)}px;width:${round(node.width)}px;height:${round(node.height)}px;${style}${background}`;
  let inner: string;
  switch (node.type) {
    case 'text':
      inner = `<div class="s-canvas-text-body" dir="auto">${ctx.bodies.textHtml(node.text, from, spent)}</div>`;
      break;
    case 'file':
      inner = fileNodeHtml(ctx, node, from);
      break;
    case 'link':
      inner = /^https?:\/\//i.test(node.url)
        ? `<a class="s-canvas-url" href="${escapeHtml(node.url)}" rel="noopener nofollow">${escapeHtml(node.url)}</a>`
        : `<p class="s-canvas-url">${escapeHtml(node.url)}</p>`;
      break;
    case 'group':
      inner = node.label ? `<p class="s-canvas-group-label" dir="auto">${escapeHtml(node.label)}</p>` : '';
      break;
  }
  return `<div class="s-canvas-node s-canvas-${node.type}${cls}" style="${escapeHtml(place)}" data-node="${escapeHtml(node.id)}">${inner}</div>`;
}

/** The point on a box's side where an edge meets it, and the way out of that side. */
function anchor(box: Box, side: CanvasSide): { x: number; y: number; dx: number; dy: number } {
  switch (side) {
    case 'top':
      return { x: box.x + box.width / 2, y: box.y, dx: 0, dy: -1 };
    case 'bottom':
      return { x: box.x + box.width / 2, y: box.y + box.height, dx: 0, dy: 1 };
    case 'left':
      return { x: box.x, y: box.y + box.height / 2, dx: -1, dy: 0 };
    case 'right':
      return { x: box.x + box.width, y: box.y + box.height / 2, dx: 1, dy: 0 };
  }
}

/** The side of `a` facing `b`, for an edge that names none. */
function facing(a: Box, b: Box): CanvasSide {
  const dx = b.x + b.width / 2 - (a.x + a.width / 2);
  const dy = b.y + b.height / 2 - (a.y + a.height / 2);
  if (Math.abs(dx) >= Math.abs(dy)) return dx >= 0 ? 'right' : 'left';
  return dy >= 0 ? 'bottom' : 'top';
}

function arrowHead(tip: { x: number; y: number }, from: { x: number; y: number }): string {
  const angle = Math.atan2(tip.y - from.y, tip.x - from.x);
  const size = 10;
  const left = { x: tip.x - size * Math.cos(angle - 0.45), y: tip.y - size * Math.sin(angle - 0.45) };
  const right = { x: tip.x - size * Math.cos(angle + 0.45), y: tip.y - size * Math.sin(angle + 0.45) };
  return `<path class="s-canvas-arrow" d="M${round(tip.x)} ${round(tip.y)}L${round(left.x)} ${round(left.y)}L${round(right.x)} ${round(right.y)}Z"/>`;
}

function edgeSvg(edge: CanvasEdge, boxes: Map<string, Box>, labels: string[]): string {
  const a = boxes.get(edge.fromNode)!;
  const b = boxes.get(edge.toNode)!;
  const start = anchor(a, edge.fromSide ?? facing(a, b));
  const end = anchor(b, edge.toSide ?? facing(b, a));
  const reach = Math.max(40, Math.hypot(end.x - start.x, end.y - start.y) / 3);
  const c1 = { x: start.x + start.dx * reach, y: start.y + start.dy * reach };
  const c2 = { x: end.x + end.dx * reach, y: end.y + end.dy * reach };
  const { cls, style } = colorAttrs(edge.color);
  const d = `M${round(start.x)} ${round(start.y)}C${round(c1.x)} ${round(c1.y)} ${round(c2.x)} ${round(c2.y)} ${round(end.x)} ${round(end.y)}`;
  let out = `<g class="s-canvas-edge${cls}"${style ? ` style="${style}"` : ''}><path class="s-canvas-line" d="${d}"/>`;
  if (edge.toEnd === 'arrow') out += arrowHead(end, c2);
  if (edge.fromEnd === 'arrow') out += arrowHead(start, c1);
  out += '</g>';
  if (edge.label) {
    // The curve's middle (t = 0.5 of the cubic).
    const mx = (start.x + 3 * c1.x + 3 * c2.x + end.x) / 8;
    const my = (start.y + 3 * c1.y + 3 * c2.y + end.y) / 8;
    labels.push(`<div class="s-canvas-edge-label${cls}" style="left:${round(mx)}px;top:${round(my)}px;${style}" dir="auto">${escapeHtml(edge.label)}</div>`);
  }
  return out;
}

/** A canvas's HTML. `from` stands for the canvas file (its folder resolves links as a note's would). */
export function canvasHtml(ctx: PageContext, canvas: Canvas, from: NoteRecord): string {
  const nodes = canvas.nodes;
  const minX = nodes.length ? Math.min(...nodes.map((n) => n.x)) - PAD : 0;
  const minY = nodes.length ? Math.min(...nodes.map((n) => n.y)) - PAD : 0;
  const maxX = nodes.length ? Math.max(...nodes.map((n) => n.x + n.width)) + PAD : 2 * PAD;
  const maxY = nodes.length ? Math.max(...nodes.map((n) => n.y + n.height)) + PAD : 2 * PAD;
  const width = round(maxX - minX);
  const height = round(maxY - minY);
  const origin = { x: minX, y: minY };
  const boxes = new Map<string, Box>(nodes.map((n) => [n.id, { x: n.x - minX, y: n.y - minY, width: n.width, height: n.height }]));
  // Groups are drawn first: the nodes they hold sit above them.
  const ordered = [...nodes.filter((n) => n.type === 'group'), ...nodes.filter((n) => n.type !== 'group')];
  const labels: string[] = [];
  const edges = canvas.edges.map((e) => edgeSvg(e, boxes, labels)).join('');
  // One budget for all its text nodes: five hundred of them were five hundred notes' worth of math.
  const spent = newRenderSpent();
  return (
    `<div class="s-canvas" data-width="${width}" data-height="${height}" data-zoom-in="${escapeHtml(ctx.frame.strings.canvasZoomIn)}" data-zoom-out="${escapeHtml(ctx.frame.strings.canvasZoomOut)}" data-fit="${escapeHtml(ctx.frame.strings.canvasFit)}">` +
    `<div class="s-canvas-viewport" tabindex="0" role="group" aria-label="${escapeHtml(ctx.frame.strings.canvas)}">` +
    `<div class="s-canvas-stage" dir="ltr" style="width:${width}px;height:${height}px">\n` +
    ordered.filter((n) => n.type === 'group').map((n) => nodeHtml(ctx, n, origin, from, spent)).join('\n') +
    `\n<svg class="s-canvas-edges" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" aria-hidden="true" focusable="false">${edges}</svg>\n` +
    ordered.filter((n) => n.type !== 'group').map((n) => nodeHtml(ctx, n, origin, from, spent)).join('\n') +
    labels.join('') +
    '\n</div></div></div>\n'
  );
}
