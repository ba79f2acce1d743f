// A sentence whose names (a note's title, a path) are each one unit with the marks written
// against them: in its own direction, and moved whole to the next line when it does not fit,
// rather than cut at a space. In an Arabic sentence a path cut in two read as two pieces in
// the wrong order. A path (isolatedPath) is a VaultPath: left to right whatever its letters.
import { sentenceParts } from '../isolate.ts';
import { VaultPath } from './VaultPath.tsx';

export function Sentence({ text }: { text: string }) {
  return (
    <>
      {sentenceParts(text).map((part) =>
        typeof part === 'string' ? (
          part
        ) : (
          <span class="name-unit">
            {part.before}
            {part.path ? <VaultPath path={part.name} /> : <bdi dir="auto">{part.name}</bdi>}
            {part.after}
          </span>
        ),
      )}
    </>
  );
}
