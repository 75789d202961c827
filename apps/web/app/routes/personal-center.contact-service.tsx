import { useSearchParams } from 'react-router';
import { useTranslation } from '../i18n/index.ts';
import { Seo } from '../components/ui/seo.tsx';
import { TicketForm } from '../features/tickets/components/ticket-form.tsx';
import { TicketList } from '../features/tickets/components/ticket-list.tsx';
import { TicketThread } from '../features/tickets/components/ticket-thread.tsx';

/**
 * Personal center: contact service (navigation index 8) — my tickets (?status=, ?page=), a new
 * ticket (?new=1) and one ticket's thread (?id=).
 */
export default function ContactService() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const id = Number(params.get('id'));
  const composing = params.get('new') === '1';
  const back = () => setParams({});
  return (
    <section className="card p-6" data-testid="contact-service-page">
      <Seo title={t('tickets.title')} description={t('pages.personalCenter.description')} />
      <h1 className="text-lg text-ink">{composing ? t('tickets.newTicket') : t('tickets.title')}</h1>
      <p className="mb-6 mt-1 text-sm text-ink-faint">{t('tickets.intro')}</p>
      {Number.isInteger(id) && id > 0 ? (
        <TicketThread id={id} onBack={back} />
      ) : composing ? (
        <TicketForm onCreated={(tk) => setParams({ id: String(tk.id) })} onCancel={back} />
      ) : (
        <TicketList />
      )}
    </section>
  );
}
