// markdown-it-mark ships no type declarations: a markdown-it plugin, nothing more.
declare module 'markdown-it-mark' {
  import type { PluginSimple } from 'markdown-it';
  const mark: PluginSimple;
  export default mark;
}
