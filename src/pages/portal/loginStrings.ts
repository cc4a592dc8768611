import type { PageLocale } from '../../i18n/locales';

interface Message {
  title: string;
  text: string;
}

/**
 * What the portal's way in says (log-in by e-mail, the session link, log-out), in each of our
 * languages. No merchant is known on these pages, so they name none.
 */
export interface PortalLoginStrings {
  login: { title: string; intro: string; email: string; button: string; invalidEmail: string };
  /** The one answer to every valid address, known or not. */
  sent: { title: string; text(minutes: number): string };
  /** A session that has ended (idle, too old, logged out elsewhere), shown above the form. */
  sessionEnded: string;
  loggedOut: string;
  /** A link used before, or past its time. */
  linkGone: Message;
  linkUnknown: Message;
  newLink: string;
  /** The page of a mailed link: a button, so that a mail scanner opening the link does not use it up. */
  confirm: { title: string; text: string; button: string };
}

export const PORTAL_LOGIN_STRINGS: Record<PageLocale, PortalLoginStrings> = {
  en: {
    login: {
      title: 'Manage your subscriptions',
      intro: 'Enter the e-mail address you use with the shop. We will send you a link to log in; it works once.',
      email: 'E-mail address',
      button: 'Send me a log-in link',
      invalidEmail: 'Enter a valid e-mail address, such as name@example.com.',
    },
    sent: {
      title: 'Check your e-mail',
      text: (minutes) =>
        `If this address belongs to a customer, we have sent a log-in link to it. The link works once and expires in ${minutes} minutes.`,
    },
    sessionEnded: 'Your session has ended. Ask for a new log-in link below.',
    loggedOut: 'You are logged out.',
    linkGone: { title: 'This link no longer works', text: 'A log-in link works once and for a limited time.' },
    linkUnknown: { title: 'Link not found', text: 'This log-in link does not exist. Check that you copied the whole link.' },
    newLink: 'Get a new log-in link',
    confirm: { title: 'Log in', text: 'Press the button to open your subscriptions.', button: 'Log in' },
  },
  nl: {
    login: {
      title: 'Uw abonnementen beheren',
      intro: 'Vul het e-mailadres in dat u bij de winkel gebruikt. We sturen u een link om in te loggen; die werkt één keer.',
      email: 'E-mailadres',
      button: 'Stuur mij een inloglink',
      invalidEmail: 'Vul een geldig e-mailadres in, zoals naam@voorbeeld.nl.',
    },
    sent: {
      title: 'Kijk in uw e-mail',
      text: (minutes) =>
        'Als dit adres bij een klant hoort, hebben we er een inloglink naartoe gestuurd. De link werkt één keer en verloopt over ' +
        `${minutes} minuten.`,
    },
    sessionEnded: 'Uw sessie is beëindigd. Vraag hieronder een nieuwe inloglink aan.',
    loggedOut: 'U bent uitgelogd.',
    linkGone: { title: 'Deze link werkt niet meer', text: 'Een inloglink werkt één keer en een beperkte tijd.' },
    linkUnknown: { title: 'Link niet gevonden', text: 'Deze inloglink bestaat niet. Controleer of u de hele link hebt gekopieerd.' },
    newLink: 'Vraag een nieuwe inloglink aan',
    confirm: { title: 'Inloggen', text: 'Druk op de knop om uw abonnementen te openen.', button: 'Inloggen' },
  },
  de: {
    login: {
      title: 'Ihre Abonnements verwalten',
      intro: 'Geben Sie die E-Mail-Adresse ein, die Sie beim Shop verwenden. Wir senden Ihnen einen Anmeldelink; er funktioniert einmal.',
      email: 'E-Mail-Adresse',
      button: 'Anmeldelink senden',
      invalidEmail: 'Geben Sie eine gültige E-Mail-Adresse ein, zum Beispiel name@beispiel.de.',
    },
    sent: {
      title: 'Sehen Sie in Ihr E-Mail-Postfach',
      text: (minutes) =>
        'Wenn diese Adresse zu einem Kunden gehört, haben wir einen Anmeldelink an sie gesendet. Der Link funktioniert einmal und ' +
        `läuft in ${minutes} Minuten ab.`,
    },
    sessionEnded: 'Ihre Sitzung ist beendet. Fordern Sie unten einen neuen Anmeldelink an.',
    loggedOut: 'Sie sind abgemeldet.',
    linkGone: { title: 'Dieser Link funktioniert nicht mehr', text: 'Ein Anmeldelink funktioniert einmal und nur für begrenzte Zeit.' },
    linkUnknown: {
      title: 'Link nicht gefunden',
      text: 'Diesen Anmeldelink gibt es nicht. Prüfen Sie, ob Sie den ganzen Link kopiert haben.',
    },
    newLink: 'Neuen Anmeldelink anfordern',
    confirm: { title: 'Anmelden', text: 'Drücken Sie die Schaltfläche, um Ihre Abonnements zu öffnen.', button: 'Anmelden' },
  },
  fr: {
    login: {
      title: 'Gérer vos abonnements',
      intro:
        'Saisissez l’adresse e-mail que vous utilisez chez le commerçant. Nous vous enverrons un lien de connexion ; il ne ' +
        'fonctionne qu’une fois.',
      email: 'Adresse e-mail',
      button: 'Envoyez-moi un lien de connexion',
      invalidEmail: 'Saisissez une adresse e-mail valide, par exemple nom@exemple.fr.',
    },
    sent: {
      title: 'Consultez vos e-mails',
      text: (minutes) =>
        'Si cette adresse appartient à un client, nous lui avons envoyé un lien de connexion. Le lien ne fonctionne qu’une fois et ' +
        `expire dans ${minutes} minutes.`,
    },
    sessionEnded: 'Votre session est terminée. Demandez un nouveau lien de connexion ci-dessous.',
    loggedOut: 'Vous êtes déconnecté.',
    linkGone: { title: 'Ce lien ne fonctionne plus', text: 'Un lien de connexion ne fonctionne qu’une fois et pour une durée limitée.' },
    linkUnknown: { title: 'Lien introuvable', text: 'Ce lien de connexion n’existe pas. Vérifiez que vous avez copié le lien en entier.' },
    newLink: 'Demander un nouveau lien de connexion',
    confirm: { title: 'Se connecter', text: 'Appuyez sur le bouton pour ouvrir vos abonnements.', button: 'Se connecter' },
  },
  es: {
    login: {
      title: 'Gestione sus suscripciones',
      intro: 'Introduzca la dirección de correo que usa en la tienda. Le enviaremos un enlace de acceso; funciona una sola vez.',
      email: 'Correo electrónico',
      button: 'Envíenme un enlace de acceso',
      invalidEmail: 'Introduzca un correo electrónico válido, por ejemplo nombre@ejemplo.es.',
    },
    sent: {
      title: 'Revise su correo',
      text: (minutes) =>
        'Si esta dirección pertenece a un cliente, le hemos enviado un enlace de acceso. El enlace funciona una sola vez y caduca en ' +
        `${minutes} minutos.`,
    },
    sessionEnded: 'Su sesión ha terminado. Pida un nuevo enlace de acceso abajo.',
    loggedOut: 'Ha cerrado la sesión.',
    linkGone: { title: 'Este enlace ya no funciona', text: 'Un enlace de acceso funciona una sola vez y por tiempo limitado.' },
    linkUnknown: { title: 'Enlace no encontrado', text: 'Este enlace de acceso no existe. Compruebe que ha copiado el enlace completo.' },
    newLink: 'Pedir un nuevo enlace de acceso',
    confirm: { title: 'Acceder', text: 'Pulse el botón para abrir sus suscripciones.', button: 'Acceder' },
  },
};
