// CONTRACT §12's local graph: a note and its neighbours (links in and out, depth 1, at most
// GRAPH_MAX nodes) drawn at build time as an SVG that needs no script. Made from the model's
// Related index (published notes only); neighbours sit on one or two rings around the note,
// in a fixed order (by title), so a page's drawing changes only when its neighbourhood does.
import { byTitle, outboundPaths, outboundSet } from '../../shared/model/links.ts';
import type { NoteRecord } from '../../shared/model/note-record.ts';
import type { PageContext } from './page-context.ts';
import { digest } from './sig-digests.ts';

export const GRAPH_MAX = 40;
const WIDTH = 640;
const HEIGHT = 420;
const LABEL_MAX = 22;
/** Past this many neighbours the inner ring's labels wait for hover or focus, and labels are shorter: they ran over each other. */
const FULL = 16;
const FULL_LABEL_MAX = 16;

export interface GraphNode {
  x: number;
  y: number;
  /** The title, shortened for the drawing. */
  label: string;
  title: string;
  url: string;
  current: boolean;
  /** Its label shows on hover and focus only: an inner ring's, in a drawing too full for every label. */
  quiet: boolean;
}

export interface GraphView {
  width: number;
  height: number;
  nodes: GraphNode[];
  edges: { x1: number; y1: number; x2: number; y2: number; near: boolean }[];
}

const shorten = (s: string, max = LABEL_MAX) => (s.length > max ? s.slice(0, max - 1).trimEnd() + '…' : s);
const round = (n: number) => Math.round(n * 10) / 10;

/** The first `room` of `notes` by title, as a stable sort would give them, without sorting thousands (an index note's). */
function firstByTitle(notes: NoteRecord[], room: number): NoteRecord[] {
  const top: NoteRecord[] = [];
  if (room <= 0) return top;
  for (const other of notes) {
    if (top.length === room && byTitle(other, top[room - 1]!) >= 0) continue;
    let i = top.length;
    while (i > 0 && byTitle(other, top[i - 1]!) < 0) i--;
    top.splice(i, 0, other);
    if (top.length > room) top.pop();
  }
  return top;
}

/**
 * The neighbours the drawing shows, by title, at most GRAPH_MAX - 1: when there are more,
 * the notes this one links to come first (as in Obsidian's local graph, what a note links is
 * always there), then those linking to it. By title alone, a note linked from hundreds lost
 * the one note it links to.
 */
function neighboursOf(ctx: PageContext, note: NoteRecord): NoteRecord[] {
  const all = ctx.model.related.get(note.path) ?? [];
  const room = GRAPH_MAX - 1;
  if (all.length <= room) return [...all].sort(byTitle);
  const linked = outboundSet(note, ctx.model.resolver);
  const out = firstByTitle(all.filter((other) => linked.has(other.path)), room);
  const into = firstByTitle(all.filter((other) => !linked.has(other.path)), room - out.length);
  return [...out, ...into].sort(byTitle);
}

export function localGraph(ctx: PageContext, note: NoteRecord): GraphView | null {
  const around = neighboursOf(ctx, note);
  if (around.length === 0) return null;
  const cx = WIDTH / 2;
  const cy = HEIGHT / 2;
  // One ring up to 12 neighbours; beyond, every other one on an outer ring (labels keep apart).
  const twoRings = around.length > 12;
  const place = (i: number) => {
    const angle = -Math.PI / 2 + (2 * Math.PI * i) / around.length;
    const r = twoRings && i % 2 === 1 ? 185 : twoRings ? 115 : 140;
    return { x: round(cx + r * Math.cos(angle) * 1.35), y: round(cy + r * Math.sin(angle) * 0.85) };
  };
  // Nodes and edges written out field by field: one shape each, made thousands of times a build.
  const full = around.length > FULL;
  // What the note links to keeps its label in a full drawing too.
  const linked = full ? outboundSet(note, ctx.model.resolver) : null;
  const nodes: GraphNode[] = [{ x: cx, y: cy, label: shorten(note.title), title: note.title, url: ctx.url(ctx.addressOf(note)), current: true, quiet: false }];
  const at = new Map<string, { x: number; y: number }>([[note.path, { x: cx, y: cy }]]);
  const edges: GraphView['edges'] = [];
  for (let i = 0; i < around.length; i++) {
    const other = around[i]!;
    const p = place(i);
    at.set(other.path, p);
    nodes.push({ x: p.x, y: p.y, label: shorten(other.title, full ? FULL_LABEL_MAX : LABEL_MAX), title: other.title, url: ctx.url(ctx.addressOf(other)), current: false, quiet: full && i % 2 === 0 && !linked!.has(other.path) });
    edges.push({ x1: cx, y1: cy, x2: p.x, y2: p.y, near: true });
  }
  // Links among the neighbours themselves, fainter, each pair once: read from each neighbour's
  // own links (what it wrote), never from a list that grows with the vault.
  const pairs = new Set<string>();
  for (const other of around) {
    const from = at.get(other.path)!;
    // A neighbour linking more notes than the drawing holds (an index note) is asked about the drawing's notes instead.
    const links = outboundPaths(other, ctx.model.resolver);
    const set = links.length > around.length ? outboundSet(other, ctx.model.resolver) : null;
    for (const target of set ? around.map((n) => n.path).filter((p) => set.has(p)) : links) {
      const p = target === null || target === note.path || target === other.path ? undefined : at.get(target);
      if (!p) continue;
      const pair = other.path < target! ? `${other.path}\u0000${target}` : `${target}\u0000${other.path}`;
      if (pairs.has(pair)) continue;
      pairs.add(pair);
      edges.push({ x1: from.x, y1: from.y, x2: p.x, y2: p.y, near: false });
    }
  }
  return { width: WIDTH, height: HEIGHT, nodes, edges };
}

/** Drawings' signatures by note path, for as long as a plan's context lives. */
const graphSigs = new WeakMap<PageContext, Map<string, string>>();

/**
 * What a page's drawing shows beyond its own Related list: the links among its neighbours
 * (a digest). Kept for the context's life: a drawing is made of titles, addresses and links,
 * and the quick pass only swaps in records whose shape (those among it) is unchanged, so an
 * edit of an index note does not draw its thousands of neighbours' graphs again; any other
 * change plans the site with a new context.
 */
export function localGraphSig(ctx: PageContext, note: NoteRecord): string {
  let known = graphSigs.get(ctx);
  if (!known) graphSigs.set(ctx, (known = new Map()));
  let sig = known.get(note.path);
  if (sig === undefined) {
    const graph = localGraph(ctx, note);
    sig = graph ? digest(graph.nodes.map((n) => `${n.url}\u0001${n.title}`).join('\u0002') + ':' + graph.edges.map((e) => `${e.x1},${e.y1},${e.x2},${e.y2}`).join(';')) : '';
    known.set(note.path, sig);
  }
  return sig;
}
