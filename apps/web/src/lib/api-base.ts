/** Spec §7 and §9: every API path is under one same-origin base. */
export const API_BASE_URL = '/api';
