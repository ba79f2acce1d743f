// The file tree: folders, notes and attachments with their actions (spec D.5).
// Arrow keys walk the visible rows; the ⋯ button or the context-menu key opens actions.
import { useMemo } from 'preact/hooks';
import { openNote, tabs } from '../editor/workspace.ts';
import { closedMark, shortcut, t } from '../i18n.ts';
import { PaneSwitch } from '../search/PaneSwitch.tsx';
import { useStore } from '../store.ts';
import { toastError } from '../ui/feedback.ts';
import { openMenu, type MenuItem } from '../ui/Menu.tsx';
import { showView } from '../views.ts';
import { showAttachment } from '../views/AttachmentView.tsx';
import {
  createTopicFromFolder,
  moveEntry,
  moveInto,
  newFolder,
  newNote,
  publishFolder,
  renameEntry,
  trashEntry,
} from './actions.ts';
import { openCollectionsDialog } from './CollectionsDialog.tsx';
import type { NoteMeta } from '../types.ts';
import { buildTree, entries, notesMeta, openFolders, refreshTree, toggleFolder, treeProblem, vaultStamp, type TreeNode } from './model.ts';

function itemsFor(node: TreeNode): MenuItem[] {
  const common: MenuItem[] = [
    { label: t('rename'), run: () => renameEntry(node.path, node.kind === 'folder') },
    { label: t('move'), run: () => moveEntry(node.path) },
  ];
  const trash: MenuItem = { label: t('deleteToTrash'), run: () => trashEntry(node.path), danger: true };
  if (node.kind === 'folder') {
    return [
      { label: t('newNote'), run: () => newNote(node.path) },
      { label: t('newFolder'), run: () => newFolder(node.path) },
      ...common,
      { label: t('createTopic'), run: () => createTopicFromFolder(node.path) },
      { label: t('publishFolder'), run: () => publishFolder(node.path) },
      trash,
    ];
  }
  if (node.kind === 'note') {
    return [...common, { label: t('collectionsOf'), run: () => openCollectionsDialog(node.path) }, trash];
  }
  return [...common, trash];
}

function focusSibling(from: HTMLElement, step: number): void {
  const rows = [...(from.closest('.tree')?.querySelectorAll<HTMLElement>('.tree-row') ?? [])];
  rows[rows.indexOf(from) + step]?.focus();
}

/** The type a tree row is dragged as (drag and drop in the tree). */
const DRAG_TYPE = 'application/x-vault-path';
const dragged = (e: DragEvent) => e.dataTransfer?.types.includes(DRAG_TYPE) ?? false;

function dropInto(folder: string) {
  return {
    onDragOver: (e: DragEvent) => {
      if (!dragged(e)) return;
      e.preventDefault();
      e.stopPropagation();
      (e.currentTarget as HTMLElement).classList.add('drop-target');
    },
    onDragLeave: (e: DragEvent) => (e.currentTarget as HTMLElement).classList.remove('drop-target'),
    onDrop: (e: DragEvent) => {
      (e.currentTarget as HTMLElement).classList.remove('drop-target');
      const path = e.dataTransfer?.getData(DRAG_TYPE);
      if (!path) return;
      e.preventDefault();
      e.stopPropagation();
      void moveInto(path, folder);
    },
  };
}

function Row({ node, depth, active, folds, meta }: { node: TreeNode; depth: number; active: string | null; folds: Set<string>; meta: Map<string, NoteMeta> }) {
  const isOpen = node.kind === 'folder' && folds.has(node.path);
  const published = node.kind === 'note' ? (meta.get(node.path)?.publish ?? false) : null;
  const activate = () => {
    if (node.kind === 'folder') toggleFolder(node.path);
    else if (node.kind === 'note') {
      showView('editor');
      openNote(node.path).catch(toastError);
    } else showAttachment(node.path);
  };
  const onKey = (e: KeyboardEvent) => {
    const el = e.currentTarget as HTMLElement;
    if (e.key === 'ArrowDown') focusSibling(el, 1);
    else if (e.key === 'ArrowUp') focusSibling(el, -1);
    else if (e.key === 'ArrowRight' && node.kind === 'folder' && !isOpen) toggleFolder(node.path, true);
    else if (e.key === 'ArrowLeft' && node.kind === 'folder' && isOpen) toggleFolder(node.path, false);
    else if (e.key === 'ContextMenu' || (e.key === 'F10' && e.shiftKey)) openMenu(el, itemsFor(node));
    else return;
    e.preventDefault();
  };
  // The tree marks published notes (◉) and drafts (○).
  const glyph = node.kind === 'folder' ? (isOpen ? '▾' : closedMark()) : node.kind === 'note' ? (published ? '◉' : '○') : '◦';
  return (
    <li role="none">
      <div class={`tree-line${active === node.path ? ' active' : ''}`} style={{ paddingInlineStart: `${0.4 + depth * 0.9}rem` }}>
        <button
          type="button"
          class={`tree-row kind-${node.kind}`}
          role="treeitem"
          aria-expanded={node.kind === 'folder' ? isOpen : undefined}
          aria-current={active === node.path ? 'page' : undefined}
          data-path={node.path}
          data-published={published === null ? undefined : String(published)}
          draggable
          onDragStart={(e) => {
            e.dataTransfer?.setData(DRAG_TYPE, node.path);
            e.dataTransfer?.setData('text/plain', node.path);
            if (e.dataTransfer) e.dataTransfer.effectAllowed = 'move';
          }}
          {...(node.kind === 'folder' ? dropInto(node.path) : {})}
          onClick={activate}
          onKeyDown={onKey}
          onContextMenu={(e) => {
            e.preventDefault();
            openMenu(e.currentTarget as HTMLElement, itemsFor(node));
          }}
        >
          <span class={`glyph${published ? ' is-published' : ''}`} aria-hidden="true" title={published === null ? undefined : published ? t('published') : t('draft')}>
            {glyph}
          </span>
          {published !== null && <span class="visually-hidden">{published ? t('published') : t('draft')}</span>}
          <span class="name" dir="auto">{node.kind === 'note' ? node.name.replace(/\.(md|markdown)$/i, '') : node.name}</span>
        </button>
        <button
          type="button"
          class="row-actions"
          aria-label={t('actions', { name: node.name })}
          title={t('actions', { name: node.name })}
          onClick={(e) => openMenu(e.currentTarget as HTMLElement, itemsFor(node))}
        >
          ⋯
        </button>
      </div>
      {isOpen && node.children.length > 0 && (
        <ul role="group">
          {node.children.map((child) => (
            <Row node={child} depth={depth + 1} active={active} folds={folds} meta={meta} />
          ))}
        </ul>
      )}
    </li>
  );
}

export function Tree() {
  const list = useStore(entries);
  const folds = useStore(openFolders);
  const { active } = useStore(tabs);
  const nodes = useMemo(() => buildTree(list), [list]);
  const meta = useStore(notesMeta);
  const read = useStore(vaultStamp);
  const problem = useStore(treeProblem);
  return (
    <nav class="tree" aria-label={t('files')}>
      <PaneSwitch>
        <button type="button" class="icon" title={`${t('newNote')} (${shortcut('N')})`} aria-label={t('newNote')} onClick={() => newNote('')}>
          +
        </button>
        <button type="button" class="icon" title={t('newFolder')} aria-label={t('newFolder')} onClick={() => newFolder('')}>
          ⊞
        </button>
      </PaneSwitch>
      {nodes.length === 0 ? (
        // Said only once the vault was read: before, an owner of 10,000 notes read that the vault was empty.
        read > 0 ? (
          <p class="muted pad">{t('emptyTree')}</p>
        ) : problem ? (
          <p class="pad" role="alert">
            {t('treeUnread', { error: problem })}{' '}
            <button type="button" onClick={() => void refreshTree().catch(() => undefined)}>
              {t('tryAgain')}
            </button>
          </p>
        ) : (
          <p class="muted pad" role="status" aria-busy="true">
            {t('readingVault')}
          </p>
        )
      ) : (
        <ul role="tree" aria-label={t('files')} class="tree-root" {...dropInto('')}>
          {nodes.map((node) => (
            <Row node={node} depth={0} active={active} folds={folds} meta={meta} />
          ))}
        </ul>
      )}
    </nav>
  );
}
