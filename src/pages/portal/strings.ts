import type { PageLocale } from '../../i18n/locales';
import type { PauseDateProblem } from '../../modules/portal/actions';
import type { SubscriptionStatus } from '../../modules/subscriptions/repository';

/** How a payment's status reads to its customer: fewer words than our statuses. */
export type ShownPaymentStatus = 'in_progress' | 'paid' | 'failed' | 'refunded' | 'charged_back';

/** How a refund's status reads to its customer. */
export type ShownRefundStatus = 'in_progress' | 'refunded' | 'failed';

/** What the portal says after an action, on the overview it returns to. */
export type PortalNotice = 'cancelled' | 'paused' | 'resumed' | 'skipped' | 'method';

interface Message {
  title: string;
  text: string;
}

/** Everything the signed-in portal pages say, in each of our languages. */
export interface PortalStrings {
  portalOf(merchant: string): string;
  contact: string;
  backToShop: string;
  logOut: string;
  yourSubscriptions: string;
  noSubscriptions: string;
  status: string;
  statuses: Record<SubscriptionStatus, string>;
  amount: string;
  amountEvery(amount: string, every: string): string;
  nextCharge: string;
  nextChargeValue(date: string, amount: string): string;
  noNextCharge: string;
  remaining: string;
  remainingTimes(count: number): string;
  untilCancelled: string;
  endsOn(date: string): string;
  pausedUntil(date: string): string;
  pausedWithoutEnd: string;
  paymentMethod: string;
  unknownMethod: string;
  actions: { pause: string; resume: string; skip: string; cancel: string; 'change-method': string };
  payments: string;
  noPayments: string;
  invoices: string;
  latestOnly(count: number): string;
  date: string;
  description: string;
  invoiceNumber: string;
  paymentStatuses: Record<ShownPaymentStatus, string>;
  /** A refund's row under its payment: "Refund" (the payment's description follows). */
  refund: string;
  refundStatuses: Record<ShownRefundStatus, string>;
  creditNotes: string;
  /** The column naming the invoice a credit note credits. */
  creditsInvoice: string;
  notices: Record<PortalNotice, string>;
  back: string;
  cancel: {
    title(name: string): string;
    text(date: string): string;
    textToday: string;
    reason: string;
    reasonHint: string;
    button: string;
  };
  pause: {
    title(name: string): string;
    text: string;
    until: string;
    hint(latest: string): string;
    button: string;
    errors: Record<PauseDateProblem, (latest: string) => string>;
  };
  resume: { title(name: string): string; text: string; button: string };
  skip: { title(name: string): string; text(date: string, amount: string): string; button: string };
  changeMethod: {
    title: string;
    text(amount: string): string;
    which: string;
    all: string;
    only(name: string): string;
    button: string;
    /** The takeover link's description, shown on its pay page and at the provider. */
    linkDescription: string;
  };
  fixErrors: string;
  notFound: Message;
  notAllowed: Message;
  notPossible: Message;
}

export const PORTAL_STRINGS: Record<PageLocale, PortalStrings> = {
  en: {
    portalOf: (merchant) => `${merchant}: your subscriptions`,
    contact: 'Contact:',
    backToShop: 'Back to the shop',
    logOut: 'Log out',
    yourSubscriptions: 'Your subscriptions',
    noSubscriptions: 'You have no subscriptions.',
    status: 'Status',
    statuses: { draft: 'Starting', active: 'Active', paused: 'Paused', cancelled: 'Cancelled', completed: 'Completed' },
    amount: 'Amount',
    amountEvery: (amount, every) => `${amount} ${every}`,
    nextCharge: 'Next charge',
    nextChargeValue: (date, amount) => `${date}: ${amount}`,
    noNextCharge: 'None',
    remaining: 'Charges left',
    remainingTimes: (count) => (count === 1 ? '1 more' : `${count} more`),
    untilCancelled: 'Until you cancel',
    endsOn: (date) => `Ends on ${date}; nothing is charged from that day on.`,
    pausedUntil: (date) => `Paused until ${date}.`,
    pausedWithoutEnd: 'Paused until you resume it.',
    paymentMethod: 'Payment method',
    unknownMethod: 'Unknown',
    actions: { pause: 'Pause', resume: 'Resume', skip: 'Skip the next charge', cancel: 'Cancel', 'change-method': 'Change payment method' },
    payments: 'Payments',
    noPayments: 'No payments yet.',
    invoices: 'Invoices',
    latestOnly: (count) => `The latest ${count} are shown.`,
    date: 'Date',
    description: 'Description',
    invoiceNumber: 'Number',
    refund: 'Refund',
    refundStatuses: { in_progress: 'On its way', refunded: 'Refunded', failed: 'Not refunded' },
    creditNotes: 'Credit notes',
    creditsInvoice: 'Credits invoice',
    paymentStatuses: { in_progress: 'In progress', paid: 'Paid', failed: 'Not paid', refunded: 'Refunded', charged_back: 'Reversed' },
    notices: {
      cancelled: 'Your subscription is cancelled. We sent you a confirmation by e-mail.',
      paused: 'Your subscription is paused. We sent you a confirmation by e-mail.',
      resumed: 'Your subscription is running again. We sent you a confirmation by e-mail.',
      skipped: 'The next charge is skipped. We sent you a confirmation by e-mail.',
      method: 'Thank you. Once your bank confirms the payment, your new payment method is used and we send you a confirmation.',
    },
    back: 'Back to your subscriptions',
    cancel: {
      title: (name) => `Cancel "${name}"`,
      text: (date) => `Your subscription runs until ${date}, the end of the period you already paid. Nothing is charged from that day on.`,
      textToday: 'Your subscription ends today. Nothing more is charged.',
      reason: 'Why are you cancelling? (optional)',
      reasonHint: 'The merchant reads this.',
      button: 'Cancel subscription',
    },
    pause: {
      title: (name) => `Pause "${name}"`,
      text: 'Nothing is charged while the subscription is paused, and charges missed are not made up later.',
      until: 'Pause until',
      hint: (latest) => `Charging starts again on this day. At the latest: ${latest}.`,
      button: 'Pause subscription',
      errors: {
        invalid: () => 'Please enter a date.',
        not_after_today: () => 'Please choose a date after today.',
        too_far: (latest) => `Please choose a date on or before ${latest}.`,
      },
    },
    resume: { title: (name) => `Resume "${name}"`, text: 'Charges due from today on are made again.', button: 'Resume subscription' },
    skip: {
      title: (name) => `Skip the next charge of "${name}"`,
      text: (date, amount) => `The charge of ${amount} on ${date} is not made, now or later.`,
      button: 'Skip this charge',
    },
    changeMethod: {
      title: 'Change payment method',
      text: (amount) =>
        `You pay ${amount} with your new bank account or card to confirm it. From then on, your subscriptions are charged to it ` +
        'and the old payment method is no longer used.',
      which: 'Which subscriptions?',
      all: 'All my subscriptions',
      only: (name) => `Only "${name}"`,
      button: 'Continue to payment',
      linkDescription: 'New payment method',
    },
    fixErrors: 'Please check the field marked below.',
    notFound: { title: 'Not found', text: 'We could not find this subscription.' },
    notAllowed: { title: 'Not available', text: 'The merchant does not offer this in the portal. Please contact them.' },
    notPossible: { title: 'Not possible now', text: 'This cannot be done with the subscription as it is now. Please look again.' },
  },
  nl: {
    portalOf: (merchant) => `${merchant}: uw abonnementen`,
    contact: 'Contact:',
    backToShop: 'Terug naar de winkel',
    logOut: 'Uitloggen',
    yourSubscriptions: 'Uw abonnementen',
    noSubscriptions: 'U hebt geen abonnementen.',
    status: 'Status',
    statuses: { draft: 'Wordt gestart', active: 'Actief', paused: 'Gepauzeerd', cancelled: 'Opgezegd', completed: 'Afgerond' },
    amount: 'Bedrag',
    amountEvery: (amount, every) => `${amount} ${every}`,
    nextCharge: 'Volgende afschrijving',
    nextChargeValue: (date, amount) => `${date}: ${amount}`,
    noNextCharge: 'Geen',
    remaining: 'Nog af te schrijven',
    remainingTimes: (count) => `nog ${count} keer`,
    untilCancelled: 'Tot u opzegt',
    endsOn: (date) => `Loopt af op ${date}; vanaf die dag wordt niets meer afgeschreven.`,
    pausedUntil: (date) => `Gepauzeerd tot ${date}.`,
    pausedWithoutEnd: 'Gepauzeerd tot u het hervat.',
    paymentMethod: 'Betaalmethode',
    unknownMethod: 'Onbekend',
    actions: {
      pause: 'Pauzeren',
      resume: 'Hervatten',
      skip: 'Volgende afschrijving overslaan',
      cancel: 'Opzeggen',
      'change-method': 'Betaalmethode wijzigen',
    },
    payments: 'Betalingen',
    noPayments: 'Nog geen betalingen.',
    invoices: 'Facturen',
    latestOnly: (count) => `De laatste ${count} worden getoond.`,
    date: 'Datum',
    description: 'Omschrijving',
    invoiceNumber: 'Nummer',
    refund: 'Terugbetaling',
    refundStatuses: { in_progress: 'Onderweg', refunded: 'Terugbetaald', failed: 'Niet terugbetaald' },
    creditNotes: 'Creditnota’s',
    creditsInvoice: 'Crediteert factuur',
    paymentStatuses: {
      in_progress: 'In behandeling',
      paid: 'Betaald',
      failed: 'Niet betaald',
      refunded: 'Terugbetaald',
      charged_back: 'Teruggeboekt',
    },
    notices: {
      cancelled: 'Uw abonnement is opgezegd. U ontvangt een bevestiging per e-mail.',
      paused: 'Uw abonnement is gepauzeerd. U ontvangt een bevestiging per e-mail.',
      resumed: 'Uw abonnement loopt weer. U ontvangt een bevestiging per e-mail.',
      skipped: 'De volgende afschrijving wordt overgeslagen. U ontvangt een bevestiging per e-mail.',
      method: 'Dank u wel. Zodra uw bank de betaling bevestigt, wordt uw nieuwe betaalmethode gebruikt en ontvangt u een bevestiging.',
    },
    back: 'Terug naar uw abonnementen',
    cancel: {
      title: (name) => `"${name}" opzeggen`,
      text: (date) =>
        `Uw abonnement loopt tot ${date}, het einde van de periode die u al betaald hebt. Vanaf die dag wordt niets meer afgeschreven.`,
      textToday: 'Uw abonnement stopt vandaag. Er wordt niets meer afgeschreven.',
      reason: 'Waarom zegt u op? (niet verplicht)',
      reasonHint: 'De verkoper leest dit.',
      button: 'Abonnement opzeggen',
    },
    pause: {
      title: (name) => `"${name}" pauzeren`,
      text: 'Zolang het abonnement gepauzeerd is, wordt niets afgeschreven; overgeslagen bedragen worden later niet ingehaald.',
      until: 'Pauzeren tot',
      hint: (latest) => `Op deze dag wordt weer afgeschreven. Uiterlijk: ${latest}.`,
      button: 'Abonnement pauzeren',
      errors: {
        invalid: () => 'Vul een datum in.',
        not_after_today: () => 'Kies een datum na vandaag.',
        too_far: (latest) => `Kies een datum op of vóór ${latest}.`,
      },
    },
    resume: {
      title: (name) => `"${name}" hervatten`,
      text: 'Bedragen die vanaf vandaag verschuldigd zijn, worden weer afgeschreven.',
      button: 'Abonnement hervatten',
    },
    skip: {
      title: (name) => `Volgende afschrijving van "${name}" overslaan`,
      text: (date, amount) => `De afschrijving van ${amount} op ${date} gebeurt niet, nu niet en later ook niet.`,
      button: 'Deze afschrijving overslaan',
    },
    changeMethod: {
      title: 'Betaalmethode wijzigen',
      text: (amount) =>
        `U betaalt ${amount} met uw nieuwe rekening of kaart om die te bevestigen. Daarna worden uw abonnementen daarvan ` +
        'afgeschreven en wordt de oude betaalmethode niet meer gebruikt.',
      which: 'Welke abonnementen?',
      all: 'Al mijn abonnementen',
      only: (name) => `Alleen "${name}"`,
      button: 'Verder naar betalen',
      linkDescription: 'Nieuwe betaalmethode',
    },
    fixErrors: 'Controleer het gemarkeerde veld hieronder.',
    notFound: { title: 'Niet gevonden', text: 'We konden dit abonnement niet vinden.' },
    notAllowed: { title: 'Niet beschikbaar', text: 'De verkoper biedt dit niet aan in het portaal. Neem contact met hen op.' },
    notPossible: { title: 'Nu niet mogelijk', text: 'Dit kan niet met het abonnement zoals het nu is. Kijk nog eens.' },
  },
  de: {
    portalOf: (merchant) => `${merchant}: Ihre Abonnements`,
    contact: 'Kontakt:',
    backToShop: 'Zurück zum Shop',
    logOut: 'Abmelden',
    yourSubscriptions: 'Ihre Abonnements',
    noSubscriptions: 'Sie haben keine Abonnements.',
    status: 'Status',
    statuses: { draft: 'Wird gestartet', active: 'Aktiv', paused: 'Pausiert', cancelled: 'Gekündigt', completed: 'Abgeschlossen' },
    amount: 'Betrag',
    amountEvery: (amount, every) => `${amount} ${every}`,
    nextCharge: 'Nächste Abbuchung',
    nextChargeValue: (date, amount) => `${date}: ${amount}`,
    noNextCharge: 'Keine',
    remaining: 'Verbleibende Abbuchungen',
    remainingTimes: (count) => `noch ${count}`,
    untilCancelled: 'Bis Sie kündigen',
    endsOn: (date) => `Endet am ${date}; ab diesem Tag wird nichts mehr abgebucht.`,
    pausedUntil: (date) => `Pausiert bis ${date}.`,
    pausedWithoutEnd: 'Pausiert, bis Sie es fortsetzen.',
    paymentMethod: 'Zahlungsmethode',
    unknownMethod: 'Unbekannt',
    actions: {
      pause: 'Pausieren',
      resume: 'Fortsetzen',
      skip: 'Nächste Abbuchung überspringen',
      cancel: 'Kündigen',
      'change-method': 'Zahlungsmethode ändern',
    },
    payments: 'Zahlungen',
    noPayments: 'Noch keine Zahlungen.',
    invoices: 'Rechnungen',
    latestOnly: (count) => `Die letzten ${count} werden angezeigt.`,
    date: 'Datum',
    description: 'Beschreibung',
    invoiceNumber: 'Nummer',
    refund: 'Erstattung',
    refundStatuses: { in_progress: 'Unterwegs', refunded: 'Erstattet', failed: 'Nicht erstattet' },
    creditNotes: 'Gutschriften',
    creditsInvoice: 'Zur Rechnung',
    paymentStatuses: {
      in_progress: 'In Bearbeitung',
      paid: 'Bezahlt',
      failed: 'Nicht bezahlt',
      refunded: 'Erstattet',
      charged_back: 'Zurückgebucht',
    },
    notices: {
      cancelled: 'Ihr Abonnement ist gekündigt. Sie erhalten eine Bestätigung per E-Mail.',
      paused: 'Ihr Abonnement ist pausiert. Sie erhalten eine Bestätigung per E-Mail.',
      resumed: 'Ihr Abonnement läuft wieder. Sie erhalten eine Bestätigung per E-Mail.',
      skipped: 'Die nächste Abbuchung wird übersprungen. Sie erhalten eine Bestätigung per E-Mail.',
      method:
        'Vielen Dank. Sobald Ihre Bank die Zahlung bestätigt, wird Ihre neue Zahlungsmethode verwendet und Sie erhalten eine ' +
        'Bestätigung.',
    },
    back: 'Zurück zu Ihren Abonnements',
    cancel: {
      title: (name) => `„${name}“ kündigen`,
      text: (date) =>
        `Ihr Abonnement läuft bis ${date}, dem Ende des bereits bezahlten Zeitraums. Ab diesem Tag wird nichts mehr abgebucht.`,
      textToday: 'Ihr Abonnement endet heute. Es wird nichts mehr abgebucht.',
      reason: 'Warum kündigen Sie? (freiwillig)',
      reasonHint: 'Der Händler liest dies.',
      button: 'Abonnement kündigen',
    },
    pause: {
      title: (name) => `„${name}“ pausieren`,
      text: 'Solange das Abonnement pausiert ist, wird nichts abgebucht; ausgelassene Beträge werden später nicht nachgeholt.',
      until: 'Pausieren bis',
      hint: (latest) => `An diesem Tag wird wieder abgebucht. Spätestens: ${latest}.`,
      button: 'Abonnement pausieren',
      errors: {
        invalid: () => 'Bitte geben Sie ein Datum ein.',
        not_after_today: () => 'Bitte wählen Sie ein Datum nach heute.',
        too_far: (latest) => `Bitte wählen Sie ein Datum bis spätestens ${latest}.`,
      },
    },
    resume: {
      title: (name) => `„${name}“ fortsetzen`,
      text: 'Beträge, die ab heute fällig sind, werden wieder abgebucht.',
      button: 'Abonnement fortsetzen',
    },
    skip: {
      title: (name) => `Nächste Abbuchung von „${name}“ überspringen`,
      text: (date, amount) => `Die Abbuchung von ${amount} am ${date} erfolgt nicht, weder jetzt noch später.`,
      button: 'Diese Abbuchung überspringen',
    },
    changeMethod: {
      title: 'Zahlungsmethode ändern',
      text: (amount) =>
        `Sie zahlen ${amount} mit Ihrem neuen Konto oder Ihrer neuen Karte, um sie zu bestätigen. Danach werden Ihre Abonnements ` +
        'darüber abgebucht und die alte Zahlungsmethode wird nicht mehr verwendet.',
      which: 'Welche Abonnements?',
      all: 'Alle meine Abonnements',
      only: (name) => `Nur „${name}“`,
      button: 'Weiter zur Zahlung',
      linkDescription: 'Neue Zahlungsmethode',
    },
    fixErrors: 'Bitte prüfen Sie das markierte Feld unten.',
    notFound: { title: 'Nicht gefunden', text: 'Wir konnten dieses Abonnement nicht finden.' },
    notAllowed: { title: 'Nicht verfügbar', text: 'Der Händler bietet dies im Portal nicht an. Bitte wenden Sie sich an ihn.' },
    notPossible: {
      title: 'Jetzt nicht möglich',
      text: 'Das geht mit dem Abonnement in seinem jetzigen Zustand nicht. Bitte sehen Sie nach.',
    },
  },
  fr: {
    portalOf: (merchant) => `${merchant} : vos abonnements`,
    contact: 'Contact :',
    backToShop: 'Retour à la boutique',
    logOut: 'Se déconnecter',
    yourSubscriptions: 'Vos abonnements',
    noSubscriptions: 'Vous n’avez aucun abonnement.',
    status: 'Statut',
    statuses: { draft: 'En démarrage', active: 'Actif', paused: 'En pause', cancelled: 'Résilié', completed: 'Terminé' },
    amount: 'Montant',
    amountEvery: (amount, every) => `${amount} ${every}`,
    nextCharge: 'Prochain prélèvement',
    nextChargeValue: (date, amount) => `${date} : ${amount}`,
    noNextCharge: 'Aucun',
    remaining: 'Prélèvements restants',
    remainingTimes: (count) => `encore ${count}`,
    untilCancelled: 'Jusqu’à résiliation',
    endsOn: (date) => `Prend fin le ${date} ; plus rien n’est prélevé à partir de ce jour.`,
    pausedUntil: (date) => `En pause jusqu’au ${date}.`,
    pausedWithoutEnd: 'En pause jusqu’à ce que vous le repreniez.',
    paymentMethod: 'Moyen de paiement',
    unknownMethod: 'Inconnu',
    actions: {
      pause: 'Mettre en pause',
      resume: 'Reprendre',
      skip: 'Sauter le prochain prélèvement',
      cancel: 'Résilier',
      'change-method': 'Changer de moyen de paiement',
    },
    payments: 'Paiements',
    noPayments: 'Aucun paiement pour l’instant.',
    invoices: 'Factures',
    latestOnly: (count) => `Les ${count} derniers sont affichés.`,
    date: 'Date',
    description: 'Description',
    invoiceNumber: 'Numéro',
    refund: 'Remboursement',
    refundStatuses: { in_progress: 'En cours', refunded: 'Remboursé', failed: 'Non remboursé' },
    creditNotes: 'Avoirs',
    creditsInvoice: 'Facture créditée',
    paymentStatuses: { in_progress: 'En cours', paid: 'Payé', failed: 'Non payé', refunded: 'Remboursé', charged_back: 'Contesté' },
    notices: {
      cancelled: 'Votre abonnement est résilié. Nous vous avons envoyé une confirmation par e-mail.',
      paused: 'Votre abonnement est en pause. Nous vous avons envoyé une confirmation par e-mail.',
      resumed: 'Votre abonnement a repris. Nous vous avons envoyé une confirmation par e-mail.',
      skipped: 'Le prochain prélèvement est sauté. Nous vous avons envoyé une confirmation par e-mail.',
      method:
        'Merci. Dès que votre banque confirme le paiement, votre nouveau moyen de paiement est utilisé et nous vous envoyons ' +
        'une confirmation.',
    },
    back: 'Retour à vos abonnements',
    cancel: {
      title: (name) => `Résilier « ${name} »`,
      text: (date) =>
        `Votre abonnement court jusqu’au ${date}, la fin de la période déjà payée. Plus rien n’est prélevé à partir de ce jour.`,
      textToday: 'Votre abonnement prend fin aujourd’hui. Plus rien n’est prélevé.',
      reason: 'Pourquoi résiliez-vous ? (facultatif)',
      reasonHint: 'Le commerçant lira ceci.',
      button: 'Résilier l’abonnement',
    },
    pause: {
      title: (name) => `Mettre « ${name} » en pause`,
      text: 'Rien n’est prélevé pendant la pause, et les prélèvements manqués ne sont pas rattrapés.',
      until: 'En pause jusqu’au',
      hint: (latest) => `Les prélèvements reprennent ce jour-là. Au plus tard : ${latest}.`,
      button: 'Mettre en pause',
      errors: {
        invalid: () => 'Veuillez saisir une date.',
        not_after_today: () => 'Veuillez choisir une date après aujourd’hui.',
        too_far: (latest) => `Veuillez choisir une date au plus tard le ${latest}.`,
      },
    },
    resume: {
      title: (name) => `Reprendre « ${name} »`,
      text: 'Les montants dus à partir d’aujourd’hui sont de nouveau prélevés.',
      button: 'Reprendre l’abonnement',
    },
    skip: {
      title: (name) => `Sauter le prochain prélèvement de « ${name} »`,
      text: (date, amount) => `Le prélèvement de ${amount} du ${date} n’est pas effectué, ni maintenant ni plus tard.`,
      button: 'Sauter ce prélèvement',
    },
    changeMethod: {
      title: 'Changer de moyen de paiement',
      text: (amount) =>
        `Vous payez ${amount} avec votre nouveau compte ou votre nouvelle carte pour le confirmer. Ensuite, vos abonnements y sont ` +
        'prélevés et l’ancien moyen de paiement n’est plus utilisé.',
      which: 'Quels abonnements ?',
      all: 'Tous mes abonnements',
      only: (name) => `Seulement « ${name} »`,
      button: 'Continuer vers le paiement',
      linkDescription: 'Nouveau moyen de paiement',
    },
    fixErrors: 'Veuillez vérifier le champ signalé ci-dessous.',
    notFound: { title: 'Introuvable', text: 'Nous n’avons pas trouvé cet abonnement.' },
    notAllowed: { title: 'Non disponible', text: 'Le commerçant ne propose pas cela dans le portail. Veuillez le contacter.' },
    notPossible: { title: 'Impossible pour l’instant', text: 'Ce n’est pas possible avec l’abonnement tel qu’il est. Veuillez vérifier.' },
  },
  es: {
    portalOf: (merchant) => `${merchant}: sus suscripciones`,
    contact: 'Contacto:',
    backToShop: 'Volver a la tienda',
    logOut: 'Cerrar sesión',
    yourSubscriptions: 'Sus suscripciones',
    noSubscriptions: 'No tiene suscripciones.',
    status: 'Estado',
    statuses: { draft: 'Iniciándose', active: 'Activa', paused: 'En pausa', cancelled: 'Cancelada', completed: 'Finalizada' },
    amount: 'Importe',
    amountEvery: (amount, every) => `${amount} ${every}`,
    nextCharge: 'Próximo cargo',
    nextChargeValue: (date, amount) => `${date}: ${amount}`,
    noNextCharge: 'Ninguno',
    remaining: 'Cargos restantes',
    remainingTimes: (count) => `${count} más`,
    untilCancelled: 'Hasta que la cancele',
    endsOn: (date) => `Termina el ${date}; desde ese día no se cobra nada.`,
    pausedUntil: (date) => `En pausa hasta el ${date}.`,
    pausedWithoutEnd: 'En pausa hasta que la reanude.',
    paymentMethod: 'Método de pago',
    unknownMethod: 'Desconocido',
    actions: {
      pause: 'Pausar',
      resume: 'Reanudar',
      skip: 'Omitir el próximo cargo',
      cancel: 'Cancelar',
      'change-method': 'Cambiar método de pago',
    },
    payments: 'Pagos',
    noPayments: 'Todavía no hay pagos.',
    invoices: 'Facturas',
    latestOnly: (count) => `Se muestran los últimos ${count}.`,
    date: 'Fecha',
    description: 'Descripción',
    invoiceNumber: 'Número',
    refund: 'Reembolso',
    refundStatuses: { in_progress: 'En curso', refunded: 'Reembolsado', failed: 'No reembolsado' },
    creditNotes: 'Notas de crédito',
    creditsInvoice: 'Factura rectificada',
    paymentStatuses: { in_progress: 'En curso', paid: 'Pagado', failed: 'No pagado', refunded: 'Reembolsado', charged_back: 'Devuelto' },
    notices: {
      cancelled: 'Su suscripción está cancelada. Le hemos enviado una confirmación por correo electrónico.',
      paused: 'Su suscripción está en pausa. Le hemos enviado una confirmación por correo electrónico.',
      resumed: 'Su suscripción vuelve a estar activa. Le hemos enviado una confirmación por correo electrónico.',
      skipped: 'El próximo cargo se omite. Le hemos enviado una confirmación por correo electrónico.',
      method: 'Gracias. En cuanto su banco confirme el pago, se usará su nuevo método de pago y le enviaremos una confirmación.',
    },
    back: 'Volver a sus suscripciones',
    cancel: {
      title: (name) => `Cancelar «${name}»`,
      text: (date) => `Su suscripción sigue hasta el ${date}, el final del periodo ya pagado. Desde ese día no se cobra nada.`,
      textToday: 'Su suscripción termina hoy. No se cobra nada más.',
      reason: '¿Por qué cancela? (opcional)',
      reasonHint: 'El comercio leerá esto.',
      button: 'Cancelar la suscripción',
    },
    pause: {
      title: (name) => `Pausar «${name}»`,
      text: 'No se cobra nada mientras la suscripción está en pausa, y los cargos omitidos no se recuperan después.',
      until: 'Pausar hasta',
      hint: (latest) => `Ese día se vuelve a cobrar. Como muy tarde: ${latest}.`,
      button: 'Pausar la suscripción',
      errors: {
        invalid: () => 'Introduzca una fecha.',
        not_after_today: () => 'Elija una fecha posterior a hoy.',
        too_far: (latest) => `Elija una fecha no posterior al ${latest}.`,
      },
    },
    resume: {
      title: (name) => `Reanudar «${name}»`,
      text: 'Los importes que venzan a partir de hoy se vuelven a cobrar.',
      button: 'Reanudar la suscripción',
    },
    skip: {
      title: (name) => `Omitir el próximo cargo de «${name}»`,
      text: (date, amount) => `El cargo de ${amount} del ${date} no se realiza, ni ahora ni más tarde.`,
      button: 'Omitir este cargo',
    },
    changeMethod: {
      title: 'Cambiar método de pago',
      text: (amount) =>
        `Paga ${amount} con su nueva cuenta o tarjeta para confirmarla. Desde entonces, sus suscripciones se cobran en ella y el ` +
        'método de pago anterior deja de usarse.',
      which: '¿Qué suscripciones?',
      all: 'Todas mis suscripciones',
      only: (name) => `Solo «${name}»`,
      button: 'Continuar al pago',
      linkDescription: 'Nuevo método de pago',
    },
    fixErrors: 'Revise el campo marcado abajo.',
    notFound: { title: 'No encontrada', text: 'No hemos encontrado esta suscripción.' },
    notAllowed: { title: 'No disponible', text: 'El comercio no ofrece esto en el portal. Póngase en contacto con él.' },
    notPossible: { title: 'No es posible ahora', text: 'No se puede hacer con la suscripción tal como está ahora. Vuelva a mirar.' },
  },
};
