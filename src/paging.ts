/**
 * A page of a list as the modules and repositories speak of it; the API's page query and envelope
 * (src/validation/pagination.ts) read and write it.
 */

export const DEFAULT_PER_PAGE = 15;
export const MAX_PER_PAGE = 100;

export interface PageRequest {
  page: number;
  perPage: number;
  /** True when the client named per_page, so page links keep it. */
  explicitPerPage: boolean;
}

export interface Page<T> {
  items: T[];
  total: number;
}
