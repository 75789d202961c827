/** The public face of modules/tickets: what other modules, flows and the app may use (docs/architecture.md, "Module map"). */
export { devTicketRoutes } from './dev-routes.ts';
export { ticketRoutes } from './routes.ts';
export { TICKET_COLUMNS, ticketDetailOf, toSummary } from './ticket-view.ts';
export { closeTicket, replyTicket } from './transitions.ts';
