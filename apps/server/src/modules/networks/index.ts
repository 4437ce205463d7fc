/** What other modules may use from networks: a network's settings (4004 unknown, 3003 disabled). */
export { type NetworkRow, networkFor } from './service.ts';
