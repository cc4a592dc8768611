import { PAY_CSS } from '../pay/pay.css';

/** Where the portal's style sheet is served (by the portal's router, before the session check). */
export const PORTAL_STYLESHEET = '/portal/assets/portal.css';

/**
 * The portal's style sheet: the pay pages' (same look, same contrast and focus rules) plus what
 * only the portal has. Served from our origin so the CSP allows no inline style or script. One
 * column at 375 px; the subscription facts become two columns from 48rem.
 */
export const PORTAL_CSS = `${PAY_CSS}
.card{max-width:48rem}
.site{max-width:48rem;margin:0 auto 1rem;display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center;justify-content:space-between}
.site p{margin:0}
.merchant-name{font-weight:700;font-size:1.1rem}
.contact{font-size:.95rem;color:#4a4a4a;overflow-wrap:anywhere}
.session{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center}
.session form{margin:0}
button.link-button{display:inline;width:auto;margin:0;padding:.25rem .5rem;background:none;color:#0b5cad;font-size:1rem;font-weight:600;
text-decoration:underline;border-radius:.25rem}
button.link-button:hover{background:#e8f0fa}
.visually-hidden{position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0,0,0,0);
white-space:nowrap;border:0}
.notice{background:#e7f5ec;border-left:4px solid #1d7a3e;padding:.75rem 1rem;margin:0 0 1rem}
.subscription{border:1px solid #d1d5db;border-radius:.5rem;padding:1rem;margin:1rem 0}
.subscription h3{margin:0 0 .5rem;font-size:1.15rem}
.facts{margin:0;display:grid;grid-template-columns:1fr;gap:.5rem}
.facts dt{font-size:.9rem;color:#4a4a4a}
.facts dd{margin:0;font-weight:600;overflow-wrap:anywhere}
@media (min-width:48rem){.facts{grid-template-columns:1fr 1fr}}
.actions{list-style:none;padding:0;margin:1rem 0 0;display:flex;flex-wrap:wrap;gap:.5rem}
.actions a{display:inline-block;padding:.5rem .75rem;border:1px solid #0b5cad;border-radius:.4rem;text-decoration:none;font-weight:600}
.actions a:hover{background:#e8f0fa}
table{width:100%;border-collapse:collapse;font-size:.95rem}
th,td{text-align:left;padding:.5rem .4rem;border-bottom:1px solid #d1d5db;vertical-align:top}
.num{text-align:right;white-space:nowrap}
@media (max-width:40rem){
.history thead{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0,0,0,0)}
.history tr{display:block;border-bottom:1px solid #d1d5db;padding:.5rem 0}
.history td{display:flex;justify-content:space-between;gap:1rem;border:0;padding:.1rem 0;text-align:right}
.history td::before{content:attr(data-label);text-align:left;color:#4a4a4a}
}
.hint{margin:0 0 .25rem;color:#4a4a4a;font-size:.95rem}
textarea{width:100%;font:inherit;padding:.7rem .8rem;border:1px solid #6b6b6b;border-radius:.4rem;color:#1a1a1a}
.choice{display:flex;gap:.5rem;align-items:flex-start;margin:.5rem 0}
.choice input{width:auto;margin:.3rem 0 0}
.choice label{font-weight:400;margin:0}
`;
