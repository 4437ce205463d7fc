/** What the rest of the server may use from events: the hub that fans events out, and its pruning. */
export { EventHub, pruneEvents } from './hub.ts';
