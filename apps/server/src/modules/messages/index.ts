/** The public face of modules/messages: what other modules, flows and the app may use (docs/architecture.md, "Module map"). */
export { notifyBidAccepted, notifyBidReceived, notifyOrdersExpired, notifySold } from './events.ts';
export { notifyUser } from './notify-user.ts';
export { registerMessageJobs } from './register-jobs.ts';
export { messageView } from './render.ts';
export { messageRoutes } from './routes.ts';
export { MessageHub } from './stream-hub.ts';
