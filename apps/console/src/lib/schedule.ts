import dayjs, { type Dayjs } from 'dayjs';

/** A picked time as the API wants it (ISO 8601 with an offset); empty stays empty. */
export const toIso = (value: Dayjs | null | undefined): string | undefined => (value ? value.toISOString() : undefined);

/** An API time as the picker wants it. */
export const fromIso = (value: string | null | undefined): Dayjs | undefined => (value ? dayjs(value) : undefined);
