import type { PageLocale } from '../../i18n/locales';
import type { IntervalUnit } from '../../time/calendar';
import type { UnpayableReason } from '../../modules/links/checkout';

/** Everything the hosted pay pages say, in each of our languages. */
export interface PayStrings {
  payTo(merchant: string): string;
  payNow: string;
  thenRegular(amount: string, every: string): string;
  every(count: number, unit: IntervalUnit): string;
  times(count: number): string;
  untilCancelled: string;
  firstRegularCharge(date: string): string;
  trial(trial: string): string;
  mandateNote: string;
  /** What the buyer of a subscription link agrees to (SEPA rulebook): how it is collected and how to stop it. */
  agreement: {
    title: string;
    collectedBy(merchant: string): string;
    mandateBy(merchant: string): string;
    cancelHow(merchant: string): string;
    portalLink: string;
  };
  contact: string;
  yourDetails: string;
  firstName: string;
  lastName: string;
  email: string;
  required: string;
  invalidEmail: string;
  fixErrors: string;
  payButton(amount: string): string;
  expiresOn(date: string): string;
  gone: Record<UnpayableReason, { title: string; text: string }>;
  notFound: { title: string; text: string };
  thanks: { title: string; text: string };
  failed: { title: string; text: string; again: string };
  waiting: { title: string; text: string };
  waitingOver: { title: string; text: string };
  inProgress: { title: string; text: string; checkAgain: string };
  providerDown: { title: string; text: string };
}

type UnitWords = Record<IntervalUnit, [singular: string, plural: string]>;

const everyWith = (units: UnitWords, word: string, everyOne: Record<IntervalUnit, string>) => (count: number, unit: IntervalUnit) =>
  count === 1 ? everyOne[unit] : `${word} ${count} ${units[unit][1]}`;

const EN_UNITS: UnitWords = { day: ['day', 'days'], week: ['week', 'weeks'], month: ['month', 'months'], year: ['year', 'years'] };
const NL_UNITS: UnitWords = { day: ['dag', 'dagen'], week: ['week', 'weken'], month: ['maand', 'maanden'], year: ['jaar', 'jaar'] };
const DE_UNITS: UnitWords = { day: ['Tag', 'Tage'], week: ['Woche', 'Wochen'], month: ['Monat', 'Monate'], year: ['Jahr', 'Jahre'] };
const FR_UNITS: UnitWords = { day: ['jour', 'jours'], week: ['semaine', 'semaines'], month: ['mois', 'mois'], year: ['an', 'ans'] };
const ES_UNITS: UnitWords = { day: ['día', 'días'], week: ['semana', 'semanas'], month: ['mes', 'meses'], year: ['año', 'años'] };

/** A trial such as `14 days` in the page's language. */
export function trialWords(locale: PageLocale, count: number, unit: IntervalUnit): string {
  const units = { en: EN_UNITS, nl: NL_UNITS, de: DE_UNITS, fr: FR_UNITS, es: ES_UNITS }[locale];
  return `${count} ${units[unit][count === 1 ? 0 : 1]}`;
}

export const PAY_STRINGS: Record<PageLocale, PayStrings> = {
  en: {
    payTo: (merchant) => `Payment to ${merchant}`,
    payNow: 'To pay now',
    thenRegular: (amount, every) => `Then ${amount} ${every}`,
    every: everyWith(EN_UNITS, 'every', { day: 'every day', week: 'every week', month: 'every month', year: 'every year' }),
    times: (count) => (count === 1 ? 'once' : `${count} times`),
    untilCancelled: 'until you cancel',
    firstRegularCharge: (date) => `First regular charge on ${date}.`,
    trial: (trial) => `Includes a trial of ${trial}.`,
    mandateNote: 'This small payment authorises future direct debits from your account. Nothing else is charged now.',
    agreement: {
      title: 'What you agree to',
      collectedBy: (merchant) =>
        `By paying now you authorise ${merchant} to collect the regular charges above by SEPA direct debit from the bank account ` +
        'you pay with, or to charge them to the card you pay with.',
      mandateBy: (merchant) =>
        `This payment authorises ${merchant} to collect future charges by SEPA direct debit from the bank account you pay with, ` +
        'or to charge them to the card you pay with.',
      cancelHow: (merchant) => `You can cancel at any time in the customer portal or by contacting ${merchant}.`,
      portalLink: 'Customer portal',
    },
    contact: 'Contact:',
    yourDetails: 'Your details',
    firstName: 'First name',
    lastName: 'Last name',
    email: 'E-mail address',
    required: 'Please fill in this field.',
    invalidEmail: 'Please enter a valid e-mail address.',
    fixErrors: 'Please check the fields marked below.',
    payButton: (amount) => `Pay ${amount}`,
    expiresOn: (date) => `This link can be used until ${date}.`,
    gone: {
      paid: { title: 'Already paid', text: 'This payment link has already been paid. Thank you!' },
      expired: { title: 'Link expired', text: 'This payment link has expired. Please ask the merchant for a new one.' },
      cancelled: { title: 'Link no longer valid', text: 'This payment link was withdrawn by the merchant.' },
      inactive: { title: 'Link no longer valid', text: 'This payment link can no longer be used.' },
    },
    notFound: { title: 'Link not found', text: 'We could not find this payment link. Please check the address.' },
    thanks: { title: 'Thank you!', text: 'Your payment has been received.' },
    failed: { title: 'Payment not completed', text: 'Your payment did not go through. No money was taken.', again: 'Try again' },
    waiting: { title: 'Confirming your payment…', text: 'This takes a few seconds. This page refreshes by itself.' },
    waitingOver: {
      title: 'We are still waiting',
      text: 'Your bank has not confirmed the payment yet. You can close this page; the merchant will be told once it is confirmed.',
    },
    inProgress: {
      title: 'Payment in progress',
      text:
        'A payment for this link has been started and is not completed yet, so no second one can be made. A bank transfer can ' +
        'take a few days. This page checks again by itself.',
      checkAgain: 'Check again',
    },
    providerDown: {
      title: 'Payment not possible right now',
      text: 'We could not reach the payment provider. Please try again in a few minutes.',
    },
  },
  nl: {
    payTo: (merchant) => `Betaling aan ${merchant}`,
    payNow: 'Nu te betalen',
    thenRegular: (amount, every) => `Daarna ${amount} ${every}`,
    every: everyWith(NL_UNITS, 'elke', { day: 'per dag', week: 'per week', month: 'per maand', year: 'per jaar' }),
    times: (count) => (count === 1 ? 'één keer' : `${count} keer`),
    untilCancelled: 'tot u opzegt',
    firstRegularCharge: (date) => `Eerste vaste afschrijving op ${date}.`,
    trial: (trial) => `Inclusief een proefperiode van ${trial}.`,
    mandateNote:
      'Met deze kleine betaling geeft u toestemming voor toekomstige incasso’s van uw rekening. Verder wordt nu niets afgeschreven.',
    agreement: {
      title: 'Waar u mee instemt',
      collectedBy: (merchant) =>
        `Door nu te betalen geeft u ${merchant} toestemming de bovenstaande vaste bedragen via SEPA-incasso af te schrijven van de ` +
        'rekening waarmee u betaalt, of ze af te schrijven van de kaart waarmee u betaalt.',
      mandateBy: (merchant) =>
        `Met deze betaling geeft u ${merchant} toestemming toekomstige bedragen via SEPA-incasso af te schrijven van de rekening ` +
        'waarmee u betaalt, of van de kaart waarmee u betaalt.',
      cancelHow: (merchant) => `U kunt altijd opzeggen in het klantenportaal of door contact op te nemen met ${merchant}.`,
      portalLink: 'Klantenportaal',
    },
    contact: 'Contact:',
    yourDetails: 'Uw gegevens',
    firstName: 'Voornaam',
    lastName: 'Achternaam',
    email: 'E-mailadres',
    required: 'Vul dit veld in.',
    invalidEmail: 'Vul een geldig e-mailadres in.',
    fixErrors: 'Controleer de gemarkeerde velden hieronder.',
    payButton: (amount) => `Betaal ${amount}`,
    expiresOn: (date) => `Deze link is geldig tot en met ${date}.`,
    gone: {
      paid: { title: 'Al betaald', text: 'Deze betaallink is al betaald. Dank u wel!' },
      expired: { title: 'Link verlopen', text: 'Deze betaallink is verlopen. Vraag de verkoper om een nieuwe.' },
      cancelled: { title: 'Link niet meer geldig', text: 'Deze betaallink is door de verkoper ingetrokken.' },
      inactive: { title: 'Link niet meer geldig', text: 'Deze betaallink kan niet meer worden gebruikt.' },
    },
    notFound: { title: 'Link niet gevonden', text: 'We konden deze betaallink niet vinden. Controleer het adres.' },
    thanks: { title: 'Dank u wel!', text: 'Uw betaling is ontvangen.' },
    failed: { title: 'Betaling niet gelukt', text: 'Uw betaling is niet gelukt. Er is geen geld afgeschreven.', again: 'Opnieuw proberen' },
    waiting: { title: 'Uw betaling wordt bevestigd…', text: 'Dit duurt een paar seconden. Deze pagina ververst vanzelf.' },
    waitingOver: {
      title: 'We wachten nog op uw bank',
      text:
        'Uw bank heeft de betaling nog niet bevestigd. U kunt deze pagina sluiten; de verkoper hoort het zodra de betaling ' +
        'bevestigd is.',
    },
    inProgress: {
      title: 'Betaling in behandeling',
      text:
        'Er is al een betaling voor deze link gestart die nog niet is afgerond, dus er kan geen tweede worden gedaan. Een ' +
        'overboeking kan een paar dagen duren. Deze pagina controleert het vanzelf opnieuw.',
      checkAgain: 'Opnieuw controleren',
    },
    providerDown: {
      title: 'Betalen is nu niet mogelijk',
      text: 'We konden de betaaldienst niet bereiken. Probeer het over een paar minuten opnieuw.',
    },
  },
  de: {
    payTo: (merchant) => `Zahlung an ${merchant}`,
    payNow: 'Jetzt zu zahlen',
    thenRegular: (amount, every) => `Danach ${amount} ${every}`,
    every: everyWith(DE_UNITS, 'alle', { day: 'täglich', week: 'wöchentlich', month: 'monatlich', year: 'jährlich' }),
    times: (count) => (count === 1 ? 'einmal' : `${count}-mal`),
    untilCancelled: 'bis Sie kündigen',
    firstRegularCharge: (date) => `Erste regelmäßige Abbuchung am ${date}.`,
    trial: (trial) => `Mit einer Testphase von ${trial}.`,
    mandateNote: 'Mit dieser kleinen Zahlung erlauben Sie künftige Lastschriften von Ihrem Konto. Sonst wird jetzt nichts abgebucht.',
    agreement: {
      title: 'Dem stimmen Sie zu',
      collectedBy: (merchant) =>
        `Mit der Zahlung jetzt ermächtigen Sie ${merchant}, die obigen regelmäßigen Beträge per SEPA-Lastschrift von dem Konto ` +
        'einzuziehen, mit dem Sie zahlen, oder sie der Karte zu belasten, mit der Sie zahlen.',
      mandateBy: (merchant) =>
        `Mit dieser Zahlung ermächtigen Sie ${merchant}, künftige Beträge per SEPA-Lastschrift von dem Konto einzuziehen, ` +
        'mit dem Sie zahlen, oder sie der Karte zu belasten, mit der Sie zahlen.',
      cancelHow: (merchant) => `Sie können jederzeit im Kundenportal kündigen oder indem Sie sich an ${merchant} wenden.`,
      portalLink: 'Kundenportal',
    },
    contact: 'Kontakt:',
    yourDetails: 'Ihre Angaben',
    firstName: 'Vorname',
    lastName: 'Nachname',
    email: 'E-Mail-Adresse',
    required: 'Bitte füllen Sie dieses Feld aus.',
    invalidEmail: 'Bitte geben Sie eine gültige E-Mail-Adresse ein.',
    fixErrors: 'Bitte prüfen Sie die markierten Felder.',
    payButton: (amount) => `${amount} bezahlen`,
    expiresOn: (date) => `Dieser Link ist bis einschließlich ${date} gültig.`,
    gone: {
      paid: { title: 'Bereits bezahlt', text: 'Dieser Zahlungslink wurde bereits bezahlt. Vielen Dank!' },
      expired: { title: 'Link abgelaufen', text: 'Dieser Zahlungslink ist abgelaufen. Bitte fragen Sie den Händler nach einem neuen.' },
      cancelled: { title: 'Link nicht mehr gültig', text: 'Dieser Zahlungslink wurde vom Händler zurückgezogen.' },
      inactive: { title: 'Link nicht mehr gültig', text: 'Dieser Zahlungslink kann nicht mehr verwendet werden.' },
    },
    notFound: { title: 'Link nicht gefunden', text: 'Wir konnten diesen Zahlungslink nicht finden. Bitte prüfen Sie die Adresse.' },
    thanks: { title: 'Vielen Dank!', text: 'Ihre Zahlung ist eingegangen.' },
    failed: {
      title: 'Zahlung nicht abgeschlossen',
      text: 'Ihre Zahlung ist nicht durchgegangen. Es wurde kein Geld abgebucht.',
      again: 'Erneut versuchen',
    },
    waiting: { title: 'Ihre Zahlung wird bestätigt…', text: 'Das dauert einige Sekunden. Diese Seite aktualisiert sich von selbst.' },
    waitingOver: {
      title: 'Wir warten noch',
      text:
        'Ihre Bank hat die Zahlung noch nicht bestätigt. Sie können diese Seite schließen; der Händler wird informiert, sobald ' +
        'sie bestätigt ist.',
    },
    inProgress: {
      title: 'Zahlung in Bearbeitung',
      text:
        'Für diesen Link wurde bereits eine Zahlung begonnen, die noch nicht abgeschlossen ist; eine zweite ist daher nicht ' +
        'möglich. Eine Überweisung kann einige Tage dauern. Diese Seite prüft es von selbst erneut.',
      checkAgain: 'Erneut prüfen',
    },
    providerDown: {
      title: 'Zahlung gerade nicht möglich',
      text: 'Der Zahlungsdienst ist nicht erreichbar. Bitte versuchen Sie es in einigen Minuten erneut.',
    },
  },
  fr: {
    payTo: (merchant) => `Paiement à ${merchant}`,
    payNow: 'À payer maintenant',
    thenRegular: (amount, every) => `Ensuite ${amount} ${every}`,
    every: everyWith(FR_UNITS, 'tous les', { day: 'par jour', week: 'par semaine', month: 'par mois', year: 'par an' }),
    times: (count) => (count === 1 ? 'une fois' : `${count} fois`),
    untilCancelled: 'jusqu’à résiliation',
    firstRegularCharge: (date) => `Premier prélèvement régulier le ${date}.`,
    trial: (trial) => `Avec une période d’essai de ${trial}.`,
    mandateNote: 'Ce petit paiement autorise de futurs prélèvements sur votre compte. Rien d’autre n’est débité maintenant.',
    agreement: {
      title: 'Ce que vous acceptez',
      collectedBy: (merchant) =>
        `En payant maintenant, vous autorisez ${merchant} à prélever les montants réguliers ci-dessus par prélèvement SEPA sur le ` +
        'compte avec lequel vous payez, ou à les débiter de la carte avec laquelle vous payez.',
      mandateBy: (merchant) =>
        `Ce paiement autorise ${merchant} à prélever de futurs montants par prélèvement SEPA sur le compte avec lequel vous payez, ` +
        'ou à les débiter de la carte avec laquelle vous payez.',
      cancelHow: (merchant) => `Vous pouvez résilier à tout moment dans l’espace client ou en contactant ${merchant}.`,
      portalLink: 'Espace client',
    },
    contact: 'Contact :',
    yourDetails: 'Vos coordonnées',
    firstName: 'Prénom',
    lastName: 'Nom',
    email: 'Adresse e-mail',
    required: 'Veuillez remplir ce champ.',
    invalidEmail: 'Veuillez saisir une adresse e-mail valide.',
    fixErrors: 'Veuillez vérifier les champs indiqués ci-dessous.',
    payButton: (amount) => `Payer ${amount}`,
    expiresOn: (date) => `Ce lien est valable jusqu’au ${date} inclus.`,
    gone: {
      paid: { title: 'Déjà payé', text: 'Ce lien de paiement a déjà été payé. Merci !' },
      expired: { title: 'Lien expiré', text: 'Ce lien de paiement a expiré. Demandez-en un nouveau au commerçant.' },
      cancelled: { title: 'Lien plus valable', text: 'Ce lien de paiement a été retiré par le commerçant.' },
      inactive: { title: 'Lien plus valable', text: 'Ce lien de paiement ne peut plus être utilisé.' },
    },
    notFound: { title: 'Lien introuvable', text: 'Nous n’avons pas trouvé ce lien de paiement. Vérifiez l’adresse.' },
    thanks: { title: 'Merci !', text: 'Votre paiement a bien été reçu.' },
    failed: { title: 'Paiement non abouti', text: 'Votre paiement n’a pas abouti. Aucun montant n’a été débité.', again: 'Réessayer' },
    waiting: { title: 'Confirmation de votre paiement…', text: 'Cela prend quelques secondes. Cette page s’actualise toute seule.' },
    waitingOver: {
      title: 'Nous attendons encore',
      text:
        'Votre banque n’a pas encore confirmé le paiement. Vous pouvez fermer cette page ; le commerçant sera informé dès sa ' +
        'confirmation.',
    },
    inProgress: {
      title: 'Paiement en cours',
      text:
        'Un paiement a déjà été commencé pour ce lien et n’est pas encore terminé : un second n’est donc pas possible. Un ' +
        'virement peut prendre quelques jours. Cette page vérifie de nouveau toute seule.',
      checkAgain: 'Vérifier de nouveau',
    },
    providerDown: {
      title: 'Paiement impossible pour le moment',
      text: 'Le service de paiement est injoignable. Réessayez dans quelques minutes.',
    },
  },
  es: {
    payTo: (merchant) => `Pago a ${merchant}`,
    payNow: 'A pagar ahora',
    thenRegular: (amount, every) => `Después ${amount} ${every}`,
    every: everyWith(ES_UNITS, 'cada', { day: 'al día', week: 'a la semana', month: 'al mes', year: 'al año' }),
    times: (count) => (count === 1 ? 'una vez' : `${count} veces`),
    untilCancelled: 'hasta que lo cancele',
    firstRegularCharge: (date) => `Primer cargo periódico el ${date}.`,
    trial: (trial) => `Incluye un periodo de prueba de ${trial}.`,
    mandateNote: 'Este pequeño pago autoriza futuros adeudos directos en su cuenta. No se cobra nada más ahora.',
    agreement: {
      title: 'Lo que acepta',
      collectedBy: (merchant) =>
        `Al pagar ahora autoriza a ${merchant} a cobrar los importes periódicos indicados mediante adeudo directo SEPA en la ` +
        'cuenta con la que paga, o a cargarlos en la tarjeta con la que paga.',
      mandateBy: (merchant) =>
        `Este pago autoriza a ${merchant} a cobrar importes futuros mediante adeudo directo SEPA en la cuenta con la que paga, ` +
        'o a cargarlos en la tarjeta con la que paga.',
      cancelHow: (merchant) => `Puede cancelar en cualquier momento en el portal del cliente o poniéndose en contacto con ${merchant}.`,
      portalLink: 'Portal del cliente',
    },
    contact: 'Contacto:',
    yourDetails: 'Sus datos',
    firstName: 'Nombre',
    lastName: 'Apellidos',
    email: 'Correo electrónico',
    required: 'Rellene este campo.',
    invalidEmail: 'Introduzca un correo electrónico válido.',
    fixErrors: 'Revise los campos marcados a continuación.',
    payButton: (amount) => `Pagar ${amount}`,
    expiresOn: (date) => `Este enlace es válido hasta el ${date} inclusive.`,
    gone: {
      paid: { title: 'Ya pagado', text: 'Este enlace de pago ya se ha pagado. ¡Gracias!' },
      expired: { title: 'Enlace caducado', text: 'Este enlace de pago ha caducado. Pida uno nuevo al comercio.' },
      cancelled: { title: 'Enlace no válido', text: 'El comercio ha retirado este enlace de pago.' },
      inactive: { title: 'Enlace no válido', text: 'Este enlace de pago ya no se puede utilizar.' },
    },
    notFound: { title: 'Enlace no encontrado', text: 'No hemos encontrado este enlace de pago. Compruebe la dirección.' },
    thanks: { title: '¡Gracias!', text: 'Hemos recibido su pago.' },
    failed: { title: 'Pago no completado', text: 'Su pago no se ha completado. No se ha cobrado nada.', again: 'Intentar de nuevo' },
    waiting: { title: 'Confirmando su pago…', text: 'Tarda unos segundos. Esta página se actualiza sola.' },
    waitingOver: {
      title: 'Seguimos esperando',
      text: 'Su banco aún no ha confirmado el pago. Puede cerrar esta página; el comercio será avisado en cuanto se confirme.',
    },
    inProgress: {
      title: 'Pago en curso',
      text:
        'Ya se ha iniciado un pago para este enlace que aún no se ha completado, por lo que no se puede hacer otro. Una ' +
        'transferencia puede tardar unos días. Esta página vuelve a comprobarlo sola.',
      checkAgain: 'Comprobar de nuevo',
    },
    providerDown: {
      title: 'Pago no disponible ahora',
      text: 'No hemos podido contactar con el servicio de pago. Inténtelo de nuevo en unos minutos.',
    },
  },
};
