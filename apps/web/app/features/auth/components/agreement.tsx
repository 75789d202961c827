import { useState } from 'react';
import * as Dialog from '@radix-ui/react-dialog';
import { useLang, useTranslation } from '../../../i18n/index.ts';
import { legalEn } from '../../../i18n/legal.en.ts';
import { legalZh } from '../../../i18n/legal.zh.ts';
import { Checkbox } from '../../../components/ui/fields.tsx';

type Doc = 'userAgreement' | 'privacyPolicy';

/** The agreement checkbox with links opening the user agreement and privacy policy dialogs. */
export function AgreementCheckbox({ checked, onChange, testId }: { checked: boolean; onChange: (v: boolean) => void; testId: string }) {
  const { t } = useTranslation();
  const [doc, setDoc] = useState<Doc | null>(null);
  const link = (which: Doc) => (
    <button
      type="button"
      className="text-brand hover:underline"
      data-testid={which === 'userAgreement' ? 'open-user-agreement' : 'open-privacy-policy'}
      onClick={(e) => {
        e.preventDefault();
        setDoc(which);
      }}
    >
      {t(which === 'userAgreement' ? 'auth.userAgreement' : 'auth.privacyPolicy')}
    </button>
  );
  return (
    <>
      <Checkbox checked={checked} onChange={onChange} testId={testId}>
        {t('auth.agreePrefix')} {link('userAgreement')} {t('auth.and')} {link('privacyPolicy')}
      </Checkbox>
      <LegalDialog doc={doc} onClose={() => setDoc(null)} />
    </>
  );
}

export function LegalDialog({ doc, onClose }: { doc: Doc | null; onClose: () => void }) {
  const { t } = useTranslation();
  const lang = useLang();
  const texts = lang === 'en' ? legalEn : legalZh;
  const content = doc ? texts[doc] : null;
  return (
    <Dialog.Root open={doc !== null} onOpenChange={(o) => !o && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-[210] bg-black/40" />
        <Dialog.Content
          data-testid="agreement-dialog"
          data-doc={doc ?? ''}
          aria-describedby={undefined}
          className="fixed left-1/2 top-1/2 z-[211] flex max-h-[85vh] w-[min(680px,calc(100vw-1.5rem))] -translate-x-1/2 -translate-y-1/2 flex-col rounded-card bg-surface shadow-pop"
        >
          {content && (
            <>
              <div className="border-b border-line px-6 py-4">
                <Dialog.Title className="text-lg text-ink">{t(doc === 'userAgreement' ? 'legal.userAgreement' : 'legal.privacyPolicy')}</Dialog.Title>
                <p className="mt-1 text-xs text-ink-faint">{t('legal.updated', { date: texts.updated })}</p>
              </div>
              <div className="prose-cn overflow-y-auto px-6 py-2">
                {content.intro.map((p, i) => (
                  <p key={i}>{p}</p>
                ))}
                {content.sections.map((section) => (
                  <section key={section.heading}>
                    <h2>{section.heading}</h2>
                    {section.paragraphs.map((p, i) => (
                      <p key={i}>{p}</p>
                    ))}
                  </section>
                ))}
              </div>
              <div className="flex justify-end border-t border-line px-6 py-3">
                <Dialog.Close className="btn-primary" data-testid="agreement-close">
                  {t('legal.close')}
                </Dialog.Close>
              </div>
            </>
          )}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
