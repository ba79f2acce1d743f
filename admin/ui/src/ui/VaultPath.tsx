// A vault path (or a site address) as the admin shows it anywhere: left-to-right text in its
// own isolate, so `ملاحظات/Note.md` keeps its folder first, on the left, inside the Arabic
// (right-to-left) interface. The one way a path is drawn; `.vault-path` holds the same in CSS.
export function VaultPath({ path, class: cls }: { path: string; class?: string }) {
  return (
    <bdi class={cls ? `vault-path ${cls}` : 'vault-path'} dir="ltr">
      {path}
    </bdi>
  );
}
