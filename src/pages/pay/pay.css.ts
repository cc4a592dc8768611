/**
 * The pay pages' only style sheet, served from our origin so the CSP allows no inline style or
 * script. Colours meet WCAG AA contrast (4.5:1 and up); focus is always visible.
 */
export const PAY_CSS = `*{box-sizing:border-box}
html{font-size:100%}
body{margin:0;padding:1rem;background:#f3f4f6;color:#1a1a1a;line-height:1.5;
font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
.card{max-width:34rem;margin:0 auto;background:#fff;border-radius:.75rem;padding:1.5rem;box-shadow:0 1px 3px rgba(0,0,0,.12)}
@media (min-width:48rem){body{padding:3rem 1rem}.card{padding:2.5rem}}
h1{font-size:1.5rem;margin:0 0 .5rem}
h2{font-size:1.2rem;margin:1.5rem 0 .5rem}
.description{margin:0 0 1.25rem;color:#333}
.label{margin:0;color:#4a4a4a;font-size:.95rem}
.amount{margin:0 0 1rem;font-size:2.25rem;font-weight:700}
.regular{padding-left:1.25rem;margin:.5rem 0}
.note{color:#4a4a4a;font-size:.95rem}
.agreement{margin:1.25rem 0 0;padding-top:.25rem;border-top:1px solid #d1d5db;font-size:.95rem}
a{color:#0b5cad}
fieldset{border:0;padding:0;margin:1.5rem 0 0}
legend{font-weight:600;margin-bottom:.5rem;padding:0}
.field{margin-bottom:1rem}
label{display:block;font-weight:600;margin-bottom:.25rem}
input{width:100%;font:inherit;padding:.7rem .8rem;border:1px solid #6b6b6b;border-radius:.4rem;background:#fff;color:#1a1a1a}
input[aria-invalid=true]{border-color:#b00020;border-width:2px}
.error{color:#b00020;margin:.25rem 0 0;font-weight:600}
button{display:block;width:100%;margin-top:1.5rem;font:inherit;font-weight:700;font-size:1.1rem;padding:.9rem 1rem;
border:0;border-radius:.5rem;background:#0b5cad;color:#fff;cursor:pointer}
button:hover{background:#084a8c}
:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}
`;
