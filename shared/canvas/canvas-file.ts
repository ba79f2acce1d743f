// A `.canvas` file (JSON Canvas 1.0) read strictly: a vault is hostile input, so sizes,
// counts and numbers are bounded, ids are unique, every edge names two known nodes, and
// what the spec does not define is dropped. A file that breaks a rule is refused whole,
// with a sentence saying why.

export type CanvasColor = { preset: 1 | 2 | 3 | 4 | 5 | 6 } | { hex: string } | null;
export type CanvasSide = 'top' | 'right' | 'bottom' | 'left';

interface NodeBase {
  id: string;
  x: number;
  y: number;
  width: number;
  height: number;
  color: CanvasColor;
}

export type CanvasNode =
  | (NodeBase & { type: 'text'; text: string })
  | (NodeBase & { type: 'file'; file: string; subpath: string | null })
  | (NodeBase & { type: 'link'; url: string })
  | (NodeBase & { type: 'group'; label: string | null; background: string | null; backgroundStyle: 'cover' | 'ratio' | 'repeat' });

export interface CanvasEdge {
  id: string;
  fromNode: string;
  fromSide: CanvasSide | null;
  fromEnd: 'none' | 'arrow';
  toNode: string;
  toSide: CanvasSide | null;
  toEnd: 'none' | 'arrow';
  color: CanvasColor;
  label: string | null;
}

export interface Canvas {
  nodes: CanvasNode[];
  edges: CanvasEdge[];
}

export type CanvasRead = { ok: true; canvas: Canvas } | { ok: false; problem: string };

export const MAX_CANVAS_BYTES = 1024 * 1024;
export const MAX_CANVAS_NODES = 500;
export const MAX_CANVAS_EDGES = 1_000;
/** Coordinates and sizes stay within this (pixels): a drawing a reader can pan across. */
export const MAX_COORDINATE = 1_000_000;
const MAX_TEXT = 20_000;
const MAX_ID = 200;

class Refusal extends Error {}

const SIDES = new Set(['top', 'right', 'bottom', 'left']);

function str(o: Record<string, unknown>, key: string, max: number, required: boolean): string | null {
  const v = Object.hasOwn(o, key) ? o[key] : undefined;
  if (v === undefined || v === null) {
    if (required) throw new Refusal(`a node or edge has no ${key}`);
    return null;
  }
  if (typeof v !== 'string') throw new Refusal(`a ${key} that is not text`);
  if (v.length > max) throw new Refusal(`a ${key} longer than ${max} characters`);
  return v;
}

function num(o: Record<string, unknown>, key: string, min: number): number {
  const v = Object.hasOwn(o, key) ? o[key] : undefined;
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new Refusal(`a node whose ${key} is not a finite number`);
  if (v < min || Math.abs(v) > MAX_COORDINATE) throw new Refusal(`a node whose ${key} is out of bounds`);
  return v;
}

function colorOf(o: Record<string, unknown>): CanvasColor {
  const v = Object.hasOwn(o, 'color') ? o.color : undefined;
  if (v === undefined || v === null) return null;
  if (typeof v === 'string' && /^[1-6]$/.test(v)) return { preset: Number(v) as 1 };
  if (typeof v === 'string' && /^#[0-9a-fA-F]{6}$|^#[0-9a-fA-F]{3}$/.test(v)) return { hex: v.toLowerCase() };
  // An unknown colour is drawn without one (Obsidian's own names vary by version).
  return null;
}

function record(v: unknown, what: string): Record<string, unknown> {
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new Refusal(`${what} that is not an object`);
  return v as Record<string, unknown>;
}

function nodeOf(raw: unknown): CanvasNode {
  const o = record(raw, 'a node');
  const base: NodeBase = {
    id: str(o, 'id', MAX_ID, true)!,
    x: num(o, 'x', -MAX_COORDINATE),
    y: num(o, 'y', -MAX_COORDINATE),
    width: num(o, 'width', 1),
    height: num(o, 'height', 1),
    color: colorOf(o),
  };
  switch (o.type) {
    case 'text':
      return { ...base, type: 'text', text: str(o, 'text', MAX_TEXT, false) ?? '' };
    case 'file': {
      const subpath = str(o, 'subpath', 500, false);
      return { ...base, type: 'file', file: str(o, 'file', 1024, true)!, subpath: subpath && subpath.startsWith('#') ? subpath : null };
    }
    case 'link':
      return { ...base, type: 'link', url: str(o, 'url', 2048, true)! };
    case 'group': {
      // JSON Canvas 1.0: a group's background image (a vault path) and how it fills the group.
      const style = o.backgroundStyle === 'ratio' || o.backgroundStyle === 'repeat' ? o.backgroundStyle : 'cover';
      return { ...base, type: 'group', label: str(o, 'label', 500, false), background: str(o, 'background', 1024, false), backgroundStyle: style };
    }
  }
  throw new Refusal('a node of an unknown type');
}

function edgeOf(raw: unknown, ids: Set<string>): CanvasEdge {
  const o = record(raw, 'an edge');
  const side = (key: string): CanvasSide | null => {
    const v = str(o, key, 10, false);
    if (v !== null && !SIDES.has(v)) throw new Refusal(`an edge whose ${key} is not top, right, bottom or left`);
    return v as CanvasSide | null;
  };
  const end = (key: string, fallback: 'none' | 'arrow'): 'none' | 'arrow' => {
    const v = str(o, key, 10, false);
    if (v === null) return fallback;
    if (v !== 'none' && v !== 'arrow') throw new Refusal(`an edge whose ${key} is not none or arrow`);
    return v;
  };
  const edge: CanvasEdge = {
    id: str(o, 'id', MAX_ID, true)!,
    fromNode: str(o, 'fromNode', MAX_ID, true)!,
    fromSide: side('fromSide'),
    fromEnd: end('fromEnd', 'none'),
    toNode: str(o, 'toNode', MAX_ID, true)!,
    toSide: side('toSide'),
    toEnd: end('toEnd', 'arrow'),
    color: colorOf(o),
    label: str(o, 'label', 500, false),
  };
  if (!ids.has(edge.fromNode) || !ids.has(edge.toNode)) throw new Refusal('an edge to a node the canvas does not have');
  return edge;
}

/** Reads a canvas file's text; never throws. */
export function readCanvas(text: string): CanvasRead {
  try {
    if (text.length > MAX_CANVAS_BYTES) throw new Refusal(`it is larger than ${MAX_CANVAS_BYTES / 1024} KB`);
    let root: unknown;
    try {
      root = text.trim() === '' ? {} : JSON.parse(text);
    } catch {
      throw new Refusal('it is not valid JSON');
    }
    const o = record(root, 'a canvas');
    const rawNodes = Object.hasOwn(o, 'nodes') ? o.nodes : [];
    const rawEdges = Object.hasOwn(o, 'edges') ? o.edges : [];
    if (!Array.isArray(rawNodes) || !Array.isArray(rawEdges)) throw new Refusal('its nodes or edges are not lists');
    if (rawNodes.length > MAX_CANVAS_NODES) throw new Refusal(`it has more than ${MAX_CANVAS_NODES} nodes`);
    if (rawEdges.length > MAX_CANVAS_EDGES) throw new Refusal(`it has more than ${MAX_CANVAS_EDGES} edges`);
    const nodes = rawNodes.map(nodeOf);
    const ids = new Set<string>();
    for (const node of nodes) {
      if (ids.has(node.id)) throw new Refusal('two nodes share an id');
      ids.add(node.id);
    }
    const edges = rawEdges.map((e) => edgeOf(e, ids));
    return { ok: true, canvas: { nodes, edges } };
  } catch (err) {
    if (err instanceof Refusal) return { ok: false, problem: err.message };
    return { ok: false, problem: 'it could not be read' };
  }
}
