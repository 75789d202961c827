import { useEffect, useRef, useState } from 'react';
import { AdminPaths } from '@cfx/contract/admin-rules.ts';
import { RichHtml } from '../../../components/ui/rich-html.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { adminApi } from '../api.ts';
import { notify } from '../components/ui.tsx';
import { useAdminT, type AdminKey } from '../i18n.ts';
import { uploadImage } from './upload.ts';

/**
 * A lightweight rich-text editor (no editor library): a contenteditable area with a toolbar of the
 * formats the site's allow-list keeps (headings, bold, italic, lists, quotes, links, images
 * uploaded through the console), an HTML source view, and a preview of what the SERVER keeps after
 * sanitising (/news/preview, the same util/rich-text.ts filter that every save applies). The
 * browser's own editing commands do the formatting; whatever they produce is filtered on save.
 */
type Cmd = { key: AdminKey; label: string; run: () => void };

export function RichEditor({ value, onChange, uploadPath, testId, minHeight = 240 }: { value: string; onChange: (html: string) => void; uploadPath: string; testId: string; minHeight?: number }) {
  const t = useAdminT();
  const area = useRef<HTMLDivElement>(null);
  const [source, setSource] = useState(false);
  const [preview, setPreview] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  // Outside changes (loading an item, the source view) replace the content; typing does not loop back.
  useEffect(() => {
    const el = area.current;
    if (el && el.innerHTML !== value) el.innerHTML = value;
  }, [value, source]);

  const exec = (command: string, arg?: string) => {
    area.current?.focus();
    document.execCommand(command, false, arg);
    if (area.current) onChange(area.current.innerHTML);
  };
  const insertImage = async (file: File | undefined) => {
    if (!file) return;
    setBusy(true);
    const r = await uploadImage(uploadPath, file);
    setBusy(false);
    if (!r.ok) {
      notify.fail(r.message || t('common.networkError'));
      return;
    }
    exec('insertImage', r.data.url);
  };
  const showPreview = async () => {
    if (preview !== null) {
      setPreview(null);
      return;
    }
    const r = await adminApi<{ contentHtml: string }>(AdminPaths.newsPreview, { contentHtml: value });
    if (r.ok) setPreview(r.data.contentHtml);
    else notify.fail(r.message);
  };

  const cmds: Cmd[] = [
    { key: 'editor.h2', label: 'H2', run: () => exec('formatBlock', '<h2>') },
    { key: 'editor.h3', label: 'H3', run: () => exec('formatBlock', '<h3>') },
    { key: 'editor.bold', label: 'B', run: () => exec('bold') },
    { key: 'editor.italic', label: 'I', run: () => exec('italic') },
    { key: 'editor.ul', label: '•', run: () => exec('insertUnorderedList') },
    { key: 'editor.ol', label: '1.', run: () => exec('insertOrderedList') },
    { key: 'editor.quote', label: t('editor.quote'), run: () => exec('formatBlock', '<blockquote>') },
    {
      key: 'editor.link',
      label: t('editor.link'),
      run: () => {
        const url = window.prompt(t('editor.linkPrompt'), 'https://');
        if (url && /^(https?:\/\/|\/[^/\\])/.test(url.trim())) exec('createLink', url.trim());
      },
    },
    { key: 'editor.clear', label: 'Tx', run: () => exec('removeFormat') },
  ];

  return (
    <div className="rounded border border-line" data-testid={testId}>
      <div className="flex flex-wrap items-center gap-1 border-b border-line bg-canvas/60 px-2 py-1.5">
        {!source &&
          cmds.map((c) => (
            <button
              key={c.key}
              type="button"
              title={t(c.key)}
              aria-label={t(c.key)}
              className="min-w-8 rounded px-2 py-1 text-sm text-ink-soft hover:bg-surface hover:text-brand"
              onMouseDown={(e) => e.preventDefault()}
              onClick={c.run}
            >
              {c.label}
            </button>
          ))}
        {!source && (
          <label className="cursor-pointer rounded px-2 py-1 text-sm text-ink-soft hover:bg-surface hover:text-brand" title={t('editor.image')}>
            {busy ? <Spinner /> : t('editor.image')}
            <input
              type="file"
              accept="image/png,image/jpeg,image/webp,image/gif"
              className="sr-only"
              onChange={(e) => {
                void insertImage(e.target.files?.[0]);
                e.target.value = '';
              }}
              data-testid={`${testId}-image`}
            />
          </label>
        )}
        <span className="ml-auto flex gap-1">
          <button type="button" className="rounded px-2 py-1 text-xs text-ink-soft hover:text-brand" onClick={() => setSource((s) => !s)} data-testid={`${testId}-source-toggle`}>
            {source ? t('editor.visual') : t('editor.source')}
          </button>
          <button type="button" className="rounded px-2 py-1 text-xs text-ink-soft hover:text-brand" onClick={() => void showPreview()} data-testid={`${testId}-preview-toggle`}>
            {preview === null ? t('editor.preview') : t('editor.hidePreview')}
          </button>
        </span>
      </div>
      {source ? (
        <textarea className="block w-full resize-y bg-surface p-3 font-mono text-xs" style={{ minHeight }} value={value} onChange={(e) => onChange(e.target.value)} data-testid={`${testId}-source`} />
      ) : (
        <div
          ref={area}
          contentEditable
          suppressContentEditableWarning
          role="textbox"
          aria-multiline="true"
          aria-label={t('editor.placeholder')}
          data-placeholder={t('editor.placeholder')}
          className="prose-admin max-w-none bg-surface p-3 text-sm leading-7 outline-none empty:before:text-ink-faint empty:before:content-[attr(data-placeholder)] [&_blockquote]:border-l-4 [&_blockquote]:border-line [&_blockquote]:pl-3 [&_h2]:text-lg [&_h2]:font-semibold [&_h3]:font-semibold [&_img]:max-h-64 [&_ol]:list-decimal [&_ol]:pl-6 [&_ul]:list-disc [&_ul]:pl-6"
          style={{ minHeight }}
          onInput={(e) => onChange((e.target as HTMLDivElement).innerHTML)}
          data-testid={`${testId}-area`}
        />
      )}
      {preview !== null && (
        <div className="border-t border-line bg-canvas/40 p-4" data-testid={`${testId}-preview`}>
          <p className="mb-2 text-xs text-ink-faint">{t('editor.previewNote')}</p>
          <RichHtml html={preview} />
        </div>
      )}
    </div>
  );
}
