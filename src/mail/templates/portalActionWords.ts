import type { PageLocale } from '../../i18n/locales';

/** What the portal's confirmation mails say, in each of our languages. */
export interface PortalActionWords {
  cancelled: {
    subject(merchant: string): string;
    body(subscription: string, date: string): string;
    reason(reason: string): string;
  };
  paused: { subject(merchant: string): string; body(subscription: string, until: string): string };
  resumed: { subject(merchant: string): string; body(subscription: string): string };
  skipped: { subject(merchant: string): string; body(subscription: string, date: string): string };
  methodChanged: { subject(merchant: string): string; body(label: string): string; usedBy(subscriptions: string): string };
  nextCharge(date: string): string;
  notYou(merchant: string): string;
  manage: string;
}

export const PORTAL_ACTION_WORDS: Record<PageLocale, PortalActionWords> = {
  en: {
    cancelled: {
      subject: (merchant) => `Your subscription with ${merchant} is cancelled`,
      body: (subscription, date) =>
        `You cancelled "${subscription}". It runs until ${date}, the end of the period already paid; nothing is charged after that.`,
      reason: (reason) => `Your reason: "${reason}".`,
    },
    paused: {
      subject: (merchant) => `Your subscription with ${merchant} is paused`,
      body: (subscription, until) => `You paused "${subscription}" until ${until}. Nothing is charged while it is paused.`,
    },
    resumed: {
      subject: (merchant) => `Your subscription with ${merchant} is running again`,
      body: (subscription) => `You resumed "${subscription}".`,
    },
    skipped: {
      subject: (merchant) => `A charge by ${merchant} is skipped`,
      body: (subscription, date) => `You skipped the charge of "${subscription}" due on ${date}. It will not be charged later.`,
    },
    methodChanged: {
      subject: (merchant) => `Your payment method with ${merchant} has changed`,
      body: (label) => `From now on, payments are collected from ${label}.`,
      usedBy: (subscriptions) => `This applies to: ${subscriptions}.`,
    },
    nextCharge: (date) => `The next charge is on ${date}.`,
    notYou: (merchant) => `Did you not do this? Please contact ${merchant} at once.`,
    manage: 'Manage your subscriptions',
  },
  nl: {
    cancelled: {
      subject: (merchant) => `Uw abonnement bij ${merchant} is opgezegd`,
      body: (subscription, date) =>
        `U hebt "${subscription}" opgezegd. Het loopt tot ${date}, het einde van de al betaalde periode; ` +
        'daarna wordt niets meer afgeschreven.',
      reason: (reason) => `Uw reden: "${reason}".`,
    },
    paused: {
      subject: (merchant) => `Uw abonnement bij ${merchant} is gepauzeerd`,
      body: (subscription, until) =>
        `U hebt "${subscription}" gepauzeerd tot ${until}. Zolang het gepauzeerd is, wordt niets afgeschreven.`,
    },
    resumed: {
      subject: (merchant) => `Uw abonnement bij ${merchant} loopt weer`,
      body: (subscription) => `U hebt "${subscription}" hervat.`,
    },
    skipped: {
      subject: (merchant) => `Een afschrijving door ${merchant} wordt overgeslagen`,
      body: (subscription, date) =>
        `U hebt de afschrijving van "${subscription}" op ${date} overgeslagen. Die wordt later niet alsnog afgeschreven.`,
    },
    methodChanged: {
      subject: (merchant) => `Uw betaalmethode bij ${merchant} is gewijzigd`,
      body: (label) => `Voortaan worden betalingen geïnd van ${label}.`,
      usedBy: (subscriptions) => `Dit geldt voor: ${subscriptions}.`,
    },
    nextCharge: (date) => `De volgende afschrijving is op ${date}.`,
    notYou: (merchant) => `Hebt u dit niet gedaan? Neem dan meteen contact op met ${merchant}.`,
    manage: 'Uw abonnementen beheren',
  },
  de: {
    cancelled: {
      subject: (merchant) => `Ihr Abonnement bei ${merchant} ist gekündigt`,
      body: (subscription, date) =>
        `Sie haben „${subscription}“ gekündigt. Es läuft bis zum ${date}, dem Ende des bereits bezahlten Zeitraums; ` +
        'danach wird nichts mehr abgebucht.',
      reason: (reason) => `Ihr Grund: „${reason}“.`,
    },
    paused: {
      subject: (merchant) => `Ihr Abonnement bei ${merchant} ist pausiert`,
      body: (subscription, until) => `Sie haben „${subscription}“ bis zum ${until} pausiert. Während der Pause wird nichts abgebucht.`,
    },
    resumed: {
      subject: (merchant) => `Ihr Abonnement bei ${merchant} läuft wieder`,
      body: (subscription) => `Sie haben „${subscription}“ fortgesetzt.`,
    },
    skipped: {
      subject: (merchant) => `Eine Abbuchung von ${merchant} entfällt`,
      body: (subscription, date) => `Sie haben die Abbuchung für „${subscription}“ am ${date} ausgesetzt. Sie wird nicht nachgeholt.`,
    },
    methodChanged: {
      subject: (merchant) => `Ihre Zahlungsart bei ${merchant} wurde geändert`,
      body: (label) => `Ab jetzt werden Zahlungen von ${label} eingezogen.`,
      usedBy: (subscriptions) => `Das gilt für: ${subscriptions}.`,
    },
    nextCharge: (date) => `Die nächste Abbuchung ist am ${date}.`,
    notYou: (merchant) => `Das waren nicht Sie? Bitte wenden Sie sich sofort an ${merchant}.`,
    manage: 'Abonnements verwalten',
  },
  fr: {
    cancelled: {
      subject: (merchant) => `Votre abonnement chez ${merchant} est résilié`,
      body: (subscription, date) =>
        `Vous avez résilié « ${subscription} ». Il court jusqu’au ${date}, fin de la période déjà payée ; rien ne sera prélevé ensuite.`,
      reason: (reason) => `Votre motif : « ${reason} ».`,
    },
    paused: {
      subject: (merchant) => `Votre abonnement chez ${merchant} est en pause`,
      body: (subscription, until) => `Vous avez mis « ${subscription} » en pause jusqu’au ${until}. Rien n’est prélevé pendant la pause.`,
    },
    resumed: {
      subject: (merchant) => `Votre abonnement chez ${merchant} a repris`,
      body: (subscription) => `Vous avez repris « ${subscription} ».`,
    },
    skipped: {
      subject: (merchant) => `Un prélèvement de ${merchant} est sauté`,
      body: (subscription, date) => `Vous avez sauté le prélèvement de « ${subscription} » prévu le ${date}. Il ne sera pas rattrapé.`,
    },
    methodChanged: {
      subject: (merchant) => `Votre moyen de paiement chez ${merchant} a changé`,
      body: (label) => `Désormais, les paiements sont prélevés sur ${label}.`,
      usedBy: (subscriptions) => `Cela concerne : ${subscriptions}.`,
    },
    nextCharge: (date) => `Le prochain prélèvement a lieu le ${date}.`,
    notYou: (merchant) => `Ce n’était pas vous ? Contactez ${merchant} immédiatement.`,
    manage: 'Gérer vos abonnements',
  },
  es: {
    cancelled: {
      subject: (merchant) => `Su suscripción con ${merchant} está cancelada`,
      body: (subscription, date) =>
        `Ha cancelado «${subscription}». Sigue vigente hasta el ${date}, el final del periodo ya pagado; después no se cobrará nada.`,
      reason: (reason) => `Su motivo: «${reason}».`,
    },
    paused: {
      subject: (merchant) => `Su suscripción con ${merchant} está en pausa`,
      body: (subscription, until) => `Ha pausado «${subscription}» hasta el ${until}. No se cobra nada mientras esté en pausa.`,
    },
    resumed: {
      subject: (merchant) => `Su suscripción con ${merchant} está activa de nuevo`,
      body: (subscription) => `Ha reanudado «${subscription}».`,
    },
    skipped: {
      subject: (merchant) => `Se omite un cobro de ${merchant}`,
      body: (subscription, date) => `Ha omitido el cobro de «${subscription}» previsto para el ${date}. No se cobrará más tarde.`,
    },
    methodChanged: {
      subject: (merchant) => `Su método de pago con ${merchant} ha cambiado`,
      body: (label) => `A partir de ahora, los pagos se cobran de ${label}.`,
      usedBy: (subscriptions) => `Se aplica a: ${subscriptions}.`,
    },
    nextCharge: (date) => `El próximo cobro es el ${date}.`,
    notYou: (merchant) => `¿No ha sido usted? Póngase en contacto con ${merchant} de inmediato.`,
    manage: 'Gestionar sus suscripciones',
  },
};
