import { PAY_CSS } from '../pay/pay.css';

/**
 * The portal's style sheet: the pay pages' (same look, same contrast and focus rules) plus what
 * only the portal has. Served from our origin so the CSP allows no inline style or script.
 */
export const PORTAL_CSS = `${PAY_CSS}
.card{max-width:48rem}
`;
