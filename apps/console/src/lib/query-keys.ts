/**
 * Query keys that more than one feature invalidates: a ledger adjustment, an audit run or a
 * withdrawal decision changes the dashboard's figures, so they share the dashboard's key here
 * rather than reaching into the dashboard feature.
 */
export const DASHBOARD_KEY = ['console', 'dashboard'] as const;
