/**
 * Rich text from the server (news content, release descriptions). The server sanitises it with an
 * allow-list and is the only source of this HTML; it is rendered as is, styled here.
 */
export function RichHtml({ html, className = '', testId }: { html: string; className?: string; testId?: string }) {
  return (
    <div
      data-testid={testId}
      className={`text-[15px] leading-8 text-ink-soft [&_a]:text-brand [&_a]:underline [&_blockquote]:my-4 [&_blockquote]:border-l-4 [&_blockquote]:border-line [&_blockquote]:pl-4 [&_h2]:mb-3 [&_h2]:mt-8 [&_h2]:text-lg [&_h2]:text-ink [&_h3]:mb-2 [&_h3]:mt-6 [&_h3]:text-base [&_h3]:text-ink [&_h4]:mt-4 [&_h4]:text-ink [&_img]:my-4 [&_img]:h-auto [&_img]:max-w-full [&_img]:rounded-card [&_li]:my-1 [&_ol]:my-3 [&_ol]:list-decimal [&_ol]:pl-6 [&_p]:my-3 [&_strong]:text-ink [&_ul]:my-3 [&_ul]:list-disc [&_ul]:pl-6 ${className}`}
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}
