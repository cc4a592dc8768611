import type { Config } from '../../config';
import { formatDateTime } from '../../time';
import type { NewPortalLink } from './links';
import type { PortalSessionResponse } from './schemas';

/** The answer to `POST …/portal-sessions`: the only time the link's URL is shown. */
export function presentPortalSession({ row, url }: NewPortalLink, config: Pick<Config, 'APP_TIMEZONE'>): PortalSessionResponse {
  return {
    id: row.id,
    customer_id: row.customer_id,
    url,
    return_url: row.return_url,
    locale: row.locale as PortalSessionResponse['locale'],
    expires_at: formatDateTime(row.expires_at, config.APP_TIMEZONE),
    created_at: formatDateTime(row.created_at, config.APP_TIMEZONE),
  };
}
