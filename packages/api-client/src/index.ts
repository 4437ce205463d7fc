export { ApiError, errorText, isApiError, NOT_AN_ENVELOPE } from './api-error.ts';
export { dataOf, ENVELOPE_OK, type Envelope, isEnvelope, refusalOf, sessionTokenOf } from './envelope.ts';
export { type ApiClient, type ClientSettings, createApiClient, type PostOptions, type Query, urlOf } from './fetch-client.ts';
export { IDEMPOTENCY_HEADER, idempotencyHeaders, newIdempotencyKey } from './idempotency.ts';
