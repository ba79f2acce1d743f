// A `.canvas` file is hostile input (shared/canvas/canvas-file.ts): read strictly, bounded,
// refused whole with a sentence when it breaks JSON Canvas 1.0, never thrown.
import { describe, expect, it } from 'vitest';
import { MAX_CANVAS_NODES, readCanvas } from '../../shared/canvas/canvas-file.ts';

const node = (extra: Record<string, unknown> = {}) => ({ id: 'a', type: 'text', x: 0, y: 0, width: 100, height: 50, text: 'hi', ...extra });
const read = (doc: unknown) => readCanvas(typeof doc === 'string' ? doc : JSON.stringify(doc));
const problem = (doc: unknown) => {
  const r = read(doc);
  return r.ok ? null : r.problem;
};

describe('JSON Canvas 1.0 read strictly', () => {
  it('reads the four node types, edges with sides, ends, labels and both kinds of colour', () => {
    const r = read({
      nodes: [node({ color: '3' }), node({ id: 'f', type: 'file', file: 'A.md', subpath: '#Part' }), node({ id: 'l', type: 'link', url: 'https://example.org' }), node({ id: 'g', type: 'group', label: 'G', color: '#AbCdEf' })],
      edges: [{ id: 'e', fromNode: 'a', fromSide: 'right', toNode: 'f', toSide: 'left', fromEnd: 'arrow', label: 'x', color: '6' }],
    });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.canvas.nodes.map((n) => n.type)).toEqual(['text', 'file', 'link', 'group']);
    expect(r.canvas.nodes[0]!.color).toEqual({ preset: 3 });
    expect(r.canvas.nodes[3]!.color).toEqual({ hex: '#abcdef' });
    expect(r.canvas.edges[0]).toMatchObject({ fromEnd: 'arrow', toEnd: 'arrow', label: 'x', color: { preset: 6 } });
  });

  it('an empty file is an empty canvas', () => {
    expect(read('')).toEqual({ ok: true, canvas: { nodes: [], edges: [] } });
  });

  it('refuses numbers that are not finite or past the bound, and sizes below one', () => {
    expect(problem('{"nodes":[{"id":"a","type":"text","x":1e400,"y":0,"width":1,"height":1}]}')).toMatch(/x is not a finite number/);
    expect(problem({ nodes: [node({ y: 5e6 })] })).toMatch(/y is out of bounds/);
    expect(problem({ nodes: [node({ width: 0 })] })).toMatch(/width is out of bounds/);
    expect(problem({ nodes: [node({ x: '10' })] })).toMatch(/x is not a finite number/);
  });

  it('refuses too many nodes, duplicate ids, unknown types and edges to nowhere', () => {
    expect(problem({ nodes: Array.from({ length: MAX_CANVAS_NODES + 1 }, (_, i) => node({ id: `n${i}` })) })).toMatch(/more than 500 nodes/);
    expect(problem({ nodes: [node(), node()] })).toMatch(/share an id/);
    expect(problem({ nodes: [node({ type: 'script' })] })).toMatch(/unknown type/);
    expect(problem({ nodes: [node()], edges: [{ id: 'e', fromNode: 'a', toNode: 'b' }] })).toMatch(/node the canvas does not have/);
    expect(problem({ nodes: [node()], edges: [{ id: 'e', fromNode: 'a', toNode: 'a', toSide: 'middle' }] })).toMatch(/toSide/);
    expect(problem({ nodes: [node({ text: 'x'.repeat(20_001) })] })).toMatch(/longer than/);
    expect(problem('[1, 2]')).toMatch(/not an object/);
    expect(problem('{"nodes": {}}')).toMatch(/not lists/);
    expect(problem('{nope')).toBe('it is not valid JSON');
    expect(problem('x'.repeat(1024 * 1024 + 1))).toMatch(/larger than/);
  });

  it('reads own keys only: a __proto__ key gives nothing the canvas did not write', () => {
    const r = read('{"__proto__": {"nodes": [1]}, "nodes": [{"id":"a","type":"text","x":0,"y":0,"width":1,"height":1,"__proto__":{"text":"sneaky"}}]}');
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.canvas.nodes[0]).toMatchObject({ type: 'text', text: '' });
    expect(problem('{"nodes":[{"type":"text","x":0,"y":0,"width":1,"height":1,"constructor":"x"}]}')).toMatch(/no id/);
  });
});
