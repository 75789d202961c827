import type { AppContext } from '../../context.ts';
import { notifyDropReminders, notifyExpiringOrders } from './events.ts';
import { deliverDropEvents } from './deliver-drop-events.ts';
import { messageSmsJob, runMessageSmsJob } from './send-message-sms.ts';
import { purgeStreamTickets } from './stream-tickets.ts';

/** The message center's work on the job worker: the SMS job and the order-expiring / reminder sweeps and the delivery of the lottery's results. */
export function registerMessageJobs(ctx: AppContext) {
  const jobs = ctx.jobs;
  jobs.handle(messageSmsJob, (p, job) => runMessageSmsJob(ctx, p, job.attempts));
  jobs.periodic('message-sweeps', ctx.config.messages.sweepMs, async () => {
    await notifyExpiringOrders(ctx);
    await notifyDropReminders(ctx);
    await deliverDropEvents(ctx);
    await purgeStreamTickets(ctx);
  });
}
