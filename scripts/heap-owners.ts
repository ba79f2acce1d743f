// `npm run heap-owners -- FILE.heapsnapshot [MB]`: who holds a process's live heap. Reads a
// V8 heap snapshot (take one from the builder with NODE_OPTIONS=--heapsnapshot-signal=SIGUSR2
// on `npm start`, then `kill -USR2` its pid: docs/dev/performance.md) and prints its dominator
// tree's largest owners, each with the retained size it alone keeps alive and its path from the
// root, then what the root holds directly by kind (objects reached from several owners).
import { readFileSync } from 'node:fs';

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]]; edge_fields: string[]; edge_types: [string[]] } };
  nodes: number[];
  edges: number[];
  strings: string[];
}

export interface Owner {
  /** `type:name` of the object (a string's text left out). */
  label: string;
  retainedBytes: number;
  /** Property names from the root down to it, each with the object holding it. */
  path: string;
}

/** Owners retaining at least `minBytes`, largest first, and the root's direct holdings by kind. */
export function heapOwners(snap: Snapshot, minBytes: number): { total: number; owners: Owner[]; shared: [label: string, bytes: number, count: number][] } {
  const meta = snap.snapshot.meta;
  const N = meta.node_fields.length;
  const E = meta.edge_fields.length;
  const [nType, nName, nSize, nEdges] = ['type', 'name', 'self_size', 'edge_count'].map((f) => meta.node_fields.indexOf(f)) as [number, number, number, number];
  const [eType, eName, eTo] = ['type', 'name_or_index', 'to_node'].map((f) => meta.edge_fields.indexOf(f)) as [number, number, number];
  const types = meta.node_types[0];
  const edgeTypes = meta.edge_types[0];
  const { nodes, edges, strings } = snap;
  const count = nodes.length / N;
  const first = new Int32Array(count + 1);
  for (let i = 0, e = 0; i < count; i++) (first[i] = e), (e += nodes[i * N + nEdges]!);
  first[count] = edges.length / E;
  // Weak references keep nothing alive; shortcuts repeat what other edges say.
  const skipped = new Set(['weak', 'shortcut'].map((t) => edgeTypes.indexOf(t)));
  const target = (e: number) => edges[e * E + eTo]! / N;
  const holds = (e: number) => !skipped.has(edges[e * E + eType]!);

  // Depth-first from the root (node 0): postorder numbers, then each node's predecessors.
  const order = new Int32Array(count).fill(-1);
  const post: number[] = [];
  const next = new Int32Array(count);
  const stack = [0];
  order[0] = -2;
  next[0] = first[0]!;
  while (stack.length) {
    const v = stack[stack.length - 1]!;
    if (next[v]! < first[v + 1]!) {
      const e = next[v]!++;
      const w = target(e);
      if (holds(e) && order[w] === -1) (order[w] = -2), (next[w] = first[w]!), stack.push(w);
    } else order[stack.pop()!] = post.push(v) - 1;
  }
  const predStart = new Int32Array(count + 1);
  for (const v of post) for (let e = first[v]!; e < first[v + 1]!; e++) if (holds(e)) predStart[target(e) + 1]!++;
  for (let i = 0; i < count; i++) predStart[i + 1]! += predStart[i]!;
  const preds = new Int32Array(predStart[count]!);
  const fill = predStart.slice();
  for (const v of post) for (let e = first[v]!; e < first[v + 1]!; e++) if (holds(e)) preds[fill[target(e)]!++] = v;

  // Immediate dominators (Cooper, Harvey and Kennedy's iteration over reverse postorder).
  const idom = new Int32Array(count).fill(-1);
  idom[0] = 0;
  const meet = (a: number, b: number) => {
    while (a !== b) {
      while (order[a]! < order[b]!) a = idom[a]!;
      while (order[b]! < order[a]!) b = idom[b]!;
    }
    return a;
  };
  for (let changed = true; changed; ) {
    changed = false;
    for (let k = post.length - 1; k >= 0; k--) {
      const v = post[k]!;
      if (v === 0) continue;
      let d = -1;
      for (let j = predStart[v]!; j < predStart[v + 1]!; j++) if (idom[preds[j]!] !== -1) d = d === -1 ? preds[j]! : meet(preds[j]!, d);
      if (d !== idom[v]) (idom[v] = d), (changed = true);
    }
  }
  const retained = new Float64Array(count);
  for (const v of post) {
    retained[v]! += nodes[v * N + nSize]!;
    if (v !== 0) retained[idom[v]!]! += retained[v]!;
  }

  const label = (v: number) => {
    const type = types[nodes[v * N + nType]!]!;
    return `${type}:${type.includes('string') ? '' : strings[nodes[v * N + nName]!]!.slice(0, 40)}`;
  };
  const edgeName = (from: number, to: number) => {
    for (let e = first[from]!; e < first[from + 1]!; e++) {
      if (target(e) !== to) continue;
      const t = edgeTypes[edges[e * E + eType]!];
      return t === 'element' || t === 'hidden' ? `[${edges[e * E + eName]}]` : strings[edges[e * E + eName]!]!;
    }
    return '?';
  };
  const pathOf = (v: number) => {
    const steps: string[] = [];
    for (let x = v; x !== 0 && steps.length < 6; x = idom[x]!) steps.unshift(`${label(idom[x]!)}.${edgeName(idom[x]!, x)}`);
    return steps.join(' > ');
  };
  const owners: Owner[] = [];
  const shared = new Map<string, [number, number]>();
  for (const v of post) {
    if (v === 0) continue;
    if (retained[v]! >= minBytes) owners.push({ label: label(v), retainedBytes: retained[v]!, path: pathOf(v) });
    // The root and its synthetic groups (GC roots, handles) hold what several owners share.
    if (types[nodes[idom[v]! * N + nType]!] === 'synthetic' && types[nodes[v * N + nType]!] !== 'synthetic') {
      const s = shared.get(label(v)) ?? [0, 0];
      shared.set(label(v), [s[0] + retained[v]!, s[1] + 1]);
    }
  }
  owners.sort((a, b) => b.retainedBytes - a.retainedBytes);
  return { total: retained[0]!, owners, shared: [...shared].map(([k, [b, c]]): [string, number, number] => [k, b, c]).sort((a, b) => b[1] - a[1]) };
}

const mb = (bytes: number) => (bytes / (1024 * 1024)).toFixed(1).padStart(7);

if (process.argv[1]?.endsWith('heap-owners.ts')) {
  const [file, min = '1'] = process.argv.slice(2);
  if (!file) throw new Error('usage: npm run heap-owners -- FILE.heapsnapshot [MB]');
  const { total, owners, shared } = heapOwners(JSON.parse(readFileSync(file, 'utf8')) as Snapshot, Number(min) * 1024 * 1024);
  console.log(`${mb(total)} MB live\n\nowners retaining at least ${min} MB (alone):`);
  for (const o of owners.slice(0, 60)) console.log(`${mb(o.retainedBytes)}  ${o.label}  ${o.path}`);
  console.log('\nheld from the root (reached from several owners), by kind:');
  for (const [kind, bytes, n] of shared.slice(0, 25)) console.log(`${mb(bytes)}  ${String(n).padStart(8)}  ${kind}`);
}
