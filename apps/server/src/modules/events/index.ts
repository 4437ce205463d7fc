/** The hub that fans events out lives in core/ (chain/ uses it too); modules may take it from here. */
export { EventHub, pruneEvents } from '../../core/event-hub.ts';
